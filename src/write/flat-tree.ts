/**
 * The page as the browser paints it: the flat tree (a slotted element's parent is its slot, a
 * shadow root's children's parent is its host) and what it hit-tests at a point. Shared by the
 * form rules (effective-visibility.ts, cover-check.ts, text-legibility.ts) and
 * the panel's consent checks (panel/consent.ts). Hit-testing goes through `elementsFromPoint` as
 * the realm had it at start (start/primitives.ts).
 */
import { primitives } from '../start/primitives.js';

/** The element's parent in the flat tree (slots and shadow hosts crossed), or null at the root. */
export function flatParent(element: Element): Element | null {
  if (element.assignedSlot) return element.assignedSlot;
  if (element.parentElement) return element.parentElement;
  const root = element.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** A viewport point, in CSS px (a click's `clientX`/`clientY`). */
export interface ClickPoint {
  x: number;
  y: number;
}

/**
 * What the browser hit-tests at viewport point (`x`, `y`) in `scope` (a document or a shadow
 * root), topmost first: `elementsFromPoint` as the realm had it at start, so a page that later
 * replaces it on `Document.prototype` or `ShadowRoot.prototype` cannot hide a cover.
 * @throws TypeError when `scope` is neither (nothing can be told then; callers refuse).
 */
export function readHitStack(scope: DocumentOrShadowRoot, x: number, y: number): Element[] {
  return (scope as unknown as Node).nodeType === Node.DOCUMENT_NODE
    ? primitives.elementsFromPoint(scope as Document, x, y)
    : primitives.shadowElementsFromPoint(scope as ShadowRoot, x, y);
}

/** The element at a viewport point, looking into open shadow roots (closed ones stay closed). */
export function deepElementFromPoint(scope: DocumentOrShadowRoot, { x, y }: ClickPoint): Element | null {
  let hit: Element | null = readHitStack(scope, x, y)[0] ?? null;
  while (hit?.shadowRoot) {
    const inner: Element | null = readHitStack(hit.shadowRoot, x, y)[0] ?? null;
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}
