/**
 * The live registry through the script tag, with WebMCP on: the global's `report` and the
 * `capell-webmcp:change` event, and a page restored from the back/forward cache keeping each tool
 * once. Playwright turns the bfcache off by default; this file turns it back on.
 */
import type { Page } from '@playwright/test';
import { expect, listTools, otherTabTest, readyReport } from './demo-fixture.ts';

// Chromium with the back/forward cache: a browser the worker launches beside the project's.
const test = otherTabTest('bfcache');
// One worker for the file: it launches that browser once, not once per worker.
test.describe.configure({ mode: 'default' });

function islandScript(tools: object[]): string {
  const json = JSON.stringify({ capellAgentSchema: 1, tools }).replace(/</g, '\\u003C');
  return `<script type="application/json" data-capell-agent-tools>${json}</script>`;
}

function readTool(name: string): object {
  return { name, description: `Tool ${name}.`, effect: 'read', binding: { type: 'inline', target: 'page' } };
}

function page(body: string, tools: object[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>lifecycle</title>
<script type="application/ld+json" data-capell-agent-schema>{"@type":"WebPage","name":"Lifecycle"}</script>
${islandScript(tools)}
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script>
</head><body>${body}</body></html>`;
}

async function serve(pageUnderTest: Page, url: string, html: string): Promise<void> {
  await pageUnderTest.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
}

async function namesOf(pageUnderTest: Page): Promise<string[]> {
  return (await listTools(pageUnderTest)).map((tool) => tool.name).sort();
}

test('window.capellWebMCP.report follows the page, and capell-webmcp:change carries each new Report', async ({ page: tab, demo }) => {
  await serve(tab, `${demo.url}/lifecycle/report`, page('<main>Report</main>', [readTool('first.tool')]));
  await tab.goto(`${demo.url}/lifecycle/report`);
  const ready = await readyReport(tab);
  expect(ready.registered).toEqual(['first.tool']);
  expect(await tab.evaluate(() => window.capellWebMCP!.report)).toEqual(ready);

  const change = await tab.evaluate((script) => new Promise((resolve) => {
    document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent).detail), { once: true });
    document.head.insertAdjacentHTML('beforeend', script);
  }), islandScript([readTool('second.tool')]));
  expect(change).toMatchObject({ api: 'document.modelContext', registered: ['first.tool', 'second.tool'], rejected: [] });
  expect(await tab.evaluate(() => window.capellWebMCP!.report)).toEqual(change);
  expect(await tab.evaluate(() => window.capellWebMCP!.ready)).toEqual(ready);
  expect(await namesOf(tab)).toEqual(['first.tool', 'second.tool']);
});

test('a page restored from the back/forward cache keeps each tool once, and still follows changes', async ({ page: tab, demo }) => {
  await tab.addInitScript(() => {
    addEventListener('pageshow', (event) => { (window as unknown as { restored?: boolean }).restored = event.persisted; });
  });
  await serve(tab, `${demo.url}/lifecycle/first`, page('<a id="away" href="/lifecycle/second">Next</a>', [readTool('cached.one'), readTool('cached.two')]));
  await serve(tab, `${demo.url}/lifecycle/second`, page('<p>Second</p>', [readTool('second.page')]));
  await tab.goto(`${demo.url}/lifecycle/first`);
  await readyReport(tab);
  expect(await namesOf(tab)).toEqual(['cached.one', 'cached.two']);

  await tab.click('#away');
  await tab.waitForURL(/\/lifecycle\/second$/);
  expect((await readyReport(tab)).registered).toEqual(['second.page']);
  await tab.goBack({ waitUntil: 'commit' });
  await tab.waitForFunction(() => (window as unknown as { restored?: boolean }).restored !== undefined);
  // The test proves nothing unless the page really came from the bfcache.
  expect(await tab.evaluate(() => (window as unknown as { restored?: boolean }).restored)).toBe(true);
  // The runtime's pageshow update: polled, a loaded machine may take longer than any fixed wait.
  await expect.poll(() => namesOf(tab)).toEqual(['cached.one', 'cached.two']);

  const change = await tab.evaluate((script) => new Promise((resolve) => {
    document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent).detail), { once: true });
    document.head.insertAdjacentHTML('beforeend', script);
  }), islandScript([readTool('after.restore')]));
  expect(change).toMatchObject({ registered: ['cached.one', 'cached.two', 'after.restore'] });
  expect(await namesOf(tab)).toEqual(['after.restore', 'cached.one', 'cached.two']);
});
