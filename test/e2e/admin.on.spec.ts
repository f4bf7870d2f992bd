/**
 * The runtime's admin registry end to end, in Chromium with WebMCP on, against the real demo server
 * playing Core's admin: an editor signs in through the sign-in form, the runtime fetches the admin
 * registry (`data-admin-registry`), an agent calls admin tools through
 * `document.modelContext.executeTool`, the panel shows the server's preview, and only the person's
 * real click (Playwright's mouse) confirms. Refusals between preview and click come back as
 * `isError` with the server's reason, after exactly one confirm (nothing retried). Public pages
 * register no admin tool, and a public island cannot declare one.
 */
import { createServer } from 'node:http';
import { createDemoApp } from '../../demo/server/app.js';
import { listen } from '../../demo/server/listen.js';
import { answerOf } from '../support/answer-of.ts';
import { callResult, startCall, call } from './agent-calls.ts';
import { adminSessionId, recordAdminTraffic, signIn } from './admin-session.ts';
import { executeTool, expect, listTools, readyReport, serveEdited, sharedTabTest as test } from './demo-fixture.ts';
import { panel } from './panel-driver.ts';

/** The admin tools the editor of site `a` (ada) may use (the admin contract's table, without the global admin's). */
const ADA_TOOLS = ['admin.content.read', 'admin.draft.create', 'admin.page.publish', 'admin.property.write', 'admin.term.assign'];

/** ada's change of the About page's title, and what the server's preview says about it. */
const RETITLE = { site: 'a', page: 'about', property: 'title', value: 'Our story' };

type Content = { draft: { values: Record<string, string> } | null; published: { values: Record<string, string> } };

