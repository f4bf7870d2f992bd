/**
 * Without WebMCP the script tag loads its entry file and nothing else (the rules and the registry
 * are a chunk loaded only where WebMCP exists, so a browser without it loads under 5 KB gzip), and
 * still reports the audit; the classic script (`capell-webmcp.iife.js`, the start code) loads
 * nothing beyond itself. A page that broke a built-in before the tag (broken-builtins.ts) sees
 * nothing thrown or logged.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { BROKEN_BUILTINS, openBroken, settledReport } from './broken-builtins.ts';

test('a browser without WebMCP fetches only the entry file of the runtime', async ({ page, demo }) => {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/dist/')) fetched.push(path);
  });
  await page.goto(`${demo.url}/contact/plain`);
  const report = await readyReport(page);
  expect(report.api).toBe('none');
  await page.waitForTimeout(200);
  expect(fetched).toEqual(['/dist/capell-webmcp.js']);
});

test('a browser without WebMCP fetches only the classic script, which throws nothing', async ({ page, demo }) => {
  const fetched: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/dist/')) fetched.push(path);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route(`${demo.url}/contact/plain`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(/<script type="module" src="\/dist\/capell-webmcp\.js"/, '<script defer src="/dist/capell-webmcp.iife.js"');
    await route.fulfill({ response, body: html });
  });
  await page.goto(`${demo.url}/contact/plain`);
  const report = await readyReport(page);
  expect(report.api).toBe('none');
  await page.waitForTimeout(200);
  expect(fetched).toEqual(['/dist/capell-webmcp.iife.js']);
  expect(errors).toEqual([]);
});

test.describe('a page that broke a built-in before the script tag (WebMCP off): the runtime throws and logs nothing', () => {
  for (const broken of [BROKEN_BUILTINS.promiseAll, BROKEN_BUILTINS.navigator, BROKEN_BUILTINS.customEvent, BROKEN_BUILTINS.setTimeout, BROKEN_BUILTINS.freeze]) {
    test(broken.name, async ({ page, demo }) => {
      const { errors, messages } = await openBroken(page, `${demo.url}/contact/plain`, broken);
      await page.waitForTimeout(300);
      const report = await settledReport(page);
      if (broken === BROKEN_BUILTINS.freeze) expect(report).toBeUndefined();
      else expect(report).toMatchObject({ api: 'none', registered: [], rejected: [] });
      expect(errors).toEqual([]);
      expect(messages).toEqual([]);
    });
  }
});
