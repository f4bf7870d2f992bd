/**
 * Capell's own product page (test/fixtures/capell/page-agent-data.html, as capell-app/frontend's
 * Blade partial writes it) in Chromium without WebMCP: the runtime stays invisible. The ready
 * event fires with api "none", nothing is registered, no console output or page error, and no
 * request reaches Core's read API.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { capellProductPage } from '../support/capell-fixtures.ts';

test("Capell's page without WebMCP: ready with api none, and nothing else", async ({ page, demo }) => {
  const output: string[] = [];
  const requested: string[] = [];
  page.on('console', (message) => output.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => output.push(`pageerror: ${error.message}`));
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.route(`${demo.url}/capell/products/trail-boots`, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: capellProductPage('<script type="module" src="/dist/capell-webmcp.js"></script>', demo.url),
  }));
  await page.goto(`${demo.url}/capell/products/trail-boots`);
  expect(await readyReport(page)).toEqual({ api: 'none', registered: [], rejected: [], audit: [] });
  expect(output).toEqual([]);
  expect(requested.filter((path) => path.startsWith('/agent/'))).toEqual([]);
});
