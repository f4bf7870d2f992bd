/**
 * The script-tag entry's data-* handling and early stop, on pages served from the demo origin
 * with the built bundles, WebMCP on; and the two classic scripts: `capell-webmcp.iife.js` (the
 * start code, loading the module build's chunks beside itself) and the single file
 * `capell-webmcp.single.iife.js`.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

const ISLAND = JSON.stringify({
  capellAgentSchema: 1,
  tools: [
    { name: 'page.get', description: 'This page as JSON-LD.', effect: 'read', binding: { type: 'inline', target: 'page' } },
    { name: 'catalogue.search', description: 'Search this site.', effect: 'read', binding: { type: 'search', target: 'pages' }, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
  ],
});

function pageWith(head: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fixture</title>
<script type="application/json" data-capell-agent-tools>${ISLAND}</script>
<script type="application/ld+json" data-capell-agent-schema>{"@type":"WebPage","url":"/fixture"}</script>
${head}</head><body><form id="undeclared"><input name="q"></form></body></html>`;
}

/**
 * Opens `pageWith(head)` at `path` on the demo origin; `scripts` serves more files by path: a
 * body, a body after `delayMs`, or `null` for a request never answered.
 */
async function openFixture(
  page: Page, url: string, head: string,
  { path = '/fixture', scripts = {}, waitUntil = 'load' }: { path?: string; scripts?: Record<string, string | { body: string; delayMs: number } | null>; waitUntil?: 'load' | 'commit' } = {},
): Promise<void> {
  await page.route(`${url}${path}`, (route) => route.fulfill({ contentType: 'text/html', body: pageWith(head) }));
  for (const [script, served] of Object.entries(scripts)) {
    await page.route(`${url}${script}`, async (route) => {
      if (served === null) return; // never answered
      if (typeof served !== 'string') await new Promise((resolve) => setTimeout(resolve, served.delayMs));
      await route.fulfill({ contentType: 'text/javascript', body: typeof served === 'string' ? served : served.body });
    });
  }
  await page.goto(`${url}${path}`, { waitUntil });
}

/** How many tools the browser holds (`document.modelContext.getTools()`). */
function toolCount(page: Page): Promise<number> {
  return page.evaluate(async () => (await (document as unknown as { modelContext: { getTools(): Promise<unknown[]> } }).modelContext.getTools()).length);
}

test('one bad data-* value drops only itself: the other options, data-log="silent" included, still apply', async ({ page, demo }) => {
  const console: string[] = [];
  page.on('console', (message) => console.push(message.text()));
  await openFixture(page, demo.url, '<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent" data-audit="error" data-api-base="/de/agent/v1" data-timeout-ms="5s"></script>');
  const report = await readyReport(page);
  expect(report.registered).toEqual(['page.get', 'catalogue.search']);
  expect(report.audit).toEqual([expect.objectContaining({ level: 'error', surface: 'form#undeclared' })]);
  demo.requests.length = 0;
  await page.evaluate(async () => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === 'catalogue.search');
    await context.executeTool(tool, { q: 'Rucksack' });
  });
  expect(demo.requests.map((request) => request.path)).toEqual(['/de/agent/v1/search']);
  expect(console).toEqual([]);
});

test('a bad data-* value warns once, naming the attribute and the value as written, and the other options still apply', async ({ page, demo }) => {
  const console: string[] = [];
  page.on('console', (message) => { if (message.type() === 'warning') console.push(message.text()); });
  await openFixture(page, demo.url, '<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-api-base="/de/agent/v1" data-timeout-ms="fast"></script>');
  const report = await readyReport(page);
  expect(report.registered).toEqual(['page.get', 'catalogue.search']);
  demo.requests.length = 0;
  await page.evaluate(async () => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === 'catalogue.search');
    await context.executeTool(tool, { q: 'Rucksack' });
  });
  expect(demo.requests.map((request) => request.path)).toEqual(['/de/agent/v1/search']);
  expect(console.filter((text) => !text.includes(' audit '))).toEqual([
    '[capell-webmcp] data-timeout-ms="fast" is not an integer from 1 to 600000 (ms); using its default',
  ]);
});

test('stop() before the document is parsed starts nothing, and ready still resolves', async ({ page, demo }) => {
  await openFixture(page, demo.url, '<script src="/dist/capell-webmcp.iife.js" data-capell-webmcp></script><script>window.capellWebMCP.stop()</script>');
  const report = await readyReport(page);
  expect(report).toEqual({ api: 'document.modelContext', registered: [], rejected: [], audit: [] });
  expect(await toolCount(page)).toBe(0);
});

