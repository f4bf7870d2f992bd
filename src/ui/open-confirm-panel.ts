/**
 * The seam between write executors and the UI: loads the lit panel (its own chunk, on the first
 * write call only, DESIGN section 6) and creates one panel element.
 */
import type { CapellConfirmWrite } from './capell-confirm-write.js';

/**
 * Loads `<capell-confirm-write>` and creates a panel in `doc` (not yet placed).
 * @throws when the chunk cannot be loaded; callers turn that into an `isError` result before
 *   they change the page.
 */
export async function createConfirmPanel(doc: Document): Promise<CapellConfirmWrite> {
  const { CONFIRM_WRITE_TAG } = await import('./capell-confirm-write.js');
  return doc.createElement(CONFIRM_WRITE_TAG);
}
