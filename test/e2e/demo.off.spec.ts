/**
 * End to end with WebMCP off: the demo's pages stay quiet, whatever their islands declare (Core's
 * five tools as Core writes them, the catalogue's extension tools on the products page, the
 * contact page's writes, a German page, a stockist page). Nothing registered, no console output,
 * no page error, no API request, and the ready event still fires with api "none".
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

for (const path of ['/products/ridgeline-trail-runner', '/products', '/contact', '/de/produkte/summit-lederstiefel', '/stockists/koenigstein']) {
  test(`${path} without WebMCP fires ready with api "none" and nothing else`, async ({ page, demo }) => {
    const console: string[] = [];
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`));
    demo.requests.length = 0;
    await page.addInitScript(() => {
      document.addEventListener('capell-webmcp:ready', (event) => {
        (window as unknown as { readyDetail: unknown }).readyDetail = (event as CustomEvent).detail;
      });
    });
    await page.goto(`${demo.url}${path}`);
    // The page carries Core's islands (SOURCES.md §3), and form-builder's own inside its form's
    // component on /contact and the Summit boot's page: they are read by no one here.
    const islands = path === '/contact' || path === '/de/produkte/summit-lederstiefel' ? 2 : 1;
    expect(await page.locator('script[data-capell-agent-tools]').count()).toBe(islands);
    const report = await readyReport(page);
    expect(report).toMatchObject({ api: 'none', registered: [] });
    await expect.poll(() => page.evaluate(() => (window as unknown as { readyDetail: unknown }).readyDetail)).toEqual(report);
    expect(await page.evaluate(() => 'modelContext' in document)).toBe(false);
    expect(console).toEqual([]);
    expect(demo.requests).toEqual([]);
    // The page names AgentGate and its theme gives the demo agent's signer, but without WebMCP no
    // manifest is fetched and no runtime chunk loads.
    expect(await page.locator('script[data-capell-webmcp][data-agentgate]').count()).toBe(1);
    expect(requested.filter((url) => /agentgate-tools|\/v1\/agent-tools\/|^\/dist\/chunks\//.test(url))).toEqual([]);
  });
}
