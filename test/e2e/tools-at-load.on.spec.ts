/**
 * Every tool a demo page declares is registered when the page's `load` event fires: agent clients
 * read the tool list then (Playwright MCP snapshots the page at load after `browser_navigate`, and
 * does not see a tool registered later). Each page of the demo's site map, in both languages, and
 * the agents pages: `getTools()` called in the first `load` listener lists every tool the
 * runtime's Report later names (in 19 loads of 20 or better), and the runtime's hold on `load` is
 * gone once it is ready.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

/** Called in the page before its own scripts: the tool names `getTools()` gives at `load`. */
function recordToolsAtLoad() {
  addEventListener('load', () => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]> } }).modelContext;
    void context.getTools().then((tools) => {
      (window as unknown as { toolsAtLoad: string[] }).toolsAtLoad = tools.map((tool) => tool.name);
    });
  });
}

/** The page's tools at load, and the tools its runtime registered by ready. */
async function toolsAtLoad(page: Page, url: string): Promise<{ atLoad: string[]; registered: string[] }> {
  await page.goto(url);
  const report = await readyReport(page);
  await page.waitForFunction(() => (window as unknown as { toolsAtLoad?: string[] }).toolsAtLoad !== undefined);
  const atLoad = await page.evaluate(() => (window as unknown as { toolsAtLoad: string[] }).toolsAtLoad);
  return { atLoad, registered: report.registered };
}

/**
 * The public pages the demo's site map lists in a language, paged by Core's links (50 a page;
 * test/fixtures/capell/SOURCES.md §4.2), with one stockist page for all: the stockist pages share
 * one template, their islands differ only in their text.
 */
async function siteMap(demo: { url: string; api(path: string): Promise<unknown> }, apiBase: string): Promise<string[]> {
  const urls: string[] = [];
  for (let next: string | null = `${apiBase}/navigation`; next !== null;) {
    const answer = await demo.api(next.replace(demo.url, '')) as { data: { url: string }[]; links: { next: string | null } };
    urls.push(...answer.data.map((item) => item.url));
    next = answer.links.next;
  }
  const stockists = urls.filter((url) => /^\/(?:de\/haendler|stockists)\/./.test(url));
  expect(stockists.length).toBeGreaterThan(40);
  return urls.filter((url) => !stockists.includes(url) || url === stockists[0]);
}

test.describe('every declared tool is registered before load', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(recordToolsAtLoad);
  });

  for (const [lang, apiBase, agents] of [['en', '/agent/v1', '/agents'], ['de', '/de/agent/v1', '/de/agents']] as const) {
    test(`each page of the ${lang} site map and ${agents}: getTools() at load lists every tool the Report names`, async ({ page, demo }) => {
      test.setTimeout(120_000);
      const paths = [...await siteMap(demo, apiBase), agents];
      expect(paths.length).toBeGreaterThan(15);
      const missed: string[] = [];
      for (const path of paths) {
        const { atLoad, registered } = await toolsAtLoad(page, `${demo.url}${path}`);
        expect(registered.length, path).toBeGreaterThan(0);
        const late = registered.filter((name) => !atLoad.includes(name));
        if (late.length > 0) missed.push(`${path}: ${late.join(', ')} registered after load`);
      }
      // The goal is 19 loads of 20 or better: the hold on load is bounded (MAX_LOAD_HOLD_MS), and
      // a load on a machine this busy can pass it.
      expect(missed.length, missed.join('; ')).toBeLessThanOrEqual(Math.floor(paths.length / 20));
    });
  }
});

test('the hold adds nothing to the page: a detached audio element is given an empty MediaStream and let go once ready; the ready event comes before load', async ({ page, demo }) => {
  await page.addInitScript(() => {
    const seen = { added: [] as string[], sources: [] as string[], order: [] as string[] };
    (window as unknown as { holdSeen: typeof seen }).holdSeen = seen;
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (/^(AUDIO|VIDEO|IFRAME)$/.test(node.nodeName)) seen.added.push(node.nodeName);
    }).observe(document, { childList: true, subtree: true });
    // Wrapped before the runtime takes the setter, so the hold's two sets are seen.
    const descriptor = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'srcObject')!;
    Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', {
      ...descriptor,
      set(value: MediaStream | null) {
        seen.sources.push(`${(this as HTMLMediaElement).nodeName} ${(this as HTMLMediaElement).isConnected ? 'in the page' : 'detached'}: ${value === null ? 'null' : `${value.constructor.name} of ${value.getTracks().length} tracks`}`);
        descriptor.set!.call(this, value);
      },
    });
    document.addEventListener('capell-webmcp:ready', () => seen.order.push('ready'));
    addEventListener('load', () => seen.order.push('load'));
  });
  // A page whose tools have no warning: its start-up loads the registry chunk alone (chunk-rooms.on.spec.ts).
  await page.goto(`${demo.url}/products`);
  await readyReport(page);
  await expect.poll(() => page.evaluate(() => (window as unknown as { holdSeen: { order: string[] } }).holdSeen.order.length)).toBe(2);
  const seen = await page.evaluate(() => (window as unknown as { holdSeen: { added: string[]; sources: string[]; order: string[] } }).holdSeen);
  expect(seen.added).toEqual([]);
  expect(seen.order).toEqual(['ready', 'load']);
  expect(seen.sources.slice(0, 2)).toEqual(['AUDIO detached: MediaStream of 0 tracks', 'AUDIO detached: null']);
  // The bound (MAX_LOAD_HOLD_MS after start) lets go once more if it comes after this check began: harmless.
  expect(seen.sources.slice(2).every((source) => source === 'AUDIO detached: null')).toBe(true);
});

test('a deferred page script after the runtime\'s that makes setTimeout do nothing cannot keep load waiting: the hold still lets go once ready', async ({ page, demo }) => {
  await page.addInitScript(() => {
    const order: string[] = [];
    (window as unknown as { order: string[] }).order = order;
    document.addEventListener('capell-webmcp:ready', () => order.push('ready'));
    addEventListener('load', () => order.push('load'));
  });
  // Runs after the runtime's entry (both deferred modules, in document order), before DOMContentLoaded.
  await page.route((url) => url.pathname === '/page-breaks-timers.js', (route) => route.fulfill({ contentType: 'text/javascript', body: 'window.setTimeout = () => 0;' }));
  await page.route((url) => url.pathname === '/products', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()).replace('</head>', '<script type="module" src="/page-breaks-timers.js"></script></head>') });
  });
  await page.goto(`${demo.url}/products`, { waitUntil: 'commit' });
  await expect.poll(() => page.evaluate(() => (window as unknown as { order?: string[] }).order)).toEqual(['ready', 'load']);
  expect(await page.evaluate(() => window.setTimeout.toString())).toContain('=> 0');
});
