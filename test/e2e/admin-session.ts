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

/** The admin API traffic of a page: every request's method, path and JSON body, and each confirmation token the admin handed out. */
export interface AdminTraffic {
  requests: { method: string; path: string; body?: unknown }[];
  /** POSTs to the invoke route with a `confirmation_token` (the editor's approvals). */
  approvals(): number;
  /** The confirmation tokens Capell's answers handed out (read from the answers, for the leak checks). */
  tokens: string[];
}

/**
 * Starts recording the page's requests below `/admin/agent/v1/`. The invoke answers pass through
 * a route (fetched from the real server, handed to the page unchanged), so each token is read from
 * the very bytes the page gets: a `response` event's body can be gone once the page has read it.
 */
export async function recordAdminTraffic(page: Page): Promise<AdminTraffic> {
  const traffic: AdminTraffic = {
    requests: [],
    approvals: () => traffic.requests.filter((request) => request.method === 'POST' && typeof (request.body as { confirmation_token?: unknown } | undefined)?.confirmation_token === 'string').length,
    tokens: [],
  };
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith('/admin/agent/v1/')) return;
    const data = request.postData();
    let body: unknown;
    try {
      body = data === null ? undefined : JSON.parse(data);
    } catch {
      body = data;
    }
    traffic.requests.push(body === undefined ? { method: request.method(), path } : { method: request.method(), path, body });
  });
  await page.route('**/admin/agent/v1/tools/invoke', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    try {
      const token = (JSON.parse(body) as { confirmationToken?: string }).confirmationToken;
      if (token) traffic.tokens.push(token);
    } catch {
      // A refusal carries no token.
    }
    await route.fulfill({ response, body });
  });
  return traffic;
}
