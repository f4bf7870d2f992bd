/**
 * The realm's built-ins the runtime's guarantees rest on, taken once when the runtime's entry
 * script is evaluated (before any chunk it loads later): a page script that runs afterwards and
 * replaces `window.setTimeout`, `fetch`, `Request` or `FormData` changes nothing the runtime does
 * with them (a write call still answers within its wait; what is sent is still built, and sent,
 * by the realm's own FormData, Request and fetch, to the URL the panel showed). What a script
 * that ran *before* the runtime can still do, and what is not taken, is listed in
 * docs/security.md.
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
const { call } = Function.prototype;

/**
 * The method `key` of `type.prototype` (or, for an accessor, its getter; `setter` for its
 * setter) as it is now, uncurried: `own(Node, 'contains')(node, other)` is
 * `Node.prototype.contains.call(node, other)` with the original method, whatever a page puts on
 * the prototype later. Undefined where the type or member is missing (Node.js, an older browser).
 */
function own<T>(type: { prototype: object } | undefined, key: string, setter?: true): T {
  return take(() => {
    const found = Object.getOwnPropertyDescriptor(type!.prototype, key)!;
    return call.bind((setter ? found.set : found.get ?? found.value)!);
  }) as T;
}

/**
 * The built-ins as they were when the runtime started, bound to the window where they need it;
 * prototype methods and getters uncurried (called with their object first). A built-in that was
 * already missing is undefined here; calling it then throws a TypeError, which callers already
 * turn into a one-line reason (as for a broken built-in at start). An uncurried DOM method called
 * on an object that is not what it expects (a page's fake event or range) throws a TypeError
 * ("Illegal invocation") instead of answering for it.
 * @example primitives.setTimeout(() => …, 100); primitives.contains(form, target)
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

  // What is sent, and where (request.ts, writes/forms/send-form.ts).
  fetch: take(() => realm.fetch.bind(realm)) as typeof fetch,
  Request: take(() => realm.Request) as typeof Request,
  URL: take(() => realm.URL) as typeof URL,
  URLSearchParams: take(() => realm.URLSearchParams) as typeof URLSearchParams,
  /** `url.href` (what a Request is built from: URL's `toString` is the page's to replace). */
  href: own<(url: URL) => string>(realm.URL, 'href'),
  /** `params.toString()`: the `application/x-www-form-urlencoded` text. */
  encode: own<(params: URLSearchParams) => string>(realm.URLSearchParams, 'toString'),
  append: own<(data: FormData, name: string, value: string | Blob) => void>(realm.FormData, 'append'),
};
