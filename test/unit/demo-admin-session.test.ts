/**
 * The demo admin's session boundary and registry (the admin cookie, admin pages only with a
 * session, and `GET /admin/agent/v1/tools` answering as Capell's admin does, with only what the
 * actor may do now on the session's site), over real HTTP against one demo app.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startAdminDemo, type AdminDemo, type Json } from '../support/demo-admin-client.ts';

const RULE = 'Capell Agent Schema, Navigation, forms, and admin tools';

const ADMIN_PAGES = ['/admin', '/admin/', '/admin/sites/a/', '/admin/sites/b/', '/admin/sites/a/pages/about', '/admin/sites/b/pages/hours', '/admin/no-such-page'];
const ADMIN_API_PATHS = ['/admin/agent/v1', '/admin/agent/v1/', '/admin/agent/v1/tools', '/admin/agent/v1/tools?site_id=1', '/admin/agent/v1/tools/invoke', '/admin/agent/v1/no-such-endpoint'];
const ADMIN_API_POSTS = ['/admin/agent/v1/tools/invoke', '/admin/agent/v1/tools', '/admin/agent/v1/no-such-endpoint'];

/** What an admin answer without a session must never show: pages' content, tool names, the registry's binding. */
const ADMIN_DATA = ['About us', 'Opening hours', 'admin.page.properties.read', 'admin.page.terms.write', 'admin-invoke', '/admin/agent/v1', 'data-admin-registry', 'csrf-token" content="'];

/** A write's payload for the About page (site a). */
const ABOUT_TERMS = { page_id: 810702, term_ids: [810404] };

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
    assert.deepEqual((await bo.get('/admin/agent/v1/tools')).json, { message: 'Unauthenticated.' });
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

  test(`${RULE}: every /admin/agent/v1 path without a session answers GET with 401 Unauthenticated. and POST with 419 (Laravel's web group checks CSRF first)`, async () => {
    for (const path of ADMIN_API_PATHS) {
      const answer = await demo.fetch(path, { headers: { Accept: 'application/json' } });
      assert.equal(answer.status, 401, path);
      assert.equal(answer.text, '{"message":"Unauthenticated."}', path);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
    }
    for (const path of ADMIN_API_POSTS) {
      const answer = await demo.fetch(path, { method: 'POST', headers: { Origin: demo.url, 'Content-Type': 'application/json' }, body: JSON.stringify({ tool: 'admin.page.terms.write', payload: ABOUT_TERMS }) });
      assert.equal(answer.status, 419, path);
      assert.deepEqual(answer.json, { message: 'CSRF token mismatch.' }, path);
    }
  });

  test(`${RULE}: an admin POST without the session's admin CSRF token is 419, with another session's token too`, async () => {
    const ada = await demo.signIn('ada');
    const other = await demo.signIn('ada');
    const body = { tool: 'admin.page.terms.write', payload: ABOUT_TERMS };
    const none = await ada.post('/tools/invoke', body, { 'X-CSRF-TOKEN': '' });
    assert.equal(none.status, 419);
    assert.deepEqual(none.json, { message: 'CSRF token mismatch.' });
    assert.equal((await ada.post('/tools/invoke', body, { 'X-CSRF-TOKEN': other.csrf })).status, 419);
    for (const path of ['/tools', '/no-such-endpoint']) assert.equal((await ada.post(path, body, { 'X-CSRF-TOKEN': '' })).status, 419, path);
    assert.equal((await ada.invoke('admin.page.terms.write', ABOUT_TERMS)).status, 200);
  });

  test(`${RULE}: an admin API POST from another origin is refused before the handler`, async () => {
    const ada = await demo.signIn('ada');
    const answer = await ada.post('/tools/invoke', { tool: 'admin.page.terms.write', payload: ABOUT_TERMS }, { Origin: 'http://evil.example' });
    assert.equal(answer.status, 403);
    assert.ok(!('data' in (answer.json ?? {})));
    assert.deepEqual(demo.app.admin.confirmationRecords().filter((record: Json) => record.user_id === 'ada' && record.session_id === ada.sessionId), []);
  });
});

describe('demo admin: pages', () => {
  test(`${RULE}: admin pages load the runtime with data-admin-registry and the admin CSRF token, and never hold a declaration or token`, async () => {
    const gil = await demo.signIn('gil');
    const preview = await gil.invoke('admin.page.terms.write', ABOUT_TERMS);
    const token = preview.json.confirmationToken as string;
    for (const path of ['/admin/', '/admin/sites/a/', '/admin/sites/b/', '/admin/sites/a/pages/about', '/admin/sites/b/pages/resoling']) {
      const answer = await gil.get(path);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.ok(answer.text.includes('<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-admin-registry></script>'), path);
      assert.ok(answer.text.includes(`<meta name="csrf-token" content="${gil.csrf}">`), path);
      for (const word of ['admin.page.properties.read', 'admin.page.terms.write', 'admin.page.publish', 'admin-invoke', '/admin/agent/v1', 'inputSchema', token]) {
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

describe('demo admin: the registry (Capell admin, AgentAdminToolController::definitions @73e5701)', () => {
  const fixture = (file: string) => readFileSync(new URL(`../fixtures/capell/admin/${file}`, import.meta.url), 'utf8');

  test(`${RULE}: "a separate registry" is Capell's answer byte for byte: gil (a global admin) gets tools.json's 13 tools, ada and bo (site editors) tools-site-editor.json's 10`, async () => {
    for (const [actor, file, count] of [['gil', 'tools.json-encoded.txt', 13], ['ada', 'tools-site-editor.json-encoded.txt', 10], ['bo', 'tools-site-editor.json-encoded.txt', 10]] as const) {
      const editor = await demo.signIn(actor);
      const answer = await editor.get('/admin/agent/v1/tools');
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.equal(answer.headers.get('content-type'), 'application/json');
      assert.equal(answer.text, fixture(file), actor);
      assert.equal(answer.json.tools.length, count);
    }
  });

  test(`${RULE}: the registry reads the rights on every request (a revoked right leaves it at once)`, async () => {
    const ada = await demo.signIn('ada');
    demo.app.admin.revoke('ada', 'a', 'page.update');
    try {
      const names = (await ada.get('/admin/agent/v1/tools')).json.tools.map((tool: Json) => tool.name);
      assert.ok(!names.includes('admin.page.terms.write'));
      assert.ok(names.includes('admin.page.properties.read'));
    } finally {
      demo.app.admin.grant('ada', 'a', 'page.update');
    }
    assert.ok((await ada.get('/admin/agent/v1/tools')).json.tools.some((tool: Json) => tool.name === 'admin.page.terms.write'));
  });

  test(`${RULE}: the site follows the session: a site_id in the query is refused with 422, and opening site b's admin page makes b the session's site`, async () => {
    const gil = await demo.signIn('gil');
    const refused = await gil.get('/admin/agent/v1/tools?site_id=2');
    assert.equal(refused.status, 422);
    assert.equal(refused.text, '{\n    "message": "The active site must come from the authenticated admin session."\n}');
    const onA = await gil.invoke('admin.site.agent_readiness.read', {});
    assert.equal(onA.json.data.site_id, 810001);
    assert.equal((await gil.get('/admin/sites/b/')).status, 200);
    const onB = await gil.invoke('admin.site.agent_readiness.read', {});
    assert.equal(onB.json.data.site_id, 820001);
    assert.equal(onB.json.data.pages_checked, 3);
  });
});
