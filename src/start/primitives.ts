/**
 * The realm's built-ins the runtime's guarantees rest on, taken once when the runtime's entry
 * script is evaluated (before any chunk it loads later): a page script that runs afterwards and
 * replaces `window.setTimeout`, `fetch`, `FormData`, `Element.prototype.getBoundingClientRect`
 * or `window.getComputedStyle` changes nothing the runtime does with them (a write call still
 * answers within its wait; what is sent is still built, and sent, by the realm's own FormData,
 * Request and fetch, to the URL the panel showed; the checks of a person's act still read what
 * the browser renders and whose act an event is). What a script that ran *before* the runtime
 * can still do, and what is not taken, is listed in docs/security.md.
 */

/** Reads one built-in; undefined when reading it throws (a page made it a throwing getter). */
function take<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

const realm = globalThis as unknown as Record<string, { prototype: object } | undefined>;
const { call } = Function.prototype;

/**
 * Prototype members taken uncurried, `Type:name,name=member;…`: `name` is the key in
 * `primitives`, `member` the method (or, for an accessor, the getter) of `Type.prototype`, when
 * it differs from the key.
 */
const MEMBERS = 'URL:href;URLSearchParams:encode=toString;FormData:append'
  + ';EventTarget:addEventListener,removeEventListener;Event:preventDefault,stopImmediatePropagation,target;UIEvent:detail;KeyboardEvent:key'
  + ';Node:contains,textContent;Element:getBoundingClientRect,checkVisibility,querySelector,querySelectorAll,attachShadow'
  + ';Document:elementsFromPoint,documentQuerySelectorAll=querySelectorAll;CSSStyleDeclaration:propertyValue=getPropertyValue;HTMLFormElement:requestSubmit'
  + ';ShadowRoot:shadowElementsFromPoint=elementsFromPoint;DocumentFragment:rootQuerySelector=querySelector'
  + ';IntersectionObserverEntry:entryVisible=isVisible,entryTarget=target';

/**
 * Each member of MEMBERS as it is now, uncurried: `contains(node, other)` is
 * `Node.prototype.contains.call(node, other)` with the original method, whatever a page puts on
 * the prototype later. Undefined where the type or member is missing (Node.js, an older browser).
 */
function takeMembers(): Record<string, unknown> {
  const members: Record<string, unknown> = {};
  for (const group of MEMBERS.split(';')) {
    const [type, names] = group.split(':') as [string, string];
    for (const name of names.split(',')) {
      const [key, member = key] = name.split('=') as [string, string?];
      members[key] = take(() => {
        const found = Object.getOwnPropertyDescriptor(realm[type]!.prototype, member)!;
        return call.bind((found.get ?? found.value)!);
      });
    }
  }
  return members;
}

