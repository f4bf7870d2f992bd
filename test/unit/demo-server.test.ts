import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer } from '../../demo/server/start.js';
import { listStorageIds } from '../../demo/server/catalogue.js';
import { renderAgentData, toIslandJSON } from '../../demo/server/islands.js';
import { CONTENT_SECURITY_POLICY, TRUSTED_TYPES_POLICY } from '../../demo/server/responses.js';
import { allowLivewireStyle } from '../../demo/server/html/serve-page.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

interface Demo {
  url: string;
  agentUrl: string;
  app: { requests: Json[]; resetRequests(): void; submissions: Json[]; subscriptions: string[]; formPosts: Json[]; refused: Json[] };
  close(): Promise<void>;
}

const DRAFT_WORD = 'Prototypzeta';
const NEVER_PUBLIC_WORDS = [DRAFT_WORD, 'Orbisalt', 'Margincrux', 'Archivolt'];
const NEVER_PUBLIC_URLS = [
  '/products/prototypzeta-racer',
  '/de/produkte/prototypzeta-renner',
  '/journal/orbisalt-preview',
  '/de/journal/orbisalt-vorschau',
  '/internal/pricing-sheet',
  '/de/intern/preisliste',
  '/products/archivolt-storm-lantern',
  '/old-products',
  '/de/alte-produkte',
];
const UNTRANSLATED_URL = '/journal/lake-district-loop';
const SNEAKER_URL = '/products/harbour-city-sneaker';

let demo: Demo;
let distDir: string;

/** Every body the server sent during the suite, for the storage id check. */
const bodies: string[] = [];

/** A GET (or other method) with a raw, unnormalised request target. */
function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { hostname, port } = new URL(demo.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        bodies.push(text);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A visitor's session: the cookie its first page set (`name=value`) and the CSRF token that page carries. */
interface Session { cookie: string; token: string; html: string }

/** Opens a session as a browser's first visit does: a GET without cookies. */
async function openSession(path = '/contact'): Promise<Session> {
  const answer = await send(path);
  const setCookie = answer.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0];
  const token = /<meta name="csrf-token" content="([A-Za-z]+)">/.exec(answer.text)?.[1];
  assert.ok(cookie && cookie.startsWith('capell_session='), `no session cookie from ${path}`);
  assert.ok(token, `no csrf-token meta on ${path}`);
  return { cookie, token, html: answer.text };
}

/** The headers a browser sends with a same-origin POST of `session`: its Origin and its cookie. */
function sameOrigin(session?: Session): Record<string, string> {
  return session ? { origin: demo.url, cookie: session.cookie } : { origin: demo.url };
}

async function getJSON(path: string): Promise<{ status: number; body: Json; headers: Answer['headers'] }> {
  const answer = await send(path, { headers: { accept: 'application/json' } });
  return { status: answer.status, body: JSON.parse(answer.text), headers: answer.headers };
}

/**
 * Follow links.next from `path` and return every item. Core's links are absolute, search's
 * root-relative (`/?q=…&page=2`, read on the search route): test/fixtures/capell/SOURCES.md §4.
 */
async function collectAll(path: string): Promise<Json[]> {
  const items: Json[] = [];
  let next: string | null = path;
  for (let pages = 0; next !== null; pages += 1) {
    assert.ok(pages < 100, 'pagination does not end');
    const url: URL = new URL(next, demo.url);
    const target: string = url.pathname === '/' ? `${new URL(path, demo.url).pathname}${url.search}` : `${url.pathname}${url.search}`;
    const { status, body }: { status: number; body: Json } = await getJSON(target);
    assert.equal(status, 200, target);
    items.push(...body.data);
    next = body.links.next;
  }
  return items;
}

/** The text of the `<script …marker…>` island in an HTML document, written as Blade writes it. */
function readIsland(html: string, marker: string): string {
  const match = new RegExp(`<script\\n {8}type="[^"]+"\\n {8}${marker}\\n {4}>(.*?)</script>`).exec(html);
  assert.ok(match, `no ${marker} island`);
  return match[1] as string;
}

/** The page node of a page's graph island (`{"@context", "@graph": [node]}`). */
function readGraphNode(html: string): Json {
  const graph = JSON.parse(readIsland(html, 'data-capell-agent-schema'));
  assert.equal(graph['@context'], 'https://schema.org');
  assert.equal(graph['@graph'].length, 1);
  return graph['@graph'][0];
}

async function navigationUrls(base: string): Promise<string[]> {
  return (await collectAll(`${base}/navigation`)).map((item) => item.url);
}

before(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'capell-demo-dist-'));
  await mkdir(join(distDir, 'chunks'));
  await writeFile(join(distDir, 'capell-webmcp.js'), 'export {};\n');
  await writeFile(join(distDir, 'capell-webmcp.js.map'), '{"version":3}\n');
  await writeFile(join(distDir, 'chunks', 'ui.js'), 'export const ui = 1;\n');
  demo = await startDemoServer({ port: 0, distDir });
});

after(async () => {
  await demo.close();
  await rm(distDir, { recursive: true, force: true });
});

describe('demo server: start', () => {
  test('listens on the real port when started with port 0', () => {
    const { port } = new URL(demo.url);
    assert.match(port, /^[0-9]+$/);
    assert.notEqual(port, '0');
  });
});

