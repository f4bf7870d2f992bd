import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer } from '../../demo/server/start.js';
import { listStorageIds } from '../../demo/server/catalogue.js';
import { toIslandJSON } from '../../demo/server/islands.js';
import { parseCursor, toCursor } from '../../demo/server/pagination.js';
import { CONTENT_SECURITY_POLICY, TRUSTED_TYPES_POLICY } from '../../demo/server/responses.js';

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

/** Follow links.next from `path` and return every item. */
async function collectAll(path: string): Promise<Json[]> {
  const items: Json[] = [];
  let next: string | null = path;
  for (let pages = 0; next !== null; pages += 1) {
    assert.ok(pages < 100, 'pagination does not end');
    const { status, body }: { status: number; body: Json } = await getJSON(next);
    assert.equal(status, 200, next);
    items.push(...body.data);
    next = body.links.next;
  }
  return items;
}

/** The text of the `<script …marker…>` island in an HTML document. */
function readIsland(html: string, marker: string): string {
  const match = new RegExp(`<script type="[^"]+" ${marker}>([\\s\\S]*?)</script>`).exec(html);
  assert.ok(match, `no ${marker} island`);
  return match[1] as string;
}

async function navigationUrls(base: string): Promise<string[]> {
  return (await collectAll(`${base}/navigation?limit=50`)).map((item) => item.url);
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
    for (const path of ['/contact', '/products/ridgeline-trail-runner', '/contact/messages']) {
      const strict = await send(path);
      const trusted = await send(`${path}?csp=trusted-types`);
      assert.equal(strict.status, 200, path);
      assert.equal(strict.headers['content-security-policy'], CONTENT_SECURITY_POLICY, path);
      assert.equal(trusted.status, 200, path);
      assert.equal(trusted.headers['content-security-policy'], TRUSTED_TYPES_POLICY, path);
    }
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

describe('demo server: agent API envelope', () => {
  const endpoints = [
    '/agent/v1/pages?url=/',
    '/agent/v1/search?q=boot',
    '/agent/v1/navigation',
    '/agent/v1/taxonomies',
    '/agent/v1/taxonomies?taxonomy=categories&term=shoes',
    '/agent/v1/taxonomies/topics/terms',
    '/agent/v1/properties/product?filter[colour]=red',
    '/agent/v1/catalogue/lookup?sku=CW-1001',
    '/de/agent/v1/navigation',
  ];
  for (const path of endpoints) {
    test(`answers ${path} with capellAgentSchema 1, data and links as application/json; charset=utf-8`, async () => {
      const { status, body, headers } = await getJSON(path);
      assert.equal(status, 200);
      assert.equal(headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(Object.keys(body), ['capellAgentSchema', 'data', 'links']);
      assert.equal(body.capellAgentSchema, 1);
      assert.deepEqual(Object.keys(body.links), ['next', 'previous']);
    });
  }

  test('gives every page item in a list its root-relative public url', async () => {
    const lists = [
      await getJSON('/agent/v1/search?q=the&limit=50'),
      await getJSON('/agent/v1/navigation?limit=50'),
      await getJSON('/agent/v1/taxonomies?taxonomy=topics&term=trails'),
      await getJSON('/agent/v1/properties/product?limit=50'),
    ];
    for (const { body } of lists) {
      assert.ok(body.data.length > 0);
      for (const item of body.data) assert.match(item.url, /^\/(?!\/)/);
    }
  });

  test('answers an unknown API path with 404 JSON', async () => {
    for (const path of ['/agent/v1/nope', '/agent/v1', '/de/agent/v1/pages/extra', '/agent/v1/requests']) {
      const { status, body, headers } = await getJSON(path);
      assert.equal(status, 404, path);
      assert.equal(headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(typeof body.message, 'string');
    }
  });

  test('answers non-GET methods on read endpoints with 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await send('/agent/v1/navigation', { method, headers: sameOrigin() });
      assert.equal(answer.status, 405, method);
      assert.match(String(answer.headers.allow), /GET/);
      assert.equal(typeof JSON.parse(answer.text).message, 'string');
    }
  });
});

describe('demo server: pagination', () => {
  test('follows links.next to the end and back with links.previous, repeating the other params', async () => {
    const all = (await getJSON('/agent/v1/navigation?limit=50')).body.data;
    assert.ok(all.length >= 12);
    const first = await getJSON('/agent/v1/navigation?limit=5');
    assert.equal(first.body.data.length, 5);
    assert.equal(first.body.links.previous, null);
    assert.match(first.body.links.next, /^\/agent\/v1\/navigation\?limit=5&cursor=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.deepEqual(await collectAll('/agent/v1/navigation?limit=5'), all);

    const second = await getJSON(first.body.links.next);
    const back = await getJSON(second.body.links.previous);
    assert.deepEqual(back.body.data, first.body.data);
  });

  test('keeps bracket-notation filters in pagination links', async () => {
    const first = await getJSON('/agent/v1/properties/product?filter[price][max]=200&limit=2');
    assert.match(first.body.links.next, /filter\[price\]\[max\]=200/);
    const all = await collectAll('/agent/v1/properties/product?filter[price][max]=200&limit=2');
    assert.ok(all.length > 2);
    assert.ok(all.every((item) => item.properties.price.amount <= 200));
  });

  test('pages the terms of one taxonomy at /taxonomies/{key}/terms, in both languages', async () => {
    const { body } = await getJSON('/agent/v1/taxonomies/categories/terms?limit=2');
    assert.deepEqual(body.data, [
      { slug: 'shoes', name: 'Shoes', url: '/categories/shoes' },
      { slug: 'bags', name: 'Bags', url: '/categories/bags' },
    ]);
    assert.match(body.links.next, /^\/agent\/v1\/taxonomies\/categories\/terms\?limit=2&cursor=/);
    assert.deepEqual((await collectAll('/agent/v1/taxonomies/categories/terms?limit=2')).map((term) => term.slug), ['shoes', 'bags', 'outerwear']);
    const german = await getJSON('/de/agent/v1/taxonomies/topics/terms');
    assert.deepEqual(german.body.data.map((term: Json) => term.name), ['Pflege', 'Wege']);
    // The same terms the taxonomy.browse endpoint lists under the taxonomy.
    const browsed = await getJSON('/agent/v1/taxonomies?taxonomy=categories');
    assert.deepEqual(await collectAll('/agent/v1/taxonomies/categories/terms'), browsed.body.data[0].terms);
  });

  test('takes its own cursor back with the query written in another order, or another limit', async () => {
    const all = await collectAll('/agent/v1/properties/product?filter[price][max]=200&limit=50');
    const first = await getJSON('/agent/v1/properties/product?filter[price][max]=200&limit=2');
    const cursor = new URL(first.body.links.next, demo.url).searchParams.get('cursor');
    const reordered = await getJSON(`/agent/v1/properties/product?limit=3&cursor=${cursor}&filter[price][max]=200`);
    assert.equal(reordered.status, 200, JSON.stringify(reordered.body));
    assert.deepEqual(reordered.body.data, all.slice(2, 5));
  });
});

describe('demo server: cursors it can tell it issued', () => {
  /** The cursor of `links.next` of a first page. */
  async function nextCursor(path: string): Promise<string> {
    const { body } = await getJSON(path);
    assert.ok(body.links.next, `${path} has one page only`);
    return new URL(body.links.next, demo.url).searchParams.get('cursor') as string;
  }

  /** A 422 naming only `cursor`, whose one-line reason matches `reason`, and no rows. */
  async function assertRefusedCursor(path: string, reason: RegExp): Promise<void> {
    const { status, body } = await getJSON(path);
    assert.equal(status, 422, `${path}: ${JSON.stringify(body)}`);
    assert.deepEqual(Object.keys(body), ['message', 'errors']);
    assert.deepEqual(Object.keys(body.errors), ['cursor']);
    assert.match(body.message, reason);
    assert.doesNotMatch(body.message, /\n/);
  }

  test('refuses a forged cursor: a position written by hand, with or without a made-up signature', async () => {
    const position = Buffer.from('{"o":3}').toString('base64url');
    await assertRefusedCursor(`/agent/v1/navigation?limit=2&cursor=${position}`, /must be a cursor from links\.next or links\.previous/);
    const issued = await nextCursor('/agent/v1/navigation?limit=2');
    const payload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(issued.split('.')[0]!, 'base64url').toString()), o: 3 })).toString('base64url');
    await assertRefusedCursor(`/agent/v1/navigation?limit=2&cursor=${payload}.${'A'.repeat(22)}`, /not issued by this server or was changed/);
  });

  test('refuses an edited cursor: its position or its signature changed', async () => {
    const issued = await nextCursor('/agent/v1/navigation?limit=2');
    const [payload, signature] = issued.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    assert.equal(decoded.o, 2);
    const moved = Buffer.from(JSON.stringify({ ...decoded, o: 10 })).toString('base64url');
    await assertRefusedCursor(`/agent/v1/navigation?limit=2&cursor=${moved}.${signature}`, /not issued by this server or was changed/);
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    await assertRefusedCursor(`/agent/v1/navigation?limit=2&cursor=${payload}.${flipped}`, /not issued by this server or was changed/);
    // The cursor as issued is served: the refusals above are about the edit.
    assert.equal((await getJSON(`/agent/v1/navigation?limit=2&cursor=${issued}`)).status, 200);
  });

  test('refuses a cursor of another query: other parameters, another endpoint', async () => {
    const ofE = await nextCursor('/agent/v1/search?q=e&limit=2');
    assert.equal((await getJSON(`/agent/v1/search?q=e&limit=2&cursor=${ofE}`)).status, 200);
    await assertRefusedCursor(`/agent/v1/search?q=a&limit=2&cursor=${ofE}`, /belongs to another query/);
    await assertRefusedCursor(`/agent/v1/search?q=e&type=product&limit=2&cursor=${ofE}`, /belongs to another query/);
    await assertRefusedCursor(`/agent/v1/navigation?limit=2&cursor=${ofE}`, /belongs to another query/);
    const shoes = await nextCursor('/agent/v1/taxonomies/categories/terms?limit=1');
    await assertRefusedCursor(`/agent/v1/taxonomies/topics/terms?limit=1&cursor=${shoes}`, /belongs to another query/);
  });

  test('refuses a cursor of another site (the server delivers one site, so the cursor module is asked directly)', () => {
    const archive = { site: 'archive', lang: 'en', path: '/agent/v1/navigation', params: { limit: '2' } };
    const cursor = toCursor(2, archive);
    assert.equal(parseCursor(cursor, archive), 2);
    assert.throws(() => parseCursor(cursor, { ...archive, site: 'outfitters' }), (error: Json) => {
      assert.equal(error.status, 422);
      assert.deepEqual(Object.keys(error.errors), ['cursor']);
      assert.match(error.message, /belongs to a list of another site/);
      return true;
    });
  });

  test('refuses a cursor of another language', async () => {
    const german = await nextCursor('/de/agent/v1/navigation?limit=2');
    assert.equal((await getJSON(`/de/agent/v1/navigation?limit=2&cursor=${german}`)).status, 200);
    await assertRefusedCursor(`/agent/v1/navigation?limit=2&cursor=${german}`, /belongs to a list in another language \(de\)/);
  });
});

