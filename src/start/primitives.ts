/**
 * The realm's built-ins the runtime's guarantees rest on, taken once when the runtime's entry
 * script is evaluated (before any chunk it loads later): a page script that runs afterwards and
 * replaces `window.setTimeout`, `Promise.race`, `FormData` or `MutationObserver` changes nothing
 * the runtime does with them (a write call still answers within its wait; the submit guard still
 * watches frames; what is sent is still built by the realm's own FormData). What a script that
 * ran *before* the runtime can still do is listed in docs/security.md.
 */

/** Reads one built-in; undefined when reading it throws (a page made it a throwing getter). */
function take<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

const realm = globalThis;

/**
 * The built-ins as they were when the runtime started, bound to the window where they need it.
 * A built-in that was already missing is undefined here; calling it then throws a TypeError,
 * which callers already turn into a one-line reason (as for a broken built-in at start).
 * @example primitives.setTimeout(() => …, 100)
 */
export const primitives = {
  setTimeout: take(() => realm.setTimeout.bind(realm)) as typeof setTimeout,
  clearTimeout: take(() => realm.clearTimeout.bind(realm)) as typeof clearTimeout,
  /** `Promise.race`, bound to the realm's Promise. */
  race: take(() => Promise.race.bind(Promise)) as typeof Promise.race,
  FormData: take(() => realm.FormData) as typeof FormData,
  MutationObserver: take(() => realm.MutationObserver) as typeof MutationObserver,
  IntersectionObserver: take(() => realm.IntersectionObserver) as typeof IntersectionObserver | undefined,
  requestAnimationFrame: take(() => realm.requestAnimationFrame.bind(realm)) as typeof requestAnimationFrame,
  cancelAnimationFrame: take(() => realm.cancelAnimationFrame.bind(realm)) as typeof cancelAnimationFrame,
};
