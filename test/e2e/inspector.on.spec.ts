/**
 * The inspector on the demo site, built bundle, real Chromium with WebMCP on: it is never loaded
 * unless asked, and opens by each of the script tag's three ways (the `?capell-webmcp=inspect`
 * query, which the footer's "For agents" link uses; `data-inspect` on the script tag;
 * `window.capellWebMCP.inspect()`), from its own chunk. It shows the live Report and logs calls, is
 * axe-core clean and is operated with the keyboard (Tab, Escape).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { executeTool, expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

/** Records the names of the /dist/chunks/*.js the page requests. */
function recordChunks(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    const match = /^\/dist\/chunks\/(.+)-[\w-]{8}\.js$/.exec(pathname);
    if (match) requested.push(match[1]!);
  });
  return requested;
}

const inspector = (page: Page) => page.locator('capell-inspector');

test.describe('the inspector with WebMCP on', () => {
  test('is not in the page, and its chunk is not loaded, unless asked', async ({ page, demo }) => {
    const chunks = recordChunks(page);
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
    await page.waitForTimeout(200);
    expect(await inspector(page).count()).toBe(0);
    expect(chunks).not.toContain('inspector');
  });

  test('opens with ?capell-webmcp=inspect (its own chunk) and shows every registered tool and the API', async ({ page, demo }) => {
    const chunks = recordChunks(page);
    await page.goto(`${demo.url}/contact?capell-webmcp=inspect`);
    const report = await readyReport(page);
    await expect(inspector(page).getByRole('dialog', { name: 'capell-webmcp inspector' })).toBeVisible();
    expect(chunks).toContain('inspector');
    await expect(inspector(page).locator('#registered')).toHaveText(`Registered tools (${report.registered.length})`);
    await expect(inspector(page).locator('.tool')).toHaveCount(report.registered.length);
    await expect(inspector(page).locator('.tool[data-tool="form.submit.capell-form-contact"] .binding')).toHaveText('form → capell-form-contact');
    await expect(inspector(page).locator('.tool[data-tool="send_message"] .binding')).toContainText('agentgate →');
    await expect(inspector(page).locator('.api p')).toContainText('document.modelContext');
  });

  test('the footer’s “For agents” link opens it on the same page', async ({ page, demo }) => {
    await page.goto(`${demo.url}/products`);
    await readyReport(page);
    await page.getByRole('link', { name: 'Open the inspector' }).click();
    await expect(page).toHaveURL(/\/products\?capell-webmcp=inspect$/);
    await expect(inspector(page).getByRole('dialog')).toBeVisible();
  });

  test('opens with data-inspect on the script tag', async ({ page, demo }) => {
    await page.route(`${demo.url}/about`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(' data-capell-webmcp ', ' data-capell-webmcp data-inspect ');
      expect(html).toContain('data-inspect');
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${demo.url}/about`);
    await readyReport(page);
    await expect(inspector(page).getByRole('dialog')).toBeVisible();
  });

  test('data-inspect="false" is the site’s no: the address does not open it', async ({ page, demo }) => {
    const chunks = recordChunks(page);
    await page.route(`${demo.url}/about?capell-webmcp=inspect`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(' data-capell-webmcp ', ' data-capell-webmcp data-inspect="false" ');
      expect(html).toContain('data-inspect="false"');
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${demo.url}/about?capell-webmcp=inspect`);
    await readyReport(page);
    await page.waitForTimeout(200);
    expect(await inspector(page).count()).toBe(0);
    expect(chunks).not.toContain('inspector');
  });

  test('opens with window.capellWebMCP.inspect(), logs each call, and follows a live change', async ({ page, demo }) => {
    await page.goto(`${demo.url}/products`);
    const report = await readyReport(page);
    await page.evaluate(() => (window.capellWebMCP as unknown as { inspect(): Promise<void> }).inspect());
    await expect(inspector(page).getByRole('dialog')).toBeVisible();
    await expect(inspector(page).locator('#calls')).toHaveText('Calls on this page (0)');
    await executeTool(page, 'catalogue.lookup', { sku: 'CW-1001' });
    await executeTool(page, 'catalogue.lookup', { sku: 'nope' });
    await expect(inspector(page).locator('#calls')).toHaveText('Calls on this page (2)');
    const [refused, answered] = await inspector(page).locator('.call').all();
    await expect(answered!).toHaveAttribute('data-outcome', 'ok');
    await expect(answered!.locator('h4')).toHaveText(/^catalogue\.lookup ok, \d+ ms, \d+ bytes$/);
    await expect(answered!).toContainText('{"sku":"CW-1001"}');
    await expect(refused!).toHaveAttribute('data-outcome', 'error');
    // A live change: an island added to the page registers its tool, and the inspector shows it.
    await page.evaluate(() => {
      const island = document.createElement('script');
      island.type = 'application/json';
      island.setAttribute('data-capell-agent-tools', '');
      island.textContent = JSON.stringify({ capellAgentSchema: 1, tools: [{ name: 'late.lookup', description: 'Added later.', effect: 'read', binding: { type: 'inline', target: 'page' } }] });
      document.head.append(island);
    });
    await expect(inspector(page).locator('#registered')).toHaveText(`Registered tools (${report.registered.length + 1})`);
    await expect(inspector(page).locator('.tool[data-tool="late.lookup"]')).toContainText('Added later.');
  });

  test('is operated with the keyboard: focus moves in, Tab reaches Close, Escape closes and gives focus back', async ({ page, demo }) => {
    await page.goto(`${demo.url}/`);
    await readyReport(page);
    await page.getByRole('link', { name: 'What an agent can do here' }).focus();
    await page.evaluate(() => (window.capellWebMCP as unknown as { inspect(): Promise<void> }).inspect());
    await expect(inspector(page).getByRole('dialog')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(inspector(page).getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(inspector(page).locator('summary').first()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(inspector(page).locator('details').first()).toHaveAttribute('open', '');
    await page.keyboard.press('Escape');
    await expect(inspector(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'What an agent can do here' })).toBeFocused();
  });

  test('has no accessibility violations (axe-core), with a call logged', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact?capell-webmcp=inspect`);
    await readyReport(page);
    await expect(inspector(page).getByRole('dialog')).toBeVisible();
    await executeTool(page, 'site.search', { q: 'trail' });
    await expect(inspector(page).locator('.call')).toHaveCount(1);
    // Every tool opened, so axe checks their details and schemas too.
    await inspector(page).locator('details').evaluateAll((all) => all.forEach((details) => details.setAttribute('open', '')));
    // The demo's CSP refuses inline scripts; DevTools evaluation is not subject to it.
    await page.evaluate(readFileSync(AXE_PATH, 'utf8'));
    const found = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: object): Promise<{ violations: { id: string; help: string; nodes: unknown[] }[]; passes: { id: string; nodes: unknown[] }[] }> } }).axe;
      const results = await axe.run({ include: [['capell-inspector']] });
      return {
        violations: results.violations.map(({ id, help, nodes }) => ({ id, help, nodes: nodes.length })),
        buttonsChecked: results.passes.find(({ id }) => id === 'button-name')?.nodes.length ?? 0,
      };
    });
    expect(found.violations).toEqual([]);
    expect(found.buttonsChecked).toBeGreaterThan(0);
  });
});