describe('demo server: request validation', () => {
  const negativeCursor = Buffer.from('{"o":-1}').toString('base64url');
  const rows: [string, string][] = [
    ['/agent/v1/navigation?limit=0', 'limit'],
    ['/agent/v1/navigation?limit=51', 'limit'],
    ['/agent/v1/navigation?limit=abc', 'limit'],
    ['/agent/v1/navigation?limit=2.5', 'limit'],
    ['/agent/v1/navigation?limit[0]=2', 'limit'],
    ['/agent/v1/navigation?cursor=%%%', 'cursor'],
    ['/agent/v1/navigation?cursor=bm90LWpzb24', 'cursor'],
    [`/agent/v1/navigation?cursor=${negativeCursor}`, 'cursor'],
    ['/agent/v1/search?limit=0&q=boot', 'limit'],
    ['/agent/v1/search', 'q'],
    ['/agent/v1/search?q=', 'q'],
    ['/agent/v1/search?q=%20%20', 'q'],
    [`/agent/v1/search?q=${'a'.repeat(201)}`, 'q'],
    ['/agent/v1/search?q=boot&scope=users', 'scope'],
    ['/agent/v1/search?q=boot&type=internal-sheet', 'type'],
    ['/agent/v1/pages', 'url'],
    ['/agent/v1/pages?url=products', 'url'],
    ['/agent/v1/taxonomies?taxonomy=colours', 'taxonomy'],
    ['/agent/v1/taxonomies?term=shoes', 'taxonomy'],
    ['/agent/v1/taxonomies?taxonomy=categories&term=Shoes!', 'term'],
    ['/agent/v1/taxonomies?limit=0', 'limit'],
    ['/agent/v1/taxonomies/topics/terms?limit=51', 'limit'],
    ['/agent/v1/taxonomies/topics/terms?cursor=bm90LWpzb24', 'cursor'],
    ['/agent/v1/properties/product?filter[cost_price][max]=50', 'filter.cost_price'],
    ['/agent/v1/properties/product?filter[flavour]=mint', 'filter.flavour'],
    ['/agent/v1/properties/product?filter[price]=100', 'filter.price'],
    ['/agent/v1/properties/product?filter[price][max]=cheap', 'filter.price.max'],
    ['/agent/v1/properties/product?filter[related]=x', 'filter.related'],
    ['/agent/v1/properties/product?filter=red', 'filter'],
    ['/agent/v1/properties/product?limit=99', 'limit'],
    ['/agent/v1/catalogue/lookup', 'sku'],
    ['/agent/v1/catalogue/lookup?sku=cw-1001', 'sku'],
    ['/agent/v1/catalogue/lookup?sku=CW-1001%3Cscript%3E', 'sku'],
  ];
  for (const [path, field] of rows) {
    test(`answers ${path} with 422 naming ${field}`, async () => {
      const { status, body } = await getJSON(path);
      assert.equal(status, 422);
      assert.equal(typeof body.message, 'string');
      assert.deepEqual(Object.keys(body.errors), [field]);
      assert.equal(typeof body.errors[field][0], 'string');
    });
  }

  test('names the hidden property in the reason for refusing its filter', async () => {
    const { body } = await getJSON('/agent/v1/properties/product?filter[cost_price][max]=50');
    assert.match(body.message, /cost_price/);
  });

  const missing: string[] = [
    '/agent/v1/pages?url=/no-such-page',
    '/agent/v1/properties/unknown-set',
    '/agent/v1/taxonomies?taxonomy=categories&term=hats',
    '/agent/v1/taxonomies/colours/terms',
    // Another site's taxonomy does not exist on this one.
    '/agent/v1/taxonomies/collections/terms',
    '/agent/v1/catalogue/lookup?sku=CW-9999',
  ];
  for (const path of missing) {
    test(`answers ${path} with 404 JSON`, async () => {
      const { status, body } = await getJSON(path);
      assert.equal(status, 404);
      assert.deepEqual(Object.keys(body), ['message']);
    });
  }
});

