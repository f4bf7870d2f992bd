/**
 * Core's reads on the demo with WebMCP on: the demo declares Core's tools as Core does and answers
 * /agent/v1 as Core's controllers do (test/fixtures/capell/SOURCES.md §2, §4), so an agent pages
 * site.search, site.navigation, site.taxonomies.browse and site.pages.query to the last page by
 * passing links.next back as the runtime's `cursor`, and back by links.previous; every answer is
 * the demo's own answer for the request the page made. A cursor no answer of that tool handed out
 * is refused in one line before any request; Core's 422 and 404 reach the agent quoting Core.
 */
import type { Page } from '@playwright/test';
import { executeTool, expect, readyReport, serveEdited, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';

interface Envelope { capellAgentSchema: 1; data: unknown[]; links: { next: string | null; previous: string | null } }
type Result = Awaited<ReturnType<typeof executeTool>>;

/** The demo's requests below /agent/v1 since `from`, as `path?query`. */
function requestsSince(demo: Demo, from: number): string[] {
  return demo.requests.slice(from).map((request) => `${request.path}${request.query}`);
}

/**
 * Calls `tool` with `input`, then with `cursor` set to each links.next it hands out, to the last
 * page. Each call makes exactly one request, and its answer is a success equal to the demo's own
 * answer for that request (asked again from Node).
 * @returns every page, in order, and the request the page made for each.
 */
async function pageToTheEnd(page: Page, demo: Demo, tool: string, input: object): Promise<{ pages: Envelope[]; requests: string[] }> {
  const pages: Envelope[] = [];
  const requests: string[] = [];
  let from = demo.requests.length;
  let result: Result = await executeTool(page, tool, input);
  for (;;) {
    expect(result.isError, result.content[0]?.text).toBeUndefined();
    const made = requestsSince(demo, from);
    expect(made).toHaveLength(1);
    requests.push(made[0]!);
    const envelope = answerOf(result) as Envelope;
    expect(envelope).toEqual(await demo.api(made[0]!));
    pages.push(envelope);
    if (envelope.links.next === null) break;
    expect(pages.length, `${tool} pages without end`).toBeLessThan(20);
    from = demo.requests.length;
    result = await executeTool(page, tool, { cursor: envelope.links.next });
  }
  return { pages, requests };
}

test.describe("an agent pages Core's reads by the links Core gives, to the last page", () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/products`);
    await readyReport(page);
  });

  test('site.search: root-relative links (/?q=trail&page=2) read on the search route, 10 a page (SOURCES.md §4.4)', async ({ page, demo }) => {
    const { pages, requests } = await pageToTheEnd(page, demo, 'site.search', { q: 'trail' });
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]!.links.next).toBe('/?q=trail&page=2');
    expect(pages.slice(0, -1).every((envelope) => envelope.data.length === 10)).toBe(true);
    expect(requests.slice(0, 2)).toEqual(['/agent/v1/search?q=trail', '/agent/v1/search?q=trail&page=2']);
    // Back by links.previous: the first page again.
    const back = await executeTool(page, 'site.search', { cursor: pages[1]!.links.previous! });
    expect(answerOf(back)).toEqual(pages[0]);
  });

  test('site.navigation: ?page=N on the absolute route, 50 a page (SOURCES.md §4.2)', async ({ page, demo }) => {
    const { pages, requests } = await pageToTheEnd(page, demo, 'site.navigation', {});
    expect(pages.length).toBe(2);
    expect(pages[0]!.data).toHaveLength(50);
    expect(pages[0]!.links.next).toBe(`${demo.url}/agent/v1/navigation?page=2`);
    expect(requests).toEqual(['/agent/v1/navigation', '/agent/v1/navigation?page=2']);
    expect(answerOf(await executeTool(page, 'site.navigation', { cursor: pages[1]!.links.previous! }))).toEqual(pages[0]);
  });

  test('site.taxonomies.browse: the terms of a taxonomy longer than a page, links keeping key (SOURCES.md §4.3)', async ({ page, demo }) => {
    const { pages, requests } = await pageToTheEnd(page, demo, 'site.taxonomies.browse', { key: 'stockists' });
    expect(pages.map((envelope) => envelope.data.length)).toEqual([50, 4]);
    expect(requests).toEqual(['/agent/v1/taxonomies?key=stockists', '/agent/v1/taxonomies?key=stockists&page=2']);
    expect(pages[1]!.data[0]).toEqual({ slug: 'koenigstein', name: 'Königstein', parent: 'saxon-switzerland', properties: {} });
  });

  test('site.pages.query: page[size] and page[number], the query kept, page[number] twice in a previous link (SOURCES.md §4.1)', async ({ page, demo }) => {
    const input = { set: 'commerce.product', sort: '-price', page: { size: 2 } };
    const { pages, requests } = await pageToTheEnd(page, demo, 'site.pages.query', input);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(requests[0]).toBe('/agent/v1/pages?set=commerce.product&sort=-price&page%5Bsize%5D=2');
    expect(requests[1]).toBe('/agent/v1/pages?set=commerce.product&sort=-price&page%5Bsize%5D=2&page%5Bnumber%5D=2');
    const prices = pages.flatMap((envelope) => envelope.data.map((item) => (item as { properties: { price: { price: number } } }).properties.price.price));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    // Page 2's previous link names page[number] twice; PHP reads the last: page 1.
    expect(pages[1]!.links.previous).toBe(`${demo.url}/agent/v1/pages?set=commerce.product&sort=-price&page%5Bsize%5D=2&page%5Bnumber%5D=2&page%5Bnumber%5D=1`);
    const back = answerOf(await executeTool(page, 'site.pages.query', { cursor: pages[1]!.links.previous! })) as Envelope;
    expect(back.data).toEqual(pages[0]!.data);
    // Its own links keep the validated page (number 1) and add the next number after it.
    expect(back.links.next).toBe(`${demo.url}/agent/v1/pages?set=commerce.product&sort=-price&page%5Bsize%5D=2&page%5Bnumber%5D=1&page%5Bnumber%5D=2`);
  });

  test('catalogue.search (the search binding) pages too: the link\'s query on the search route, the binding\'s scope kept', async ({ page, demo }) => {
    const { pages, requests } = await pageToTheEnd(page, demo, 'catalogue.search', { q: 'trail' });
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(requests.slice(0, 2)).toEqual(['/agent/v1/search?scope=pages&q=trail', '/agent/v1/search?q=trail&page=2&scope=pages']);
  });

  test('German pages read the German API base, and page by its links', async ({ page, demo }) => {
    await page.goto(`${demo.url}/de/produkte`);
    await readyReport(page);
    const { pages, requests } = await pageToTheEnd(page, demo, 'site.navigation', {});
    expect(pages.length).toBe(2);
    expect(requests).toEqual(['/de/agent/v1/navigation', '/de/agent/v1/navigation?page=2']);
    expect(pages.flatMap((envelope) => envelope.data).every((item) => (item as { url: string }).url.startsWith('/de/'))).toBe(true);
  });
});

test.describe('a cursor no answer of that tool handed out is refused in one line, and nothing is requested', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/products`);
    await readyReport(page);
  });

  test('a forged link, another tool\'s link, another origin\'s', async ({ page, demo }) => {
    const search = answerOf(await executeTool(page, 'site.search', { q: 'trail' })) as Envelope;
    const from = demo.requests.length;
    const forged = `${demo.url}/agent/v1/navigation?page=2`;
    expect(await executeTool(page, 'site.navigation', { cursor: forged })).toEqual({
      content: [{ type: 'text', text: `invalid input for site.navigation: cursor "${forged}" was not handed out by an earlier answer of site.navigation on this page: call site.navigation without cursor first` }],
      isError: true,
    });
    const written = await executeTool(page, 'site.search', { cursor: '/?q=trail&page=3' });
    expect(written.content[0]!.text).toBe('invalid input for site.search: cursor "/?q=trail&page=3" was not handed out by an earlier answer of site.search on this page: call site.search without cursor first');
    const otherTool = await executeTool(page, 'catalogue.search', { cursor: search.links.next! });
    expect(otherTool.isError).toBe(true);
    expect(otherTool.content[0]!.text).toMatch(/^invalid input for catalogue\.search: cursor "\/\?q=trail&page=2" was not handed out by an earlier answer of catalogue\.search on this page/);
    const elsewhere = await executeTool(page, 'site.search', { cursor: 'https://evil.example/?q=trail&page=2' });
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.content[0]!.text).not.toContain('\n');
    expect(requestsSince(demo, from)).toEqual([]);
  });
});

