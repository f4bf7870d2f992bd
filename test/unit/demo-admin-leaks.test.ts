/**
 * The leak crawl (admin declarations and confirmation tokens never enter public HTML or the
 * anonymous registry, as the Capell Agent Schema requires: no admin declaration, admin tool name or
 * token in any public page's HTML, in the public registry, in /agent/v1 answers, or in any response
 * to a request without a session). An editor and a global admin work in the admin first (previews
 * whose tokens stay outstanding, confirmed writes, a publication); then an anonymous visitor, with
 * only the anonymous cookie a browser would keep, crawls every URL of the demo it can reach and
 * every endpoint the public registry names, and no answer, body or header, may hold any of it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { invokeAndApprove, startAdminDemo, type AdminDemo, type Json } from '../support/demo-admin-client.ts';
import { PAGES } from '../../demo/server/catalogue.js';
import { BY_SITE_KEY_PREFIX, SITES as AGENTGATE_SITES, WELL_KNOWN_PATH } from '../../demo/server/agentgate/manifest.js';
import { RECEIPT_KEYS_PATH } from '../../demo/server/agentgate/receipts.js';
import { DIRECTORY_PATH } from '../../demo/server/agentgate/verifier.js';

const RULE = 'Capell Agent Schema, Navigation, forms, and admin tools';

/** Most URLs the crawl fetches (the demo has about a hundred and fifty; the bound only stops a runaway). */
const MAX_CRAWL_URLS = 1500;

/** Words that name the admin's registry and API. The runtime's own code (`/dist/`) must know them to fetch the registry; no page or answer may. */
const ADMIN_WORDS = ['admin-invoke', '/admin/agent/v1', 'confirmationToken'];

/** The trail runner's storage id (a product page of site a). */
const TRAIL_RUNNER = PAGES.find((page) => page.key === 'trail-runner')!.id;

let demo: AdminDemo;
/** Every secret the admin work produced: confirmation tokens, admin session ids, admin CSRF tokens. */
const secrets: string[] = [];
/** The admin tool names as the global admin sees the registry. */
let toolNames: string[] = [];

before(async () => {
  demo = await startAdminDemo();
  const gil = await demo.signIn('gil');
  const ada = await demo.signIn('ada');
  secrets.push(gil.sessionId, gil.csrf, ada.sessionId, ada.csrf);
  toolNames = (await gil.get('/admin/agent/v1/tools')).json.tools.map((tool: Json) => tool.name);
  // Outstanding tokens of writes never approved.
  const previews: [typeof gil, string, Record<string, unknown>][] = [
    [ada, 'admin.page.properties.write', { page_id: 810702, property_key: 'x', value: 'y' }],
    [ada, 'admin.page.terms.write', { page_id: TRAIL_RUNNER, term_ids: [810402] }],
    [gil, 'admin.settings.write', { group: 'core', values: { site_name: 'Outfitters' } }],
    [gil, 'admin.structure.write', { resource: 'taxonomy', operation: 'create', data: { key: 'seasons' } }],
  ];
  for (const [editor, tool, payload] of previews) {
    const answer = await editor.invoke(tool, payload);
    if (answer.status !== 200) continue;
    secrets.push(answer.json.confirmationToken);
  }
  assert.equal(secrets.length, 4 + 3, 'three previews were answered confirmation_required (the property key x is refused)');
  // Approved work, published on the public site.
  for (const [tool, payload] of [
    ['admin.page.draft.save', { page_id: 810702, locale: 'en', fields: { name: 'Our story' } }],
    ['admin.page.publish', { page_id: 810702 }],
    ['admin.page.properties.write', { page_id: TRAIL_RUNNER, property_key: 'commerce.product.sku', value: 'CW-2001-B' }],
  ] as const) {
    const { preview, approval } = await invokeAndApprove(ada, tool, payload);
    assert.equal(approval.status, 200, `${tool}: ${approval.text}`);
    secrets.push(preview.json.confirmationToken);
  }
});
after(async () => {
  await demo.close();
});

interface Crawled { path: string; status: number; headers: string; body: string }

