/**
 * The page as the browser paints it: the flat tree (a slotted element's parent is its slot, a
 * shadow root's children's parent is its host) and what it hit-tests at a point. Shared by the
 * form rules (effective-visibility.ts, cover-check.ts, text-legibility.ts, rendered-label.ts) and
 * the panel's consent checks (panel/consent.ts).
 */

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

/** The element at a viewport point, looking into open shadow roots (closed ones stay closed). */
export function deepElementFromPoint(scope: DocumentOrShadowRoot, { x, y }: ClickPoint): Element | null {
  let hit = scope.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}
