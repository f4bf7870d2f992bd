/**
 * The focused element of a document, looking into open shadow roots: where the runtime's own
 * elements (the confirmation panel, the inspector) move focus back to when they close.
 * @returns the innermost focused HTMLElement, or null when nothing (or no HTMLElement) has focus.
 */
export function deepActiveElement(doc: Document): HTMLElement | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}
