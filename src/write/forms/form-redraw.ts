/**
 * A proposal's form taken out of the page while the proposal is open: a Livewire component drawn
 * again may put a new `<form>` with the same id where the old one was (or, after a success, none),
 * and the proposal (its filled controls, its guard, the panel naming them) belongs to the old
 * element. The tool stays registered (the new form has the id its binding names, and
 * live-registry.ts keeps a redrawn island's tools), but this proposal cannot be sent any more:
 * it ends, and says why, instead of waiting on a form nobody can see until it expires.
 */
import { builtIn } from '../../start/dom-builtin.js';

/**
 * Why a proposal ended when its form left the page, as the write's record keeps it (`reason`).
 * @example formRedrawnReason('capell-form-contact') // 'form #capell-form-contact was taken out of the page (redrawn or removed by its script) while the proposal was open; nothing was sent'
 */
export function formRedrawnReason(id: string): string {
  return `form #${id} was taken out of the page (redrawn or removed by its script) while the proposal was open; nothing was sent`;
}

/**
 * Calls `onGone` once, in the task in which `form` is no longer in its document (removed, or
 * replaced by another element), and stops watching then or when the returned function is called.
 * A form the page moves within the document (taken out and put back in one task) stays.
 * @returns stops watching (idempotent).
 */
export function watchFormLeaving(form: HTMLFormElement, onGone: () => void): () => void {
  // Past DOM clobbering: a control named "isConnected" or "ownerDocument" shadows the form's own.
  const doc = builtIn<Document>(form, 'ownerDocument');
  const view = doc.defaultView ?? window;
  // The document's own realm's observer: a frame's form is watched in its frame.
  const observer = new view.MutationObserver(() => {
    if (builtIn<boolean>(form, 'isConnected')) return;
    observer.disconnect();
    onGone();
  });
  observer.observe(doc, { childList: true, subtree: true });
  return () => observer.disconnect();
}