describe('demo server: content security policy', () => {
  test('every page has the strict policy; ?csp=trusted-types adds Trusted Types to the same page', async () => {
    for (const path of ['/contact', '/contact/plain', '/products/ridgeline-trail-runner', '/contact/messages']) {
      const strict = await send(path);
      const trusted = await send(`${path}?csp=trusted-types`);
      // A page with form-builder's Livewire form also allows Livewire's injected style, by its hash.
      const livewire = path === '/contact' ? allowLivewireStyle : (policy: string) => policy;
      assert.equal(strict.status, 200, path);
      assert.equal(strict.headers['content-security-policy'], livewire(CONTENT_SECURITY_POLICY), path);
      assert.equal(trusted.status, 200, path);
      assert.equal(trusted.headers['content-security-policy'], livewire(TRUSTED_TYPES_POLICY), path);
    }
    assert.match(allowLivewireStyle(CONTENT_SECURITY_POLICY), /style-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
    assert.equal(TRUSTED_TYPES_POLICY, `${CONTENT_SECURITY_POLICY}; require-trusted-types-for 'script'; trusted-types lit-html`);
  });
});

describe('demo server: the runtime tag', () => {
  test('?write-wait-ms=N (an integer from 1 to 600000) gives the page\'s runtime data-write-wait-ms="N"; anything else leaves the default', async () => {
    const tagOf = async (path: string) => /<script type="module" src="\/dist\/capell-webmcp\.js"[^>]*>/.exec((await send(path)).text)?.[0];
    assert.doesNotMatch((await tagOf('/contact'))!, /data-write-wait-ms/);
    assert.match((await tagOf('/contact?write-wait-ms=2000'))!, / data-write-wait-ms="2000"/);
    for (const given of ['0', '600001', '1e3', '-5', 'abc', '"><script>']) {
      assert.doesNotMatch((await tagOf(`/contact?write-wait-ms=${encodeURIComponent(given)}`))!, /data-write-wait-ms/, given);
    }
  });
});

describe('demo server: what is public', () => {
  test('answers the HTML routes of non-public pages with 404, except redirects with 301', async () => {
    for (const url of NEVER_PUBLIC_URLS) {
      const answer = await send(url);
      assert.equal(answer.status, url.includes('old-products') || url.includes('alte-produkte') ? 301 : 404, url);
      for (const word of NEVER_PUBLIC_WORDS) assert.ok(!answer.text.includes(word), `${url} shows ${word}`);
    }
  });

  test('finds nothing when searching for the words only non-public pages contain', async () => {
    for (const word of NEVER_PUBLIC_WORDS) {
      for (const base of ['/agent/v1', '/de/agent/v1']) {
        const { status, body } = await getJSON(`${base}/search?q=${word.toLowerCase()}`);
        assert.equal(status, 200);
        assert.deepEqual(body.data, [], `${base} ${word}`);
      }
    }
  });

  test('keeps non-public pages out of navigation, taxonomy, page query and search results', async () => {
    for (const base of ['/agent/v1', '/de/agent/v1']) {
      const listed = [
        ...(await collectAll(`${base}/navigation`)),
        ...(await collectAll(`${base}/pages?set=content.page&page[size]=50`)),
        ...(await collectAll(`${base}/pages?set=commerce.product`)),
        ...(await collectAll(`${base}/properties/commerce.product`)),
        ...(await collectAll(`${base}/search?q=e`)),
      ];
      const terms = [];
      for (const key of ['categories', 'topics', 'stockists']) terms.push(...(await collectAll(`${base}/taxonomies?key=${key}`)));
      const text = JSON.stringify(listed) + JSON.stringify(terms) + JSON.stringify((await getJSON(`${base}/taxonomies`)).body);
      for (const url of NEVER_PUBLIC_URLS) assert.ok(!listed.some((item) => item.url === url || item.url === `${demo.url}${url}`), `${base} lists ${url}`);
      for (const word of NEVER_PUBLIC_WORDS) assert.ok(!text.includes(word), `${base} shows ${word}`);
    }
  });

  test('drops references to non-public pages and ignores draft revisions in the page graph', async () => {
    const node = readGraphNode((await send('/products/ridgeline-trail-runner')).text);
    assert.deepEqual(node.isRelatedTo, { '@id': `${demo.url}/products/summit-leather-boot`, url: `${demo.url}/products/summit-leather-boot`, name: 'Summit Leather Boot' });
    assert.equal(node.name, 'Ridgeline Trail Runner');
  });

  test('does not look up the SKU of a draft product', async () => {
    const { status } = await getJSON('/agent/v1/catalogue/lookup?sku=CW-1099');
    assert.equal(status, 404);
  });

  test('keeps the page without a German translation out of German results only', async () => {
    assert.ok((await navigationUrls('/agent/v1')).includes(UNTRANSLATED_URL));
    const german = await navigationUrls('/de/agent/v1');
    assert.ok(german.length > 50);
    assert.ok(german.every((url) => url.startsWith('/de/')));
    assert.ok(!german.includes(UNTRANSLATED_URL) && !german.includes(`/de${UNTRANSLATED_URL}`));

    assert.equal((await getJSON('/agent/v1/search?q=helvellyn')).body.data.length, 1);
    assert.deepEqual((await getJSON('/de/agent/v1/search?q=helvellyn')).body.data, []);
    const articles = await collectAll('/de/agent/v1/pages?set=content.article');
    assert.ok(!JSON.stringify(articles).includes('Lake District'));
    assert.equal((await send(`/de${UNTRANSLATED_URL}`)).status, 404);
    assert.equal((await send(UNTRANSLATED_URL)).status, 200);
  });

  test('redirects the old URL with 301 to its target', async () => {
    const english = await send('/old-products');
    assert.equal(english.status, 301);
    assert.equal(english.headers.location, '/products');
    const german = await send('/de/alte-produkte');
    assert.equal(german.status, 301);
    assert.equal(german.headers.location, '/de/produkte');
  });
});

describe('demo server: page graph and islands', () => {
  const FIXTURES = new URL('../fixtures/capell/', import.meta.url);

  test('serialises island JSON as Blade\'s json_encode does: <, >, &, \' and inner quotes hex-escaped, / as \\/, non-ASCII as \\u, parseable to the original', () => {
    const value = { text: 'it\'s </script><script>alert(1)</script> & "q" \\" end\\ Füße 😀', 'k"<': ['<!--', null, 1.5, true] };
    const island = toIslandJSON(value);
    assert.doesNotMatch(island, /[<>&']|[^\\]\/|[^\x00-\x7f]/);
    assert.ok(island.includes('\\u0022q\\u0022'));
    assert.ok(island.includes('F\\u00fc\\u00dfe \\ud83d\\ude00'));
    assert.ok(island.includes('\\u003C\\/script\\u003E'));
    assert.deepEqual(JSON.parse(island), value);
  });

  test('writes the islands byte for byte as Capell\'s partial does (test/fixtures/capell/page-agent-data.html, SOURCES.md §3)', () => {
    const html = readFileSync(new URL('page-agent-data.html', FIXTURES), 'utf8');
    const [graph, manifest] = [...html.matchAll(/>(\{.*\})<\/script>/g)].map((match) => JSON.parse(match[1]!));
    assert.equal(renderAgentData(graph, manifest), html);
    assert.equal(renderAgentData(null, manifest), readFileSync(new URL('core-tools-island.html', FIXTURES), 'utf8'));
  });

  test('puts the graph island, then the tools island, at the end of <body> (Core\'s BodyEnd hook, SOURCES.md §3)', async () => {
    const html = (await send('/products/summit-leather-boot')).text;
    const graphAt = html.indexOf('data-capell-agent-schema');
    // Core's tools island is the page's last (the enquiry form's own island is inside its component, in <main>).
    const toolsAt = html.lastIndexOf('data-capell-agent-tools');
    assert.ok(html.indexOf('</footer>') < graphAt && graphAt < toolsAt && toolsAt < html.indexOf('</body>'));
    assert.match(html, /<\/footer>\n {4}<script\n {8}type="application\/ld\+json"\n {8}data-capell-agent-schema\n {4}>\{.*\}<\/script>\n {4}<script\n {8}type="application\/json"\n {8}data-capell-agent-tools\n {4}>\{.*\}<\/script>\n(<script type="module" src="\/site\/livewire-stand-in\.js"[^>]*><\/script>\n)?<\/body>/);
  });

  test('writes data containing </script> into the islands without breaking out', async () => {
    const answer = await send(SNEAKER_URL);
    assert.equal(answer.status, 200);
    assert.ok(!answer.text.includes('</script><script>'));
    assert.ok(!answer.text.includes('<script>alert(1)'));
    assert.match(readGraphNode(answer.text).description, /^Editor's test: the text <\/script><script>alert\(1\)<\/script> and a "quoted" back\\slash/);
  });

  test('carries in every public page the graph Core builds for it: its schema.org values, name and full URL, in both languages', async () => {
    for (const base of ['/agent/v1', '/de/agent/v1']) {
      const items = new Map((await collectAll(`${base}/pages?set=content.page&page[size]=50`)).map((item) => [item.url, item]));
      for (const url of await navigationUrls(base)) {
        const html = await send(url);
        assert.equal(html.status, 200, url);
        assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
        const node = readGraphNode(html.text);
        const full = `${demo.url}${url}`.replace(/\/$/, '');
        assert.deepEqual(Object.keys(node).slice(0, 6), ['@type', '@context', 'capellAgentSchema', 'name', '@id', 'url'], url);
        assert.deepEqual(node['@context'], { capellAgentSchema: 'https://capell.app/agent-schema/version' });
        assert.equal(node['@id'], full);
        assert.equal(node.url, full);
        // The same page in /agent/v1/pages: the title and every schema.org value agree.
        const item = items.get(full);
        assert.ok(item, `${full} is not in ${base}/pages?set=content.page`);
        assert.equal(node.name, item.title);
        for (const [key, value] of Object.entries(item.properties)) {
          if (key.startsWith('capell:')) assert.ok(!(key in node), `${url}: ${key}`);
          else if (key === 'price') assert.deepEqual(node.offers.priceSpecification, value, url);
          else assert.deepEqual(node[key], value, `${url}: ${key}`);
        }
      }
    }
  });

  test('types a node by the sets of its values: Product (commerce.product.), Article (content.article.), else WebPage; price moves into offers', async () => {
    const boot = readGraphNode((await send('/products/summit-leather-boot')).text);
    assert.equal(boot['@type'], 'Product');
    assert.deepEqual(boot.offers, { '@type': 'Offer', priceSpecification: { '@type': 'PriceSpecification', price: 189, priceCurrency: 'EUR' } });
    assert.ok(!('price' in boot));
    assert.deepEqual(boot.weight, { '@type': 'QuantitativeValue', value: 1.21, unitCode: 'KGM' });
    assert.deepEqual(boot.category, { name: 'Shoes' });
    assert.equal(Object.keys(boot).at(-1), 'offers');
    const article = readGraphNode((await send('/journal/caring-for-leather-boots')).text);
    assert.equal(article['@type'], 'Article');
    assert.equal(article.timeRequired, 'PT6M');
    assert.deepEqual(article.about, { name: 'Care' });
    assert.equal(readGraphNode((await send('/about')).text)['@type'], 'WebPage');
    const german = readGraphNode((await send('/de/produkte/summit-lederstiefel')).text);
    assert.equal(german.material, 'Vollnarbenleder');
    assert.deepEqual(german.category, { name: 'Schuhe' });
    assert.equal(german.url, `${demo.url}/de/produkte/summit-lederstiefel`);
  });

  test('declares Core\'s five tools first, byte for byte as Core does (core-tools-island.json), then the catalogue\'s', async () => {
    const fixture = JSON.parse(readFileSync(new URL('core-tools-island.json', FIXTURES), 'utf8'));
    for (const path of ['/', '/products', '/products/summit-leather-boot', '/contact', '/contact/plain', '/stockists/keswick']) {
      const english = JSON.parse(readIsland((await send(path)).text, 'data-capell-agent-tools'));
      assert.equal(english.capellAgentSchema, 1);
      assert.equal(toIslandJSON(english.tools.slice(0, 5)), toIslandJSON(fixture.tools), path);
      assert.equal(english.tools[5].name, 'catalogue.lookup', path);
      const extra = english.tools.slice(6).map((tool: Json) => tool.name);
      assert.deepEqual(extra, path === '/products' ? ['catalogue.search', 'catalogue.properties'] : path === '/contact/plain' ? ['form.submit.capell-form-contact', 'newsletter.subscribe'] : path === '/contact' ? ['newsletter.subscribe'] : [], path);
    }
  });

  test('the catalogue extension: catalogue.lookup with descriptionKey and an outputSchema of the whole envelope; the search and property-query bindings on the products page only', async () => {
    const english = JSON.parse(readIsland((await send('/products')).text, 'data-capell-agent-tools'));
    const lookup = english.tools.find((tool: Json) => tool.name === 'catalogue.lookup');
    assert.equal(lookup.descriptionKey, 'vendor-catalogue::agent.lookup');
    assert.ok(!('description' in lookup));
    assert.deepEqual(lookup.outputSchema.required, ['capellAgentSchema', 'data', 'links']);
    assert.deepEqual(lookup.binding, { type: 'endpoint', target: '/agent/v1/catalogue/lookup' });
    assert.equal(typeof english.messages['vendor-catalogue::agent.lookup'], 'string');
    assert.equal(typeof english.messages.confirmForm, 'string');
    assert.deepEqual(english.tools.filter((tool: Json) => tool.name.startsWith('catalogue.') && tool.name !== 'catalogue.lookup').map((tool: Json) => tool.binding),
      [{ type: 'search', target: 'pages' }, { type: 'property-query', target: 'commerce.product' }]);
  });

  test('German pages: Core\'s tools with German descriptions, the German API base', async () => {
    const english = JSON.parse(readIsland((await send('/products')).text, 'data-capell-agent-tools'));
    const german = JSON.parse(readIsland((await send('/de/produkte')).text, 'data-capell-agent-tools'));
    assert.deepEqual(german.tools.map((tool: Json) => tool.name), english.tools.map((tool: Json) => tool.name));
    assert.deepEqual(
      german.tools.filter((tool: Json) => tool.binding.type === 'endpoint').map((tool: Json) => tool.binding.target),
      ['/de/agent/v1/pages', '/de/agent/v1/taxonomies', '/de/agent/v1/navigation', '/de/agent/v1/search', '/de/agent/v1/catalogue/lookup'],
    );
    for (const [index, tool] of german.tools.slice(0, 5).entries()) {
      assert.notEqual(tool.description, english.tools[index].description);
      assert.deepEqual(tool.inputSchema, english.tools[index].inputSchema);
    }
    assert.notEqual(german.messages.confirmForm, english.messages.confirmForm);
  });

  test('a page without a graph declares no page.get (Core\'s $hasInlineData): the agents pages', async () => {
    for (const path of ['/agents', '/de/agents']) {
      const html = (await send(path)).text;
      assert.ok(!html.includes('data-capell-agent-schema'), path);
      const tools = JSON.parse(readIsland(html, 'data-capell-agent-tools')).tools.map((tool: Json) => tool.name);
      assert.deepEqual(tools.slice(0, 4), ['site.pages.query', 'site.taxonomies.browse', 'site.navigation', 'site.search']);
    }
  });

  test('loads the runtime with the language\'s API base and runs no inline script', async () => {
    for (const [url, base] of [['/', '/agent/v1'], ['/de/', '/de/agent/v1']] as const) {
      const html = (await send(url)).text;
      assert.ok(html.includes(`<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-api-base="${base}" data-agentgate></script>`));
      assert.ok(html.includes('<link rel="stylesheet" href="/site/theme.css">'));
      assert.ok(html.includes('<script type="module" src="/site/theme.js"></script>'));
      assert.match(html, /<footer[\s\S]*id="agent-status"/);
      const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1] as string);
      for (const attributes of scripts) {
        assert.ok(/\ssrc="/.test(attributes) || /type="application\/(ld\+)?json"/.test(attributes), `inline script: ${attributes}`);
      }
    }
  });

  test('renders the plain contact form with its fields, CSRF token and CSS-hidden honeypot', async () => {
    const html = (await send('/contact/plain')).text;
    assert.match(html, /<form id="capell-form-contact" class="contact-form" action="\/contact\/plain" method="post">/);
    assert.match(html, /<input type="text" id="capell-form-contact-name" name="name" maxlength="\d+"/);
    assert.match(html, /<input type="email" id="capell-form-contact-email" name="email"/);
    assert.match(html, /<option value="order">Order question<\/option>/);
    assert.match(html, /<textarea id="capell-form-contact-message" name="message"/);
    assert.match(html, /<input type="checkbox" id="capell-form-contact-newsletter" name="newsletter"/);
    assert.match(html, /<input type="hidden" name="_token" value="[A-Za-z]+">/);
    assert.match(html, /<p class="honeypot" aria-hidden="true">[\s\S]*?name="website"/);
  });
});

describe('demo server: contact form', () => {
  function tokenOf(html: string): string {
    const match = /name="_token" value="([A-Za-z]+)"/.exec(html);
    assert.ok(match);
    return match[1] as string;
  }
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  test('delivers a message with the right token and redirects with 303 to the sent notice', async () => {
    const session = await openSession('/contact/plain');
    const token = tokenOf(session.html);
    const body = new URLSearchParams({ _token: token, name: 'Ada', email: 'ada@example.test', topic: 'order', message: 'Where is my boot?', newsletter: 'yes', website: '' });
    const answer = await send('/contact/plain', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: body.toString() });
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.location, '/contact/plain?sent=1');
    assert.deepEqual(demo.app.submissions.at(-1), { lang: 'en', name: 'Ada', email: 'ada@example.test', topic: 'order', message: 'Where is my boot?', newsletter: true });
    assert.match((await send('/contact/plain?sent=1')).text, /class="notice"/);
  });

  test('refuses a post without the CSRF token with 419', async () => {
    const session = await openSession('/contact/plain');
    const body = new URLSearchParams({ name: 'Ada', email: 'ada@example.test', topic: 'order', message: 'Hi' });
    assert.equal((await send('/contact/plain', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: body.toString() })).status, 419);
  });

  test('drops a post whose honeypot is filled while answering as if it were sent', async () => {
    const session = await openSession('/de/kontakt/einfach');
    const token = tokenOf(session.html);
    const body = new URLSearchParams({ _token: token, name: 'Bot', email: 'bot@example.test', topic: 'other', message: 'spam', website: 'http://spam.test' });
    const before = demo.app.submissions.length;
    const answer = await send('/de/kontakt/einfach', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: body.toString() });
    assert.equal(answer.status, 303);
    assert.equal(demo.app.submissions.length, before);
    assert.equal(answer.headers.location, '/de/kontakt/einfach?sent=1');
  });
});

