/**
 * The demo admin's session boundary and registry (the admin cookie, admin pages only with a
 * session, and `GET /admin/agent/v1/tools` listing only what the actor may do now), over real HTTP
 * against one demo app.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAdminDemo, type AdminDemo, type Json } from '../support/demo-admin-client.ts';

const RULE = 'Capell Agent Schema, Navigation, forms, and admin tools';

const ADMIN_PAGES = ['/admin', '/admin/', '/admin/sites/a/', '/admin/sites/b/', '/admin/sites/a/pages/about', '/admin/sites/b/pages/hours', '/admin/no-such-page'];
const ADMIN_API_PATHS = ['/admin/agent/v1', '/admin/agent/v1/', '/admin/agent/v1/tools', '/admin/agent/v1/content?site=a', '/admin/agent/v1/content?site=a&page=about', '/admin/agent/v1/no-such-endpoint', '/admin/agent/v1/actions/property.write/preview'];
const ADMIN_ACTION_POSTS = ['/admin/agent/v1/actions/property.write/preview', '/admin/agent/v1/actions/page.publish/confirm', '/admin/agent/v1/actions/no.such/preview', '/admin/agent/v1/tools', '/admin/agent/v1/no-such-endpoint'];

/** What an admin answer without a session must never show: pages' content, tool names, the registry's binding. */
const ADMIN_DATA = ['About us', 'Opening hours', 'admin.content.read', 'admin.property.write', 'admin-action', '/admin/agent/v1', 'data-admin-registry', 'csrf-token" content="'];

let demo: AdminDemo;

before(async () => {
  demo = await startAdminDemo();
});
after(async () => {
  await demo.close();
});

describe('demo admin: sign-in', () => {
  test(`${RULE}: "the existing session": sign-in answers 303 to /admin/ with an HttpOnly, SameSite=Lax, Path=/admin cookie, a new id each time`, async () => {
    const form = await demo.fetch('/admin/sign-in');
    assert.equal(form.status, 200);
    assert.equal(form.headers.get('cache-control'), 'no-store');
    const anonymous = form.headers.get('set-cookie')?.split(';')[0] ?? '';
    const token = /name="_token" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const answer = await demo.fetch('/admin/sign-in', {
        method: 'POST',
        headers: { Origin: demo.url, Cookie: anonymous, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _token: token, actor: 'ada', password: 'demo-ada' }).toString(),
      });
      assert.equal(answer.status, 303);
      assert.equal(answer.headers.get('location'), '/admin/');
      const setCookie = answer.headers.get('set-cookie') ?? '';
      const [pair, ...flags] = setCookie.split(';').map((part) => part.trim());
      assert.match(pair ?? '', /^capell_admin=[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(flags.sort(), ['HttpOnly', 'Path=/admin', 'SameSite=Lax']);
      ids.push(pair ?? '');
    }
    assert.notEqual(ids[0], ids[1], 'every sign-in gets a new session id');
  });

  test(`${RULE}: a wrong password or an unknown editor is refused with 401 and no session`, async () => {
    const form = await demo.fetch('/admin/sign-in');
    const anonymous = form.headers.get('set-cookie')?.split(';')[0] ?? '';
    const token = /name="_token" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    for (const [actor, password] of [['ada', 'demo-bo'], ['ada', ''], ['mallory', 'demo-mallory'], ['gil', 'DEMO-GIL']]) {
      const answer = await demo.fetch('/admin/sign-in', {
        method: 'POST',
        headers: { Origin: demo.url, Cookie: anonymous, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _token: token, actor: actor ?? '', password: password ?? '' }).toString(),
      });
      assert.equal(answer.status, 401, `${actor}/${password}`);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(answer.text, /Unknown editor or wrong password\./);
      assert.ok(!(answer.headers.get('set-cookie') ?? '').includes('capell_admin'), 'no admin session for a refused sign-in');
    }
  });

  test(`${RULE}: the sign-in form needs the anonymous session's CSRF token (419 without it) and this origin (403 from another)`, async () => {
    const form = await demo.fetch('/admin/sign-in');
    const anonymous = form.headers.get('set-cookie')?.split(';')[0] ?? '';
    const body = new URLSearchParams({ _token: 'not-the-token', actor: 'ada', password: 'demo-ada' }).toString();
    const expired = await demo.fetch('/admin/sign-in', { method: 'POST', headers: { Origin: demo.url, Cookie: anonymous, 'Content-Type': 'application/x-www-form-urlencoded' }, body });
    assert.equal(expired.status, 419);
    const token = /name="_token" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const crossOrigin = await demo.fetch('/admin/sign-in', {
      method: 'POST',
      headers: { Origin: 'http://evil.example', Cookie: anonymous, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _token: token, actor: 'ada', password: 'demo-ada' }).toString(),
    });
    assert.equal(crossOrigin.status, 403);
    assert.ok(!(crossOrigin.headers.get('set-cookie') ?? '').includes('capell_admin'));
  });

  test(`${RULE}: signing out (with the admin CSRF token) ends the session; endSession() ends one too`, async () => {
    const ada = await demo.signIn('ada');
    assert.equal((await ada.get('/admin/agent/v1/tools')).status, 200);
    const refused = await demo.fetch('/admin/sign-out', { method: 'POST', headers: { Origin: demo.url, Cookie: ada.cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: '_token=wrong' });
    assert.equal(refused.status, 419);
    assert.equal((await ada.get('/admin/agent/v1/tools')).status, 200, 'a refused sign-out ends nothing');
    const out = await demo.fetch('/admin/sign-out', { method: 'POST', headers: { Origin: demo.url, Cookie: ada.cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _token: ada.csrf }).toString() });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), '/admin/sign-in');
    assert.equal((await ada.get('/admin/agent/v1/tools')).status, 401);
    assert.equal((await ada.get('/admin/')).status, 303);

    const bo = await demo.signIn('bo');
    assert.equal(demo.app.admin.endSession(bo.sessionId), true);
    assert.equal((await bo.get('/admin/agent/v1/tools')).json.error.code, 'unauthenticated');
  });
});