/** The same-origin paths (with query) a value refers to, or undefined. */
function toSameOriginPath(value: string, from: string): string | undefined {
  if (value.startsWith('//') || value.startsWith('mailto:') || value.startsWith('data:') || value.startsWith('javascript:')) return undefined;
  if (!value.startsWith('/') && !value.startsWith('http') && !value.startsWith('?')) return undefined;
  try {
    const url = new URL(value, `${demo.url}${from}`);
    if (url.origin !== demo.url) return undefined;
    return `${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}

/** Every string in a JSON value. */
function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* strings(item);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) yield* strings(item);
}

/** Crawl from the seeds as an anonymous visitor (the anonymous `capell_session` cookie only). */
async function crawl(seeds: string[]): Promise<Crawled[]> {
  const queue = [...seeds];
  const seen = new Set(queue);
  const crawled: Crawled[] = [];
  const htmlPaths = new Set<string>();
  let anonymousCookie = '';
  const enqueue = (path: string | undefined) => {
    if (path === undefined || seen.has(path) || seen.size >= MAX_CRAWL_URLS) return;
    seen.add(path);
    queue.push(path);
  };
  while (queue.length > 0) {
    const path = queue.shift() as string;
    const answer = await demo.fetch(path, { headers: anonymousCookie ? { Cookie: anonymousCookie } : {} });
    const setCookie = answer.headers.get('set-cookie') ?? '';
    assert.ok(!setCookie.includes('capell_admin'), `${path} sets an admin cookie`);
    if (setCookie.startsWith('capell_session=')) anonymousCookie = setCookie.split(';')[0] ?? '';
    crawled.push({ path, status: answer.status, headers: [...answer.headers].map(([name, value]) => `${name}: ${value}`).join('\n'), body: answer.text });
    const location = answer.headers.get('location');
    if (location) enqueue(toSameOriginPath(location, path));
    const type = answer.headers.get('content-type') ?? '';
    if (type.startsWith('text/html')) {
      if (answer.status === 200 && !path.includes('?')) htmlPaths.add(path);
      for (const match of answer.text.matchAll(/\s(?:href|src|action)="([^"]*)"/g)) enqueue(toSameOriginPath((match[1] ?? '').replaceAll('&amp;', '&'), path));
      // The islands as Capell's partial writes them: `<script` and each attribute on lines of their own.
      for (const match of answer.text.matchAll(/<script\s+type="application\/(?:ld\+)?json"[^>]*>([\s\S]*?)<\/script>/g)) {
        for (const value of strings(JSON.parse(match[1] ?? 'null'))) enqueue(toSameOriginPath(value, path));
      }
    } else if (type.startsWith('application/json') || type.startsWith('application/jwk-set+json')) {
      for (const value of strings(answer.json)) enqueue(toSameOriginPath(value, path));
    }
  }
  return crawled;
}

describe('demo admin: nothing reaches an anonymous visitor', () => {
  test(`${RULE}: "admin declarations and confirmation tokens never enter public HTML or the anonymous registry": a crawl of every public URL finds no admin tool name, admin word or token`, async () => {
    assert.equal(toolNames.length, 13);
    assert.ok(toolNames.every((name) => name.startsWith('admin.')));
    assert.equal(secrets.length, 4 + 3 + 3);
    const seeds = [
      '/', '/de/', '/agents', '/de/agents', '/contact/messages', '/no-such-page', '/de/keine-seite', '/products?page=2',
      WELL_KNOWN_PATH, RECEIPT_KEYS_PATH, DIRECTORY_PATH, ...AGENTGATE_SITES.map((site: Json) => `${BY_SITE_KEY_PREFIX}${site.siteKey}`),
      ...['/agent/v1', '/de/agent/v1'].flatMap((base) => [
        `${base}/navigation`, `${base}/search?q=`, `${base}/search?q=story`, `${base}/taxonomies`, `${base}/taxonomies?key=categories`, `${base}/taxonomies?key=topics`, `${base}/taxonomies/categories/terms`,
        `${base}/properties/commerce.product`, `${base}/properties/catalogue.details`, `${base}/properties/content.article`, `${base}/catalogue/lookup?sku=CW-2001`,
        `${base}/pages?set=content.page`, `${base}/pages?set=commerce.product`, `${base}/pages?set=content.article`, `${base}/no-such-endpoint`, base,
      ]),
      // The admin itself, asked without a session.
      '/admin', '/admin/', '/admin/sign-in', '/admin/sites/a/', '/admin/sites/a/pages/about', '/admin/agent/v1', '/admin/agent/v1/tools',
      '/admin/agent/v1/tools/invoke', '/admin/agent/v1/tools?site_id=1', '/admin/agent/v1/no-such-endpoint',
      '/dist/capell-webmcp.js', '/dist/capell-webmcp.iife.js',
    ];
    const crawled = await crawl(seeds);
    assert.ok(crawled.length >= 100, `crawled only ${crawled.length} URLs`);
    assert.ok(crawled.length < MAX_CRAWL_URLS, 'the crawl ended by itself');

    // The crawl saw the admin's published work: it reached the changed pages.
    const about = crawled.find((answer) => answer.path === '/about');
    assert.ok(about?.body.includes('Our story'), 'the crawl saw the published /about');
    // Core's lists were paged to their ends: the crawl followed their links.
    assert.ok(crawled.some((answer) => answer.path.startsWith('/agent/v1/pages?set=content.page&page%5Bnumber%5D=2') && answer.status === 200));
    assert.ok(crawled.some((answer) => answer.path === '/agent/v1/navigation?page=2' && answer.status === 200));
    assert.ok(crawled.some((answer) => answer.path.startsWith('/de/agent/v1/')));
    for (const path of ['/admin/', '/admin/sites/a/pages/about']) assert.equal(crawled.find((answer) => answer.path === path)?.status, 303);
    for (const path of ['/admin/agent/v1/tools', '/admin/agent/v1/tools?site_id=1']) assert.equal(crawled.find((answer) => answer.path === path)?.status, 401);

    const problems: string[] = [];
    for (const answer of crawled) {
      const everything = `${answer.headers}\n${answer.body}`;
      const isRuntimeCode = answer.path.startsWith('/dist/');
      for (const name of toolNames) if (everything.includes(name)) problems.push(`${answer.path} (${answer.status}) holds the tool name ${name}`);
      for (const secret of secrets) if (everything.includes(secret)) problems.push(`${answer.path} (${answer.status}) holds an admin secret`);
      if (!isRuntimeCode) for (const word of ADMIN_WORDS) if (everything.includes(word)) problems.push(`${answer.path} (${answer.status}) holds ${word}`);
      // The public registry (tools islands, AgentGate manifests) declares no admin binding.
      if (/"type"\s*:\s*"admin-invoke"/.test(answer.body)) problems.push(`${answer.path} declares an admin-invoke binding`);
    }
    assert.deepEqual(problems, []);
  });

  test(`${RULE}: the admin log of all that work holds no token`, () => {
    const log = demo.app.admin.log.join('\n');
    assert.ok(log.includes('invoke admin.page.publish by ada on a: executed'));
    for (const secret of secrets) assert.ok(!log.includes(secret));
  });
});
