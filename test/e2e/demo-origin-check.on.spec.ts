/**
 * The demo's Origin check in real Chromium: a page of a second origin (another port of the same
 * host, so same-site: the browser sends the SameSite=Lax session cookie with it) posts to the
 * demo's forms with the visitor's real CSRF token, as if the token had leaked. Only the Origin
 * check stands between that post and a delivered message; the demo must answer 403 and deliver
 * nothing, counted on the server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, sharedTabTest as test } from './demo-fixture.ts';

let attacker: Server;
let attackerOrigin: string;
/** What the attacker's page is, set by each test before it visits it. */
let attackPage = '';

test.beforeAll(async () => {
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(attackPage);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  attacker.closeAllConnections();
  await new Promise((resolve) => attacker.close(resolve));
});

/** An HTML form that submits itself on load to `action` with `fields`. */
function autoSubmittingForm(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`).join('');
  return `<!doctype html><title>Win a lantern</title><form action="${action}" method="post">${inputs}</form><script>document.forms[0].submit()</script>`;
}

test.describe('a page of another origin posting to the demo', () => {
  test('a cross-origin auto-submitted contact form with the visitor\'s own token and cookie is 403 and delivers nothing', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact/plain`);
    const token = await page.locator('meta[name="csrf-token"]').getAttribute('content');
    expect(token).toMatch(/^[A-Za-z]+$/);
    expect((await page.context().cookies(demo.url)).map((cookie) => cookie.name)).toContain('capell_session');
    const before = { submissions: demo.submissions.length, formPosts: demo.formPosts.length, refused: demo.refused.length };

    attackPage = autoSubmittingForm(`${demo.url}/contact/plain`, { _token: token!, name: 'Mallory', email: 'mallory@example.test', topic: 'other', message: 'Sent from another origin' });
    const answer = page.waitForResponse((response) => response.url() === `${demo.url}/contact/plain` && response.request().method() === 'POST');
    await page.goto(`${attackerOrigin}/win`);
    expect((await answer).status()).toBe(403);
    await expect(page.locator('p')).toContainText(`The request came from ${attackerOrigin}, not from ${demo.url}`);

    expect(demo.submissions).toHaveLength(before.submissions);
    expect(demo.formPosts).toHaveLength(before.formPosts);
    expect(demo.refused).toHaveLength(before.refused + 1);
    expect(demo.refused.at(-1)).toMatchObject({ method: 'POST', path: '/contact/plain', origin: attackerOrigin });
  });

  test('a cross-origin sign-up and a no-cors fetch to the contact action are 403 too', async ({ page, demo }) => {
    await page.goto(`${demo.url}/products/rolltop-backpack`);
    const token = await page.locator('#back-in-stock input[name="_token"]').inputValue();
    const before = { signups: demo.signups.length, submissions: demo.submissions.length, refused: demo.refused.length };

    attackPage = autoSubmittingForm(`${demo.url}/signups`, { _token: token, list: 'back-in-stock', sku: 'CW-2002', email: 'mallory@example.test', return: '/' });
    const answer = page.waitForResponse((response) => response.url() === `${demo.url}/signups`);
    await page.goto(`${attackerOrigin}/notify`);
    expect((await answer).status()).toBe(403);

    attackPage = '<!doctype html><title>Nothing to see</title>';
    await page.goto(`${attackerOrigin}/quiet`);
    expect(await page.evaluate(() => location.origin)).toBe(attackerOrigin);
    await page.evaluate(async ({ url, token }) => {
      const body = new URLSearchParams({ _token: token, name: 'Mallory', email: 'mallory@example.test', topic: 'other', message: 'fetch' });
      await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', body });
    }, { url: `${demo.url}/contact/plain`, token });
    await expect.poll(() => demo.refused.length).toBe(before.refused + 2);

    expect(demo.signups).toHaveLength(before.signups);
    expect(demo.submissions).toHaveLength(before.submissions);
    expect(demo.refused.slice(-2).map(({ path, origin }) => ({ path, origin }))).toEqual([
      { path: '/signups', origin: attackerOrigin },
      { path: '/contact/plain', origin: attackerOrigin },
    ]);
  });

  test('a cross-origin post to the Livewire update endpoint, with the visitor\'s token and snapshot, is 403 and reaches no handler', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact`);
    const { token, snapshot, endpoint } = await page.evaluate(() => ({
      token: document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!,
      snapshot: document.querySelector('[wire\\:snapshot]')!.getAttribute('wire:snapshot')!,
      endpoint: document.querySelector('script[data-update-uri]')!.getAttribute('data-update-uri')!,
    }));
    const before = { posts: demo.livewirePosts.length, submissions: demo.submissions.length, refused: demo.refused.length };
    attackPage = '<!doctype html><title>Nothing to see</title>';
    await page.goto(`${attackerOrigin}/quiet`);
    await page.evaluate(async ({ url, body }) => {
      // text/plain keeps it a simple request: no preflight stops it before the server.
      await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', body });
    }, {
      url: `${demo.url}${endpoint}`,
      body: JSON.stringify({ _token: token, components: [{ snapshot, updates: { 'data.name': 'Mallory', 'data.email': 'mallory@example.test', 'data.topic': 'other', 'data.message': 'fetch' }, calls: [{ method: 'submit', params: [], metadata: {} }] }] }),
    });
    await expect.poll(() => demo.refused.length).toBe(before.refused + 1);
    expect(demo.refused.at(-1)).toMatchObject({ method: 'POST', path: endpoint, origin: attackerOrigin });
    expect(demo.livewirePosts).toHaveLength(before.posts);
    expect(demo.submissions).toHaveLength(before.submissions);
  });
});
