/**
 * The README's example page, exactly as the README shows it (its first `html` block that is a
 * whole document), served on the demo origin with the built bundle where the page's script tag
 * looks for it (`/vendor/capell-webmcp/`), in Chromium with WebMCP on: a site owner who copies
 * it gets four working tools. The Report registers the form write and Core's three reads, rejects
 * nothing, and warns once about form-builder's name; the reads answer as the README says (Core's
 * envelope, paged by its links); the write fills the form, shows the person the panel, and the
 * person's Cancel puts the form back and answers `cancelled`.
 */
import { readFileSync } from 'node:fs';
import { callResult, startCall } from './agent-calls.ts';
import { executeTool, expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { panel } from './panel-driver.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's example page: the first fenced `html` block that is a whole document. */
function examplePage(): string {
  for (const [, block] of README.matchAll(/^```html\n([\s\S]*?)^```$/gm)) {
    if (block!.startsWith('<!doctype html>')) return block!;
  }
  throw new Error('README.md has no ```html block starting with <!doctype html>');
}

const PAGE = examplePage();

test.beforeEach(async ({ page, demo }) => {
  await page.route(`${demo.url}/readme-example`, (route) => route.fulfill({ contentType: 'text/html', body: PAGE }));
  // The README copies dist/capell-webmcp.js and dist/chunks/ to /vendor/capell-webmcp/; the demo serves dist/ at /dist/.
  await page.route(`${demo.url}/vendor/capell-webmcp/**`, async (route) => {
    const path = new URL(route.request().url()).pathname.slice('/vendor/capell-webmcp/'.length);
    await route.fulfill({ response: await route.fetch({ url: `${demo.url}/dist/${path}` }) });
  });
  await page.goto(`${demo.url}/readme-example`);
});

test('the README example registers its four tools, rejects nothing and warns about the form tool\'s name', async ({ page }) => {
  const report = await readyReport(page);
  expect(report.registered).toEqual(['form.submit.capell-form-contact', 'page.get', 'site.navigation', 'site.search']);
  expect(report.rejected).toEqual([]);
  expect(report.audit).toEqual([{
    level: 'warning',
    surface: 'tool form.submit.capell-form-contact',
    message: expect.stringMatching(/^name: "form\.submit\.capell-form-contact" has "-" or "_" inside a segment/),
  }]);
});

test('the README example\'s reads answer as the README says: Core\'s envelope, paged by its links, and the page graph', async ({ page, demo }) => {
  await readyReport(page);
  demo.requests.length = 0;
  const search = await executeTool(page, 'site.search', { q: 'boots' });
  expect(search.isError).toBeUndefined();
  const envelope = JSON.parse(search.content[0]!.text) as { capellAgentSchema: number; data: { url: string }[]; links: { next: string | null; previous: unknown } };
  expect(envelope.capellAgentSchema).toBe(1);
  expect(envelope.data.length).toBeGreaterThan(0);
  expect(demo.requests.map((request) => `${request.path}${request.query}`)).toEqual(['/agent/v1/search?q=boots']);

  const navigation = JSON.parse((await executeTool(page, 'site.navigation', {})).content[0]!.text) as { links: { next: string | null } };
  expect(navigation.links.next).not.toBeNull();
  const second = await executeTool(page, 'site.navigation', { cursor: navigation.links.next! });
  expect(second.isError).toBeUndefined();
  expect(demo.requests.at(-1)).toMatchObject({ path: '/agent/v1/navigation', query: '?page=2' });

  const graph = await executeTool(page, 'page.get', {});
  expect(JSON.parse(graph.content[0]!.text)).toEqual({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebPage', name: 'Contact us', url: '/contact' }] });

  const refused = await executeTool(page, 'site.search', { q: 5 });
  expect(refused).toEqual({ content: [{ type: 'text', text: 'invalid input for site.search: q: expected string, got integer' }], isError: true });
});

test('the README example\'s form write fills the form for the person, and their Cancel answers cancelled', async ({ page }) => {
  await readyReport(page);
  await startCall(page, 'form.submit.capell-form-contact', { name: 'Ada Lovelace', email: 'ada@example.test', message: 'Do you repair boots?' });
  await panel(page).waitOpen();
  await panel(page).waitText('Ada Lovelace');
  expect(await page.evaluate(() => (document.querySelector('textarea[name="message"]') as HTMLTextAreaElement).value)).toBe('Do you repair boots?');
  await panel(page).click('Cancel');
  const result = await callResult(page);
  expect(JSON.parse(result.content[0]!.text)).toMatchObject({ status: 'cancelled' });
  expect(await page.evaluate(() => (document.querySelector('input[name="name"]') as HTMLInputElement).value)).toBe('');
});
