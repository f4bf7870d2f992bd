/**
 * Where the confirmation panel sits and how large it is drawn: docked at the bottom of the
 * viewport, or at the top when the form's submit control is down there, so both can be seen; its
 * height bounded so the whole box fits in the viewport at its zoom (its body scrolls); and
 * whether it is drawn at a readable zoom wholly inside the window, without which no click on it
 * counts (consent.ts). Boxes are read by `getBoundingClientRect` as taken at start.
 */
import { primitives } from '../start/primitives.js';

/** Which edge of the viewport the panel is docked to. */
export type Dock = 'bottom' | 'top';

/** The panel box's largest height, in CSS px (32rem) and as a share of the viewport's height. */
const MAX_PANEL_HEIGHT_PX = 512;
const MAX_PANEL_VIEWPORT_SHARE = 0.6;

/** Room kept between the panel and the control it docks away from, in CSS px. */
const DOCK_MARGIN_PX = 32;

/** The zoom a box is drawn at (`currentCSSZoom`, Chromium 128+; 1 where unknown). */
function readZoom(element: Element): number {
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
