/**
 * One browser tab a worker's tests take in turn, put back between tests as a fresh tab would be.
 * A fresh context and page per test costs a renderer process start (about 0.3 s on an idle
 * two-core machine, over 1 s under load): for the e2e suite's short tests, most of their time.
 */
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';

/**
 * A context's and page's state that putBack cannot undo: calling one of these taints the tab. The
 * fake clock (`page.clock`, which is the context's) stays installed for the context's life. Init
 * scripts are not here: `addInitScript` hands back a Disposable, and putBack disposes of each
 * (UNDONE), so a test that adds one keeps the tab and its renderer for the next.
 */
const TAINTING = {
  page: ['exposeFunction', 'exposeBinding', 'setExtraHTTPHeaders', 'setDefaultTimeout', 'setDefaultNavigationTimeout', 'emulateMedia', 'routeFromHAR', 'routeWebSocket', 'addLocatorHandler'],
  context: ['exposeFunction', 'exposeBinding', 'setExtraHTTPHeaders', 'setDefaultTimeout', 'setDefaultNavigationTimeout', 'route', 'routeFromHAR', 'routeWebSocket', 'setOffline', 'setGeolocation', 'setHTTPCredentials', 'grantPermissions'],
  clock: ['install', 'setFixedTime', 'setSystemTime', 'pauseAt', 'runFor', 'fastForward', 'resume'],
} as const;

/** What a test may add that putBack takes away again: each call's Disposable is kept and disposed of. */
const UNDONE = ['addInitScript'] as const;

interface Open {
  context: BrowserContext;
  page: Page;
  /** DevTools session for clearing storage (Storage.clearDataForOrigin). */
  cdp: CDPSession;
  /** The page's viewport when opened, put back after a test that changed it. */
  viewport: { width: number; height: number } | null;
  /** The page's listeners when the test took it, by event: any other is the test's and is removed. */
  listeners: Map<string | symbol, Function[]>;
  /** Whether the test changed what putBack cannot undo (a TAINTING call). */
  tainted: boolean;
  /** What the test added that putBack disposes of (an UNDONE call's Disposable). */
  added: Promise<{ dispose(): Promise<void> }>[];
}

type Emitter = { eventNames(): (string | symbol)[]; listeners(event: string | symbol): Function[]; removeListener(event: string | symbol, listener: Function): unknown };

/** A tab taken by one test at a time: `take()` before it, `putBack()` after it. */
export class SharedTab {
  readonly #browser: Browser;
  #open: Open | undefined;

  constructor(browser: Browser) {
    this.#browser = browser;
  }

  /** The tab (a new context and page when there is none yet, or the last was discarded). */
  async take(): Promise<Page> {
    if (!this.#open || this.#open.page.isClosed()) {
      const context = await this.#browser.newContext();
      const page = await context.newPage();
      const open: Open = { context, page, cdp: await context.newCDPSession(page), viewport: page.viewportSize(), listeners: new Map(), tainted: false, added: [] };
      for (const [target, names] of [[page, TAINTING.page], [context, TAINTING.context], [context.clock, TAINTING.clock]] as const) {
        for (const name of names) {
          const original = (target as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
          Object.defineProperty(target, name, { configurable: true, value: (...args: unknown[]) => { open.tainted = true; return original.apply(target, args); } });
        }
      }
      for (const target of [page, context]) {
        for (const name of UNDONE) {
          const original = (target as unknown as Record<string, (...args: unknown[]) => Promise<{ dispose(): Promise<void> }>>)[name]!;
          Object.defineProperty(target, name, { configurable: true, value: (...args: unknown[]) => {
            const added = original.apply(target, args);
            open.added.push(added);
            return added;
          } });
        }
      }
      this.#open = open;
    }
    const emitter = this.#open.page as unknown as Emitter;
    this.#open.listeners = new Map(emitter.eventNames().map((event) => [event, [...emitter.listeners(event)]]));
    return this.#open.page;
  }

  /**
   * Puts the tab back as a fresh one would be for the next test, or discards it (the next `take()`
   * opens a new one) when the test `passed` not, tainted it, or putting back fails.
   * @param origins the origins whose cookies and storage (IndexedDB, localStorage, caches) are
   *   cleared; the HTTP cache is emptied whole.
   */
  async putBack(origins: string[], passed: boolean): Promise<void> {
    const open = this.#open;
    if (!open) return;
    if (!passed || open.tainted || open.page.isClosed()) return this.#discard();
    try {
      const { context, page, cdp } = open;
      const emitter = page as unknown as Emitter;
      for (const event of emitter.eventNames()) {
        const before = open.listeners.get(event) ?? [];
        for (const listener of emitter.listeners(event)) if (!before.includes(listener)) emitter.removeListener(event, listener);
      }
      for (const added of open.added.splice(0)) await (await added).dispose();
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      for (const other of context.pages()) if (other !== page) await other.close();
      await page.goto('about:blank');
      await context.clearCookies();
      await context.clearPermissions();
      for (const origin of origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      // Core's read API answers are cacheable (`Cache-Control: max-age=60, public`,
      // test/fixtures/capell/SOURCES.md §4.5): a fresh tab has an empty HTTP cache, so the next
      // test's reads reach the server as they would there.
      await cdp.send('Network.clearBrowserCache');
      const viewport = page.viewportSize();
      if (open.viewport && (viewport?.width !== open.viewport.width || viewport.height !== open.viewport.height)) await page.setViewportSize(open.viewport);
      await page.mouse.move(0, 0);
    } catch {
      await this.#discard();
    }
  }

  /** Closes the tab's context. */
  async close(): Promise<void> {
    await this.#discard();
  }

  async #discard(): Promise<void> {
    const open = this.#open;
    this.#open = undefined;
    await open?.context.close().catch(() => undefined);
  }
}