test.describe('admin registry: a signed-in editor and an agent', () => {
  test.beforeEach(({ demo }) => {
    // The worker's server is shared by its tests: its pages, drafts and ada's rights as first stored.
    demo.admin.reset();
    demo.admin.grant('ada', 'a', 'property.write');
  });

  test('the admin page registers the signed-in editor\'s admin tools, from the fetched registry', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    const report = await readyReport(page);
    expect(report.api).toBe('document.modelContext');
    expect(report.registered.filter((name) => name.startsWith('admin.')).sort()).toEqual(ADA_TOOLS);
    expect(report.registered).not.toContain('admin.globalproperty.write');
    expect(report.rejected).toEqual([]);
    expect((await listTools(page)).map((tool) => tool.name)).toEqual(expect.arrayContaining([...ADA_TOOLS, 'capell.write.status']));
    expect(traffic.requests).toEqual([{ method: 'GET', path: '/admin/agent/v1/tools' }]);
    // Nothing of the registry is in the admin page's HTML: it was fetched.
    expect(await page.content()).not.toContain('admin.property.write');
  });

  test('signed out (the registry answers 401): no admin tool, and one "not signed in to the admin" problem in the Report', async ({ page, demo }) => {
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    const dashboard = await page.content();
    demo.admin.endSession(await adminSessionId(page));
    // The same admin page again (the server itself would now redirect to the sign-in form).
    await page.route(`${demo.url}/admin/`, (route) => route.fulfill({ contentType: 'text/html', body: dashboard }));
    const traffic = await recordAdminTraffic(page);
    await page.goto(`${demo.url}/admin/`);
    const report = await readyReport(page);
    expect(report.registered.filter((name) => name.startsWith('admin.'))).toEqual([]);
    expect(report.rejected).toEqual([{
      name: '(manifest)', source: 'capell-admin[0]',
      reasons: ['manifest: not signed in to the admin (the admin registry answered 401): no admin tool is registered'],
    }]);
    expect(traffic.requests).toEqual([{ method: 'GET', path: '/admin/agent/v1/tools' }]);
  });

  test('admin.content.read answers like a public read: the whole envelope, with the editor\'s drafts', async ({ page, demo }) => {
    demo.admin.setDraftValue('a', 'about', 'title', 'A draft title');
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    const result = await executeTool(page, 'admin.content.read', { site: 'a', page: 'about' });
    expect(result.isError).toBeUndefined();
    const answer = answerOf(result) as { capellAgentSchema: number; data: Content; links: unknown };
    expect(answer).toEqual({ capellAgentSchema: 1, data: demo.admin.read('a', 'about'), links: { next: null, previous: null } });
    expect(answer.data.draft!.values.title).toBe('A draft title');
    // Refused like a public read: the status and the server's one line.
    const refused = await executeTool(page, 'admin.content.read', { site: 'a', page: 'nowhere' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toBe('HTTP 404 from /admin/agent/v1/content: Site a has no page nowhere.');
  });

  test('an admin write: the panel shows the server\'s preview (diff, site, actor); a script-made click does nothing; the person\'s click confirms and the change is in the admin API', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.property.write', RETITLE);
    const shown = await panel(page).waitOpen();
    for (const text of [
      'Set title of /about (draft) to “Our story”', '/about › title (draft)', 'Before: About us', 'After: Our story',
      'Site', 'Capell Outfitters', 'Signed in as', 'Ada Lindqvist (editor, site A)',
    ]) expect(shown.text).toContain(text);
    expect(traffic.requests.map((request) => request.path)).toEqual(['/admin/agent/v1/tools', '/admin/agent/v1/actions/property.write/preview']);

    // The root is closed: a page script reaches only the host; clicking it, or what is at Send's
    // coordinates, or dispatching a click there, is not the person's consent.
    await panel(page).waitArmed();
    const send = (await panel(page).state())!.buttons.find((button) => button.text === 'Send')!;
    expect(await page.evaluate(({ x, y }) => {
      const host = document.querySelector('capell-confirm-write')!;
      host.click();
      (document.elementFromPoint(x, y) as HTMLElement).click();
      host.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, clientX: x, clientY: y }));
      return host.shadowRoot === null && document.elementFromPoint(x, y) === host;
    }, send)).toBe(true);
    await page.waitForTimeout(300);
    expect(traffic.confirms()).toBe(0);
    expect((demo.admin.read('a', 'about') as Content).draft).toBeNull();

    await panel(page).click('Send');
    const answer = answerOf(await callResult(page)) as { status: string; httpStatus: number; answer: { data: { action: string; done: boolean; summary: string } } };
    expect(answer).toMatchObject({ status: 'submitted', httpStatus: 200, answer: { data: { action: 'property.write', done: true, summary: 'Set title of /about (draft) to “Our story”' } } });
    expect(traffic.confirms()).toBe(1);
    await panel(page).waitText('Sent.');
    // In the admin API: the draft holds the new title, the published page still the old one.
    const content = answerOf(await executeTool(page, 'admin.content.read', { site: 'a', page: 'about' })) as { data: Content };
    expect(content.data.draft!.values.title).toBe('Our story');
    expect(content.data.published.values.title).toBe('About us');
  });

  test('admin.page.publish: after the person\'s click the change is on the public site', async ({ page, demo }) => {
    demo.admin.setDraftValue('a', 'about', 'title', 'Our story');
    const before = await (await fetch(`${demo.url}/about`)).text();
    expect(before).not.toContain('Our story');
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.page.publish', { site: 'a', page: 'about' });
    const shown = await panel(page).waitOpen();
    expect(shown.text).toContain('About us');
    expect(shown.text).toContain('Our story');
    await panel(page).click('Send');
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'submitted', httpStatus: 200 });
    expect(await (await fetch(`${demo.url}/about`)).text()).toContain('Our story');
  });

  test('a preview the server refuses is isError with its status and message, and no panel opens', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    demo.admin.revoke('ada', 'a', 'property.write');
    const result = await call(page, 'admin.property.write', RETITLE);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^admin\.property\.write: HTTP 403 from \/admin\/agent\/v1\/actions\/property\.write\/preview: \S/);
    expect(await panel(page).count()).toBe(0);
    expect(traffic.confirms()).toBe(0);
  });

  test('signed out between preview and click: isError with the server\'s reason (401), one confirm, nothing retried', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.property.write', RETITLE);
    await panel(page).waitOpen();
    expect(demo.admin.endSession(await adminSessionId(page))).toBe(true);
    await panel(page).click('Send');
    const result = await callResult(page);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('admin.property.write: HTTP 401 from /admin/agent/v1/actions/property.write/confirm: sign in to the admin first');
    await panel(page).waitText('The site did not accept it (HTTP 401): sign in to the admin first');
    await page.waitForTimeout(300);
    expect(traffic.confirms()).toBe(1);
    expect((demo.admin.read('a', 'about') as Content).draft).toBeNull();
  });

  test('the right revoked between preview and click: isError 403 forbidden, one confirm, nothing retried', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.property.write', RETITLE);
    await panel(page).waitOpen();
    const logged = demo.admin.log.length;
    demo.admin.revoke('ada', 'a', 'property.write');
    await panel(page).click('Send');
    const result = await callResult(page);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^admin\.property\.write: HTTP 403 from \/admin\/agent\/v1\/actions\/property\.write\/confirm: You may no longer property\.write on site a/);
    await page.waitForTimeout(300);
    expect(traffic.confirms()).toBe(1);
    expect(demo.admin.log.slice(logged).filter((line) => line.startsWith('confirm '))).toEqual(['confirm property.write by ada on a: refused (forbidden)']);
    expect((demo.admin.read('a', 'about') as Content).draft).toBeNull();
  });

  test('the value changed between preview and click: isError 409, one confirm, nothing retried', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.property.write', RETITLE);
    await panel(page).waitOpen();
    demo.admin.setDraftValue('a', 'about', 'title', 'Someone else\'s title');
    await panel(page).click('Send');
    const result = await callResult(page);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('admin.property.write: HTTP 409 from /admin/agent/v1/actions/property.write/confirm: The content changed since the preview; preview again.');
    await page.waitForTimeout(300);
    expect(traffic.confirms()).toBe(1);
    expect((demo.admin.read('a', 'about') as Content).draft!.values.title).toBe('Someone else\'s title');
  });

  test('the confirmation token stays in the call: not in the DOM, storage, the Report, the answers or the console', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.property.write', RETITLE);
    await panel(page).waitOpen();
    await expect.poll(() => traffic.tokens.length).toBe(1);
    const [token] = traffic.tokens;
    await panel(page).click('Send');
    const result = await callResult(page);
    const status = await executeTool(page, 'capell.write.status', {});
    const seen = await page.evaluate(() => JSON.stringify({
      html: document.documentElement.outerHTML,
      attributes: [...document.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((attribute) => attribute.value)),
      local: { ...localStorage },
      session: { ...sessionStorage },
      report: window.capellWebMCP!.report,
      url: location.href,
    }));
    const panelText = JSON.stringify(await panel(page).state());
    for (const place of [seen, panelText, JSON.stringify(result), JSON.stringify(status), logged.join('\n'), demo.admin.log.join('\n')]) {
      expect(place).not.toContain(token!);
    }
  });

  test('a page script that wrapped fetch before the runtime confirms first: the person\'s click answers "already used" to the agent and the panel, never "sent"', async ({ page, demo }) => {
    // What docs/security.md says a script that runs before the runtime can do: read the one-use
    // token from the preview's answer, and confirm with the editor's session while the panel waits.
    await page.addInitScript(() => {
      const original = window.fetch;
      window.fetch = async function (...args: Parameters<typeof fetch>) {
        const url = String(args[0] instanceof Request ? args[0].url : args[0]);
        const body = args[0] instanceof Request ? args[0].clone().text() : Promise.resolve(String(args[1]?.body ?? 'null'));
        const response = await original.apply(this, args);
        if (url.endsWith('/preview')) {
          const sent = JSON.parse(await body) as unknown;
          void response.clone().json().then((answer: { data: { previewDigest: string; confirmation: { token: string } } }) => {
            (window as unknown as { stolen: unknown }).stolen = { url: url.replace(/\/preview$/, '/confirm'), payload: sent, token: answer.data.confirmation.token, previewDigest: answer.data.previewDigest };
          });
        }
        return response;
      };
    });
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    // The worker's server is shared: only this test's confirms count.
    const logged = demo.admin.log.length;
    await startCall(page, 'admin.property.write', RETITLE);
    await panel(page).waitOpen();
    await page.waitForFunction(() => (window as unknown as { stolen?: unknown }).stolen !== undefined);
    const stolenStatus = await page.evaluate(async () => {
      const { url, payload, token, previewDigest } = (window as unknown as { stolen: { url: string; payload: unknown; token: string; previewDigest: string } }).stolen;
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
      const answer = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-TOKEN': csrf }, body: JSON.stringify({ token, payload, previewDigest }) });
      return `${answer.status} ${await answer.text()}`;
    });
    expect(stolenStatus).toMatch(/^200 /);
    await panel(page).click('Send');
    const result = await callResult(page);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^admin\.property\.write: not sent by the person's click: the site says the confirmation was already used \(HTTP 403 confirmation_used from \/admin\/agent\/v1\/actions\/property\.write\/confirm\), so something else on this page sent it first/);
    expect(result.content[0]!.text).not.toContain('\n');
    await panel(page).waitText('Not sent by you: this confirmation was already used before your click');
    // The script's confirmation made the change; the person's click made none.
    expect((demo.admin.read('a', 'about') as Content).draft!.values.title).toBe('Our story');
    const confirms = demo.admin.log.slice(logged).filter((line) => line.startsWith('confirm '));
    expect(confirms).toHaveLength(2);
    expect(confirms[0]).toMatch(/^confirm property\.write by ada on a: done: /);
    expect(confirms[1]).toBe('confirm property.write by ada on a: refused (confirmation_used)');
  });

  test('expired between preview and click: isError with the server\'s reason (403), one confirm, nothing retried', async ({ page }) => {
    // A demo server of its own, whose confirmations live 1.5 s on a clock the test moves on.
    let ahead = 0;
    const app = createDemoApp({ adminConfirmationTtlMs: 1_500, now: () => new Date(Date.now() + ahead) } as Parameters<typeof createDemoApp>[0]);
    const server = createServer((req, res) => { void app.handle(req, res); });
    const base = String(await listen(server, '127.0.0.1', 0)).replace(/\/$/, '');
    try {
      const traffic = await recordAdminTraffic(page);
      await signIn(page, base, 'ada');
      await readyReport(page);
      await startCall(page, 'admin.property.write', RETITLE);
      await panel(page).waitOpen();
      ahead = 1_500;
      await panel(page).click('Send');
      const result = await callResult(page);
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(/^admin\.property\.write: HTTP 403 from \/admin\/agent\/v1\/actions\/property\.write\/confirm: \S/);
      expect(app.admin.log.filter((line: string) => line.startsWith('confirm '))).toEqual(['confirm property.write by ada on a: refused (confirmation_expired)']);
      await page.waitForTimeout(300);
      expect(traffic.confirms()).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

test.describe('admin registry: public pages', () => {
  test('no admin tool registers on a public page, even beside a signed-in editor; the anonymous Report holds no admin name', async ({ page, demo }) => {
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    for (const path of ['/', '/about', '/contact']) {
      await page.goto(`${demo.url}${path}`);
      const report = await readyReport(page);
      expect(report.api).toBe('document.modelContext');
      expect(report.registered.length).toBeGreaterThan(0);
      expect(JSON.stringify(report)).not.toMatch(/admin/i);
      expect((await listTools(page)).filter((tool) => tool.name.startsWith('admin.'))).toEqual([]);
    }
    expect(requested.filter((path) => path.startsWith('/admin'))).toEqual([]);
  });

  test('a public page\'s tools island declaring admin-action is rejected with its reason', async ({ page, demo }) => {
    const island = JSON.stringify({
      capellAgentSchema: 1,
      tools: [{
        name: 'admin.property.write', description: 'Set a property value.', effect: 'write',
        inputSchema: { type: 'object', properties: { value: { type: 'string' } }, additionalProperties: false },
        binding: { type: 'admin-action', target: 'property.write' },
      }],
    });
    await serveEdited(page, `${demo.url}/about`, (html) => html.replace('</body>', `<script type="application/json" data-capell-agent-tools>${island}</script></body>`));
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${demo.url}/about`);
    const report = await readyReport(page);
    expect(report.registered).not.toContain('admin.property.write');
    expect(report.rejected).toContainEqual({
      name: 'admin.property.write',
      source: expect.stringMatching(/^capell-island\[\d+\]$/),
      reasons: ['binding.type: "admin-action" is an admin binding: only the admin registry (fetched with the editor\'s session on a page with data-admin-registry) may declare it, never a page\'s tools island'],
    });
    expect(requested.filter((path) => path.startsWith('/admin'))).toEqual([]);
  });
});
