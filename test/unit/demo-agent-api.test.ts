/**
 * The demo's agent read API plays Capell's (test/fixtures/capell/SOURCES.md §4): Core's routes,
 * rules, messages, paging and headers. Every answer the fixtures hold (answers/index.json) is asked
 * of the demo with the same request, and the demo's answer has the same status, the same headers,
 * the same keys in the same order per item and the same link format (its content, the demo
 * catalogue's, differs); the 422 and 404 bodies are Core's byte for byte.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { createDemoApp } from '../../demo/server/app.js';
import { listen } from '../../demo/server/listen.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const FIXTURES = new URL('../fixtures/capell/answers/', import.meta.url);

/** The host the fixtures' requests and links are written for. */
const FIXTURE_ORIGIN = 'http://127.0.0.1:5173';

interface FixtureEntry {
  file: string;
  request: { method: string; url: string; headers: Record<string, string> };
  status: number;
  headers: Record<string, string>;
  derivation: string;
}

const INDEX = JSON.parse(readFileSync(new URL('index.json', FIXTURES), 'utf8')) as FixtureEntry[];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Json;
}

interface App {
  origin: string;
  /** GET (or another method) with a raw request target, `Accept: application/json` unless told. */
  send(path: string, init?: { method?: string; headers?: Record<string, string> }): Promise<Answer>;
  close(): Promise<void>;
}

