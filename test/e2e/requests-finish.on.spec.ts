/**
 * Every request whose answer the runtime used finishes as far as DevTools can tell: an agent
 * client that watches the network (Playwright MCP waits for requests in flight after each call)
 * must not see a read's request reported failed or aborted. Playwright's `requestfailed` and
 * `requestfinished` come from the same DevTools events those clients read. Core's read API answers
 * with `Cache-Control: no-store`, the case in which a body read to its end from script was
 * reported `net::ERR_ABORTED` by Chromium. An answer over the byte bound is still refused.
 */
import type { Page, Request } from '@playwright/test';
import { executeTool, expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

const PRODUCT = '/products/ridgeline-trail-runner';

/** Reads of the demo's product page, dealt round-robin: Core's API reads, the inline page.get, the catalogue's lookup. */
const READS: [name: string, input: object][] = [
  ['site.search', { q: 'trail' }],
  ['page.get', {}],
  ['site.navigation', { page: 2 }],
  ['site.taxonomies.browse', { key: 'categories' }],
  ['site.pages.query', { set: 'commerce.product', page: { size: 3 } }],
  ['catalogue.lookup', { sku: 'CW-1001' }],
];

const CALLS = 20;

/** Records the page's failed and finished requests from now on. */
function watchRequests(page: Page) {
  const failed: string[] = [];
  const finished: string[] = [];
  page.on('requestfailed', (request: Request) => failed.push(`${request.method()} ${request.url()} ${request.failure()?.errorText}`));
  page.on('requestfinished', (request: Request) => finished.push(new URL(request.url()).pathname));
  return { failed, finished };
}

test.describe('no read leaves a request that DevTools reports failed', () => {
  test(`${CALLS} reads of the demo through executeTool: every answer used, 0 requests failed or aborted`, async ({ page, demo }) => {
    await page.goto(`${demo.url}${PRODUCT}`);
    await readyReport(page);
    const { failed, finished } = watchRequests(page);
    let apiReads = 0;
    for (let call = 0; call < CALLS; call++) {
      const [name, input] = READS[call % READS.length]!;
      const result = await executeTool(page, name, input);
      expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeUndefined();
      expect(JSON.parse(result.content[0]!.text)).toBeTruthy();
      if (name !== 'page.get') apiReads++;
    }
    // DevTools reports a request's end after the page has its answer: wait for every API read's.
    await expect.poll(() => finished.filter((path) => path.startsWith('/agent/v1/')).length + failed.length).toBeGreaterThanOrEqual(apiReads);
    expect(failed).toEqual([]);
    expect(finished.filter((path) => path.startsWith('/agent/v1/')).length).toBe(apiReads);
  });

  test('an answer over the byte bound is still refused with its reason', async ({ page, demo }) => {
    await page.route(`${demo.url}/agent/v1/search?**`, (route) => route.fulfill({
      status: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      body: JSON.stringify({ capellAgentSchema: 1, data: 'x'.repeat(2 * 1024 * 1024), links: { next: null, previous: null } }),
    }));
    await page.goto(`${demo.url}${PRODUCT}`);
    await readyReport(page);
    const result = await executeTool(page, 'site.search', { q: 'trail' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('the answer from /agent/v1/search is larger than 1048576 bytes');
  });
});