describe('demo admin: nothing without a session', () => {
  test(`${RULE}: every admin page without a session answers 303 to /admin/sign-in and shows no admin data`, async () => {
    for (const cookie of [undefined, 'capell_admin=not-a-session', `capell_admin=${'A'.repeat(43)}`]) {
      for (const path of ADMIN_PAGES) {
        const answer = await demo.fetch(path, cookie ? { headers: { Cookie: cookie } } : {});
        assert.equal(answer.status, 303, `${path} with ${cookie}`);
        assert.equal(answer.headers.get('location'), '/admin/sign-in');
        assert.equal(answer.headers.get('cache-control'), 'no-store');
        for (const word of ADMIN_DATA) assert.ok(!answer.text.includes(word), `${path} shows ${word}`);
      }
    }
  });

  test(`${RULE}: every /admin/agent/v1 path without a session, known or not, GET or POST, answers 401 unauthenticated and nothing else`, async () => {
    const expected = { capellAgentSchema: 1, error: { code: 'unauthenticated', message: 'sign in to the admin first' } };
    for (const path of ADMIN_API_PATHS) {
      const answer = await demo.fetch(path);
      assert.equal(answer.status, 401, path);
      assert.deepEqual(answer.json, expected, path);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
    }
    for (const path of ADMIN_ACTION_POSTS) {
      const answer = await demo.fetch(path, { method: 'POST', headers: { Origin: demo.url, 'Content-Type': 'application/json' }, body: JSON.stringify({ site: 'a', page: 'about' }) });
      assert.equal(answer.status, 401, path);
      assert.deepEqual(answer.json, expected, path);
    }
  });

  test(`${RULE}: an admin POST without the session's admin CSRF token is 419, with another session's token too`, async () => {
    const ada = await demo.signIn('ada');
    const other = await demo.signIn('ada');
    const payload = { site: 'a', page: 'about', property: 'title', value: 'x' };
    const none = await ada.post('/actions/property.write/preview', payload, { 'X-CSRF-TOKEN': '' });
    assert.equal(none.status, 419);
    assert.equal(none.json.error.code, 'csrf_mismatch');
    const foreign = await ada.post('/actions/property.write/preview', payload, { 'X-CSRF-TOKEN': other.csrf });
    assert.equal(foreign.status, 419);
    for (const path of ['/actions/page.publish/confirm', '/actions/no.such/preview', '/tools', '/no-such-endpoint']) {
      assert.equal((await ada.post(path, payload, { 'X-CSRF-TOKEN': '' })).status, 419, path);
    }
    assert.equal((await ada.preview('property.write', payload)).status, 200);
  });

  test(`${RULE}: an admin API POST from another origin is refused before the handler`, async () => {
    const ada = await demo.signIn('ada');
    const answer = await ada.post('/actions/property.write/preview', { site: 'a', page: 'about', property: 'title', value: 'x' }, { Origin: 'http://evil.example' });
    assert.equal(answer.status, 403);
    assert.ok(!('data' in (answer.json ?? {})));
  });
});