describe('demo server: what is public', () => {
  test('never returns a non-public page from pages, in either language', async () => {
    for (const url of NEVER_PUBLIC_URLS) {
      for (const base of ['/agent/v1', '/de/agent/v1']) {
        const { status } = await getJSON(`${base}/pages?url=${encodeURIComponent(url)}`);
        assert.equal(status, 404, `${base} ${url}`);
      }
    }
  });

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

  test('keeps non-public pages out of navigation, taxonomy and property results', async () => {
    for (const base of ['/agent/v1', '/de/agent/v1']) {
      const listed = [
        ...(await collectAll(`${base}/navigation?limit=50`)),
        ...(await collectAll(`${base}/taxonomies?taxonomy=categories&term=shoes`)),
        ...(await collectAll(`${base}/taxonomies?taxonomy=topics&term=trails`)),
        ...(await collectAll(`${base}/properties/product?limit=50`)),
        ...(await collectAll(`${base}/search?q=e&limit=50`)),
      ];
      const terms = [...(await collectAll(`${base}/taxonomies/categories/terms`)), ...(await collectAll(`${base}/taxonomies/topics/terms`))];
      const text = JSON.stringify(listed) + JSON.stringify(terms) + JSON.stringify((await getJSON(`${base}/taxonomies`)).body);
      for (const url of NEVER_PUBLIC_URLS) assert.ok(!listed.some((item) => item.url === url), `${base} lists ${url}`);
      for (const word of NEVER_PUBLIC_WORDS) assert.ok(!text.includes(word), `${base} shows ${word}`);
    }
  });

  test('drops references to non-public pages and ignores draft revisions in the page graph', async () => {
    const { body } = await getJSON('/agent/v1/pages?url=/products/ridgeline-trail-runner');
    assert.deepEqual(body.data.isRelatedTo, ['/products/summit-leather-boot']);
    assert.equal(body.data.name, 'Ridgeline Trail Runner');
  });

  test('does not look up the SKU of a draft product', async () => {
    const { status } = await getJSON('/agent/v1/catalogue/lookup?sku=CW-1099');
    assert.equal(status, 404);
  });

  test('keeps the page without a German translation out of German results only', async () => {
    assert.ok((await navigationUrls('/agent/v1')).includes(UNTRANSLATED_URL));
    const german = await navigationUrls('/de/agent/v1');
    assert.ok(german.length >= 12);
    assert.ok(german.every((url) => url.startsWith('/de/')));
    assert.ok(!german.includes(UNTRANSLATED_URL) && !german.includes(`/de${UNTRANSLATED_URL}`));

    assert.equal((await getJSON('/agent/v1/search?q=lake%20district')).body.data.length, 1);
    assert.deepEqual((await getJSON('/de/agent/v1/search?q=lake%20district')).body.data, []);
    const trails = await collectAll('/de/agent/v1/taxonomies?taxonomy=topics&term=trails');
    assert.ok(!JSON.stringify(trails).includes('Lake District'));
    assert.equal((await getJSON(`/de/agent/v1/pages?url=${UNTRANSLATED_URL}`)).status, 404);
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
  test('serialises island JSON with <, >, &, \' and inner quotes escaped and parseable to the original', () => {
    const value = { text: 'it\'s </script><script>alert(1)</script> & "q" \\" end\\', 'k"<': ['<!--', null, 1.5, true] };
    const island = toIslandJSON(value);
    assert.doesNotMatch(island, /[<>&']/);
    assert.ok(island.includes('\\u0022q\\u0022'));
    assert.deepEqual(JSON.parse(island), value);
  });

  test('writes data containing </script> into the islands without breaking out', async () => {
    const answer = await send(SNEAKER_URL);
    assert.equal(answer.status, 200);
    assert.ok(!answer.text.includes('</script><script>'));
    assert.ok(!answer.text.includes('<script>alert(1)'));
    const graph = JSON.parse(readIsland(answer.text, 'data-capell-agent-schema'));
    assert.match(graph.description, /^Editor's test: the text <\/script><script>alert\(1\)<\/script> and a "quoted" back\\slash/);
  });

  test('carries in every public page the same page graph as the pages endpoint, in both languages', async () => {
    for (const base of ['/agent/v1', '/de/agent/v1']) {
      const urls = await navigationUrls(base);
      for (const url of urls) {
        const html = await send(url);
        assert.equal(html.status, 200, url);
        assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
        const island = JSON.parse(readIsland(html.text, 'data-capell-agent-schema'));
        const api = await getJSON(`${base}/pages?url=${encodeURIComponent(url)}`);
        assert.deepEqual(island, api.body.data, url);
        assert.deepEqual(api.body.links, { next: null, previous: null });
      }
    }
  });

  test('projects product properties as schema.org keys or capell:<set>.<property> with units and currencies', async () => {
    const { body } = await getJSON('/agent/v1/pages?url=/products/summit-leather-boot');
    const graph = body.data;
    assert.deepEqual(graph['@context'], { '@vocab': 'https://schema.org/', capell: 'https://capell.app/ns/' });
    assert.equal(graph['@type'], 'Product');
    assert.equal(graph.url, '/products/summit-leather-boot');
    assert.equal(graph.inLanguage, 'en');
    assert.deepEqual(graph.offers, { '@type': 'Offer', price: 189, priceCurrency: 'EUR' });
    assert.equal(graph.weight.value, 1.21);
    assert.equal(graph.weight.unitText, 'kg');
    assert.deepEqual(graph['capell:specs.warranty'], { value: 3, unit: 'year' });
    assert.equal(graph.color, 'Brown');
    assert.equal(graph.category, '/categories/shoes');
    assert.ok(!('capell:product.cost_price' in graph));
    const german = (await getJSON('/de/agent/v1/pages?url=/de/produkte/summit-lederstiefel')).body.data;
    assert.equal(german.color, 'Braun');
    assert.equal(german.category, '/de/kategorien/schuhe');
    assert.equal(german.inLanguage, 'de');
  });

  test('inherits a value from the assigned term when the page has none', async () => {
    const { body } = await getJSON('/agent/v1/pages?url=/products/fellside-day-pack');
    assert.deepEqual(body.data['capell:specs.warranty'], { value: 5, unit: 'year' });
  });

  test('declares the six tools in order with the language\'s API base and messages', async () => {
    const english = JSON.parse(readIsland((await send('/products')).text, 'data-capell-agent-tools'));
    assert.equal(english.capellAgentSchema, 1);
    assert.deepEqual(
      english.tools.map((tool: Json) => tool.name),
      ['page.lookup', 'site.search', 'site.navigation', 'taxonomy.browse', 'properties.query', 'catalogue.lookup'],
    );
    assert.deepEqual(
      english.tools.map((tool: Json) => `${tool.binding.type}:${tool.binding.target}`),
      ['inline:page', 'search:pages', 'endpoint:/agent/v1/navigation', 'endpoint:/agent/v1/taxonomies', 'property-query:product', 'endpoint:/agent/v1/catalogue/lookup'],
    );
    assert.ok(english.tools.every((tool: Json) => tool.effect === 'read'));
    assert.equal(english.tools[0].description, "Return this page's published content and properties as JSON-LD.");
    assert.deepEqual(english.tools[0].inputSchema, { type: 'object', additionalProperties: false });
    const lookup = english.tools[5];
    assert.equal(lookup.descriptionKey, 'vendor-catalogue::agent.lookup');
    assert.ok(!('description' in lookup));
    assert.equal(typeof english.messages['vendor-catalogue::agent.lookup'], 'string');
    assert.equal(typeof english.messages.confirmForm, 'string');
    assert.deepEqual(english.tools[1].inputSchema.required, ['q']);

    const german = JSON.parse(readIsland((await send('/de/produkte')).text, 'data-capell-agent-tools'));
    assert.deepEqual(
      german.tools.filter((tool: Json) => tool.binding.type === 'endpoint').map((tool: Json) => tool.binding.target),
      ['/de/agent/v1/navigation', '/de/agent/v1/taxonomies', '/de/agent/v1/catalogue/lookup'],
    );
    assert.notEqual(german.tools[0].description, english.tools[0].description);
    assert.notEqual(german.messages.confirmForm, english.messages.confirmForm);
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

  test('renders the contact form with its fields, CSRF token and CSS-hidden honeypot', async () => {
    const html = (await send('/contact')).text;
    assert.match(html, /<form id="contact" class="contact-form" action="\/contact" method="post">/);
    assert.match(html, /<input type="text" id="contact-name" name="name" maxlength="\d+"/);
    assert.match(html, /<input type="email" id="contact-email" name="email"/);
    assert.match(html, /<option value="order">Order question<\/option>/);
    assert.match(html, /<textarea id="contact-message" name="message"/);
    assert.match(html, /<input type="checkbox" id="contact-newsletter" name="newsletter"/);
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
    const session = await openSession('/contact');
    const token = tokenOf(session.html);
    const body = new URLSearchParams({ _token: token, name: 'Ada', email: 'ada@example.test', topic: 'order', message: 'Where is my boot?', newsletter: 'yes', website: '' });
    const answer = await send('/contact', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: body.toString() });
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.location, '/contact?sent=1');
    assert.deepEqual(demo.app.submissions.at(-1), { lang: 'en', name: 'Ada', email: 'ada@example.test', topic: 'order', message: 'Where is my boot?', newsletter: true });
    assert.match((await send('/contact?sent=1')).text, /class="notice"/);
  });

  test('refuses a post without the CSRF token with 419', async () => {
    const session = await openSession('/contact');
    const body = new URLSearchParams({ name: 'Ada', email: 'ada@example.test', topic: 'order', message: 'Hi' });
    assert.equal((await send('/contact', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: body.toString() })).status, 419);
  });

  test('drops a post whose honeypot is filled while answering as if it were sent', async () => {
    const session = await openSession('/de/kontakt');
    const token = tokenOf(session.html);
    const body = new URLSearchParams({ _token: token, name: 'Bot', email: 'bot@example.test', topic: 'other', message: 'spam', website: 'http://spam.test' });
    const before = demo.app.submissions.length;
    const answer = await send('/de/kontakt', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: body.toString() });
    assert.equal(answer.status, 303);
    assert.equal(demo.app.submissions.length, before);
    assert.equal(answer.headers.location, '/de/kontakt?sent=1');
  });
});

describe('demo server: write tools', () => {
  function tokenOf(html: string): string {
    const match = /<meta name="csrf-token" content="([A-Za-z]+)">/.exec(html);
    assert.ok(match, 'csrf-token meta');
    return match[1] as string;
  }

  test('the contact pages declare form.submit.contact shaped like Capell\'s form builder, and newsletter.subscribe', async () => {
    for (const path of ['/contact', '/de/kontakt']) {
      const html = (await send(path)).text;
      const manifest = JSON.parse(readIsland(html, 'data-capell-agent-tools'));
      const form = manifest.tools.find((tool: Json) => tool.name === 'form.submit.contact');
      assert.deepEqual(form.binding, { type: 'form', target: 'contact' });
      assert.equal(form.effect, 'write');
      assert.equal(form.inputSchema.additionalProperties, false);
      assert.deepEqual(Object.keys(form.inputSchema.properties), ['name', 'email', 'topic', 'message', 'newsletter']);
      assert.deepEqual(form.inputSchema.properties.topic.enum, ['order', 'repair', 'product', 'other']);
      assert.equal(form.inputSchema.properties.email.format, 'email');
      assert.equal(typeof form.inputSchema.properties.name.maxLength, 'number');
      assert.equal(form.inputSchema.properties.newsletter.type, 'boolean');
      const newsletter = manifest.tools.find((tool: Json) => tool.name === 'newsletter.subscribe');
      assert.deepEqual(newsletter.binding, { type: 'endpoint', target: path === '/contact' ? '/agent/v1/newsletter' : '/de/agent/v1/newsletter' });
      assert.equal(typeof manifest.messages.confirmSend, 'string');
      assert.equal(tokenOf(html), /name="_token" value="([A-Za-z]+)"/.exec(html)?.[1]);
    }
    const products = JSON.parse(readIsland((await send('/products')).text, 'data-capell-agent-tools'));
    assert.ok(products.tools.every((tool: Json) => tool.effect === 'read'));
  });

  test('a contact post that asks for JSON gets JSON: 200 sent, 422 with the field, 419 without the token', async () => {
    const session = await openSession('/contact');
    const token = tokenOf(session.html);
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...sameOrigin(session) };
    const good = new URLSearchParams({ _token: token, name: 'Grace', email: 'grace@example.test', topic: 'product', message: 'Which lantern <b>?</b>' });
    const sent = await send('/contact', { method: 'POST', headers, body: good.toString() });
    assert.equal(sent.status, 200);
    assert.deepEqual(JSON.parse(sent.text), { status: 'sent' });
    const invalid = await send('/contact', { method: 'POST', headers, body: new URLSearchParams({ _token: token, name: 'Grace', email: 'nope', topic: 'product', message: 'Hi' }).toString() });
    assert.equal(invalid.status, 422);
    assert.deepEqual(Object.keys(JSON.parse(invalid.text).errors), ['email']);
    const expired = await send('/contact', { method: 'POST', headers, body: new URLSearchParams({ name: 'Grace' }).toString() });
    assert.equal(expired.status, 419);
  });

  test('lists the messages it received, escaped, at /contact/messages', async () => {
    const html = (await send('/contact/messages')).text;
    assert.match(html, /<h1>Messages received<\/h1>/);
    assert.ok(html.includes('Which lantern &lt;b&gt;?&lt;/b&gt;'));
    assert.ok(!html.includes('data-capell-agent-tools'));
  });

  test('POST /agent/v1/newsletter wants the CSRF token (419 without), validates the address and keeps it', async () => {
    const session = await openSession('/contact');
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
    const a = await openSession('/contact');
    const b = await openSession('/contact');
    assert.notEqual(a.cookie, b.cookie);
    assert.notEqual(a.token, b.token);
  });

  test('a token of session A with the cookie of session B is 419 and delivers nothing (contact form and newsletter)', async () => {
    const a = await openSession('/contact');
    const b = await openSession('/contact');
    const before = { submissions: demo.app.submissions.length, subscriptions: demo.app.subscriptions.length };
    assert.equal((await send('/contact', { method: 'POST', headers: { ...form, ...sameOrigin(b) }, body: message(a.token) })).status, 419);
    assert.equal((await send('/contact', { method: 'POST', headers: { ...form, ...sameOrigin(), accept: 'application/json' }, body: message(a.token) })).status, 419, 'no cookie');
    const json = { 'content-type': 'application/json', accept: 'application/json' };
    const newsletter = await send('/agent/v1/newsletter', { method: 'POST', headers: { ...json, ...sameOrigin(b), 'x-csrf-token': a.token }, body: JSON.stringify({ email: 'ada@example.test' }) });
    assert.equal(newsletter.status, 419);
    assert.deepEqual({ submissions: demo.app.submissions.length, subscriptions: demo.app.subscriptions.length }, before);
    // The same requests with B's own token go through: the 419 was the token's session.
    assert.equal((await send('/contact', { method: 'POST', headers: { ...form, ...sameOrigin(b) }, body: message(b.token) })).status, 303);
    assert.equal((await send('/agent/v1/newsletter', { method: 'POST', headers: { ...json, ...sameOrigin(b), 'x-csrf-token': b.token }, body: JSON.stringify({ email: 'ada@example.test' }) })).status, 200);
    assert.deepEqual({ submissions: demo.app.submissions.length, subscriptions: demo.app.subscriptions.length }, { submissions: before.submissions + 1, subscriptions: before.subscriptions + 1 });
  });
});

describe('demo server: Origin check on state-changing requests', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const message = (token: string) => new URLSearchParams({ _token: token, name: 'Eve', email: 'eve@example.test', topic: 'other', message: 'Hi' }).toString();
  const counts = () => ({ submissions: demo.app.submissions.length, formPosts: demo.app.formPosts.length, subscriptions: demo.app.subscriptions.length });

  test('a POST from another Origin is 403 with a one-line reason and is not counted as a submission', async () => {
    const session = await openSession('/contact');
    const { port } = new URL(demo.url);
    const before = counts();
    const refusedBefore = demo.app.refused.length;
    for (const origin of ['http://evil.example', 'null', `http://localhost:${port}`, `https://127.0.0.1:${port}`, `${demo.url}/`]) {
      const html = await send('/contact', { method: 'POST', headers: { ...form, cookie: session.cookie, origin }, body: message(session.token) });
      assert.equal(html.status, 403, origin);
      assert.match(String(html.headers['content-type']), /^text\/html/);
      assert.ok(html.text.includes(`The request came from ${origin}, not from ${demo.url}`), html.text);
      const json = await send('/contact', { method: 'POST', headers: { ...form, accept: 'application/json', cookie: session.cookie, origin }, body: message(session.token) });
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
    assert.equal((await send('/contact', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: message(session.token) })).status, 303);
    assert.equal(demo.app.submissions.length, before.submissions + 1);
  });

  test('a POST with no Origin and no Sec-Fetch-Site is 403; Sec-Fetch-Site: same-origin lets it through', async () => {
    const session = await openSession('/contact');
    const before = counts();
    const bare = await send('/contact', { method: 'POST', headers: { ...form, cookie: session.cookie }, body: message(session.token) });
    assert.equal(bare.status, 403);
    assert.ok(bare.text.includes('The request has no Origin header'), bare.text);
    const crossSite = await send('/contact', { method: 'POST', headers: { ...form, cookie: session.cookie, 'sec-fetch-site': 'cross-site' }, body: message(session.token) });
    assert.equal(crossSite.status, 403);
    assert.deepEqual(counts(), before);
    const vouched = await send('/contact', { method: 'POST', headers: { ...form, cookie: session.cookie, 'sec-fetch-site': 'same-origin' }, body: message(session.token) });
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
    const session = await openSession('/contact');
    const full = { name: EMOJI.repeat(80), email: `${EMOJI.repeat(241)}@example.test`, topic: 'product', message: EMOJI.repeat(2000) };
    assert.equal([...full.email].length, 254);
    const post = (fields: Record<string, string>) => send('/contact', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: new URLSearchParams({ _token: session.token, ...fields }).toString() });
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
    const session = await openSession('/contact');
    const post = (message: string) => send('/contact', { method: 'POST', headers: { ...form, ...sameOrigin(session) }, body: new URLSearchParams({ _token: session.token, name: 'Ada', email: 'ada@example.test', topic: 'other', message }).toString() });
    assert.equal((await post('a\r\n'.repeat(1000))).status, 200);
    assert.equal((await post(`${'a\r\n'.repeat(1000)}b`)).status, 422);
  });

  test('the newsletter address counts code points: 254 are subscribed, 255 are a 422', async () => {
    const session = await openSession('/contact');
    const subscribe = (email: string) => send('/agent/v1/newsletter', { method: 'POST', headers: { 'content-type': 'application/json', ...sameOrigin(session), 'x-csrf-token': session.token }, body: JSON.stringify({ email }) });
    const email = `${EMOJI.repeat(241)}@example.test`;
    assert.equal((await subscribe(email)).status, 200);
    assert.equal(demo.app.subscriptions.at(-1), email);
    assert.equal((await subscribe(`${EMOJI}${email}`)).status, 422);
  });
});