test.describe("Core's 422 and 404 reach the agent as errors quoting Core's message", () => {
  test('what Core refuses, the agent reads in one line: HTTP <status> from <path>: <Core\'s message>', async ({ page, demo }) => {
    await page.goto(`${demo.url}/products`);
    await readyReport(page);
    const quoted: [tool: string, input: object, text: string][] = [
      // TrimStrings and ConvertEmptyStringsToNull make blanks a missing q (SOURCES.md §4.4).
      ['site.search', { q: '   ' }, 'HTTP 422 from /agent/v1/search: The q field is required.'],
      ['site.taxonomies.browse', { key: 'bad key' }, 'HTTP 422 from /agent/v1/taxonomies: The key field format is invalid.'],
      ['site.pages.query', { set: 'commerce.product', sort: 'pr!ce' }, 'HTTP 422 from /agent/v1/pages: The sort field format is invalid.'],
      // Money compared without its currency: Core's own message (capell-core::agent.invalid_query).
      ['site.pages.query', { set: 'commerce.product', filter: { price: { lt: 100 } } }, 'HTTP 422 from /agent/v1/pages: The property query is invalid. Include explicit currency or units when comparing money or dimensions.'],
      ['site.taxonomies.browse', { key: 'collections' }, 'HTTP 404 from /agent/v1/taxonomies: No query results for model [Capell\\Core\\Models\\Taxonomy].'],
      ['catalogue.lookup', { sku: 'CW-9999' }, 'HTTP 404 from /agent/v1/catalogue/lookup: No public product has the SKU CW-9999.'],
    ];
    for (const [tool, input, text] of quoted) {
      expect(await executeTool(page, tool, input), `${tool} ${JSON.stringify(input)}`).toEqual({ content: [{ type: 'text', text }], isError: true });
    }
    // The same 422s from the demo's API, for the record: the agent's line quotes the body's message.
    expect(await demo.api('/agent/v1/navigation?page=1001')).toEqual({ message: 'The page field must not be greater than 1000.', errors: { page: ['The page field must not be greater than 1000.'] } });
  });
});

