/**
 * The demo server's strict Content-Security-Policy and its audit surfaces: the newsletter form
 * marked data-agent-tools="none" and the undeclared back-in-stock form, both posting to /signups.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CONTENT_SECURITY_POLICY } from '../../demo/server/responses.js';
import { startDemoServer } from '../../demo/server/start.js';

let server: Awaited<ReturnType<typeof startDemoServer>>;
before(async () => { server = await startDemoServer({ host: '127.0.0.1', port: 0 }); });
after(async () => { await server.close(); });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function post(path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
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
});
