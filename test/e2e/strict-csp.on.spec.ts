/**
 * The demo pages under the strict Content-Security-Policy (no inline script, no eval): the policy
 * is really in force in Chromium, and the runtime still registers every declared tool and
 * validates input (issue 3: "Validation must work on a page served with
 * Content-Security-Policy: script-src 'self'").
 */
import { CONTENT_SECURITY_POLICY } from '../../demo/server/responses.js';
import { executeTool, expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';

const PRODUCT = '/products/ridgeline-trail-runner';

test.describe('a demo page under the strict CSP with WebMCP on', () => {
  test('is served with the strict policy', async ({ page, demo }) => {
    const response = await page.goto(`${demo.url}${PRODUCT}`);
    expect(response?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self';");
  });

  test('refuses an inline script the page adds, with a securitypolicyviolation', async ({ page, demo }) => {
    await page.goto(`${demo.url}${PRODUCT}`);
    await readyReport(page);
    // page.evaluate runs over CDP, which CSP does not govern (an eval inside it succeeds, checked
    // on Chromium 156); a <script> element it adds is the page's own and must be refused.
    const inline = await page.evaluate(() => new Promise<{ ran: boolean; directive: string }>((resolve) => {
      document.addEventListener('securitypolicyviolation', (event) => {
        resolve({ ran: (window as unknown as { inlineRan?: boolean }).inlineRan === true, directive: event.effectiveDirective });
      }, { once: true });
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.head.append(script);
    }));
    expect(inline).toEqual({ ran: false, directive: 'script-src-elem' });
  });

  test('registers every declared read tool and rejects none of them', async ({ page, demo }) => {
    await page.goto(`${demo.url}${PRODUCT}`);
    const report = await readyReport(page) as { registered: string[]; rejected: { name: string; reasons: string[] }[] };
    const declared = await page.evaluate(() => [...document.querySelectorAll('script[data-capell-agent-tools]')]
      .flatMap((island) => (JSON.parse(island.textContent ?? '') as { tools: { name: string; effect: string }[] }).tools));
    const reads = declared.filter((tool) => tool.effect === 'read').map((tool) => tool.name);
    expect(reads.length).toBeGreaterThanOrEqual(6);
    expect(report.registered).toEqual(expect.arrayContaining(reads));
    expect(report.rejected.filter((rejection) => reads.includes(rejection.name))).toEqual([]);
  });

  test('validates input: a valid call answers, invalid input is an isError naming the field', async ({ page, demo }) => {
    await page.goto(`${demo.url}${PRODUCT}`);
    await readyReport(page);
    const valid = await executeTool(page, 'catalogue.lookup', { sku: 'CW-1001' });
    expect(valid.isError, valid.content[0]!.text).toBeUndefined();
    expect((answerOf(valid) as { data: { sku: string } }).data.sku).toBe('CW-1001');
    const wrongType = await executeTool(page, 'catalogue.lookup', { sku: 5 });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.content[0]!.text).toMatch(/^invalid input for catalogue\.lookup: sku: /);
    const wrongPattern = await executeTool(page, 'catalogue.lookup', { sku: 'not a sku' });
    expect(wrongPattern.isError).toBe(true);
    expect(wrongPattern.content[0]!.text).toContain('sku');
    const nested = await executeTool(page, 'properties.query', { filter: { price: { max: '150' } } });
    expect(nested.isError).toBe(true);
    expect(nested.content[0]!.text).toContain('filter.price.max: expected number');
  });
});
