/**
 * The demo server's strict Content-Security-Policy and its audit surfaces: the newsletter form
 * marked data-agent-tools="none" and the undeclared back-in-stock form, both posting to /signups
 * with the session's CSRF token, from the site's own origin, coming back to a safe `return`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CONTENT_SECURITY_POLICY } from '../../demo/server/responses.js';
import { startDemoServer } from '../../demo/server/start.js';

let server: Awaited<ReturnType<typeof startDemoServer>>;
/** A visitor's session: the cookie the first page set and the `_token` of its sign-up form. */
interface Session { cookie: string; token: string }
let visitor: Session;

/** Opens a session as a browser's first visit does, reading the token from the newsletter form. */
async function openSession(path = '/'): Promise<Session> {
  const response = await fetch(`${server.url}${path}`);
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  const token = /<form id="newsletter"[\s\S]*?name="_token" value="([A-Za-z]+)"/.exec(await response.text())?.[1];
  assert.ok(cookie && token);
  return { cookie, token };
}

before(async () => {
  server = await startDemoServer({ host: '127.0.0.1', port: 0 });
  visitor = await openSession();
});
after(async () => { await server.close(); });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** POSTs a form as the visitor's browser would: same Origin, the session cookie and its `_token`. */
function post(path: string, fields: Record<string, string>, { session = visitor, origin = server.url }: { session?: Session; origin?: string } = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...FORM, origin, cookie: session.cookie },
    body: new URLSearchParams({ _token: session.token, ...fields }).toString(),
    redirect: 'manual',
  });
}

describe('demo server: strict CSP and sign-up forms', () => {
  test('sends the strict Content-Security-Policy with HTML pages, the 404 page included', async () => {
    for (const path of ['/', '/de/produkte', '/no-such-page']) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY, path);
    }
    assert.match(CONTENT_SECURITY_POLICY, /script-src 'self';/);
    assert.doesNotMatch(CONTENT_SECURITY_POLICY, /unsafe-(inline|eval)/);
  });

  test('every page carries the newsletter form marked data-agent-tools="none" with a reason', async () => {
    const html = await (await fetch(`${server.url}/journal`)).text();
    assert.match(html, /<form id="newsletter"[^>]* data-agent-tools="none" data-agent-tools-reason="[^"]+"/);
  });

  test('only an out-of-stock product has the back-in-stock form, without any agent marker', async () => {
    const out = await (await fetch(`${server.url}/products/rolltop-backpack`)).text();
    assert.match(out, /<form id="back-in-stock" class="signup-form" action="\/signups" method="post">/);
    assert.match(out, /name="sku" value="CW-2002"/);
    const inStock = await (await fetch(`${server.url}/products/ridgeline-trail-runner`)).text();
    assert.doesNotMatch(inStock, /back-in-stock/);
  });

  test('records a sign-up and redirects with 303 back to the same-origin page', async () => {
    const response = await post('/signups', { list: 'back-in-stock', email: 'ada@example.test', sku: 'CW-2002', return: '/products/rolltop-backpack' });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/products/rolltop-backpack?signed-up=1');
    assert.deepEqual(server.app.signups.at(-1), { list: 'back-in-stock', email: 'ada@example.test', sku: 'CW-2002' });
  });

  test('never redirects to another origin', async () => {
    for (const target of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
      const response = await post('/signups', { list: 'newsletter', email: 'ada@example.test', return: target });
      assert.equal(response.headers.get('location'), '/?signed-up=1', target);
    }
  });

  test('refuses an unknown list or a bad email with 422', async () => {
    assert.equal((await post('/signups', { list: 'everything', email: 'ada@example.test' })).status, 422);
    assert.equal((await post('/signups', { list: 'newsletter', email: 'not an email' })).status, 422);
  });

  test('a return that is not percent-encoded ASCII (a non-Latin-1 /☃ among them) is a 422 with the reason, never a 500', async () => {
    const before = server.app.signups.length;
    for (const target of ['/☃', '/café', '/a b', '/\t/evil.example', '/products\r\nSet-Cookie: x=y', '/%zz', ['/a', '/b']]) {
      const fields = new URLSearchParams({ _token: visitor.token, list: 'newsletter', email: 'ada@example.test' });
      for (const value of [target].flat()) fields.append('return', value);
      const response = await fetch(`${server.url}/signups`, { method: 'POST', headers: { ...FORM, origin: server.url, cookie: visitor.cookie }, body: fields.toString(), redirect: 'manual' });
      assert.equal(response.status, 422, JSON.stringify(target));
      assert.match(await response.text(), /^The return field must be /, JSON.stringify(target));
    }
    assert.equal(server.app.signups.length, before);
  });

  test('a percent-encoded return comes back encoded, without its query', async () => {
    const response = await post('/signups', { list: 'newsletter', email: 'ada@example.test', return: '/%E2%98%83?x=%C3%A9' });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/%E2%98%83?signed-up=1');
  });

  test('both sign-up forms carry the session\'s token; a token of another session (or none) is 419 and records nothing', async () => {
    const out = await fetch(`${server.url}/products/rolltop-backpack`, { headers: { cookie: visitor.cookie } });
    assert.equal(out.headers.get('set-cookie'), null);
    const html = await out.text();
    assert.match(html, new RegExp(`<form id="back-in-stock"[\\s\\S]*?name="_token" value="${visitor.token}"`));
    assert.match(html, new RegExp(`<form id="newsletter"[\\s\\S]*?name="_token" value="${visitor.token}"`));
    const other = await openSession('/de/');
    assert.notEqual(other.token, visitor.token);
    const before = server.app.signups.length;
    const fields = { list: 'newsletter', email: 'ada@example.test' };
    assert.equal((await post('/signups', fields, { session: { cookie: visitor.cookie, token: other.token } })).status, 419);
    assert.equal((await post('/signups', fields, { session: { cookie: visitor.cookie, token: '' } })).status, 419);
    assert.equal(server.app.signups.length, before);
    assert.equal((await post('/signups', fields, { session: other })).status, 303);
    assert.equal(server.app.signups.length, before + 1);
  });

  test('a sign-up from another Origin is 403 and records nothing', async () => {
    const before = server.app.signups.length;
    const response = await post('/signups', { list: 'newsletter', email: 'ada@example.test' }, { origin: 'http://evil.example' });
    assert.equal(response.status, 403);
    assert.match(await response.text(), /The request came from http:\/\/evil\.example/);
    assert.equal(server.app.signups.length, before);
  });

  test('counts the address in code points: 254 emoji-heavy code points are signed up, 255 are a 422', async () => {
    const email = `${'\u{1F600}'.repeat(241)}@example.test`;
    assert.equal((await post('/signups', { list: 'newsletter', email })).status, 303);
    assert.equal(server.app.signups.at(-1)?.email, email);
    assert.equal((await post('/signups', { list: 'newsletter', email: `\u{1F600}${email}` })).status, 422);
  });
});
