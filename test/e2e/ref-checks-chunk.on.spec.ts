/**
 * The `$ref` graph checks load only for a schema with a `$ref` (a page without one never downloads
 * them): the built script-tag bundle on pages from the demo origin, WebMCP on, watching which
 * chunks the page loads.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

const PLAIN = { name: 'site.search', description: 'Search this site.', effect: 'read', binding: { type: 'search', target: 'pages' }, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };
const WITH_REF = { ...PLAIN, name: 'site.find', inputSchema: { type: 'object', properties: { q: { $ref: '#/$defs/q' } }, required: ['q'], $defs: { q: { type: 'string', minLength: 1 } } } };
const LOOPING = { ...PLAIN, name: 'site.loop', inputSchema: { type: 'object', properties: { q: { $ref: '#/$defs/a' } }, $defs: { a: { anyOf: [{ $ref: '#/$defs/a' }] } } } };

function pageWith(tools: object[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fixture</title>
<script type="application/json" data-capell-agent-tools>${JSON.stringify({ capellAgentSchema: 1, tools })}</script>
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp></script></head><body></body></html>`;
}

test('a page whose schemas have no $ref never loads the $ref checks', async ({ page, demo }) => {
  const chunks: string[] = [];
  page.on('request', (request) => { if (request.url().includes('/dist/')) chunks.push(new URL(request.url()).pathname); });
  await page.route(`${demo.url}/fixture`, (route) => route.fulfill({ contentType: 'text/html', body: pageWith([PLAIN]) }));
  await page.goto(`${demo.url}/fixture`);
  expect((await readyReport(page)).registered).toEqual(['site.search']);
  expect(chunks.some((path) => path.includes('/chunks/registry-'))).toBe(true);
  expect(chunks.filter((path) => path.includes('/chunks/ref-checks-'))).toEqual([]);
});

test('a page with a $ref loads them once, registers the sound schema and rejects the looping one', async ({ page, demo }) => {
  const chunks: string[] = [];
  page.on('request', (request) => { if (request.url().includes('/dist/')) chunks.push(new URL(request.url()).pathname); });
  await page.route(`${demo.url}/fixture`, (route) => route.fulfill({ contentType: 'text/html', body: pageWith([PLAIN, WITH_REF, LOOPING]) }));
  await page.goto(`${demo.url}/fixture`);
  const report = await readyReport(page) as { registered: string[]; rejected: { name: string; reasons: string[] }[] };
  expect(report.registered).toEqual(['site.search', 'site.find']);
  expect(report.rejected).toEqual([expect.objectContaining({ name: 'site.loop', reasons: [expect.stringMatching(/^inputSchema: \$ref "#\/\$defs\/a" loops back to itself/)] })]);
  expect(chunks.filter((path) => path.includes('/chunks/ref-checks-'))).toHaveLength(1);
});
