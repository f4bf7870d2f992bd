/**
 * End to end with WebMCP on: the demo server, a real product page, the built bundle, and an agent
 * calling tools through document.modelContext. Every answer is compared with the server's own API
 * answer for the same request.
 */
import { executeTool, expect, listTools, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';

const PRODUCT = '/products/ridgeline-trail-runner';

test.describe('a product page with WebMCP on', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}${PRODUCT}`);
  });

  test('registers the Core read tools and the site\'s AgentGate tools (the theme gives the demo agent\'s signers) and reports no rejection', async ({ page }) => {
    const report = await readyReport(page);
    expect(report.api).toBe('document.modelContext');
    expect(report.rejected).toEqual([]);
    expect(report.registered).toEqual(expect.arrayContaining(['page.lookup', 'site.search', 'site.navigation', 'send_message', 'message_status']));
    const names = (await listTools(page)).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['page.lookup', 'site.search', 'site.navigation', 'taxonomy.browse', 'properties.query', 'catalogue.lookup', 'send_message', 'message_status']));
  });

  test('resolves catalogue.lookup\'s descriptionKey through the manifest messages', async ({ page }) => {
    await readyReport(page);
    const catalogue = (await listTools(page)).find((tool) => tool.name === 'catalogue.lookup');
    expect(catalogue?.description).toBeTruthy();
    expect(catalogue?.description).not.toContain('::');
  });

  test('makes no API request before ready', async ({ page, demo }) => {
    demo.requests.length = 0;
    await page.reload();
    await readyReport(page);
    expect(demo.requests).toEqual([]);
  });

  test('page.lookup answers with the page graph the pages API gives for this URL', async ({ page, demo }) => {
    await readyReport(page);
    const result = await executeTool(page, 'page.lookup', {});
    const api = await demo.api(`/agent/v1/pages?url=${encodeURIComponent(PRODUCT)}`) as { data: unknown };
    expect(result.isError).toBeUndefined();
    expect(answerOf(result)).toEqual(api.data);
    expect(JSON.parse(result.content[0]!.text)).toEqual(api.data);
  });

  test('the agent reads each answer once: the serialised site.search {q: "a"} result is at most 1.15× the site\'s own JSON', async ({ page, demo }) => {
    await readyReport(page);
    demo.requests.length = 0;
    // What the browser hands the agent: executeTool's string, unparsed.
    const serialised = await page.evaluate(async () => {
      const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
      const tool = (await context.getTools()).find((candidate) => candidate.name === 'site.search');
      return context.executeTool(tool, { q: 'a' });
    });
    const response = await fetch(`${demo.url}/agent/v1/search${demo.requests[0]!.query}`, { headers: { Accept: 'application/json' } });
    const siteJSON = await response.text();
    expect(JSON.parse(serialised)).not.toHaveProperty('structuredContent');
    expect(JSON.parse(JSON.parse(serialised).content[0].text)).toEqual(JSON.parse(siteJSON));
    expect(serialised.length).toBeLessThanOrEqual(1.15 * siteJSON.length);
  });

  test('site.search answers with the search API\'s envelope for the same request', async ({ page, demo }) => {
    await readyReport(page);
    demo.requests.length = 0;
    const result = await executeTool(page, 'site.search', { q: 'trail', limit: 2 });
    expect(demo.requests).toHaveLength(1);
    expect(demo.requests[0]).toMatchObject({ method: 'GET', path: '/agent/v1/search' });
    expect(demo.requests[0]!.headers.accept).toBe('application/json');
    const api = await demo.api(`/agent/v1/search?${demo.requests[0]!.query.replace(/^\?/, '')}`);
    expect(result.isError).toBeUndefined();
    expect(answerOf(result)).toEqual(api);
    expect((api as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  test('site.navigation answers with the navigation API\'s envelope, page after page', async ({ page, demo }) => {
    await readyReport(page);
    const first = await executeTool(page, 'site.navigation', { limit: 5 });
    expect(answerOf(first)).toEqual(await demo.api('/agent/v1/navigation?limit=5'));
    const next = (answerOf(first) as { links: { next: string } }).links.next;
    const cursor = new URL(next, demo.url).searchParams.get('cursor')!;
    const second = await executeTool(page, 'site.navigation', { limit: 5, cursor });
    expect(answerOf(second)).toEqual(await demo.api(next));
  });

  test('invalid input gives isError and reaches no endpoint', async ({ page, demo }) => {
    await readyReport(page);
    demo.requests.length = 0;
    const wrongType = await executeTool(page, 'site.search', { q: 5 });
    const extra = await executeTool(page, 'site.navigation', { limit: 5, sort: 'title' });
    const missing = await executeTool(page, 'site.search', {});
    expect(wrongType).toMatchObject({ isError: true, content: [{ type: 'text', text: 'invalid input for site.search: q: expected string, got integer' }] });
    expect(extra.isError).toBe(true);
    expect(extra.content[0]!.text).toContain('sort: not an allowed property');
    expect(missing.content[0]!.text).toContain('q: required');
    expect(demo.requests).toEqual([]);
  });

  test('never sends the visitor\'s cookies with a public read', async ({ page, demo, context }) => {
    await context.addCookies([{ name: 'editor_session', value: 'secret', url: demo.url }]);
    await page.reload();
    await readyReport(page);
    demo.requests.length = 0;
    await executeTool(page, 'site.navigation', {});
    expect(demo.requests).toHaveLength(1);
    expect(demo.requests[0]!.headers.cookie).toBeUndefined();
  });
});

test.describe('the other Core read tools with WebMCP on', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/products`);
    await readyReport(page);
  });

  test('taxonomy.browse, properties.query and catalogue.lookup match the API for the same request', async ({ page, demo }) => {
    const calls: [string, object][] = [
      ['taxonomy.browse', { taxonomy: 'categories', term: 'shoes' }],
      ['properties.query', { filter: { price: { max: 150 } }, limit: 3 }],
      ['catalogue.lookup', { sku: 'CW-1001' }],
    ];
    for (const [name, input] of calls) {
      demo.requests.length = 0;
      const result = await executeTool(page, name, input);
      expect(demo.requests, name).toHaveLength(1);
      const api = await demo.api(`${demo.requests[0]!.path}${demo.requests[0]!.query}`);
      expect(answerOf(result), name).toEqual(api);
    }
    expect(demo.requests[0]!.path).toBe('/agent/v1/catalogue/lookup');
  });

  test('taxonomy.browse reads Core\'s /agent/v1/taxonomies; its terms are those /taxonomies/{key}/terms pages', async ({ page, demo }) => {
    demo.requests.length = 0;
    const result = await executeTool(page, 'taxonomy.browse', { taxonomy: 'topics' });
    expect(demo.requests.map((request) => `${request.path}${request.query}`)).toEqual(['/agent/v1/taxonomies?taxonomy=topics']);
    const [topics] = (answerOf(result) as { data: { key: string; terms: unknown[] }[] }).data;
    expect(topics!.key).toBe('topics');
    expect(topics!.terms).toEqual((await demo.api('/agent/v1/taxonomies/topics/terms') as { data: unknown[] }).data);
  });

  test('properties.query sends the nested filter in bracket notation', async ({ page, demo }) => {
    demo.requests.length = 0;
    await executeTool(page, 'properties.query', { filter: { price: { max: 150 } } });
    expect(decodeURIComponent(demo.requests[0]!.query)).toBe('?filter[price][max]=150');
  });
});

