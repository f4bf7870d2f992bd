/**
 * Without WebMCP the script tag loads its entry file and nothing else (issue 8, item 6: the rules
 * and the registry are a chunk loaded only where WebMCP exists), and still reports the audit.
 */
import { expect, readyReport, test } from './demo-fixture.ts';

test('a browser without WebMCP fetches only the entry file of the runtime', async ({ page, demo }) => {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/dist/')) fetched.push(path);
  });
  await page.goto(`${demo.url}/contact`);
  const report = await readyReport(page);
  expect(report.api).toBe('none');
  await page.waitForTimeout(200);
  expect(fetched).toEqual(['/dist/capell-webmcp.js']);
});