describe('demo server: write tools', () => {
  function tokenOf(html: string): string {
    const match = /<meta name="csrf-token" content="([A-Za-z]+)">/.exec(html);
    assert.ok(match, 'csrf-token meta');
    return match[1] as string;
  }

  test('the plain contact pages declare form.submit.capell-form-contact shaped like Capell\'s form builder, and newsletter.subscribe', async () => {
    for (const path of ['/contact/plain', '/de/kontakt/einfach']) {
      const html = (await send(path)).text;
      const manifest = JSON.parse(readIsland(html, 'data-capell-agent-tools'));
      const form = manifest.tools.find((tool: Json) => tool.name === 'form.submit.capell-form-contact');
      assert.deepEqual(form.binding, { type: 'form', target: 'capell-form-contact' });
      assert.equal(form.effect, 'write');
      assert.equal(form.inputSchema.additionalProperties, false);
      assert.deepEqual(Object.keys(form.inputSchema.properties), ['name', 'email', 'topic', 'message', 'newsletter']);
      assert.deepEqual(form.inputSchema.properties.topic.enum, ['order', 'repair', 'product', 'other']);
      assert.equal(form.inputSchema.properties.email.format, 'email');
      assert.equal(typeof form.inputSchema.properties.name.maxLength, 'number');
      assert.equal(form.inputSchema.properties.newsletter.type, 'boolean');
      const newsletter = manifest.tools.find((tool: Json) => tool.name === 'newsletter.subscribe');
      assert.deepEqual(newsletter.binding, { type: 'endpoint', target: path.startsWith('/contact') ? '/agent/v1/newsletter' : '/de/agent/v1/newsletter' });
      assert.equal(typeof manifest.messages.confirmSend, 'string');
      assert.equal(tokenOf(html), /name="_token" value="([A-Za-z]+)"/.exec(html)?.[1]);
    }
    const products = JSON.parse(readIsland((await send('/products')).text, 'data-capell-agent-tools'));
    assert.ok(products.tools.every((tool: Json) => tool.effect === 'read'));
  });

  test('a contact post that asks for JSON gets JSON: 200 sent, 422 with the field, 419 without the token', async () => {
    const session = await openSession('/contact/plain');
    const token = tokenOf(session.html);
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...sameOrigin(session) };
    const good = new URLSearchParams({ _token: token, name: 'Grace', email: 'grace@example.test', topic: 'product', message: 'Which lantern <b>?</b>' });
    const sent = await send('/contact/plain', { method: 'POST', headers, body: good.toString() });
    assert.equal(sent.status, 200);
    assert.deepEqual(JSON.parse(sent.text), { status: 'sent' });
    const invalid = await send('/contact/plain', { method: 'POST', headers, body: new URLSearchParams({ _token: token, name: 'Grace', email: 'nope', topic: 'product', message: 'Hi' }).toString() });
    assert.equal(invalid.status, 422);
    assert.deepEqual(Object.keys(JSON.parse(invalid.text).errors), ['email']);
    const expired = await send('/contact/plain', { method: 'POST', headers, body: new URLSearchParams({ name: 'Grace' }).toString() });
    assert.equal(expired.status, 419);
  });

  test('lists the messages it received, escaped, at /contact/messages', async () => {
    const html = (await send('/contact/messages')).text;
    assert.match(html, /<h1>Messages received<\/h1>/);
    assert.ok(html.includes('Which lantern &lt;b&gt;?&lt;/b&gt;'));
    assert.ok(!html.includes('data-capell-agent-tools'));
  });

  test('POST /agent/v1/newsletter wants the CSRF token (419 without), validates the address and keeps it', async () => {
    const session = await openSession('/contact/plain');
    const token = tokenOf(session.html);
    const json = { 'content-type': 'application/json', accept: 'application/json', ...sameOrigin(session) };
    const without = await send('/agent/v1/newsletter', { method: 'POST', headers: json, body: JSON.stringify({ email: 'ada@example.test' }) });
    assert.equal(without.status, 419);
    const bad = await send('/agent/v1/newsletter', { method: 'POST', headers: { ...json, 'x-csrf-token': token }, body: JSON.stringify({ email: 'nope' }) });
    assert.equal(bad.status, 422);
    const good = await send('/agent/v1/newsletter', { method: 'POST', headers: { ...json, 'x-csrf-token': token }, body: JSON.stringify({ email: 'ada@example.test' }) });
    assert.equal(good.status, 200);
    assert.deepEqual(JSON.parse(good.text).data, { subscribed: 'ada@example.test' });
    assert.equal(demo.app.subscriptions.at(-1), 'ada@example.test');
    assert.equal((await send('/agent/v1/newsletter')).status, 405);
  });
});

