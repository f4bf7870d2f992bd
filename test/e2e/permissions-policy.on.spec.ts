/**
 * A demo page served with `Permissions-Policy: tools=()` (the real header, in Chromium with WebMCP
 * on). Chromium then withholds `document.modelContext`; a polyfill the page installs would not, so
 * the runtime reads the policy itself: nothing is registered, nothing is logged, and the Report
 * says why.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

/** Serves `path` of the demo with the header added (the page itself is the demo's own). */
async function withPolicyHeader(page: import('@playwright/test').Page, url: string): Promise<void> {
  await page.route(url, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'permissions-policy': 'tools=()' } });
  });
}

test('under Permissions-Policy: tools=() the runtime registers nothing, stays silent and says why', async ({ page, demo }) => {
  const warnings: string[] = [];
  page.on('console', (message) => { if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text()); });
  await withPolicyHeader(page, `${demo.url}/contact`);
  await page.goto(`${demo.url}/contact`);
  const report = await readyReport(page);
  expect(report.api).toBe('none');
  expect(report.apiReason).toMatch(/permissions policy does not allow "tools"/);
  expect(report.registered).toEqual([]);
  expect(warnings.filter((text) => text.includes('capell-webmcp'))).toEqual([]);
});

test('a polyfill host installed under tools=() is never called', async ({ page, demo }) => {
  await withPolicyHeader(page, `${demo.url}/contact`);
  // Before any page script: what @mcp-b/webmcp-polyfill does, a registerTool on the document.
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { polyfillCalls: string[] }).polyfillCalls = calls;
    Object.defineProperty(Document.prototype, 'modelContext', {
      configurable: true,
      get: () => ({ registerTool: (tool: { name: string }) => { calls.push(tool.name); return Promise.resolve(); } }),
    });
  });
  await page.goto(`${demo.url}/contact`);
  const report = await readyReport(page);
  expect(report).toMatchObject({ api: 'none', registered: [] });
  expect(await page.evaluate(() => (window as unknown as { polyfillCalls: string[] }).polyfillCalls)).toEqual([]);
});

test('the same page without the header registers its tools (the control)', async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact`);
  const report = await readyReport(page);
  expect(report.api).toBe('document.modelContext');
  expect(report.apiReason).toBeUndefined();
  expect(report.registered.length).toBeGreaterThan(0);
});
