/**
 * The seam between write executors and the UI: loads the lit panel (its own chunk, on the first
 * write call only, for the size budget) and creates one panel with the runtime's handle on it.
 */
import type { ConfirmPanel } from '../panel/capell-confirm-write.js';

export type { ConfirmPanel };

/**
 * Loads `<capell-confirm-write>` and creates a panel in `doc` (not yet placed).
 * @returns the runtime's private handle (ConfirmPanel: present, placeBeside,
 *   refuse, showOutcome, close; none throws, `present` resolves to false when it failed).
 * @throws when the chunk cannot be loaded or does not provide the panel (e.g. a substituted
 *   script); callers turn that into an `isError` result before they change the page.
 */
export async function createConfirmPanel(doc: Document): Promise<ConfirmPanel> {
  const { createPanelHandle } = await import('../panel/capell-confirm-write.js');
  if (typeof createPanelHandle !== 'function') throw new Error('the panel script does not provide the panel');
  const panel = createPanelHandle(doc);
  if (typeof panel?.present !== 'function') throw new Error('the panel script does not provide the panel');
  return panel;
}
