/**
 * Whether something the page paints lies over a form control: an opaque sibling positioned on
 * top of it, or a page popover or modal dialog in the top layer. Found as the panel's own click
 * guard finds a cover: by asking the browser what it hit-tests at the control's points
 * (`elementsFromPoint`), since stacking (z-index, the top layer, transforms) decides what is on
 * top, not the tree. A honeypot under a cover is a control the person cannot see or check.
 */
import { callBuiltIn } from '../../start/dom-builtin.js';
import { primitives } from '../../start/primitives.js';
import { readColour } from '../text-legibility.js';
import { flatParent, readHitStack } from '../flat-tree.js';
import { readComputedStyle } from '../computed-style.js';

/** How many points per axis are hit-tested (at 1/6, 3/6 and 5/6 of the control's box). */
const COVER_GRID = 3;

/**
 * Below this alpha (0–1, background colour × effective opacity) an element over the control does
 * not count as covering it: a transparent layout box over a field hides nothing.
 */
const MIN_COVER_ALPHA = 0.5;



function contains(outer: Element, inner: Element): boolean {
  for (let at: Element | null = inner; at; at = flatParent(at)) if (at === outer) return true;
  return false;
}

/** How a reason names an element: `div#x.cover`. */
function nameOf(element: Element): string {
  const id = element.id ? `#${element.id}` : '';
  const classes = [...element.classList].slice(0, 2).map((name) => `.${name}`).join('');
  return `${element.localName}${id}${classes}`;
}

/** Replaced and drawn content that paints whatever its background. */
const PAINTING = new Set(['img', 'video', 'canvas', 'svg', 'iframe', 'object', 'embed', 'input', 'textarea', 'select', 'button', 'picture']);

/**
 * Whether `cover` paints something opaque over what lies under it: replaced content, a
 * background image, or a background colour whose alpha times its effective opacity (up to the
 * first top-layer ancestor) reaches MIN_COVER_ALPHA.
 */
function paints(cover: Element): boolean {
  let opacity = 1;
  for (let at: Element | null = cover; at; at = flatParent(at)) {
    opacity *= Number.parseFloat(readComputedStyle(at).opacity) || 0;
    if (at.matches(':popover-open, dialog:modal')) break;
  }
  if (opacity < MIN_COVER_ALPHA) return false;
  if (PAINTING.has(cover.localName)) return true;
  const style = readComputedStyle(cover);
  if (style.backgroundImage && style.backgroundImage !== 'none') return true;
  const colour = readColour(style.backgroundColor, cover.ownerDocument);
  return colour !== undefined && colour.a * opacity >= MIN_COVER_ALPHA;
}

/**
 * What covers `element`, or undefined: the browser's hit-test stack (`elementsFromPoint` of the
 * element's tree) at COVER_GRID × COVER_GRID points of its border box; a point counts as covered
 * when an element that paints (see `paints`) lies above the control there and is neither inside
 * it nor one of its ancestors. Covered at the centre, or at half the points or more, refuses.
 * A control not wholly in the viewport is scrolled to the middle of it for the test and put back
 * (the scroll positions of the document and its scroll containers), since the browser hit-tests
 * only what is on screen. The confirmation panel (`capell-confirm-write`) is not the page's cover.
 * An open popover or modal dialog of the page over a point covers it even when it lets the
 * pointer through. Not seen: another cover with `pointer-events: none` (not hit-tested); over a
 * send control, the panel's IntersectionObserver v2 report sees it (panel/consent.ts).
 * @returns e.g. `covered by div.cover at 9 of 9 points (hit-testing)`.
 */
export function readCoverProblem(element: Element): string | undefined {
  const doc = element.ownerDocument;
  const scope = element.getRootNode() as Document | ShadowRoot;
  if (!primitives.elementsFromPoint || !primitives.shadowElementsFromPoint) return 'the browser cannot hit-test it (no elementsFromPoint), so the runtime cannot check that nothing covers it';
  return inViewOf(element, (box, view) => {
    // A popover or modal dialog of the page is drawn above everything, also when it lets the
    // pointer through (`pointer-events: none`), which hit-testing does not see.
    const topLayer = [...primitives.documentQuerySelectorAll(doc, ':popover-open, dialog:modal')]
      .filter((layer) => layer.localName !== 'capell-confirm-write' && !contains(layer, element) && paints(layer));
    const covers = new Map<Element, number>();
    let covered = 0;
    let centre = false;
    for (let row = 0; row < COVER_GRID; row++) {
      for (let column = 0; column < COVER_GRID; column++) {
        const x = box.left + (box.width * (2 * column + 1)) / (2 * COVER_GRID);
        const y = box.top + (box.height * (2 * row + 1)) / (2 * COVER_GRID);
        if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) continue;
        const stack = readHitStack(scope, x, y);
        let cover: Element | undefined;
        for (const hit of stack) {
          if (contains(element, hit)) break;
          if (hit.localName === 'capell-confirm-write' || contains(hit, element)) continue;
          if (paints(hit)) {
            cover = hit;
            break;
          }
        }
        // Not in the stack at all (z-index below an ancestor's background, or not hit-testable):
        // the first painting element of the stack is what shows there.
        if (!cover && !stack.some((hit) => contains(element, hit))) cover = stack.find((hit) => hit.localName !== 'capell-confirm-write' && paints(hit) && !contains(hit, element));
        cover ??= topLayer.find((layer) => {
          const rect = primitives.getBoundingClientRect(layer);
          return x >= rect.left && x < rect.right && y >= rect.top && y < rect.bottom;
        });
        if (!cover) continue;
        covered += 1;
        covers.set(cover, (covers.get(cover) ?? 0) + 1);
        if (row === (COVER_GRID - 1) / 2 && column === (COVER_GRID - 1) / 2) centre = true;
      }
    }
    const total = COVER_GRID * COVER_GRID;
    if (!centre && covered * 2 < total) return undefined;
    const [top] = [...covers.entries()].sort((a, b) => b[1] - a[1]);
    return `covered by ${nameOf(top![0])} at ${covered} of ${total} points (hit-testing)`;
  });
}

/**
 * Runs `test` with `element` on screen, since the browser hit-tests only what is: a control not
 * wholly in the viewport is scrolled to the middle of it first and put back after (the scroll
 * positions of the document and its scroll containers), whatever `test` returns or throws.
 * @param test gets the element's border box (viewport CSS px) and its window.
 * @returns what `test` returns; undefined when the element is in no window.
 */
export function inViewOf<T>(element: Element, test: (box: DOMRect, view: Window) => T): T | undefined {
  const doc = element.ownerDocument;
  const view = doc.defaultView;
  if (!view) return undefined;
  let box = primitives.getBoundingClientRect(element);
  const inView = box.left >= 0 && box.top >= 0 && box.right <= view.innerWidth && box.bottom <= view.innerHeight;
  const restore: [Element, number, number][] = [];
  if (!inView) {
    for (let at: Element | null = flatParent(element); at; at = flatParent(at)) {
      if (at.scrollHeight > at.clientHeight || at.scrollWidth > at.clientWidth) restore.push([at, at.scrollLeft, at.scrollTop]);
    }
    const root = doc.scrollingElement ?? doc.documentElement;
    restore.push([root, root.scrollLeft, root.scrollTop]);
    callBuiltIn(element, 'scrollIntoView', { block: 'center', inline: 'center' });
    box = primitives.getBoundingClientRect(element);
  }
  try {
    return test(box, view);
  } finally {
    for (const [at, left, top] of restore) {
      at.scrollLeft = left;
      at.scrollTop = top;
    }
  }
}