describe('demo server: query endpoints', () => {
  test('filters products by localised colour and price range in bracket notation', async () => {
    const { body } = await getJSON('/agent/v1/properties/product?filter[colour]=red&filter[price][max]=150');
    assert.deepEqual(body.data, [
      { url: '/products/ridgeline-trail-runner', title: 'Ridgeline Trail Runner', properties: { price: { amount: 129, currency: 'EUR' }, colour: 'Red' } },
    ]);
    const german = await getJSON('/de/agent/v1/properties/product?filter[colour]=rot');
    assert.deepEqual(german.body.data.map((item: Json) => item.url), ['/de/produkte/ridgeline-trailschuh', '/de/produkte/squall-regenjacke']);
  });

  test('filters products by weight range and category', async () => {
    const { body } = await getJSON('/agent/v1/properties/product?filter[weight][min]=0.5&filter[category]=shoes');
    assert.deepEqual(body.data.map((item: Json) => item.url), [
      '/products/ridgeline-trail-runner',
      '/products/summit-leather-boot',
      '/products/harbour-city-sneaker',
    ]);
  });

  test('searches title, description and text case-insensitively and filters by type', async () => {
    const { body } = await getJSON('/agent/v1/search?q=LEATHER&type=article');
    assert.deepEqual(body.data.map((item: Json) => item.url), ['/journal/caring-for-leather-boots']);
    assert.deepEqual(Object.keys(body.data[0]), ['url', 'title', 'type', 'excerpt']);
    assert.equal(body.data[0].type, 'article');
  });

  test('lists taxonomies with their terms and the pages of one term', async () => {
    const { body } = await getJSON('/agent/v1/taxonomies');
    assert.deepEqual(body.data.map((taxonomy: Json) => taxonomy.key), ['categories', 'topics']);
    assert.deepEqual(body.data[0].terms[0], { slug: 'shoes', name: 'Shoes', url: '/categories/shoes' });
    const bags = await getJSON('/de/agent/v1/taxonomies?taxonomy=categories&term=bags');
    assert.deepEqual(bags.body.data.map((item: Json) => item.url), ['/de/produkte/fellside-tagesrucksack', '/de/produkte/rolltop-rucksack']);
  });

  test('looks up a product by SKU with its price and stock', async () => {
    const { body } = await getJSON('/de/agent/v1/catalogue/lookup?sku=CW-2002');
    assert.deepEqual(body.data, {
      sku: 'CW-2002',
      url: '/de/produkte/rolltop-rucksack',
      name: 'Rolltop-Rucksack 28 L',
      price: { amount: 119, currency: 'EUR' },
      inStock: false,
    });
  });

  test('lists the site map with parent URLs and positions', async () => {
    const items = await collectAll('/agent/v1/navigation?limit=50');
    assert.deepEqual(items[0], { url: '/', title: 'Capell Outfitters', type: 'page', parent: null, position: 0 });
    const boot = items.find((item) => item.url === '/products/summit-leather-boot');
    assert.equal(boot.parent, '/products');
    assert.equal(boot.type, 'product');
  });
});