test.describe('cursors through the tools: the server serves only those it issued for the same list', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/products`);
    await readyReport(page);
  });

  /** The cursor of an answer's links.next. */
  function nextCursor(result: { content: { type: string; text: string }[] }): string {
    const next = (answerOf(result) as { links: { next: string | null } }).links.next;
    expect(next).not.toBeNull();
    return new URL(next!, 'http://demo.invalid').searchParams.get('cursor')!;
  }

  /** An isError result carrying the server's one-line 422 reason for the cursor. */
  function expectRefused(result: { content: { text: string }[]; isError?: boolean }, path: string, reason: RegExp): void {
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(new RegExp(`^HTTP 422 from ${path.replaceAll('/', '\\/')}: `));
    expect(result.content[0]!.text).toMatch(reason);
    expect(result.content[0]!.text).not.toContain('\n');
  }

  test('a forged cursor (a position written by hand) is refused', async ({ page }) => {
    const forged = Buffer.from('{"o":5}').toString('base64url');
    expectRefused(await executeTool(page, 'site.navigation', { limit: 5, cursor: forged }), '/agent/v1/navigation', /must be a cursor from links\.next or links\.previous/);
    expectRefused(await executeTool(page, 'site.navigation', { limit: 5, cursor: `${forged}.${'A'.repeat(22)}` }), '/agent/v1/navigation', /not issued by this server or was changed/);
  });

  test('an edited cursor (its position moved) is refused; the same cursor unedited is served', async ({ page, demo }) => {
    const cursor = nextCursor(await executeTool(page, 'site.navigation', { limit: 5 }));
    const [payload, signature] = cursor.split('.') as [string, string];
    const moved = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), o: 0 })).toString('base64url');
    expectRefused(await executeTool(page, 'site.navigation', { limit: 5, cursor: `${moved}.${signature}` }), '/agent/v1/navigation', /not issued by this server or was changed/);
    const served = await executeTool(page, 'site.navigation', { limit: 5, cursor });
    expect(answerOf(served)).toEqual(await demo.api(`/agent/v1/navigation?limit=5&cursor=${cursor}`));
  });

  test('a cursor of another query is refused: another search, another tool', async ({ page }) => {
    const cursor = nextCursor(await executeTool(page, 'site.search', { q: 'e', limit: 2 }));
    expectRefused(await executeTool(page, 'site.search', { q: 'a', limit: 2, cursor }), '/agent/v1/search', /belongs to another query/);
    expectRefused(await executeTool(page, 'properties.query', { limit: 2, cursor }), '/agent/v1/properties/product', /belongs to another query/);
  });

  test('a cursor of another language is refused', async ({ page, demo }) => {
    const english = nextCursor(await executeTool(page, 'site.navigation', { limit: 5 }));
    await page.goto(`${demo.url}/de/produkte`);
    await readyReport(page);
    expectRefused(await executeTool(page, 'site.navigation', { limit: 5, cursor: english }), '/de/agent/v1/navigation', /belongs to a list in another language \(en\)/);
  });
});

test.describe('a page whose data contains </script>', () => {
  test('page.lookup returns the text intact from the escaped island', async ({ page, demo }) => {
    await page.goto(`${demo.url}/products/harbour-city-sneaker`);
    await readyReport(page);
    const result = await executeTool(page, 'page.lookup', {});
    const api = await demo.api(`/agent/v1/pages?url=${encodeURIComponent('/products/harbour-city-sneaker')}`) as { data: { description: string } };
    expect(api.data.description).toContain('</script>');
    expect(answerOf(result)).toEqual(api.data);
  });
});

test.describe('a German page with WebMCP on', () => {
  test('calls the German API base and gets German results', async ({ page, demo }) => {
    await page.goto(`${demo.url}/de/produkte/ridgeline-trailschuh`);
    const report = await readyReport(page);
    expect(report.rejected).toEqual([]);
    expect(report.registered).toEqual(expect.arrayContaining(['send_message', 'message_status']));
    const result = await executeTool(page, 'site.search', { q: 'Rucksack' });
    expect(answerOf(result)).toEqual(await demo.api('/de/agent/v1/search?scope=pages&q=Rucksack'));
    const graph = await executeTool(page, 'page.lookup', {});
    expect((answerOf(graph) as { inLanguage: string }).inLanguage).toMatch(/^de/);
  });
});