describe('demo admin: pages', () => {
  test(`${RULE}: admin pages load the runtime with data-admin-registry and the admin CSRF token, and never hold a declaration or token`, async () => {
    const gil = await demo.signIn('gil');
    const preview = await gil.preview('property.write', { site: 'a', page: 'home', property: 'title', value: 'Home, sweet' });
    const token = preview.json.data.confirmation.token as string;
    for (const path of ['/admin/', '/admin/sites/a/', '/admin/sites/b/', '/admin/sites/a/pages/about', '/admin/sites/b/pages/resoling']) {
      const answer = await gil.get(path);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.ok(answer.text.includes('<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-admin-registry></script>'), path);
      assert.ok(answer.text.includes(`<meta name="csrf-token" content="${gil.csrf}">`), path);
      for (const word of ['admin.content.read', 'admin.property.write', 'admin.page.publish', 'admin-action', '/admin/agent/v1', 'inputSchema', token]) {
        assert.ok(!answer.text.includes(word), `${path} contains ${word}`);
      }
    }
    const dashboard = await gil.get('/admin/');
    assert.match(dashboard.text, /Gil Moreau/);
    assert.match(dashboard.text, /Capell Outfitters/);
    assert.match(dashboard.text, /Capell Workshop/);
  });

  test(`${RULE}: the dashboard lists only the actor's sites, and another site's pages answer 403`, async () => {
    const ada = await demo.signIn('ada');
    const dashboard = await ada.get('/admin/');
    assert.match(dashboard.text, /Capell Outfitters/);
    assert.ok(!dashboard.text.includes('Capell Workshop'));
    assert.equal((await ada.get('/admin/sites/b/')).status, 403);
    assert.equal((await ada.get('/admin/sites/b/pages/hours')).status, 403);
    assert.ok(!(await ada.get('/admin/sites/b/pages/hours')).text.includes('Opening hours'));
  });
});

describe('demo admin: the registry', () => {
  const READ = 'admin.content.read';
  const SITE_WRITES = ['admin.property.write', 'admin.term.assign', 'admin.draft.create', 'admin.page.publish'];

  test(`${RULE}: "a separate registry" lists only what the actor may do: ada and bo their own site, gil both and the global property sets`, async () => {
    for (const [actor, sites, global] of [['ada', ['a'], false], ['bo', ['b'], false], ['gil', ['a', 'b'], true]] as const) {
      const editor = await demo.signIn(actor);
      const answer = await editor.get('/admin/agent/v1/tools');
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/);
      assert.deepEqual(answer.json.links, { next: null, previous: null });
      const tools: Json[] = answer.json.data;
      assert.deepEqual(tools.map((tool) => tool.name), [READ, ...SITE_WRITES, ...(global ? ['admin.globalproperty.write'] : [])], actor);
      for (const tool of tools) {
        assert.equal(typeof tool.description, 'string');
        assert.deepEqual(tool.outputSchema, { type: 'object' });
        assert.equal(tool.inputSchema.type, 'object');
        assert.equal(tool.inputSchema.additionalProperties, false);
        if (tool.name === 'admin.globalproperty.write') {
          assert.deepEqual(Object.keys(tool.inputSchema.properties), ['set', 'property', 'value']);
        } else {
          assert.deepEqual(tool.inputSchema.properties.site.enum, sites, `${actor} ${tool.name}`);
        }
        if (tool.name === READ) {
          assert.equal(tool.effect, 'read');
          assert.deepEqual(tool.binding, { type: 'endpoint', target: '/admin/agent/v1/content' });
        } else {
          assert.equal(tool.effect, 'write');
          assert.deepEqual(tool.binding, { type: 'admin-action', target: tool.name.slice('admin.'.length) });
        }
      }
    }
  });

  test(`${RULE}: the registry reads the rights on every request (a revoked right leaves it at once)`, async () => {
    const ada = await demo.signIn('ada');
    demo.app.admin.revoke('ada', 'a', 'page.publish');
    try {
      const names = (await ada.get('/admin/agent/v1/tools')).json.data.map((tool: Json) => tool.name);
      assert.ok(!names.includes('admin.page.publish'));
      assert.ok(names.includes('admin.property.write'));
    } finally {
      demo.app.admin.grant('ada', 'a', 'page.publish');
    }
    assert.ok((await ada.get('/admin/agent/v1/tools')).json.data.some((tool: Json) => tool.name === 'admin.page.publish'));
  });

  test(`${RULE}: "content reads" include drafts: admin.content.read answers a site's pages, one page with its draft, and 403 for another site`, async () => {
    const ada = await demo.signIn('ada');
    demo.app.admin.setDraftValue('a', 'journal', 'title', 'Field notes');
    try {
      const list = await ada.get('/admin/agent/v1/content?site=a');
      assert.equal(list.status, 200);
      assert.ok(list.json.data.some((page: Json) => page.page === 'prototypzeta-racer' && page.status === 'draft'), 'a draft page is readable in the admin');
      const one = await ada.get('/admin/agent/v1/content?site=a&page=journal');
      assert.equal(one.json.data.published.values.title, 'Journal');
      assert.equal(one.json.data.draft.values.title, 'Field notes');
      const forbidden = await ada.get('/admin/agent/v1/content?site=b');
      assert.equal(forbidden.status, 403);
      assert.deepEqual(forbidden.json.error.code, 'forbidden');
      assert.equal((await ada.get('/admin/agent/v1/content?site=a&page=no-such-page')).status, 404);
    } finally {
      demo.app.admin.reset();
    }
  });
});