describe('demo server: request log', () => {
  test('records every agent API request with method, path, raw query and headers', async () => {
    demo.app.resetRequests();
    assert.equal(demo.app.requests.length, 0);
    await send('/agent/v1/search?q=boot&limit=2', { headers: { accept: 'application/json', cookie: 'a=b', origin: 'http://example.test' } });
    await send('/de/agent/v1/nope');
    await send('/agent/v1/navigation', { method: 'POST' });
    await send('/products');
    await send('/dist/capell-webmcp.js');
    assert.deepEqual(demo.app.requests, [
      { method: 'GET', path: '/agent/v1/search', query: '?q=boot&limit=2', headers: { accept: 'application/json', cookie: 'a=b', origin: 'http://example.test' } },
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
      for (const url of urls) {
        await send(url);
        await send(`${base}/pages?url=${encodeURIComponent(url)}`);
      }
      await collectAll(`${base}/properties/product?limit=50`);
      await collectAll(`${base}/properties/specs?limit=50`);
      await collectAll(`${base}/properties/article?limit=50`);
      await collectAll(`${base}/search?q=a&limit=50`);
      await getJSON(`${base}/taxonomies`);
      await collectAll(`${base}/taxonomies/categories/terms?limit=1`);
      await getJSON(`${base}/catalogue/lookup?sku=CW-1001`);
    }
    await send('/contact');
    await send('/no-such-page');
    const everything = bodies.join('\n');
    for (const id of ids) assert.ok(!everything.includes(String(id)), `storage id ${id} was sent`);
  });
});