test('the module build starts at DOMContentLoaded: a module script after its tag, however slow its imports, runs first (here it stops it)', async ({ page, demo }) => {
  // The page's module scripts after the runtime's tag (a theme giving a signer, or stopping it)
  // all run before DOMContentLoaded; the runtime's first update waits for that, not for luck.
  await openFixture(page, demo.url, '<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script><script type="module" src="/theme-that-stops.js"></script>', {
    scripts: { '/theme-that-stops.js': 'import "/slow-dependency.js"; window.capellWebMCP.stop();', '/slow-dependency.js': { body: 'export {};', delayMs: 400 } },
  });
  const report = await readyReport(page);
  expect(report).toEqual({ api: 'document.modelContext', registered: [], rejected: [], audit: [] });
  expect(await toolCount(page)).toBe(0);
});

test('a module script after the tag that never finishes loading holds the start for at most a second', async ({ page, demo }) => {
  // DOMContentLoaded waits for every module script; one whose import hangs must not keep the tools from the agent.
  await openFixture(page, demo.url, '<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script><script type="module" src="/theme-that-hangs.js"></script>', {
    scripts: { '/theme-that-hangs.js': 'import "/never.js";', '/never.js': null },
    waitUntil: 'commit',
  });
  await page.waitForFunction(() => window.capellWebMCP !== undefined);
  const report = await readyReport(page);
  expect(report.registered).toEqual(['page.get', 'catalogue.search']);
  expect(await page.evaluate(() => performance.getEntriesByType('navigation')[0] && (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventStart)).toBe(0);
});

test('a module build loaded after DOMContentLoaded starts at once', async ({ page, demo }) => {
  await openFixture(page, demo.url, '');
  await page.evaluate(() => new Promise<void>((resolve) => {
    const script = document.createElement('script');
    script.type = 'module';
    script.src = '/dist/capell-webmcp.js';
    script.setAttribute('data-capell-webmcp', '');
    script.setAttribute('data-log', 'silent');
    document.addEventListener('capell-webmcp:ready', () => resolve(), { once: true });
    document.head.append(script);
  }));
  expect((await readyReport(page)).registered).toEqual(['page.get', 'catalogue.search']);
});

/** Every /dist/ file the page requests, by path, in order, with the status it got. */
function recordDist(page: Page): { path: string; status: number }[] {
  const fetched: { path: string; status: number }[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/dist/')) fetched.push({ path: pathname, status: response.status() });
  });
  return fetched;
}

/** Runs catalogue.search (the search binding, which data-api-base moves) in the page through document.modelContext and parses the answer. */
function search(page: Page, q: string): Promise<{ isError?: boolean; content: { text: string }[] }> {
  return page.evaluate(async (q) => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === 'catalogue.search');
    return JSON.parse(await context.executeTool(tool, { q }));
  }, q);
}

test('the classic script takes its data-* options and loads the module build\'s chunks beside itself, not beside the page', async ({ page, demo }) => {
  const console: string[] = [];
  page.on('console', (message) => console.push(message.text()));
  const fetched = recordDist(page);
  // A page deeper than the script, with a <base> elsewhere: neither may move where the chunks come from.
  await openFixture(page, demo.url, '<base href="/elsewhere/"><script defer src="/dist/capell-webmcp.iife.js" data-capell-webmcp data-log="silent" data-api-base="/de/agent/v1"></script>', { path: '/deep/er/fixture' });
  const report = await readyReport(page);
  expect(report.registered).toEqual(['page.get', 'catalogue.search']);
  expect(fetched[0]).toEqual({ path: '/dist/capell-webmcp.iife.js', status: 200 });
  // The registry chunk, and through it the rest of the start code (the module entry, idle there).
  expect(fetched.map((file) => file.path)).toEqual(expect.arrayContaining([expect.stringMatching(/^\/dist\/chunks\/registry-[\w-]+\.js$/), '/dist/capell-webmcp.js']));
  expect(fetched.filter((file) => file.status !== 200)).toEqual([]);

  demo.requests.length = 0;
  const answer = await search(page, 'Rucksack');
  expect(answer.isError, answer.content[0]?.text).toBeUndefined();
  expect(demo.requests.map((request) => request.path)).toEqual(['/de/agent/v1/search']);
  expect(fetched.map((file) => file.path)).toContainEqual(expect.stringMatching(/^\/dist\/chunks\/call-[\w-]+\.js$/));
  expect(fetched.filter((file) => file.status !== 200)).toEqual([]);
  expect(await page.evaluate(() => Object.keys(window).filter((name) => name.startsWith('capell')))).toEqual(['capellWebMCP']);
  expect(console).toEqual([]);
});

test('the single-file classic script registers and answers without loading another file', async ({ page, demo }) => {
  const fetched = recordDist(page);
  await openFixture(page, demo.url, '<script defer src="/dist/capell-webmcp.single.iife.js" data-capell-webmcp data-log="silent"></script>');
  const report = await readyReport(page);
  expect(report.registered).toEqual(['page.get', 'catalogue.search']);
  const answer = await search(page, 'trail');
  expect(answer.isError, answer.content[0]?.text).toBeUndefined();
  expect(fetched).toEqual([{ path: '/dist/capell-webmcp.single.iife.js', status: 200 }]);
});
