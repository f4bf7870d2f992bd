/**
 * The demo pages under the strict Content-Security-Policy (no inline script, no eval): the policy
 * is really in force in Chromium, and the runtime still registers every declared tool and validates
 * input (the validator interprets schemas and compiles no code, so it works on a page served with
 * `Content-Security-Policy: script-src 'self'`). Then the same under Trusted Types as well
 * (`require-trusted-types-for 'script'`): no violation at all, every tool registers and validates,
 * and the write panel (lit, through its `lit-html` policy) opens.
 */
import type { Page } from '@playwright/test';
import { CONTENT_SECURITY_POLICY, TRUSTED_TYPES_POLICY } from '../../demo/server/responses.js';
import { executeTool, expect, readyReport, sharedTabTest as test, test as freshPageTest } from './demo-fixture.ts';
import { startCall } from './agent-calls.ts';
import { panel } from './panel-driver.ts';
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
    const nested = await executeTool(page, 'site.pages.query', { set: 'commerce.product', page: { size: '2' } });
    expect(nested.isError).toBe(true);
    expect(nested.content[0]!.text).toContain('page.size: expected integer');
  });
});

/** Every CSP violation the page reports (its `securitypolicyviolation` events) and every console error. */
async function recordViolations(page: Page): Promise<{ violations: () => Promise<string[]>; consoleErrors: string[] }> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  // Before any of the page's scripts: a violation while the runtime starts counts too.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`));
  });
  return { violations: () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), consoleErrors };
}

// Init scripts cannot be put back in the shared tab: a fresh page per test.
freshPageTest.describe('a demo page under Trusted Types (require-trusted-types-for \'script\') with WebMCP on', () => {
  const CONTACT = '/contact/plain?csp=trusted-types';

  freshPageTest('is served with the policy, and Chromium enforces it', async ({ page, demo }) => {
    const response = await page.goto(`${demo.url}${CONTACT}`);
    expect(response?.headers()['content-security-policy']).toBe(TRUSTED_TYPES_POLICY);
    expect(TRUSTED_TYPES_POLICY).toContain("require-trusted-types-for 'script'");
    await readyReport(page);
    const refused = await page.evaluate(() => {
      try {
        document.createElement('div').innerHTML = '<b>plain string</b>';
        return 'assigned';
      } catch (error) {
        return (error as Error).name;
      }
    });
    expect(refused).toBe('TypeError');
  });

  freshPageTest('holds load until ready, registers every declared tool, validates input and opens the write panel, with no violation', async ({ page, demo }) => {
    const { violations, consoleErrors } = await recordViolations(page);
    await page.addInitScript(() => {
      const order: string[] = [];
      (window as unknown as { order: string[] }).order = order;
      document.addEventListener('capell-webmcp:ready', () => order.push('ready'));
      addEventListener('load', () => order.push('load'));
    });
    await page.goto(`${demo.url}${CONTACT}`);
    const report = await readyReport(page) as { registered: string[]; rejected: { name: string }[] };
    // The hold on load (a MediaStream, no URL) works under the policy.
    await expect.poll(() => page.evaluate(() => (window as unknown as { order: string[] }).order)).toEqual(['ready', 'load']);
    const declared = await page.evaluate(() => [...document.querySelectorAll('script[data-capell-agent-tools]')]
      .flatMap((island) => (JSON.parse(island.textContent ?? '') as { tools: { name: string }[] }).tools.map((tool) => tool.name)));
    expect(declared).toEqual(expect.arrayContaining(['site.search', 'newsletter.subscribe', 'form.submit.capell-form-contact']));
    expect(report.registered).toEqual(expect.arrayContaining(declared));
    expect(report.rejected).toEqual([]);

    const search = await executeTool(page, 'site.search', { q: 'trail' });
    expect(search.isError, search.content[0]!.text).toBeUndefined();
    const invalid = await executeTool(page, 'site.search', { q: 5 });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]!.text).toMatch(/^invalid input for site\.search: q: /);

    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    const shown = await panel(page).waitOpen();
    expect(shown.text).toContain('ada@example.test');
    await panel(page).click('Cancel');
    await panel(page).waitClosed();

    expect(await violations()).toEqual([]);
    expect(consoleErrors.filter((text) => /trusted|content security policy|csp/i.test(text))).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  freshPageTest('the classic script (capell-webmcp.iife.js) loads its chunks, registers and validates, with no violation', async ({ page, demo }) => {
    const { violations, consoleErrors } = await recordViolations(page);
    // The same page and policy, with the classic script in place of the module tag.
    await page.route((url) => url.pathname === '/contact/plain', async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(/<script type="module" src="\/dist\/capell-webmcp\.js"/, '<script defer src="/dist/capell-webmcp.iife.js"');
      await route.fulfill({ response, body: html });
    });
    const response = await page.goto(`${demo.url}${CONTACT}`);
    expect(response?.headers()['content-security-policy']).toBe(TRUSTED_TYPES_POLICY);
    expect(await page.locator('script[src="/dist/capell-webmcp.iife.js"]').count()).toBe(1);
    const report = await readyReport(page) as { registered: string[]; rejected: { name: string }[] };
    expect(report.registered).toEqual(expect.arrayContaining(['site.search', 'newsletter.subscribe', 'form.submit.capell-form-contact']));
    expect(report.rejected).toEqual([]);
    const invalid = await executeTool(page, 'site.search', { q: 5 });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]!.text).toMatch(/^invalid input for site\.search: q: /);
    const search = await executeTool(page, 'site.search', { q: 'trail' });
    expect(search.isError, search.content[0]!.text).toBeUndefined();
    expect(await violations()).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
