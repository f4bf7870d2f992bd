/**
 * The real demo server (demo/server/start.js, serving the built dist/) started once per worker on
 * a free port, and helpers that talk to the real WebMCP API in the page.
 *
 * Two ways to get a page: `test` gives each test a fresh context and page (Playwright's default);
 * `sharedTabTest` gives each test one worker's tab, put back between tests (see SharedTab), which
 * saves a context and a renderer process per test: most of a short test's time on two cores.
 */
import { test as base, expect, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { startDemoServer } from '../../demo/server/start.js';
import { SharedTab } from './shared-tab.ts';
import { launchOptions, QUIET_FLAGS } from '../support/chromium.js';

/**
 * Chromium launched with other options than the project's, for the few files that need them: one
 * browser per worker, launched when a test first asks for it (`otherBrowsers`). A file that set
 * its own launch options with `test.use` would get a worker of its own instead: Playwright stops
 * one of the project's workers (its browser, demo server and shared tab) to start it, and starts
 * the project's worker again after, about 4 core-seconds a file.
 */
export const OTHER_LAUNCH_OPTIONS = {
  /**
   * Chromium's `WebMCP` feature beside `WebMCPTesting`, which Playwright's `page.webmcp` and the
   * DevTools `WebMCP` domain need.
   */
  webmcpFeature: { ...launchOptions({ webmcp: true }), args: ['--no-sandbox', ...QUIET_FLAGS, '--enable-features=WebMCPTesting,WebMCP'] },
  /** WebMCP on, with the back/forward cache Playwright turns off by default. */
  bfcache: { ...launchOptions({ webmcp: true }), ignoreDefaultArgs: ['--disable-back-forward-cache'] },
};

/** The name of a set of OTHER_LAUNCH_OPTIONS. */
export type OtherBrowser = keyof typeof OTHER_LAUNCH_OPTIONS;

/** What the demo fixture provides. */
export interface Demo {
  url: string;
  /** The demo agent's origin (it serves the demo agent's key set). */
  agentUrl: string;
  /** The demo agent's key-set URL (`…/.well-known/http-message-signatures-directory`), named in Signature-Agent. */
  agentKeysUrl: string;
  /** Every signed AgentGate call the demo site received, verified or refused, with its reason. */
  agentGateLog: { path: string; tool: string | undefined; outcome: 'verified' | 'refused'; status: number; reason?: string; keyid?: string; agent?: string; offered?: string }[];
  /** The paid AgentGate calls the demo site charged (demo/server/agentgate/agent-native.js). */
  agentGateCharges: { at: string; tool: string; price: string; keyid: string }[];
  /** API requests the server received (method, path, query, headers). */
  requests: { method: string; path: string; query: string; headers: Record<string, string | undefined> }[];
  /** Contact messages the server delivered (`form` and `values`: a form-builder form's). */
  submissions: { lang: string; name: string; email: string; topic: string; message: string; newsletter: boolean; form?: string; values?: Record<string, unknown> }[];
  /** Every POST that reached a contact form action, accepted or not. */
  formPosts: { path: string; accept: string | undefined }[];
  /**
   * Every POST to the Livewire update endpoint (form-builder's forms), with its HTTP status, its
   * outcome, its form's id and the `updates` and `calls` it carried
   * (demo/server/form-builder/livewire-update.js).
   */
  livewirePosts: { path: string; status: number; outcome: string; form?: string; updates?: Record<string, unknown>; calls?: unknown[]; errors?: Record<string, string[]> }[];
  /** Addresses the newsletter write endpoint accepted. */
  subscriptions: string[];
  /** Sign-ups `POST /signups` recorded (newsletter and back-in-stock forms). */
  signups: { list: string; email: string; sku: string | null }[];
  /** State-changing requests the Origin check refused with 403 (they reach no handler). */
  refused: { method: string; path: string; origin: string | undefined; reason: string }[];
  /** GETs an API URL from Node (not through the browser) and parses the JSON. */
  api(path: string): Promise<unknown>;
  /** Rotates the demo site's AgentGate receipt key (demo/server/agentgate/receipts.js); returns the new kid. */
  rotateReceiptKey(): string;
  /** Every AgentGate manifest request the server received: its `If-None-Match`, and the status once answered. */
  manifestRequests: { path: string; ifNoneMatch: string | undefined; status?: number }[];
  /** Holds the server's manifest answers until the returned function is called. */
  holdManifests(): () => void;
  /** Makes the manifest and the verifier cover one more header of `tool` (e.g. `x-amount`) until the returned function is called. */
  coverHeader(tool: string, header: string): () => void;
  /** Answers the next `times` paid sends of stock_report with `status` (429 or 5xx), charging nothing, until the returned function is called. */
  failPaidSends(status: number, times: number): () => void;
  /** Serves `html` at `path` on the demo's origin, without a CSP (inline script runs), until the returned function is called. */
  servePage(path: string, html: string): () => void;
  /** The admin's test hooks (demo/server/admin/create-admin.js): rights, drafts, sessions, hashed confirmations, log. */
  admin: DemoAdmin;
}

/** What demo/server/admin/create-admin.js's `hooks` offer a test (in-process only). */
export interface DemoAdmin {
  actorIds: readonly string[];
  /** Admin log lines (sign-ins, invocations and their outcomes); never a token. */
  log: string[];
  revoke(actorId: string, site: string, capability: string): void;
  grant(actorId: string, site: string, capability: string): void;
  /** A concurrent edit by someone else: writes a value into a page's draft. */
  setDraftValue(site: string, page: string, property: string, value: string): void;
  /** What the admin's page view shows of a page (or the site's pages without one). */
  read(site: string, page?: string): unknown;
  /** A page's stored record and draft (copies), by site and page key. */
  page(site: string, page: string): { record: { id: number; terms: { taxonomy: string; term: string }[]; properties: Record<string, Record<string, unknown>> }; draft: unknown } | undefined;
  /** The admin's settings, blueprints and structures (a copy). */
  capellState(): { settings: Record<string, Record<string, unknown>> };
  endSession(sessionId: string): boolean;
  confirmationRecords(): Record<string, unknown>[];
  globalSets: Record<string, Record<string, string>>;
  /** Puts pages, drafts, global sets, settings, blueprints and structures back as first stored (the worker's server is shared by its tests). */
  reset(): void;
}

/**
 * Fresh context and page per test (Playwright's own `page`). `sharedTab` is declared here, not on
 * sharedTabTest, so that both give the same worker fixtures: Playwright then runs files of either
 * in the same workers (a worker is started per set of worker fixtures and options), and a worker
 * that never uses it never opens the tab.
 */
export const test = base.extend<object, { demo: Demo; sharedTab: SharedTab; otherBrowsers: (name: OtherBrowser) => Promise<Browser>; otherTabs: (name: OtherBrowser) => Promise<SharedTab> }>({
  sharedTab: [async ({ browser }, use) => {
    const tab = new SharedTab(browser);
    await use(tab);
    await tab.close();
  }, { scope: 'worker' }],
  otherBrowsers: [async ({ playwright }, use) => {
    const launched = new Map<OtherBrowser, Promise<Browser>>();
    await use((name) => {
      let browser = launched.get(name);
      if (!browser) launched.set(name, browser = playwright.chromium.launch(OTHER_LAUNCH_OPTIONS[name]));
      return browser;
    });
    for (const browser of launched.values()) await (await browser).close();
  }, { scope: 'worker' }],
  otherTabs: [async ({ otherBrowsers }, use) => {
    const tabs = new Map<OtherBrowser, Promise<SharedTab>>();
    await use((name) => {
      let tab = tabs.get(name);
      if (!tab) tabs.set(name, tab = otherBrowsers(name).then((browser) => new SharedTab(browser)));
      return tab;
    });
    for (const tab of tabs.values()) await (await tab).close();
  }, { scope: 'worker' }],
  demo: [async ({}, use) => {
    const server = await startDemoServer({ host: '127.0.0.1', port: 0 });
    const demo: Demo = {
      url: server.url.replace(/\/$/, ''),
      agentUrl: server.agentUrl,
      agentKeysUrl: server.agentKeysUrl,
      get agentGateLog() { return server.app.agentGate.log; },
      get agentGateCharges() { return server.app.agentGate.charges; },
      get requests() { return server.app.requests; },
      get submissions() { return server.app.submissions; },
      get formPosts() { return server.app.formPosts; },
      get livewirePosts() { return server.app.livewirePosts; },
      get subscriptions() { return server.app.subscriptions; },
      get refused() { return server.app.refused; },
      get signups() { return server.app.signups; },
      rotateReceiptKey: () => server.app.agentGate.rotateReceiptKey(),
      get manifestRequests() { return server.app.agentGate.manifestRequests; },
      holdManifests: () => server.app.agentGate.holdManifests(),
      coverHeader: (tool, header) => server.app.agentGate.coverHeader(tool, header),
      failPaidSends: (status, times) => server.app.agentGate.failPaidSends(status, times),
      servePage: (path, html) => server.app.agentGate.servePage(path, html),
      admin: server.app.admin,
      async api(path) {
        const response = await fetch(`${server.url.replace(/\/$/, '')}${path}`, { headers: { Accept: 'application/json' } });
        return response.json();
      },
    };
    await use(demo);
    await server.close();
  }, { scope: 'worker' }],
});

export { expect };

/**
 * `test` whose `page` (and `context`) is one tab per worker, shared by the tests of every file
 * that imports it (`import { sharedTabTest as test } from './demo-fixture.ts'`). Between tests
 * the tab is put back as a fresh one would be (SharedTab.putBack): about:blank, no routes, no
 * listeners the test added, no cookies or storage of the demo origins, the default viewport, the
 * pointer at 0,0. A test that changed what cannot be put back (init scripts, exposed functions,
 * extra headers, context routes: TAINTING in shared-tab.ts) or failed gets a new tab after it.
 */
export const sharedTabTest = test.extend<{ page: Page; context: BrowserContext }>({
  context: async ({ page }, use) => {
    await use(page.context());
  },
  page: async ({ sharedTab, demo }, use, testInfo: TestInfo) => {
    const page = await sharedTab.take();
    await use(page);
    await sharedTab.putBack([demo.url, demo.agentUrl], testInfo.status === testInfo.expectedStatus);
  },
});

/**
 * sharedTabTest in a browser of OTHER_LAUNCH_OPTIONS: `otherTabTest('webmcpFeature')` gives each
 * test that browser's one tab of the worker, put back between tests as sharedTabTest's is.
 */
export function otherTabTest(name: OtherBrowser) {
  return test.extend<{ page: Page; context: BrowserContext }>({
    context: async ({ page }, use) => {
      await use(page.context());
    },
    page: async ({ otherTabs, demo }, use, testInfo: TestInfo) => {
      const tab = await otherTabs(name);
      const page = await tab.take();
      await use(page);
      await tab.putBack([demo.url, demo.agentUrl], testInfo.status === testInfo.expectedStatus);
    },
  });
}

/** Serves the demo's HTML for `url` with `edit` applied (data-* options, form attributes). */
export async function serveEdited(page: Page, url: string, edit: (html: string) => string): Promise<void> {
  await page.route(url, async (route) => {
    // Only the page itself: the form's POST to the same URL must reach the server untouched.
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, body: edit(await response.text()) });
  });
}

/** Waits for the runtime's Report (window.capellWebMCP.ready). */
export function readyReport(page: Page): Promise<{ api: string; apiReason?: string; registered: string[]; rejected: unknown[]; audit: unknown[] }> {
  return page.evaluate(() => window.capellWebMCP!.ready) as never;
}

/** Lists registered tools with `document.modelContext.getTools()`. */
export function listTools(page: Page): Promise<{ name: string; description: string; inputSchema: unknown }[]> {
  return page.evaluate(async () => {
    const tools = await (document as unknown as { modelContext: { getTools(): Promise<{ name: string; description: string; inputSchema: unknown }[]> } }).modelContext.getTools();
    return tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  });
}

/** Runs a tool with `document.modelContext.executeTool(tool, inputObject)` and parses the result. */
export function executeTool(page: Page, name: string, input: object): Promise<{ content: { type: string; text: string }[]; isError?: boolean }> {
  return page.evaluate(async ({ name, input }) => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`${name} is not registered`);
    return JSON.parse(await context.executeTool(tool, input));
  }, { name, input });
}
