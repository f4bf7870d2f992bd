/**
 * Watches the page for the changes that can change its tools: a source unit (a tools island)
 * added, removed or rewritten, a form that appears or disappears or gains or loses `toolname`,
 * an action surface the audit counts, and a restore from the back/forward cache. Many changes in
 * one task become one update.
 */
import { ACTION_ATTRIBUTE } from './audit.js';

/** Attributes whose change can change a tool: a native form tool, a form's id, an island marker. */
const WATCHED_ATTRIBUTES = ['toolname', 'id', 'data-capell-agent-tools', ACTION_ATTRIBUTE];

/**
 * Calls `onChange` once per task in which a relevant change happened, and after a restore from
 * the back/forward cache (`pageshow` with `persisted`), until `signal` aborts; then the observer
 * and the listener are gone.
 * @param unitSelectors the sources' unit selectors (e.g. `script[data-capell-agent-tools]`).
 */
export function observePage(doc: Document, unitSelectors: readonly string[], onChange: () => void, signal: AbortSignal): void {
  if (signal.aborted) return;
  const unitSelector = unitSelectors.join(', ');
  const relevant = `${unitSelector}, form, [${ACTION_ATTRIBUTE}]`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    // A macrotask, not a microtask: changes a script makes across several microtasks of one
    // task (an island replaced twice) still end in one update that sees only the last state.
    timer ??= setTimeout(() => {
      timer = undefined;
      onChange();
    }, 0);
  };
  const touches = (node: Node): boolean => node instanceof Element && (node.matches(relevant) || node.querySelector(relevant) !== null);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const { target } = record;
      const owner = target instanceof Element ? target : target.parentElement;
      if (record.type === 'attributes' ? owner?.matches(relevant) || record.attributeName === 'data-capell-agent-tools'
        : owner?.closest(unitSelector) || [...record.addedNodes, ...record.removedNodes].some(touches)) {
        schedule();
        return;
      }
    }
  });
  observer.observe(doc, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: WATCHED_ATTRIBUTES });
  const onPageShow = (event: PageTransitionEvent) => { if (event.persisted) schedule(); };
  doc.defaultView?.addEventListener('pageshow', onPageShow);
  signal.addEventListener('abort', () => {
    observer.disconnect();
    doc.defaultView?.removeEventListener('pageshow', onPageShow);
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  }, { once: true });
}