describe('demo server: session-bound CSRF tokens', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const message = (token: string) => new URLSearchParams({ _token: token, name: 'Ada', email: 'ada@example.test', topic: 'order', message: 'Hi' }).toString();

  test('a first visit gets a capell_session cookie (HttpOnly, SameSite=Lax, Path=/); a return visit keeps it and its token', async () => {
    const first = await send('/');
    assert.match(String(first.headers['set-cookie']), /^capell_session=[A-Za-z]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = String(first.headers['set-cookie']).split(';')[0] as string;
    const token = /<meta name="csrf-token" content="([A-Za-z]+)">/.exec(first.text)?.[1];
    const again = await send('/contact', { headers: { cookie } });
    assert.equal(again.headers['set-cookie'], undefined);
    assert.equal(/<meta name="csrf-token" content="([A-Za-z]+)">/.exec(again.text)?.[1], token);
    assert.equal(/name="_token" value="([A-Za-z]+)"/.exec(again.text)?.[1], token);
  });

  test('two sessions get different tokens', async () => {
    const a = await openSession('/contact/plain');
    const b = await openSession('/contact/plain');
    assert.notEqual(a.cookie, b.cookie);
    assert.notEqual(a.token, b.token);
  });

  test('a token of session A with the cookie of session B is 419 and delivers nothing (contact form and newsletter)', async () => {
    const a = await openSession('/contact/plain');
    const b = await openSession('/contact/plain');
    const before = { submissions: demo.app.submissions.length, subscriptions: demo.app.subscriptions.length };
    assert.equal((await send('/contact/plain', { method: 'POST', headers: { ...form, ...sameOrigin(b) }, body: message(a.token) })).status, 419);
    assert.equal((await send('/contact/plain', { method: 'POST', headers: { ...form, ...sameOrigin(), accept: 'application/json' }, body: message(a.token) })).status, 419, 'no cookie');
    const json = { 'content-type': 'application/json', accept: 'application/json' };
    const newsletter = await send('/agent/v1/newsletter', { method: 'POST', headers: { ...json, ...sameOrigin(b), 'x-csrf-token': a.token }, body: JSON.stringify({ email: 'ada@example.test' }) });
    assert.equal(newsletter.status, 419);
    assert.deepEqual({ submissions: demo.app.submissions.length, subscriptions: demo.app.subscriptions.length }, before);
    // The same requests with B's own token go through: the 419 was the token's session.
    assert.equal((await send('/contact/plain', { method: 'POST', headers: { ...form, ...sameOrigin(b) }, body: message(b.token) })).status, 303);
    assert.equal((await send('/agent/v1/newsletter', { method: 'POST', headers: { ...json, ...sameOrigin(b), 'x-csrf-token': b.token }, body: JSON.stringify({ email: 'ada@example.test' }) })).status, 200);
    assert.deepEqual({ submissions: demo.app.submissions.length, subscriptions: demo.app.subscriptions.length }, { submissions: before.submissions + 1, subscriptions: before.subscriptions + 1 });
  });
});