test.describe('an outputSchema that says additionalProperties: false, on a public Core read', () => {
  test('Core\'s envelope, its items holding more than the schema lists: the agent gets what the schema describes, the Report names what was left out; a type error is still refused', async ({ page, demo }) => {
    /** site.pages.query's items as a stricter site might describe them: url and title only. */
    const strictItems = { type: 'object', properties: { url: { type: 'string' }, title: { type: 'string' } }, required: ['url', 'title'], additionalProperties: false };
    const outputSchema = { type: 'object', properties: { capellAgentSchema: { const: 1 }, data: { type: 'array', items: strictItems }, links: { type: 'object' } }, required: ['capellAgentSchema', 'data', 'links'], additionalProperties: false };
    // The island as Core prints it, with that outputSchema for site.pages.query and, for
    // site.search, items whose url must be an integer (a mismatch no stripping mends).
    await serveEdited(page, `${demo.url}/products`, (html) => html.replace(
      /(<script\s+type="application\/json"\s+data-capell-agent-tools\s*>)([\s\S]*?)(<\/script>)/,
      (_all, open: string, json: string, close: string) => {
        const manifest = JSON.parse(json) as { tools: { name: string; outputSchema?: unknown }[] };
        for (const tool of manifest.tools) {
          if (tool.name === 'site.pages.query') tool.outputSchema = outputSchema;
          if (tool.name === 'site.search') tool.outputSchema = { ...outputSchema, properties: { ...outputSchema.properties, data: { type: 'array', items: { ...strictItems, properties: { url: { type: 'integer' }, title: { type: 'string' } } } } } };
        }
        return `${open}${JSON.stringify(manifest).replace(/</g, '\\u003c')}${close}`;
      },
    ));
    await page.goto(`${demo.url}/products`);
    await readyReport(page);
    const from = demo.requests.length;
    const result = await executeTool(page, 'site.pages.query', { set: 'commerce.product', page: { size: 2 } });
    expect(result.isError, result.content[0]?.text).toBeUndefined();
    const core = await demo.api(requestsSince(demo, from)[0]!) as Envelope;
    // Core's items carry their properties too (PagesController, SOURCES.md §4.1).
    expect(Object.keys(core.data[0] as object)).toEqual(['url', 'title', 'properties']);
    expect(answerOf(result)).toEqual({ ...core, data: core.data.map((item) => ({ url: (item as { url: string }).url, title: (item as { title: string }).title })) });
    await expect.poll(() => page.evaluate(() => window.capellWebMCP!.report!.audit)).toContainEqual({
      level: 'warning', surface: 'tool site.pages.query',
      message: 'the site answered data[].properties, which its outputSchema does not allow (additionalProperties: false); left out of the answer',
    });
    const refused = await executeTool(page, 'site.search', { q: 'trail' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^the site's answer does not match site\.search's outputSchema \(a site error, not the agent's\): data\.0\.url: expected integer, got string/);
  });
});
