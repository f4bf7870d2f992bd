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
    // Core's five in Core's order (test/fixtures/capell/SOURCES.md §2), the catalogue's lookup, then AgentGate's.
    expect(report.registered.slice(0, 6)).toEqual(['page.get', 'site.pages.query', 'site.taxonomies.browse', 'site.navigation', 'site.search', 'catalogue.lookup']);
    expect(report.registered).toEqual(expect.arrayContaining(['send_message', 'message_status']));
    expect(report.audit).toEqual([]);
    const names = (await listTools(page)).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['page.get', 'site.pages.query', 'site.taxonomies.browse', 'site.navigation', 'site.search', 'catalogue.lookup', 'send_message', 'message_status']));
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

  test('page.get answers with the page graph of the page\'s island, Core\'s JSON-LD (SOURCES.md §3)', async ({ page, demo }) => {
    await readyReport(page);
    demo.requests.length = 0;
    const result = await executeTool(page, 'page.get', {});
    expect(demo.requests).toEqual([]);
    const island = JSON.parse((await page.locator('script[data-capell-agent-schema]').textContent())!);
    expect(result.isError).toBeUndefined();
    expect(answerOf(result)).toEqual(island);
    expect(island['@graph'][0]).toMatchObject({ '@type': 'Product', name: 'Ridgeline Trail Runner', url: `${demo.url}${PRODUCT}` });
    // Its schema.org values are those /agent/v1/pages gives for the same page.
    const item = (await demo.api('/agent/v1/pages?set=commerce.product&filter[sku][eq]=CW-1001') as { data: { properties: Record<string, unknown> }[] }).data[0]!;
    expect(island['@graph'][0].offers.priceSpecification).toEqual(item.properties.price);
    expect(island['@graph'][0].weight).toEqual(item.properties.weight);
  });

  test('the agent reads each answer once: the serialised site.search {q: "a"} result is at most 1.15× the site\'s own JSON', async ({ page, demo }) => {
    await readyReport(page);
    demo.requests.length = 0;
    // What the browser hands the agent: executeTool's string, unparsed.
    const serialised = await page.evaluate(async () => {
      const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
      const tool = (await context.getTools()).find((candidate) => candidate.name === 'site.search');
      return context.executeTool(tool, { q: 'the' });
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
    const result = await executeTool(page, 'site.search', { q: 'trail' });
    expect(demo.requests).toHaveLength(1);
    expect(demo.requests[0]).toMatchObject({ method: 'GET', path: '/agent/v1/search' });
    expect(demo.requests[0]!.headers.accept).toBe('application/json');
    const api = await demo.api(`/agent/v1/search?${demo.requests[0]!.query.replace(/^\?/, '')}`);
    expect(result.isError).toBeUndefined();
    expect(answerOf(result)).toEqual(api);
    expect((api as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  test('site.navigation answers with the navigation API\'s envelope, page after page (links.next as cursor)', async ({ page, demo }) => {
    await readyReport(page);
    const first = await executeTool(page, 'site.navigation', {});
    expect(answerOf(first)).toEqual(await demo.api('/agent/v1/navigation'));
    const next = (answerOf(first) as { links: { next: string } }).links.next;
    expect(next).toBe(`${demo.url}/agent/v1/navigation?page=2`);
    const second = await executeTool(page, 'site.navigation', { cursor: next });
    expect(answerOf(second)).toEqual(await demo.api('/agent/v1/navigation?page=2'));
  });

  test('invalid input gives isError and reaches no endpoint', async ({ page, demo }) => {
    await readyReport(page);
    demo.requests.length = 0;
    const wrongType = await executeTool(page, 'site.search', { q: 5 });
    const extra = await executeTool(page, 'site.navigation', { page: 2, sort: 'title' });
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

test.describe('the other read tools with WebMCP on', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/products`);
    await readyReport(page);
  });

  test('site.pages.query, site.taxonomies.browse, catalogue.lookup and the extension\'s catalogue.search and catalogue.properties match the API for the same request', async ({ page, demo }) => {
    const calls: [string, object, string][] = [
      ['site.pages.query', { set: 'commerce.product', filter: { price: { lt: 150, currency: 'EUR' } }, page: { size: 3 } }, '/agent/v1/pages'],
      ['site.taxonomies.browse', { key: 'categories' }, '/agent/v1/taxonomies'],
      ['catalogue.lookup', { sku: 'CW-1001' }, '/agent/v1/catalogue/lookup'],
      ['catalogue.search', { q: 'leather' }, '/agent/v1/search'],
      ['catalogue.properties', { filter: { price: { max: 150 } } }, '/agent/v1/properties/commerce.product'],
    ];
    for (const [name, input, path] of calls) {
      demo.requests.length = 0;
      const result = await executeTool(page, name, input);
      expect(result.isError, `${name}: ${result.content[0]!.text}`).toBeUndefined();
      expect(demo.requests, name).toHaveLength(1);
      expect(demo.requests[0]!.path, name).toBe(path);
      const api = await demo.api(`${demo.requests[0]!.path}${demo.requests[0]!.query}`);
      expect(answerOf(result), name).toEqual(api);
    }
  });

  test('site.pages.query sends filter and page in bracket notation, as Core reads them (SOURCES.md §4.1)', async ({ page, demo }) => {
    demo.requests.length = 0;
    await executeTool(page, 'site.pages.query', { set: 'commerce.product', filter: { colour: { in: ['Red', 'Green'] } }, page: { size: 2, number: 1 } });
    expect(decodeURIComponent(demo.requests[0]!.query)).toBe('?set=commerce.product&filter[colour][in][0]=Red&filter[colour][in][1]=Green&page[size]=2&page[number]=1');
  });

  test('catalogue.search reads Core\'s search with the binding\'s scope; catalogue.properties its set\'s property query', async ({ page, demo }) => {
    demo.requests.length = 0;
    await executeTool(page, 'catalogue.search', { q: 'leather' });
    await executeTool(page, 'catalogue.properties', { filter: { price: { max: 150 } } });
    expect(demo.requests.map((request) => decodeURIComponent(`${request.path}${request.query}`))).toEqual([
      '/agent/v1/search?scope=pages&q=leather',
      '/agent/v1/properties/commerce.product?filter[price][max]=150',
    ]);
  });
});

test.describe('a page whose data contains </script>', () => {
  test('page.get returns the text intact from the escaped island', async ({ page, demo }) => {
    await page.goto(`${demo.url}/products/harbour-city-sneaker`);
    await readyReport(page);
    const result = await executeTool(page, 'page.get', {});
    const api = await demo.api('/agent/v1/pages?set=commerce.product&filter[sku][eq]=CW-1003') as { data: { properties: { description: string } }[] };
    expect(api.data[0]!.properties.description).toContain('</script>');
    expect((answerOf(result) as { '@graph': { description: string }[] })['@graph'][0]!.description).toBe(api.data[0]!.properties.description);
  });
});

test.describe('a German page with WebMCP on', () => {
  test('calls the German API base and gets German results', async ({ page, demo }) => {
    await page.goto(`${demo.url}/de/produkte/ridgeline-trailschuh`);
    const report = await readyReport(page);
    expect(report.rejected).toEqual([]);
    expect(report.registered).toEqual(expect.arrayContaining(['send_message', 'message_status']));
    const result = await executeTool(page, 'site.search', { q: 'Rucksack' });
    expect(answerOf(result)).toEqual(await demo.api('/de/agent/v1/search?q=Rucksack'));
    const graph = await executeTool(page, 'page.get', {});
    expect((answerOf(graph) as { '@graph': { name: string; url: string }[] })['@graph'][0]).toMatchObject({ name: 'Ridgeline Trailschuh', url: `${demo.url}/de/produkte/ridgeline-trailschuh` });
  });
});
