/**
 * Where the confirmation panel sits and how large it is drawn: beside the form fields it lists
 * when the window has room for it there, else docked at the bottom or the top of the viewport,
 * sized and with the page scrolled so that it does not sit on those fields (form mode), and away
 * from the form's submit control; its height bounded so the whole box fits in the viewport at its
 * zoom (its body scrolls); and whether it is drawn at a readable zoom wholly inside the window,
 * without which no click on it counts (consent.ts). Placement only moves the panel and scrolls the
 * page: every consent check runs on wherever it ends up. Boxes are read by `getBoundingClientRect`
 * as taken at start.
 */
import { primitives } from '../start/primitives.js';

/** Which edge of the viewport the panel is docked to. */
export type Dock = 'bottom' | 'top';

/** The panel box's largest height, in CSS px (32rem) and as a share of the viewport's height. */
const MAX_PANEL_HEIGHT_PX = 512;
const MAX_PANEL_VIEWPORT_SHARE = 0.6;

/** Room kept between the panel and the control it docks away from, in CSS px. */
const DOCK_MARGIN_PX = 32;

/** Room kept between the panel and the fields it lists, and between the panel and the window's edges, in CSS px. */
const FIELD_GAP_PX = 16;
const EDGE_PX = 16;

/** The narrowest and widest the panel is drawn beside the fields, in CSS px (20rem, 40rem). */
const MIN_SIDE_WIDTH_PX = 320;
const MAX_SIDE_WIDTH_PX = 640;

/**
 * The lowest height the panel is shrunk to so that it leaves the fields free, in CSS px (11rem):
 * its heading, about four lines of its scrolling body and its buttons.
 */
const MIN_STACKED_HEIGHT_PX = 176;

/** The zoom a box is drawn at (`currentCSSZoom`, Chromium 128+; 1 where unknown). */
export function readZoom(element: Element): number {
  const zoom = (element as Element & { currentCSSZoom?: number }).currentCSSZoom;
  return typeof zoom === 'number' && zoom > 0 ? zoom : 1;
}

/**
 * The largest height of the panel's box (`section`), in CSS px at its own zoom: the smaller of
 * MAX_PANEL_HEIGHT_PX and MAX_PANEL_VIEWPORT_SHARE of the viewport's height, so that the whole box
 * fits in the viewport at the current zoom.
 */
export function readMaxHeight(section: Element): number {
  const view = section.ownerDocument.defaultView ?? window;
  return Math.floor(Math.min(MAX_PANEL_HEIGHT_PX, view.innerHeight * MAX_PANEL_VIEWPORT_SHARE) / readZoom(section));
}

/**
 * The edge to dock the panel's box (`section`) to, so that `control` (the form's first submit
 * control) stays in view: it moves away from the edge the control is near, and stays where it is
 * while the control is near neither edge or near both.
 */
export function readDock(current: Dock, section: HTMLElement, control: Element): Dock {
  const view = section.ownerDocument.defaultView ?? window;
  const box = primitives.getBoundingClientRect(control);
  const reach = section.offsetHeight + DOCK_MARGIN_PX;
  const inBottom = box.bottom > view.innerHeight - reach && box.top < view.innerHeight;
  const inTop = box.top < reach && box.bottom > 0;
  return current === 'bottom' && inBottom && !inTop ? 'top' : current === 'top' && inTop && !inBottom ? 'bottom' : current;
}

/**
 * The range of CSS zoom (`currentCSSZoom`, the product of `zoom` over the element and its
 * ancestors; browser zoom is not part of it) at which the panel counts as readable as designed.
 * A page's `html { zoom: 0.2 }` shrank it to unreadable text; `zoom: 4` pushed its values out of
 * the window while Send stayed clickable.
 */
const MIN_PANEL_ZOOM = 0.75;
const MAX_PANEL_ZOOM = 2;

/**
 * Whether `panel` (the panel's box) is drawn at a zoom within MIN_PANEL_ZOOM–MAX_PANEL_ZOOM (its
 * own and the root element's) and lies wholly inside the visual viewport (0.5 px tolerance).
 * @returns a short English reason, or undefined when it passes.
 */
export function readLayoutProblem(panel: Element): string | undefined {
  const doc = panel.ownerDocument;
  for (const element of [panel, doc.documentElement, doc.body]) {
    const zoom = element && (element as Element & { currentCSSZoom?: number }).currentCSSZoom;
    if (typeof zoom === 'number' && !(zoom >= MIN_PANEL_ZOOM && zoom <= MAX_PANEL_ZOOM)) return `zoomed to ${zoom}`;
  }
  const view = doc.defaultView ?? window;
  const viewport = view.visualViewport;
  const left = viewport?.offsetLeft ?? 0;
  const top = viewport?.offsetTop ?? 0;
  const width = viewport?.width ?? view.innerWidth;
  const height = viewport?.height ?? view.innerHeight;
  const box = primitives.getBoundingClientRect(panel);
  const slack = 0.5;
  if (box.left < left - slack || box.top < top - slack || box.right > left + width + slack || box.bottom > top + height + slack) return 'not wholly inside the window';
  return undefined;
}