/** One demo app (createDemoApp with `options`) on a free port. */
async function startApp(options: Parameters<typeof createDemoApp>[0] = {}): Promise<App> {
  const app = createDemoApp(options);
  const server = createServer((req, res) => void app.handle(req, res));
  const url = (await listen(server, '127.0.0.1', 0)).replace(/\/$/, '');
  const { hostname, port } = new URL(url);
  return {
    origin: url,
    send(path, init = {}) {
      return new Promise((resolve, reject) => {
        const req = request({ hostname, port, path, method: init.method ?? 'GET', headers: { accept: 'application/json', ...init.headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: Json;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          });
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let demo: App;

before(async () => {
  demo = await startApp();
});

after(async () => {
  await demo.close();
});

/** GET a path of the demo and parse its JSON. */
async function getJSON(path: string): Promise<Answer> {
  const answer = await demo.send(path);
  assert.ok(answer.json !== undefined, `${path}: not JSON: ${answer.text.slice(0, 200)}`);
  return answer;
}

/** A fixture link, or the fixture's request, written for the demo's origin. */
function onDemo(link: string, origin = demo.origin): string {
  return link.startsWith(FIXTURE_ORIGIN) ? `${origin}${link.slice(FIXTURE_ORIGIN.length)}` : link;
}

/** Follows links.next from `path` (the link is read on its own path and query), returning every page. */
async function collectPages(path: string): Promise<Json[]> {
  const pages: Json[] = [];
  let next: string | null = path;
  while (next !== null) {
    assert.ok(pages.length < 100, `paging from ${path} does not end`);
    const url: URL = new URL(next, demo.origin);
    // Core's search links are root-relative (`/?q=…&page=2`): their query belongs to the search route.
    const target: string = url.pathname === '/' ? `${new URL(path, demo.origin).pathname}${url.search}` : `${url.pathname}${url.search}`;
    const { status, json } = await getJSON(target);
    assert.equal(status, 200, target);
    pages.push(json);
    next = json.links.next;
  }
  return pages;
}

/** The keys of the items of every list answer in the fixtures, by route (path, and `key` given or not). */
function routeOf(url: string): string {
  const parsed = new URL(url, FIXTURE_ORIGIN);
  return `${parsed.pathname.replace(/^\/de/, '')}${parsed.pathname.includes('/taxonomies') && parsed.searchParams.has('key') ? '?key' : ''}`;
}

const ITEM_KEYS = new Map<string, string[]>();
for (const entry of INDEX) {
  if (!entry.file.endsWith('.json') || entry.status !== 200) continue;
  const body = JSON.parse(readFileSync(new URL(entry.file, FIXTURES), 'utf8'));
  if (body.data.length > 0) ITEM_KEYS.set(routeOf(entry.request.url), Object.keys(body.data[0]));
}

/** The JSON type of a value, null apart. */
function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

describe('the demo answers each request of the fixtures as Core does (test/fixtures/capell/answers)', () => {
  assert.ok(INDEX.length >= 25);
  for (const entry of INDEX) {
    test(`${entry.file}: ${entry.request.url.slice(FIXTURE_ORIGIN.length, FIXTURE_ORIGIN.length + 100)} → ${entry.status}`, async () => {
      // SOURCES.md §4.5: the bare 404 is ResolveAgentSite's (read API off); the 429 the throttle's.
      const app = entry.file === 'not-found-404.txt' ? await startApp({ agentReadApi: false })
        : entry.file === 'rate-limited-429.txt' ? await startApp({ agentRateLimit: 1 }) : demo;
      try {
        const url = new URL(onDemo(entry.request.url, app.origin));
        const target = `${url.pathname}${url.search}`;
        if (entry.status === 429) assert.equal((await app.send(target)).status, 200);
        const answer = await app.send(target, { headers: { accept: entry.request.headers.Accept! } });
        const fixture = readFileSync(new URL(entry.file, FIXTURES), 'utf8');

        assert.equal(answer.status, entry.status);
        for (const [name, value] of Object.entries(entry.headers)) {
          const got = answer.headers[name.toLowerCase()];
          // The throttle's counts are the demo's own (its limit is higher than Core's default 60).
          if (name.startsWith('X-RateLimit-') || name === 'Retry-After') assert.match(String(got), /^[0-9]+$/, name);
          else assert.equal(got, value, name);
        }
        if (entry.status !== 200) {
          // Core's messages and Laravel's encodings, byte for byte (SOURCES.md §4.5 and the Laravel lang file).
          assert.equal(answer.text, fixture);
          return;
        }
        const expected = JSON.parse(fixture);
        assert.deepEqual(Object.keys(answer.json), ['capellAgentSchema', 'data', 'links']);
        assert.equal(answer.json.capellAgentSchema, 1);
        assert.deepEqual(Object.keys(answer.json.links), ['next', 'previous']);
        // PHP's encoding: slashes escaped, nothing beyond ASCII unescaped (SOURCES.md §4.5).
        assert.ok(!/[^\x00-\x7f]/.test(answer.text) && !/[^\\]\//.test(answer.text.replaceAll('\\\\', '')), answer.text.slice(0, 200));

        const keys = ITEM_KEYS.get(routeOf(entry.request.url));
        assert.ok(keys, `no fixture shows an item of ${routeOf(entry.request.url)}`);
        for (const item of answer.json.data) assert.deepEqual(Object.keys(item), keys);
        const [sample] = expected.data;
        for (const item of sample ? answer.json.data : []) {
          for (const key of keys) {
            const types = new Set([typeOf(sample[key]), typeOf(item[key])]);
            assert.ok(types.size === 1 || (types.has('null') && types.size === 2), `${key}: ${[...types]}`);
          }
          // Values of the same property have the same shape (PriceSpecification, QuantitativeValue).
          for (const [key, value] of Object.entries(sample.properties ?? {})) {
            if (typeOf(value) === 'object' && item.properties[key] !== undefined) assert.deepEqual(Object.keys(item.properties[key]), Object.keys(value as object), key);
          }
          if ('url' in item) assert.match(item.url, routeOf(entry.request.url) === '/agent/v1/navigation' ? /^\/(?!\/)/ : new RegExp(`^${demo.origin}/`));
        }

        for (const which of ['next', 'previous'] as const) {
          const link = answer.json.links[which];
          const given = expected.links[which];
          // A link Core gives for this request is the demo's link, byte for byte; where Core's
          // catalogue ends sooner, the demo's is the same route's paginator link.
          if (given !== null) assert.equal(link, onDemo(given), which);
          else if (link !== null) assert.match(link, url.pathname.endsWith('/search') ? /^\/\?q=[^&]+&page=[0-9]+$/ : new RegExp(`^${demo.origin}${url.pathname}\\?(?:[^&]+&)*page(?:%5Bnumber%5D)?=[0-9]+$`), which);
        }
      } finally {
        if (app !== demo) await app.close();
      }
    });
  }
});

describe('the demo\'s agent routes: Core\'s headers and failures (SOURCES.md §4, §4.5)', () => {
  test('a 200 is application/json with Cache-Control max-age=60, public, X-Capell-Agent-Schema 1 and the throttle\'s counts', async () => {
    for (const path of ['/agent/v1/navigation', '/de/agent/v1/search?q=Rucksack', '/agent/v1/catalogue/lookup?sku=CW-1001', '/agent/v1/properties/commerce.product']) {
      const { status, headers } = await demo.send(path);
      assert.equal(status, 200, path);
      assert.equal(headers['content-type'], 'application/json');
      assert.equal(headers['cache-control'], 'max-age=60, public');
      assert.equal(headers['x-capell-agent-schema'], '1');
      assert.match(String(headers['x-ratelimit-remaining']), /^[0-9]+$/);
    }
  });

  test('a path no route matches is the router\'s 404: pretty JSON, no-cache, private, no agent header', async () => {
    for (const path of ['/agent/v1/nope', '/agent/v1', '/de/agent/v1/pages/extra', '/agent/v1/taxonomies/bad%20key/terms']) {
      const { status, headers, text } = await demo.send(path);
      assert.equal(status, 404, path);
      assert.equal(headers['cache-control'], 'no-cache, private');
      assert.equal(headers['x-capell-agent-schema'], undefined);
      assert.equal(text, `{\n    "message": "The route ${path.slice(1)} could not be found."\n}`);
    }
  });

  test('a method a route does not answer is 405 naming GET, HEAD; HEAD is answered without a body', async () => {
    const answer = await demo.send('/agent/v1/navigation', { method: 'DELETE', headers: { origin: demo.origin } });
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.allow, 'GET, HEAD');
    assert.equal(answer.json.message, 'The DELETE method is not supported for route agent/v1/navigation. Supported methods: GET, HEAD.');
    const head = await demo.send('/agent/v1/navigation', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
  });

  test('with the read API off every agent route is ResolveAgentSite\'s bare 404 (capell.agent.read_api)', async () => {
    const off = await startApp({ agentReadApi: false });
    try {
      for (const path of ['/agent/v1/navigation', '/de/agent/v1/search?q=boots', '/agent/v1/taxonomies/categories/terms']) {
        const { status, text, headers } = await off.send(path);
        assert.equal(status, 404, path);
        assert.equal(text, readFileSync(new URL('not-found-404.txt', FIXTURES), 'utf8'));
        assert.equal(headers['x-capell-agent-schema'], undefined);
      }
    } finally {
      await off.close();
    }
  });

  test('the throttle counts per host and address and answers 429 past its limit, with Retry-After', async () => {
    const limited = await startApp({ agentRateLimit: 2 });
    try {
      assert.equal((await limited.send('/agent/v1/navigation')).headers['x-ratelimit-remaining'], '1');
      assert.equal((await limited.send('/agent/v1/search?q=boots')).headers['x-ratelimit-remaining'], '0');
      const refused = await limited.send('/agent/v1/taxonomies');
      assert.equal(refused.status, 429);
      assert.equal(refused.text, readFileSync(new URL('rate-limited-429.txt', FIXTURES), 'utf8'));
      assert.equal(refused.headers['cache-control'], 'no-store, private');
      assert.match(String(refused.headers['retry-after']), /^[1-9][0-9]*$/);
    } finally {
      await limited.close();
    }
  });

  test('ignores parameters no rule names: the old limit and cursor, search\'s scope and type', async () => {
    const pairs = [
      ['/agent/v1/navigation?limit=5&cursor=abc', '/agent/v1/navigation'],
      ['/agent/v1/search?q=boots&scope=users&type=article&limit=1', '/agent/v1/search?q=boots'],
      ['/agent/v1/taxonomies?taxonomy=colours&term=x', '/agent/v1/taxonomies'],
      ['/agent/v1/pages?set=commerce.product&url=/x&limit=1', '/agent/v1/pages?set=commerce.product'],
    ];
    for (const [withExtra, without] of pairs) {
      const extra = await getJSON(withExtra!);
      assert.equal(extra.status, 200, withExtra);
      assert.deepEqual(extra.json.data, (await getJSON(without!)).json.data, withExtra);
    }
  });
});

describe('validation with Core\'s rules and Laravel\'s messages (SOURCES.md §4.1–§4.4)', () => {
  const INVALID_QUERY = 'The property query is invalid. Include explicit currency or units when comparing money or dimensions.';
  const rows: [path: string, errors: Record<string, string[]>][] = [
    // `page=` is null after ConvertEmptyStringsToNull: not an integer, and of size 0 (Laravel's getSize).
    ['/agent/v1/navigation?page=', { page: ['The page field must be an integer.', 'The page field must be at least 1.'] }],
    ['/agent/v1/navigation?page=2.5', { page: ['The page field must be an integer.'] }],
    ['/agent/v1/navigation?page[0]=2', { page: ['The page field must be an integer.'] }],
    ['/agent/v1/search?q=%20%20', { q: ['The q field is required.'] }],
    ['/agent/v1/search?q=boots&page=1001', { page: ['The page field must not be greater than 1000.'] }],
    ['/agent/v1/search?q[]=boots', { q: ['The q field must be a string.'] }],
    [`/agent/v1/taxonomies?key=${'k'.repeat(101)}`, { key: ['The key field must not be greater than 100 characters.'] }],
    ['/agent/v1/taxonomies/categories/terms?page=0', { page: ['The page field must be at least 1.'] }],
    ['/agent/v1/pages?set[]=commerce.product', { set: ['The set field must be a string.', 'The set field format is invalid.'] }],
    ['/agent/v1/pages?set=commerce.product&filter=red', { filter: ['The filter field must be an array.'] }],
    ['/agent/v1/pages?set=commerce.product&filter[colour]=red', { 'filter.colour': ['The filter.colour field must be an array.'] }],
    [`/agent/v1/pages?set=commerce.product&${Array.from({ length: 11 }, (_, i) => `filter[p${i}][eq]=1`).join('&')}`, { filter: ['The filter field must not have more than 10 items.'] }],
    [`/agent/v1/pages?set=commerce.product&${['eq', 'lt', 'lte', 'gt', 'gte', 'in', 'currency', 'unit', 'x'].map((op) => `filter[price][${op}]=1`).join('&')}`, { 'filter.price': ['The filter.price field must not have more than 8 items.'] }],
    ['/agent/v1/pages?set=commerce.product&sort=pr!ce', { sort: ['The sort field format is invalid.'] }],
    ['/agent/v1/pages?set=commerce.product&page[size]=abc', { 'page.size': ['The page.size field must be an integer.'] }],
    ['/agent/v1/pages?set=commerce.product&page[offset]=2', { page: ['The page field must be an array.'] }],
    ['/agent/v1/pages?set=commerce.product&page[number]=1001', { 'page.number': ['The page.number field must not be greater than 1000.'] }],
    ['/agent/v1/catalogue/lookup?sku=cw-1001', { sku: ['The sku field format is invalid.'] }],
    ['/agent/v1/properties/commerce.product?filter[cost_price][max]=50', { 'filter.cost_price': ['cost_price is not an agent-visible property of the commerce.product set.'] }],
    ['/agent/v1/properties/commerce.product?filter[price][max]=cheap', { 'filter.price.max': ['The filter.price.max field must be a number.'] }],
  ];
  for (const [path, errors] of rows) {
    test(`${path.slice(0, 110)} → 422 ${Object.keys(errors).join(', ')}`, async () => {
      const { status, json, headers } = await getJSON(path);
      assert.equal(status, 422, JSON.stringify(json));
      assert.equal(headers['cache-control'], 'no-store, private');
      assert.deepEqual(json.errors, errors);
      const count = Object.values(errors).flat().length;
      const first = Object.values(errors)[0]![0];
      assert.equal(json.message, count > 1 ? `${first} (and ${count - 1} more error${count > 2 ? 's' : ''})` : first);
    });
  }

  // QueryPagesByPropertiesAction::invalid(): one message on `filter` for a query Core cannot run.
  const invalid = [
    'set=unknown.set',
    'set=commerce.product&filter[flavour][eq]=mint',
    'set=commerce.product&filter[colour][like]=red',
    'set=commerce.product&filter[price][lt]=100',
    'set=commerce.product&filter[price][lt]=100&filter[price][currency]=eur',
    'set=commerce.product&filter[price][lt]=cheap&filter[price][currency]=EUR',
    'set=commerce.product&filter[weight][gt]=1',
    'set=commerce.product&filter[weight][gt]=1&filter[weight][unit]=lb',
    'set=commerce.product&filter[colour][currency]=EUR',
    'set=commerce.product&filter[category][eq]=Shoes',
    'set=commerce.product&sort=related',
    'set=commerce.product&sort=flavour',
    `set=commerce.product&filter[colour][in][0]=${'x'.repeat(501)}`,
  ];
  for (const query of invalid) {
    test(`/agent/v1/pages?${query.slice(0, 90)} → 422 with Core's invalid_query on filter`, async () => {
      const { status, json } = await getJSON(`/agent/v1/pages?${query}`);
      assert.equal(status, 422);
      assert.deepEqual(json, { message: INVALID_QUERY, errors: { filter: [INVALID_QUERY] } });
    });
  }

  test('404s inside the routes carry the model\'s message: another site\'s taxonomy, an unknown one; an unknown SKU or set', async () => {
    for (const path of ['/agent/v1/taxonomies?key=collections', '/agent/v1/taxonomies/colours/terms', '/de/agent/v1/taxonomies?key=missing']) {
      const { status, json, headers } = await getJSON(path);
      assert.equal(status, 404, path);
      assert.deepEqual(json, { message: 'No query results for model [Capell\\Core\\Models\\Taxonomy].' });
      assert.equal(headers['x-capell-agent-schema'], '1');
    }
    assert.deepEqual((await getJSON('/agent/v1/catalogue/lookup?sku=CW-9999')).json, { message: 'No public product has the SKU CW-9999.' });
    assert.equal((await getJSON('/agent/v1/catalogue/lookup?sku=CW-1099')).status, 404, 'a draft product');
    assert.equal((await getJSON('/agent/v1/properties/unknown-set')).status, 404);
  });
});

describe('paging as Laravel\'s paginator pages Core\'s lists (SOURCES.md §4)', () => {
  test('navigation: 50 URLs a page, ordered by url, links ?page=N on the absolute route, previous even past the end', async () => {
    const pages = await collectPages('/agent/v1/navigation');
    assert.ok(pages.length >= 2, 'the site map is longer than one page');
    assert.deepEqual(pages.map((page) => page.data.length).slice(0, -1), Array(pages.length - 1).fill(50));
    assert.equal(pages[0].links.next, `${demo.origin}/agent/v1/navigation?page=2`);
    assert.equal(pages[1].links.previous, `${demo.origin}/agent/v1/navigation?page=1`);
    const urls = pages.flatMap((page) => page.data.map((item: Json) => item.url));
    assert.deepEqual(urls, [...urls].sort());
    assert.equal(new Set(urls).size, urls.length);
    const past = await getJSON(`/agent/v1/navigation?page=${pages.length + 1}`);
    assert.deepEqual(past.json, { capellAgentSchema: 1, data: [], links: { next: null, previous: `${demo.origin}/agent/v1/navigation?page=${pages.length}` } });
    const german = await collectPages('/de/agent/v1/navigation');
    assert.equal(german[0].links.next, `${demo.origin}/de/agent/v1/navigation?page=2`);
    assert.ok(german.flatMap((page) => page.data).every((item: Json) => item.url.startsWith('/de/')));
  });

  test('pages: page[size] and page[number], every validated parameter kept, page[number] twice once given (PHP reads the last)', async () => {
    const pages = await collectPages('/agent/v1/pages?set=commerce.product&sort=-price&page[size]=2');
    assert.ok(pages.length >= 3);
    assert.equal(pages[0].links.next, `${demo.origin}/agent/v1/pages?set=commerce.product&sort=-price&page%5Bsize%5D=2&page%5Bnumber%5D=2`);
    assert.equal(pages[1].links.next, `${demo.origin}/agent/v1/pages?set=commerce.product&sort=-price&page%5Bsize%5D=2&page%5Bnumber%5D=2&page%5Bnumber%5D=3`);
    assert.equal(pages[1].links.previous, `${demo.origin}/agent/v1/pages?set=commerce.product&sort=-price&page%5Bsize%5D=2&page%5Bnumber%5D=2&page%5Bnumber%5D=1`);
    const prices = pages.flatMap((page) => page.data.map((item: Json) => item.properties.price.price));
    assert.deepEqual(prices, [...prices].sort((a, b) => b - a));
    // The previous link of page 2 reads page 1 again.
    const back = await getJSON(new URL(pages[1].links.previous).pathname + new URL(pages[1].links.previous).search);
    assert.deepEqual(back.json.data, pages[0].data);
    const all = (await getJSON('/agent/v1/pages?set=commerce.product&sort=-price&page[size]=50')).json;
    assert.deepEqual(pages.flatMap((page) => page.data), all.data);
    assert.deepEqual(all.links, { next: null, previous: null });
  });

  test('pages: 20 a page without page[size]; links keep a filter after page, brackets encoded', async () => {
    const { json } = await getJSON('/agent/v1/pages?set=content.page');
    assert.equal(json.data.length, 20);
    assert.equal(json.links.next, `${demo.origin}/agent/v1/pages?set=content.page&page%5Bnumber%5D=2`);
    const filtered = await getJSON('/agent/v1/pages?set=commerce.product&filter[colour][in][0]=Red&filter[colour][in][1]=Green&page[size]=1');
    assert.equal(filtered.json.links.next, `${demo.origin}/agent/v1/pages?set=commerce.product&page%5Bsize%5D=1&filter%5Bcolour%5D%5Bin%5D%5B0%5D=Red&filter%5Bcolour%5D%5Bin%5D%5B1%5D=Green&page%5Bnumber%5D=2`);
  });

  test('taxonomies: the terms of a taxonomy longer than a page, links keeping key; /taxonomies/{key}/terms lists the same', async () => {
    const pages = await collectPages('/agent/v1/taxonomies?key=stockists');
    assert.deepEqual(pages.map((page) => page.data.length), [50, 4]);
    assert.equal(pages[0].links.next, `${demo.origin}/agent/v1/taxonomies?key=stockists&page=2`);
    assert.equal(pages[1].links.previous, `${demo.origin}/agent/v1/taxonomies?key=stockists&page=1`);
    const routed = await collectPages('/agent/v1/taxonomies/stockists/terms');
    assert.equal(routed[0].links.next, `${demo.origin}/agent/v1/taxonomies/stockists/terms?page=2`);
    assert.deepEqual(routed.flatMap((page) => page.data), pages.flatMap((page) => page.data));
  });

  test('search: 10 a page, links root-relative keeping only q (the search driver\'s paginator has no path)', async () => {
    const pages = await collectPages('/agent/v1/search?q=try%20on');
    assert.ok(pages.length >= 4);
    assert.equal(pages[0].data.length, 10);
    assert.equal(pages[0].links.next, '/?q=try%20on&page=2');
    assert.equal(pages[1].links.previous, '/?q=try%20on&page=1');
    const urls = pages.flatMap((page) => page.data.map((item: Json) => item.url));
    assert.equal(new Set(urls).size, urls.length);
  });
});

describe('what Core\'s reads answer, with the demo catalogue', () => {
  test('pages: items {url, title, properties}, url the full URL, values projected as Core projects them (SOURCES.md §3, §4.1)', async () => {
    const { json } = await getJSON('/agent/v1/pages?set=commerce.product&page[size]=1');
    assert.deepEqual(json.data, [{
      url: `${demo.origin}/products/ridgeline-trail-runner`,
      title: 'Ridgeline Trail Runner',
      properties: {
        price: { '@type': 'PriceSpecification', price: 129, priceCurrency: 'EUR' },
        'capell:commerce.product.colour': 'Red',
        weight: { '@type': 'QuantitativeValue', value: 0.58, unitCode: 'KGM' },
        sku: 'CW-1001',
        'capell:commerce.product.in_stock': true,
        category: { name: 'Shoes' },
        // The related draft product is not public: only the boot is referenced.
        isRelatedTo: { '@id': `${demo.origin}/products/summit-leather-boot`, url: `${demo.origin}/products/summit-leather-boot`, name: 'Summit Leather Boot' },
        // Inherited from the shoes term (catalogue.details is the categories taxonomy's set).
        'capell:catalogue.details.warranty': 'P730D',
        material: 'Recycled mesh',
        description: 'A runner\'s shoe for rocky, wet paths, with a grippy lugged sole.',
      },
    }]);
    assert.ok(!JSON.stringify(json).includes('cost_price') && !JSON.stringify(json).includes('supplier_code'));
  });

  test('pages: filters compare as Core does: money in its currency, dimensions in their unit, text in the language, any case', async () => {
    const urls = async (query: string) => (await getJSON(`/agent/v1/pages?${query}`)).json.data.map((item: Json) => new URL(item.url).pathname);
    assert.deepEqual(await urls('set=commerce.product&filter[price][lt]=100&filter[price][currency]=EUR'), ['/products/harbour-city-sneaker', '/products/fellside-day-pack', '/products/ember-down-vest']);
    assert.deepEqual(await urls('set=commerce.product&filter[price][lt]=100&filter[price][currency]=GBP'), []);
    assert.deepEqual(await urls('set=commerce.product&filter[weight][gte]=1&filter[weight][unit]=kg'), ['/products/summit-leather-boot']);
    assert.deepEqual(await urls('set=commerce.product&filter[colour][eq]=green'), ['/products/fellside-day-pack', '/products/ember-down-vest']);
    assert.deepEqual(await urls('set=commerce.product&filter[in_stock][eq]=false'), ['/products/rolltop-backpack']);
    assert.deepEqual(await urls('set=commerce.product&filter[sku][in][0]=CW-1003&filter[sku][in][1]=CW-2002'), ['/products/harbour-city-sneaker', '/products/rolltop-backpack']);
    // Inherited values count: the bags term gives its products five years.
    assert.deepEqual(await urls('set=catalogue.details&filter[warranty][gte]=1825&filter[warranty][unit]=day'), ['/products/fellside-day-pack', '/products/rolltop-backpack']);
    const german = (await getJSON('/de/agent/v1/pages?set=commerce.product&filter[colour][eq]=Gr%C3%BCn')).json;
    assert.deepEqual(german.data.map((item: Json) => item.title), ['Fellside Tagesrucksack 18 L', 'Ember Daunenweste']);
    assert.ok(german.data.every((item: Json) => item.url.startsWith(`${demo.origin}/de/`)));
  });

  test('pages: a filter or sort on a property agents do not see finds nothing, without saying why', async () => {
    const { status, json } = await getJSON('/agent/v1/pages?set=commerce.product&filter[cost_price][lt]=50&filter[cost_price][currency]=EUR');
    assert.equal(status, 200);
    assert.deepEqual(json.data, []);
  });

  test('page graph and pages items agree: the graph holds the schema.org values, the items every value (SOURCES.md §3)', async () => {
    const html = (await demo.send('/products/summit-leather-boot', { headers: { accept: 'text/html' } })).text;
    const graph = JSON.parse(/data-capell-agent-schema\n {4}>(.*?)<\/script>/.exec(html)![1]!);
    const [node] = graph['@graph'];
    const item = (await getJSON('/agent/v1/pages?set=commerce.product&filter[sku][eq]=CW-1002')).json.data[0];
    assert.equal(node.url, item.url);
    assert.deepEqual(node.offers, { '@type': 'Offer', priceSpecification: item.properties.price });
    for (const key of ['weight', 'sku', 'category', 'isRelatedTo', 'material', 'description']) assert.deepEqual(node[key], item.properties[key], key);
    for (const key of Object.keys(item.properties).filter((key) => key.startsWith('capell:'))) assert.ok(!(key in node), key);
  });

  test('taxonomies: {key, name, hierarchical} by position; terms {slug, name, parent, properties} in the language', async () => {
    assert.deepEqual((await getJSON('/agent/v1/taxonomies')).json.data, [
      { key: 'categories', name: 'Product categories', hierarchical: false },
      { key: 'topics', name: 'Journal topics', hierarchical: false },
      { key: 'stockists', name: 'Stockists', hierarchical: true },
    ]);
    assert.deepEqual((await getJSON('/agent/v1/taxonomies?key=categories')).json.data, [
      { slug: 'shoes', name: 'Shoes', parent: null, properties: { 'capell:catalogue.details.warranty': 'P730D' } },
      { slug: 'bags', name: 'Bags', parent: null, properties: { 'capell:catalogue.details.warranty': 'P1825D' } },
      { slug: 'outerwear', name: 'Outerwear', parent: null, properties: {} },
    ]);
    const german = (await getJSON('/de/agent/v1/taxonomies?key=stockists')).json.data;
    assert.deepEqual(german.slice(0, 2), [
      { slug: 'lake-district', name: 'Lake District', parent: null, properties: {} },
      { slug: 'keswick', name: 'Keswick', parent: 'lake-district', properties: {} },
    ]);
    assert.ok((await demo.send('/de/agent/v1/taxonomies')).text.includes('"H\\u00e4ndler"'));
  });

  test('search: {url, title, snippet} of public pages, title matches first; tags stripped from snippets; a 1-character q finds nothing', async () => {
    const { json } = await getJSON('/agent/v1/search?q=LEATHER');
    assert.deepEqual(json.data.slice(0, 2), [
      { url: `${demo.origin}/products/summit-leather-boot`, title: 'Summit Leather Boot', snippet: 'A stitched leather boot that we resole for as long as the upper lasts.' },
      { url: `${demo.origin}/journal/caring-for-leather-boots`, title: 'Caring for leather boots', snippet: 'Clean, dry slowly, wax: three steps that double the life of a boot.' },
    ]);
    const sneaker = (await getJSON('/agent/v1/search?q=editor%27s%20test')).json.data;
    assert.deepEqual(sneaker.map((item: Json) => item.snippet), ['Editor\'s test: the text alert(1) and a "quoted" back\\slash must stay plain text & safe.']);
    assert.deepEqual((await getJSON('/agent/v1/search?q=b')).json, { capellAgentSchema: 1, data: [], links: { next: null, previous: null } });
    const german = (await getJSON('/de/agent/v1/search?q=Rucksack')).json.data;
    assert.ok(german.length > 0 && german.every((item: Json) => item.url.startsWith(`${demo.origin}/de/`)));
  });

  test('the catalogue extension: lookup by SKU (price as Core projects money); property query by ranges, paged by Laravel', async () => {
    assert.deepEqual((await getJSON('/de/agent/v1/catalogue/lookup?sku=CW-2002')).json.data, {
      sku: 'CW-2002',
      url: `${demo.origin}/de/produkte/rolltop-rucksack`,
      name: 'Rolltop-Rucksack 28 L',
      price: { '@type': 'PriceSpecification', price: 119, priceCurrency: 'EUR' },
      inStock: false,
    });
    const cheap = (await getJSON('/agent/v1/properties/commerce.product?filter[price][max]=100&filter[colour]=green')).json;
    assert.deepEqual(cheap.data.map((item: Json) => item.title), ['Fellside Day Pack 18 L', 'Ember Down Vest']);
    const all = await collectPages('/agent/v1/properties/content.page?filter[description]=x');
    assert.deepEqual(all.flatMap((page) => page.data), []);
    const paged = await collectPages('/agent/v1/properties/content.page');
    assert.ok(paged.length > 2);
    assert.equal(paged[0].links.next, `${demo.origin}/agent/v1/properties/content.page?page=2`);
  });
});

describe('the copies of Core\'s declarations the browser tests use', () => {
  test('test/browser/fixtures.ts CORE_READ_TOOLS are Core\'s page.get, site.search and site.navigation as core-tools-island.json holds them (SOURCES.md §2)', async () => {
    const { CORE_READ_TOOLS } = await import('../browser/fixtures.ts');
    const island = JSON.parse(readFileSync(new URL('../fixtures/capell/core-tools-island.json', import.meta.url), 'utf8'));
    for (const tool of CORE_READ_TOOLS as Json[]) {
      assert.deepEqual(tool, island.tools.find((candidate: Json) => candidate.name === tool.name), tool.name);
    }
  });
});
