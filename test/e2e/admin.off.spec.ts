/**
 * Capell's admin with WebMCP off: a signed-in editor's admin page (a site editor's, and a global
 * admin's, who would get all 13 of Capell's admin tools) registers nothing, fetches neither the
 * tool list (`GET /admin/agent/v1/tools`) nor invokes anything, loads no admin chunk and throws
 * nothing; `ready` resolves with `api: 'none'`.
 */
import { signIn } from './admin-session.ts';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

for (const actor of ['ada', 'gil']) test(`WebMCP off: ${actor}'s admin page registers nothing, fetches no admin registry and throws nothing`, async ({ page, demo }) => {
  const requested: string[] = [];
  const errors: string[] = [];
  const logged: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => logged.push(message.text()));
  await signIn(page, demo.url, actor);
  const report = await readyReport(page);
  expect(report).toEqual({ api: 'none', registered: [], rejected: [], audit: [] });
  expect(await page.evaluate(() => 'modelContext' in document)).toBe(false);
  expect(requested.filter((path) => path.startsWith('/admin/agent/'))).toEqual([]);
  expect(requested.filter((path) => path.startsWith('/dist/'))).toEqual(['/dist/capell-webmcp.js']);
  expect(errors).toEqual([]);
  expect(logged.filter((line) => line.includes('capell-webmcp'))).toEqual([]);
});
