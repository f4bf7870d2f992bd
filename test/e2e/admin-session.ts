/**
 * What the admin specs share: an editor signing in through the demo's real sign-in form (the
 * session cookie and the admin CSRF token come from the server, as for a person), the admin
 * session's id (to end it from the test), and a record of the admin API requests the page made.
 */
import type { Page } from '@playwright/test';

/** Signs `actor` in through `/admin/sign-in` (password `demo-<actor>`) and waits for the dashboard. */
export async function signIn(page: Page, base: string, actor: string): Promise<void> {
  await page.goto(`${base}/admin/sign-in`);
  await page.selectOption('#actor', actor);
  await page.fill('#password', `demo-${actor}`);
  await Promise.all([page.waitForURL(`${base}/admin/`), page.click('button[type="submit"]')]);
}

/** The admin session's id: the `capell_admin` cookie's value. */
export async function adminSessionId(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((candidate) => candidate.name === 'capell_admin');
  if (!cookie) throw new Error('no capell_admin cookie: not signed in');
  return cookie.value;
}

/** The admin API traffic of a page: every request's method and path, and each preview's confirmation token. */
export interface AdminTraffic {
  requests: { method: string; path: string }[];
  /** POSTs to `…/confirm`. */
  confirms(): number;
  /** The tokens the server's previews handed out (read from the answers, for the leak checks). */
  tokens: string[];
}

/**
 * Starts recording the page's requests below `/admin/agent/v1/`. The preview answers pass through
 * a route (fetched from the real server, handed to the page unchanged), so each token is read from
 * the very bytes the page gets: a `response` event's body can be gone once the page has read it.
 */
export async function recordAdminTraffic(page: Page): Promise<AdminTraffic> {
  const traffic: AdminTraffic = {
    requests: [],
    confirms: () => traffic.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/confirm')).length,
    tokens: [],
  };
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/admin/agent/v1/')) traffic.requests.push({ method: request.method(), path });
  });
  await page.route('**/admin/agent/v1/actions/*/preview', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    try {
      const token = (JSON.parse(body) as { data?: { confirmation?: { token?: string } } }).data?.confirmation?.token;
      if (token) traffic.tokens.push(token);
    } catch {
      // A refused preview carries no token.
    }
    await route.fulfill({ response, body });
  });
  return traffic;
}