/** The uncurried prototype members of `primitives` (MEMBERS), as the runtime calls them. */
interface Members {
  /** `url.href` (what a Request is built from: URL's `toString` is the page's to replace). */
  href(url: URL): string;
  /** `params.toString()`: the `application/x-www-form-urlencoded` text. */
  encode(params: URLSearchParams): string;
  append(data: FormData, name: string, value: string | Blob): void;
  addEventListener(target: EventTarget, type: string, listener: (event: never) => void, options?: boolean | AddEventListenerOptions): void;
  removeEventListener(target: EventTarget, type: string, listener: (event: never) => void, options?: boolean | EventListenerOptions): void;
  preventDefault(event: Event): void;
  /** `event.stopImmediatePropagation()`: no later listener (a site's own submit script) sees the event. */
  stopImmediatePropagation(event: Event): void;
  /** `event.target`. */
  target(event: Event): EventTarget | null;
  /** `event.detail` of a UIEvent (a click's count; 0 for a keyboard activation). */
  detail(event: UIEvent): number;
  /** `event.key` of a KeyboardEvent. */
  key(event: KeyboardEvent): string;
  contains(node: Node, other: Node | null): boolean;
  textContent(node: Node): string | null;
  getBoundingClientRect(element: Element): DOMRect;
  /** `element.checkVisibility(options)`; undefined where the browser has none. */
  checkVisibility: ((element: Element, options?: object) => boolean) | undefined;
  querySelector(scope: Element, selectors: string): Element | null;
  querySelectorAll(scope: Element, selectors: string): NodeListOf<Element>;
  /** `element.attachShadow(init)`: the panel's closed root, never one a page's wrapper could hold or restyle. */
  attachShadow(element: Element, init: ShadowRootInit): ShadowRoot;
  elementsFromPoint(scope: Document, x: number, y: number): Element[];
  documentQuerySelectorAll(scope: Document, selectors: string): NodeListOf<Element>;
  /** `style.getPropertyValue(name)`: a computed value, whatever a page puts on the declaration's prototype. */
  propertyValue(style: CSSStyleDeclaration, name: string): string;
  shadowElementsFromPoint(scope: ShadowRoot, x: number, y: number): Element[];
  rootQuerySelector(scope: DocumentFragment, selectors: string): Element | null;
  /** IntersectionObserver v2's `entry.isVisible`; undefined where the browser has none. */
  entryVisible: ((entry: IntersectionObserverEntry) => boolean) | undefined;
  entryTarget(entry: IntersectionObserverEntry): Element;
  /**
   * `form.requestSubmit(submitter)`: how the panel's Send submits the form through its named
   * submit control (a page that replaces the method later cannot stand in for it).
   */
  requestSubmit(form: HTMLFormElement, submitter?: HTMLElement | null): void;
}

/** The window's own built-ins of `primitives` (GLOBALS, BOUND_GLOBALS). */
interface Globals {
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
  requestAnimationFrame: typeof requestAnimationFrame;
  cancelAnimationFrame: typeof cancelAnimationFrame;
  fetch: typeof fetch;
  getComputedStyle: typeof getComputedStyle;
  FormData: typeof FormData;
  MutationObserver: typeof MutationObserver;
  IntersectionObserver: typeof IntersectionObserver | undefined;
  Request: typeof Request;
  URL: typeof URL;
  URLSearchParams: typeof URLSearchParams;
}

/** Functions of the window taken bound to it, and classes taken as they are. */
const BOUND_GLOBALS = 'setTimeout,clearTimeout,requestAnimationFrame,cancelAnimationFrame,fetch,getComputedStyle';
const GLOBALS = 'FormData,MutationObserver,IntersectionObserver,Request,URL,URLSearchParams';

/** Each of BOUND_GLOBALS and GLOBALS as the window has it now; undefined where it is missing. */
function takeGlobals(): Record<string, unknown> {
  const globals: Record<string, unknown> = {};
  for (const name of BOUND_GLOBALS.split(',')) globals[name] = take(() => (realm[name] as unknown as () => void).bind(globalThis));
  for (const name of GLOBALS.split(',')) globals[name] = take(() => realm[name]);
  return globals;
}

/**
 * The built-ins as they were when the runtime started, bound to the window where they need it;
 * prototype members uncurried (MEMBERS: called with their object first). A built-in that was
 * already missing is undefined here; calling it then throws a TypeError, which callers already
 * turn into a one-line reason (as for a broken built-in at start). An uncurried DOM method called
 * on an object that is not what it expects (a page's fake event or range) throws a TypeError
 * ("Illegal invocation") instead of answering for it.
 * @example primitives.setTimeout(() => …, 100); primitives.contains(form, target)
 */
export const primitives = {
  /** `Promise.race`, bound to the realm's Promise. */
  race: take(() => Promise.race.bind(Promise)) as typeof Promise.race,
  /** `JSON.stringify`: writes a string or number of a write's body (shared/plain-json.ts walks the rest). */
  stringify: take(() => JSON.stringify.bind(JSON)) as typeof JSON.stringify,
  /** `performance.now()`, in ms: how long the panel has been still. */
  now: take(() => performance.now.bind(performance)) as () => number,
  ...(takeGlobals() as unknown as Globals),
  ...(takeMembers() as unknown as Members),
};