describe('demo server: Origin check on state-changing requests', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const message = (token: string) => new URLSearchParams({ _token: token, name: 'Eve', email: 'eve@example.test', topic: 'other', message: 'Hi' }).toString();
  const counts = () => ({ submissions: demo.app.submissions.length, formPosts: demo.app.formPosts.length, subscriptions: demo.app.subscriptions.length });

  test('a POST from another Origin is 403 with a one-line reason and is not counted as a submission', async () => {
    const session = await openSession('/contact/plain');
    const { port } = new URL(demo.url);
    const before = counts();
    const refusedBefore = demo.app.refused.length;
    for (const origin of ['http://evil.example', 'null', `http://localhost:${port}`, `https://127.0.0.1:${port}`, `${demo.url}/`]) {
      const html = await send('/contact/plain', { method: 'POST', headers: { ...form, cookie: session.cookie, origin }, body: message(session.token) });
      assert.equal(html.status, 403, origin);
      assert.match(String(html.headers['content-type']), /^text\/html/);
      assert.ok(html.text.includes(`The request came from ${origin}, not from ${demo.url}`), html.text);
      const json = await send('/contact/plain', { method: 'POST', headers: { ...form, accept: 'application/json', cookie: session.cookie, origin }, body: message(session.token) });
      assert.equal(json.status, 403, origin);
      const reason = JSON.parse(json.text).message;
      assert.match(reason, /^The request came from .+; a cross-origin request cannot change anything here\.$/);
      assert.doesNotMatch(reason, /\n/);
    }
    const newsletter = await send('/agent/v1/newsletter', { method: 'POST', headers: { 'content-type': 'application/json', cookie: session.cookie, origin: 'http://evil.example', 'x-csrf-token': session.token }, body: JSON.stringify({ email: 'eve@example.test' }) });
    assert.equal(newsletter.status, 403);
    assert.match(JSON.parse(newsletter.text).message, /evil\.example/);
    assert.deepEqual(counts(), before);
    assert.equal(demo.app.refused.length, refusedBefore + 11);
    assert.deepEqual({ ...demo.app.refused.at(-1), reason: undefined }, { method: 'POST', path: '/agent/v1/newsletter', origin: 'http://evil.example', reason: undefined });
    // The same post from the page's own origin is delivered: the 403 was the Origin.
    assert.equal((await send('/contact/plain', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: message(session.token) })).status, 303);
    assert.equal(demo.app.submissions.length, before.submissions + 1);
  });

  test('a POST with no Origin and no Sec-Fetch-Site is 403; Sec-Fetch-Site: same-origin lets it through', async () => {
    const session = await openSession('/contact/plain');
    const before = counts();
    const bare = await send('/contact/plain', { method: 'POST', headers: { ...form, cookie: session.cookie }, body: message(session.token) });
    assert.equal(bare.status, 403);
    assert.ok(bare.text.includes('The request has no Origin header'), bare.text);
    const crossSite = await send('/contact/plain', { method: 'POST', headers: { ...form, cookie: session.cookie, 'sec-fetch-site': 'cross-site' }, body: message(session.token) });
    assert.equal(crossSite.status, 403);
    assert.deepEqual(counts(), before);
    const vouched = await send('/contact/plain', { method: 'POST', headers: { ...form, cookie: session.cookie, 'sec-fetch-site': 'same-origin' }, body: message(session.token) });
    assert.equal(vouched.status, 303);
    assert.equal(demo.app.submissions.length, before.submissions + 1);
  });

  test('GET, HEAD and OPTIONS change nothing and pass without Origin', async () => {
    assert.equal((await send('/contact', { headers: { origin: 'http://evil.example' } })).status, 200);
    assert.equal((await send('/contact', { method: 'HEAD' })).status, 200);
    assert.equal((await send('/contact', { method: 'OPTIONS' })).status, 405);
    assert.equal((await send('/agent/v1/navigation', { method: 'PUT' })).status, 403);
  });
});