/** A box in viewport CSS px (the page's coordinates, not the panel's zoom). */
export interface Region {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * The smallest box around `elements` (the controls the panel lists, their labels, the submit
 * control) that have a rendered box, in viewport CSS px; undefined when none has.
 */
export function readRegion(elements: Iterable<Element>): Region | undefined {
  let region: Region | undefined;
  for (const element of elements) {
    if (!element.isConnected) continue;
    const box = primitives.getBoundingClientRect(element);
    if (box.width < 1 || box.height < 1) continue;
    region = region
      ? { top: Math.min(region.top, box.top), bottom: Math.max(region.bottom, box.bottom), left: Math.min(region.left, box.left), right: Math.max(region.right, box.right) }
      : { top: box.top, bottom: box.bottom, left: box.left, right: box.right };
  }
  return region;
}

/**
 * The largest height of the panel's box (`section`) beside the fields, in CSS px at its own zoom:
 * the window's height less EDGE_PX above and below (it covers none of the fields there).
 */
export function readSideMaxHeight(section: Element): number {
  const view = section.ownerDocument.defaultView ?? window;
  return Math.floor((view.innerHeight - 2 * EDGE_PX) / readZoom(section));
}

/**
 * The panel beside the fields: its box's `left`, `width` and `top` in viewport CSS px, with
 * FIELD_GAP_PX between it and `region`, on the side (right first, then left) with room for at
 * least MIN_SIDE_WIDTH_PX; `top` is the fields' top, kept inside the window for a box `height` px
 * high. Undefined when neither side has that room (a phone, a form as wide as the page).
 */
export function readSideLayout(view: Window, region: Region, height: number): { left: number; width: number; top: number } | undefined {
  const right = view.innerWidth - EDGE_PX - (region.right + FIELD_GAP_PX);
  const left = region.left - FIELD_GAP_PX - EDGE_PX;
  const room = Math.max(right, left);
  if (room < MIN_SIDE_WIDTH_PX) return undefined;
  const width = Math.min(MAX_SIDE_WIDTH_PX, room);
  const top = Math.max(EDGE_PX, Math.min(region.top, view.innerHeight - EDGE_PX - height));
  return { left: right >= MIN_SIDE_WIDTH_PX ? region.right + FIELD_GAP_PX : region.left - FIELD_GAP_PX - width, width, top };
}

/**
 * How far to scroll the page (CSS px, + is down) so that `region` is in view: not at all when it
 * is; else so that its top is EDGE_PX below the window's top, or, when it fits, so that its bottom
 * is EDGE_PX above the window's bottom, whichever is the smaller move.
 */
export function readRegionScroll(view: Window, region: Region): number {
  const room = view.innerHeight - 2 * EDGE_PX;
  if (region.top >= EDGE_PX && region.bottom <= view.innerHeight - EDGE_PX) return 0;
  if (region.bottom - region.top > room || region.top < EDGE_PX) return region.top - EDGE_PX;
  return region.bottom - (view.innerHeight - EDGE_PX);
}

/**
 * The panel above or below the fields, where it cannot stand beside them: the edge to dock to,
 * the largest height that leaves `region` free (at least MIN_STACKED_HEIGHT_PX, at most `cap`),
 * and how far to scroll the page (CSS px, + is down) to make room for a panel `wanted` px high
 * (its content's height, at most `cap`). Docked at the top, the
 * fields start FIELD_GAP_PX below the panel and may run on below the window; docked at the
 * bottom, they end above it and may start above the window: the panel never lies on one of them
 * while the page can be scrolled that far. Of the two, the one that leaves the panel taller; on a
 * tie, the one that leaves every field in view, else the top (the first field shows under it).
 */
export function readStackedLayout(view: Window, region: Region, wanted: number, cap: number): { dock: Dock; maxHeight: number; scroll: number } {
  const doc = view.document;
  const scrolled = view.scrollY;
  const maxScroll = Math.max(0, (doc.scrollingElement ?? doc.documentElement).scrollHeight - view.innerHeight);
  // Both in page coordinates: how far the page can move them is bounded by 0 and maxScroll.
  const regionTop = region.top + scrolled;
  const regionBottom = region.bottom + scrolled;
  const clampScroll = (to: number) => Math.max(0, Math.min(maxScroll, to));
  const topScroll = clampScroll(regionTop - (EDGE_PX + wanted + FIELD_GAP_PX));
  const topRoom = regionTop - topScroll - FIELD_GAP_PX - EDGE_PX;
  const bottomScroll = clampScroll(regionBottom - (view.innerHeight - EDGE_PX - wanted - FIELD_GAP_PX));
  const bottomRoom = view.innerHeight - EDGE_PX - FIELD_GAP_PX - (regionBottom - bottomScroll);
  const top = Math.min(wanted, topRoom);
  const bottom = Math.min(wanted, bottomRoom);
  // On a tie (both leave the panel its height): the edge with every field in view, else the top,
  // under which the fields start with the first.
  const wholeBelow = regionBottom - topScroll <= view.innerHeight - EDGE_PX;
  const wholeAbove = regionTop - bottomScroll >= EDGE_PX;
  const dock: Dock = Math.abs(top - bottom) >= 1 ? (top > bottom ? 'top' : 'bottom') : wholeAbove && !wholeBelow ? 'bottom' : 'top';
  return { dock, maxHeight: Math.floor(Math.min(cap, Math.max(MIN_STACKED_HEIGHT_PX, dock === 'top' ? topRoom : bottomRoom))), scroll: (dock === 'top' ? topScroll : bottomScroll) - scrolled };
}
