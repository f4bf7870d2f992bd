/**
 * Watches the page for the changes that can change its tools: a source unit (a tools island)
 * added, removed or rewritten, a form that appears or disappears or gains or loses `toolname`, a
 * form control added, removed or renamed,
 * an action surface the audit counts, and a restore from the back/forward cache. Many changes in
 * one task become one update.
 */
import { ACTION_ATTRIBUTE } from '../start/audit.js';
import { builtIn, callBuiltIn } from '../start/dom-builtin.js';
import { PAGE_ELEMENTS } from '../shared/bindings/registry.js';

/**
 * Attributes whose change can change a tool: a native form tool, an element's id, an island
 * marker, an action surface, and the attributes that tie a control to a page element binding's
 * element (a form tool is registered only while its form has a control for every input it names:
 * registration-rules.ts; the elements and their controls are their binding rows': PageElement).
 */
const WATCHED_ATTRIBUTES = [...new Set(['toolname', 'id', 'data-capell-agent-tools', ACTION_ATTRIBUTE, ...PAGE_ELEMENTS.flatMap((element) => element.controlAttributes)])];

/** The elements binding targets name, and their controls: one added, removed or renamed can complete or break a tool. */
const ELEMENTS_AND_CONTROLS = PAGE_ELEMENTS.flatMap((element) => [element.tag, element.controls]).join(', ');

/**
 * Calls `onChange` once per task in which a relevant change happened, and after a restore from
 * the back/forward cache (`pageshow` with `persisted`), until `signal` aborts; then the observer
 * and the listener are gone.
 * @param unitSelectors the sources' unit selectors (e.g. `script[data-capell-agent-tools]`).
 */
export function observePage(doc: Document, unitSelectors: readonly string[], onChange: () => void, signal: AbortSignal): void {
  if (signal.aborted) return;
  const unitSelector = unitSelectors.join(', ');
  const relevant = `${unitSelector}, ${ELEMENTS_AND_CONTROLS}, [${ACTION_ATTRIBUTE}]`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    // A macrotask, not a microtask: changes a script makes across several microtasks of one
    // task (an island replaced twice) still end in one update that sees only the last state.
    timer ??= setTimeout(() => {
      timer = undefined;
      onChange();
    }, 0);
  };
  // Built-ins read past DOM clobbering: a form may have fields named matches or querySelector.
  const matches = (element: Element, selector: string) => callBuiltIn<boolean>(element, 'matches', selector);
  // By nodeType, not instanceof: the document may be a frame's, whose Element is another realm's.
  const isElement = (node: Node): node is Element => builtIn<number>(node, 'nodeType') === 1;
  const touches = (node: Node): boolean => isElement(node)
    && (matches(node, relevant) || callBuiltIn<Element | null>(node, 'querySelector', relevant) !== null);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const { target } = record;
      const owner = isElement(target) ? target : builtIn<Element | null>(target, 'parentElement');
      if (record.type === 'attributes' ? (owner && matches(owner, relevant)) || record.attributeName === 'data-capell-agent-tools'
        : (owner && callBuiltIn<Element | null>(owner, 'closest', unitSelector)) || [...record.addedNodes, ...record.removedNodes].some(touches)) {
        schedule();
        return;
      }
    }
  });
  observer.observe(doc, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: WATCHED_ATTRIBUTES });
  const view = builtIn<Window | null>(doc, 'defaultView');
  const onPageShow = (event: PageTransitionEvent) => { if (event.persisted) schedule(); };
  view?.addEventListener('pageshow', onPageShow);
  signal.addEventListener('abort', () => {
    observer.disconnect();
    view?.removeEventListener('pageshow', onPageShow);
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  }, { once: true });
}