describe('demo server: lengths in code points, as JSON Schema counts them', () => {
  const EMOJI = '\u{1F600}';
  const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };

  test('200 emoji in the 200-code-point q are a search; 201 are a 422 naming q', async () => {
    const fits = await getJSON(`/agent/v1/search?q=${encodeURIComponent(EMOJI.repeat(200))}`);
    assert.equal(fits.status, 200);
    const over = await getJSON(`/agent/v1/search?q=${encodeURIComponent(EMOJI.repeat(201))}`);
    assert.equal(over.status, 422);
    assert.deepEqual(Object.keys(over.body.errors), ['q']);
  });

  test('a contact form at every maxLength in emoji is delivered (name 80, email 254, message 2000); one more is a 422 naming the field', async () => {
    const session = await openSession('/contact/plain');
    const full = { name: EMOJI.repeat(80), email: `${EMOJI.repeat(241)}@example.test`, topic: 'product', message: EMOJI.repeat(2000) };
    assert.equal([...full.email].length, 254);
    const post = (fields: Record<string, string>) => send('/contact/plain', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: new URLSearchParams({ _token: session.token, ...fields }).toString() });
    const sent = await post(full);
    assert.equal(sent.status, 200, sent.text);
    assert.equal(demo.app.submissions.at(-1).message, full.message);
    for (const [field, value] of [['name', `${full.name}${EMOJI}`], ['email', `${EMOJI}${full.email}`], ['message', `${full.message}${EMOJI}`]] as const) {
      const refused = await post({ ...full, [field]: value });
      assert.equal(refused.status, 422, field);
      assert.deepEqual(Object.keys(JSON.parse(refused.text).errors), [field]);
    }
  });

  test('a message\'s line breaks count once although the browser sends them as CRLF', async () => {
    const session = await openSession('/contact/plain');
    const post = (message: string) => send('/contact/plain', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: new URLSearchParams({ _token: session.token, name: 'Ada', email: 'ada@example.test', topic: 'other', message }).toString() });
    assert.equal((await post('a\r\n'.repeat(1000))).status, 200);
    assert.equal((await post(`${'a\r\n'.repeat(1000)}b`)).status, 422);
  });

  test('the newsletter address counts code points: 254 are subscribed, 255 are a 422', async () => {
    const session = await openSession('/contact/plain');
    const subscribe = (email: string) => send('/agent/v1/newsletter', { method: 'POST', headers: { 'content-type': 'application/json', ...sameOrigin(session), 'x-csrf-token': session.token }, body: JSON.stringify({ email }) });
    const email = `${EMOJI.repeat(241)}@example.test`;
    assert.equal((await subscribe(email)).status, 200);
    assert.equal(demo.app.subscriptions.at(-1), email);
    assert.equal((await subscribe(`${EMOJI}${email}`)).status, 422);
  });
});

