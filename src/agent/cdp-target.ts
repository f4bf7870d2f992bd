/**
 * What the agent attaches to: DevTools protocol sessions, one per page. A Playwright
 * `BrowserContext` (a session per page, for its pages now and later: `context.newCDPSession(page)`),
 * a Playwright `Page`, a Puppeteer `Page` (`page.createCDPSession()`), or any CDP session object
 * with `send(method, params)` and `on(event, listener)`.
 */

/**
 * A DevTools protocol session: Playwright's and Puppeteer's `CDPSession` both fit. The listener's
 * parameter is `any` so that their typed, overloaded `on` methods are assignable to it.
 */
export interface CDPSessionLike {
  send(method: string, params?: object): Promise<unknown>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (params: any) => void): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  off?(event: string, listener: (params: any) => void): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  removeListener?(event: string, listener: (params: any) => void): unknown;
  detach?(): Promise<unknown>;
}

/** A page an agent drives: Playwright's and Puppeteer's `Page` both fit. */
export interface PageLike {
  url(): string;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

/**
 * A Puppeteer `Page`, as far as the agent uses it: a session of its own, and its browser's target,
 * whose session intercepts the tabs the page opens from their first request (browser-locator.ts).
 */
export interface PuppeteerPageLike extends PageLike {
  createCDPSession(): Promise<CDPSessionLike>;
  browser?(): { target?(): { createCDPSession?(): Promise<CDPSessionLike> } } | null;
}

/** A Playwright `BrowserContext`, as far as the agent uses it (`any` where Playwright's overloads must fit). */
export interface BrowserContextLike {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  newCDPSession(page: any): Promise<CDPSessionLike>;
  pages(): unknown[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: 'page', listener: (page: any) => void): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  off?(event: 'page', listener: (page: any) => void): unknown;
  /** Playwright's Browser of the context (null for a persistent context): its browser-level DevTools session intercepts new tabs from their first request. */
  browser?(): { newBrowserCDPSession?(): Promise<CDPSessionLike> } | null;
}

/** A protocol event's parameters, as the agent's listeners take them. */
export type RequestPausedParams = Record<string, unknown>;

/** What `attach` takes. */
export type AgentTarget = BrowserContextLike | PageLike | CDPSessionLike;

/** The page object → its session, as attached. */
export interface AttachedSession {
  session: CDPSessionLike;
  /** The page the session belongs to, when known (a bare CDP session has none). */
  page: unknown;
}

/** The kinds of target, told apart by their methods. */
type TargetKind =
  | { kind: 'context'; context: BrowserContextLike }
  | { kind: 'playwright-page'; page: PageLike & { context(): BrowserContextLike } }
  | { kind: 'puppeteer-page'; page: PuppeteerPageLike }
  | { kind: 'session'; session: CDPSessionLike };

const has = (value: unknown, name: string): boolean => typeof (value as Record<string, unknown> | null)?.[name] === 'function';

/**
 * Which kind of target this is.
 * @throws TypeError naming what `attach` takes, for anything else
 */
export function targetKind(target: unknown): TargetKind {
  if (has(target, 'newCDPSession') && has(target, 'pages')) return { kind: 'context', context: target as BrowserContextLike };
  if (has(target, 'createCDPSession') && has(target, 'evaluate')) return { kind: 'puppeteer-page', page: target as never };
  if (has(target, 'context') && has(target, 'evaluate') && has(target, 'url')) return { kind: 'playwright-page', page: target as never };
  if (has(target, 'send') && has(target, 'on')) return { kind: 'session', session: target as CDPSessionLike };
  throw new TypeError('agent.attach: takes a Playwright BrowserContext or Page, a Puppeteer Page, or a CDP session with send() and on()');
}

/** Removes a listener from a session that supports it (Playwright: `off`; Puppeteer: `off`/`removeListener`). */
export function removeListener(session: CDPSessionLike, event: string, listener: (params: RequestPausedParams) => void): void {
  if (session.off) session.off(event, listener);
  else session.removeListener?.(event, listener);
}