describe('demo server: request log', () => {
  test('records every agent API request with method, path, raw query and headers', async () => {
    demo.app.resetRequests();
    assert.equal(demo.app.requests.length, 0);
    await send('/agent/v1/search?q=boot&page=2', { headers: { accept: 'application/json', cookie: 'a=b', origin: 'http://example.test' } });
    await send('/de/agent/v1/nope');
    await send('/agent/v1/navigation', { method: 'POST' });
    await send('/products');
    await send('/dist/capell-webmcp.js');
    assert.deepEqual(demo.app.requests, [
      { method: 'GET', path: '/agent/v1/search', query: '?q=boot&page=2', headers: { accept: 'application/json', cookie: 'a=b', origin: 'http://example.test' } },
      { method: 'GET', path: '/de/agent/v1/nope', query: '', headers: { accept: undefined, cookie: undefined, origin: undefined } },
      { method: 'POST', path: '/agent/v1/navigation', query: '', headers: { accept: undefined, cookie: undefined, origin: undefined } },
    ]);
    demo.app.resetRequests();
    assert.equal(demo.app.requests.length, 0);
  });
});

describe('demo server: static files', () => {
  test('serves /dist files with JavaScript and JSON content types', async () => {
    const script = await send('/dist/capell-webmcp.js');
    assert.equal(script.status, 200);
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(script.text, 'export {};\n');
    const map = await send('/dist/capell-webmcp.js.map');
    assert.equal(map.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal((await send('/dist/chunks/ui.js')).status, 200);
  });

  test('caches as a site should serve the runtime: hashed chunks immutable, the entry revalidated by ETag (304)', async () => {
    const chunk = await send('/dist/chunks/ui.js');
    assert.equal(chunk.headers['cache-control'], 'public, max-age=31536000, immutable');
    const entry = await send('/dist/capell-webmcp.js');
    assert.equal(entry.headers['cache-control'], 'no-cache');
    const etag = entry.headers.etag as string;
    assert.match(etag, /^W\/"[0-9a-z]+-[0-9a-z]+"$/);
    const again = await send('/dist/capell-webmcp.js', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal(again.headers.etag, etag);
    assert.equal((await send('/dist/capell-webmcp.js', { headers: { 'if-none-match': 'W/"other"' } })).status, 200);
  });

  test('every page names AgentGate, and no page carries an agent\'s key or a signer script: the 404 and the inbox too', async () => {
    for (const url of ['/', '/contact', '/de/kontakt', '/no-such-page', '/contact/messages', '/agents']) {
      const html = (await send(url)).text;
      assert.match(html, /data-capell-webmcp data-api-base="[^"]+" data-agentgate><\/script>/, url);
      assert.doesNotMatch(html, /demo-agent|DEMO KEYS|"d":|setSigner/, url);
    }
    assert.equal((await send('/site/demo-agent-keys.js')).status, 404);
    assert.equal((await send('/site/demo-agent.js')).status, 404);
  });

  test('serves the theme from /site', async () => {
    assert.equal((await send('/site/theme.css')).headers['content-type'], 'text/css; charset=utf-8');
    const theme = await send('/site/theme.js');
    assert.equal(theme.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.match(theme.text, /capell-webmcp:ready/);
  });

  test('answers missing files and path traversal with 404', async () => {
    const paths = [
      '/dist/missing.js',
      '/dist/',
      '/dist/chunks',
      '/dist/../package.json',
      '/dist/..%2fpackage.json',
      '/dist/%2e%2e/package.json',
      '/dist/chunks/..%2f..%2fpackage.json',
      '/dist/..%5cpackage.json',
      '/dist/%00.js',
      '/site/../server/app.js',
      '/site/..%2fserver%2fapp.js',
    ];
    for (const path of paths) {
      const answer = await send(path);
      assert.equal(answer.status, 404, path);
      assert.ok(!answer.text.includes('"name"') && !answer.text.includes('createDemoApp'), path);
    }
  });
});

describe('demo server: storage ids', () => {
  test('never sends a storage id in any API answer or HTML page', async () => {
    const ids: number[] = listStorageIds();
    assert.ok(ids.length > 20);
    for (const base of ['/agent/v1', '/de/agent/v1']) {
      const urls = await navigationUrls(base);
      for (const url of urls) await send(url);
      for (const set of ['commerce.product', 'catalogue.details', 'content.article', 'content.page']) {
        await collectAll(`${base}/pages?set=${set}`);
        await collectAll(`${base}/properties/${set}`);
      }
      await collectAll(`${base}/search?q=a`);
      await getJSON(`${base}/taxonomies`);
      for (const key of ['categories', 'topics', 'stockists']) await collectAll(`${base}/taxonomies/${key}/terms`);
      await getJSON(`${base}/catalogue/lookup?sku=CW-1001`);
    }
    await send('/contact');
    await send('/no-such-page');
    const everything = bodies.join('\n');
    for (const id of ids) assert.ok(!everything.includes(String(id)), `storage id ${id} was sent`);
  });
});
