/**
 * The runtime on Capell's admin protocol end to end, in Chromium with WebMCP on, against the real
 * demo server playing Capell's admin (capell-app/capell `packages/admin`; test/fixtures/capell/admin/
 * SOURCES.md): an editor signs in through the sign-in form, the runtime fetches
 * `GET /admin/agent/v1/tools` (`data-admin-registry`) and registers Capell's tools, each bound to
 * the one invoke route; an agent calls them through `document.modelContext.executeTool`; a read
 * answers Capell's `data`; a write's preview (Capell's `data` and `message`) shows in the panel and
 * only the person's real click (Playwright's mouse) sends the approval `{ tool, confirmation_token }`.
 * Refusals reach the agent as one line; the token reaches neither the agent nor the page's registry.
 */
import type { Page } from '@playwright/test';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createDemoApp } from '../../demo/server/app.js';
import { listen } from '../../demo/server/listen.js';
import { PAGES } from '../../demo/server/catalogue.js';
import { answerOf } from '../support/answer-of.ts';
import { callResult, startCall, call } from './agent-calls.ts';
import { adminSessionId, recordAdminTraffic, signIn } from './admin-session.ts';
import { executeTool, expect, listTools, readyReport, serveEdited, sharedTabTest as test } from './demo-fixture.ts';
import { panel } from './panel-driver.ts';

/** Capell's 13 admin tools as its admin lists them for a global administrator (the fixture). */
const CAPELL_TOOLS = (JSON.parse(readFileSync(new URL('../fixtures/capell/admin/tools.json', import.meta.url), 'utf8')) as { tools: { name: string; binding: unknown; inputSchema: unknown }[] }).tools;
/** And for a site editor (no settings, blueprint or structure writes). */
const SITE_EDITOR_TOOLS = (JSON.parse(readFileSync(new URL('../fixtures/capell/admin/tools-site-editor.json', import.meta.url), 'utf8')) as { tools: { name: string }[] }).tools;

/** The About page and the trail runner (site a), and the topic term `care`, by storage id. */
const ABOUT = 810702;
const TRAIL_RUNNER = PAGES.find((page) => page.key === 'trail-runner')!.id;
const CARE = 810404;
/** ada's proposal: the About page gets the topic `care`. */
const TERMS = { page_id: ABOUT, term_ids: [CARE] };

const INVOKE = '/admin/agent/v1/tools/invoke';

/** The Report's warning once the term read's `taxonomy` was left out (src/call/check-output.ts). */
const TERM_READ_WARNING = {
  level: 'warning', surface: 'tool admin.term.properties.read',
  message: 'the site answered taxonomy, which its outputSchema does not allow (additionalProperties: false); left out of the answer',
};
/** The keys Capell's publish data has beyond its outputSchema (test/fixtures/capell/admin/SOURCES.md §2). */
const PUBLISH_EXTRAS = ['before_state', 'after_state', 'visible_from', 'visible_until', 'blocking_checks', 'missing_publish_required'];

/** The runtime's current Report's audit (window.capellWebMCP.report: it follows each update). */
function auditOf(page: Page): Promise<{ level: string; surface: string; message: string }[]> {
  return page.evaluate(() => window.capellWebMCP!.report!.audit);
}

/** Capell's answer to the page's own invoke request, with the editor's session and CSRF token. */
function invokeDirectly(page: Page, body: object): Promise<{ data: unknown }> {
  return page.evaluate(async (sent) => {
    const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
    const answer = await fetch('/admin/agent/v1/tools/invoke', { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-TOKEN': csrf }, body: JSON.stringify(sent) });
    return answer.json() as Promise<{ data: unknown }>;
  }, body);
}
const CONFIRMATION_INVALID = 'The agent confirmation is missing, expired, or out of scope.';

test.describe('admin: a signed-in editor and an agent on Capell\'s admin protocol', () => {
  test.beforeEach(({ demo }) => {
    // The worker's server is shared by its tests: its pages, drafts, settings and ada's rights as first stored.
    demo.admin.reset();
    demo.admin.grant('ada', 'a', 'page.update');
  });

  test('the list: a global admin\'s page registers all 13 of Capell\'s admin tools from the fetched registry, each bound to the invoke route (the Report says so per tool); a site editor gets 10', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'gil');
    const report = await readyReport(page);
    expect(report.api).toBe('document.modelContext');
    expect(report.registered.filter((name) => name.startsWith('admin.')).sort()).toEqual(CAPELL_TOOLS.map((tool) => tool.name).sort());
    expect(report.rejected).toEqual([]);
    for (const tool of CAPELL_TOOLS) {
      expect(report.audit).toContainEqual({
        level: 'warning', surface: `tool ${tool.name}`,
        message: `binding: ${JSON.stringify(tool.binding)} is not used: Capell's admin runs every tool through POST /admin/agent/v1/tools/invoke (reads at once, writes after the editor's approval in the panel), as its own admin bridge does`,
      });
    }
    const listed = await listTools(page);
    expect(listed.map((tool) => tool.name)).toEqual(expect.arrayContaining([...CAPELL_TOOLS.map((tool) => tool.name), 'capell.write.status']));
    // PHP's [] for the readiness tool's properties is read as {}.
    const readinessSchema = listed.find((tool) => tool.name === 'admin.site.agent_readiness.read')!.inputSchema;
    expect(typeof readinessSchema === 'string' ? JSON.parse(readinessSchema) : readinessSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(traffic.requests).toEqual([{ method: 'GET', path: '/admin/agent/v1/tools' }]);
    // Nothing of the registry is in the admin page's HTML: it was fetched.
    expect(await page.content()).not.toContain('admin.page.terms.write');

    await page.context().clearCookies();
    await signIn(page, demo.url, 'ada');
    const editor = await readyReport(page);
    expect(editor.registered.filter((name) => name.startsWith('admin.')).sort()).toEqual(SITE_EDITOR_TOOLS.map((tool) => tool.name).sort());
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

  test('a read answers Capell\'s data at once, one invoke with { tool, payload }; refused, Capell\'s status and message', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    const result = await executeTool(page, 'admin.page.properties.read', { page_id: TRAIL_RUNNER });
    expect(result.isError).toBeUndefined();
    const data = answerOf(result) as { page_id: number; properties: { key: string; value: unknown; currency: string | null }[] };
    expect(data.page_id).toBe(TRAIL_RUNNER);
    expect(data.properties).toContainEqual(expect.objectContaining({ key: 'commerce.product.price', currency: 'EUR' }));
    // The same as the admin answers the page's own request: the agent got exactly its data.
    const direct = await page.evaluate(async (body) => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const answer = await fetch('/admin/agent/v1/tools/invoke', { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-TOKEN': csrf }, body: JSON.stringify(body) });
      return answer.json() as Promise<{ data: unknown }>;
    }, { tool: 'admin.page.properties.read', payload: { page_id: TRAIL_RUNNER } });
    expect(data).toEqual(direct.data);
    expect(traffic.requests[1]).toEqual({ method: 'POST', path: INVOKE, body: { tool: 'admin.page.properties.read', payload: { page_id: TRAIL_RUNNER } } });

    const readiness = answerOf(await executeTool(page, 'admin.site.agent_readiness.read', {})) as { site_id: number };
    expect(readiness.site_id).toBe(810001);
    // A page of site b is not in ada's session site.
    const refused = await executeTool(page, 'admin.page.properties.read', { page_id: 820702 });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toBe('admin.page.properties.read: HTTP 404 from /admin/agent/v1/tools/invoke: No query results for model [Capell\\Core\\Models\\Page].');
  });

  test('Capell\'s term read answers a taxonomy its own outputSchema forbids (additionalProperties: false): the agent gets the data without it, and the Report names it once', async ({ page, demo }) => {
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    const result = await executeTool(page, 'admin.term.properties.read', { term_id: CARE });
    expect(result.isError, result.content[0]!.text).toBeUndefined();
    // Capell's own answer (AgentTermPropertiesReadTool.php @cdb7004) holds the taxonomy.
    const direct = await invokeDirectly(page, { tool: 'admin.term.properties.read', payload: { term_id: CARE } });
    expect(direct.data).toMatchObject({ term_id: CARE, taxonomy: 'topics' });
    const { taxonomy: _leftOut, ...described } = direct.data as Record<string, unknown>;
    expect(answerOf(result)).toEqual(described);
    await expect.poll(() => auditOf(page)).toContainEqual(TERM_READ_WARNING);
    // Another read: the same answer, and still one warning for the tool.
    expect(answerOf(await executeTool(page, 'admin.term.properties.read', { term_id: CARE }))).toEqual(described);
    expect((await auditOf(page)).filter((entry) => entry.surface === 'tool admin.term.properties.read' && entry.message.startsWith('the site answered'))).toEqual([TERM_READ_WARNING]);
  });

  test('an executed publish: Capell\'s data without the six keys its outputSchema does not list, and the Report names them', async ({ page, demo }) => {
    const executed: unknown[] = [];
    await page.route('**/admin/agent/v1/tools/invoke', async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      if ((JSON.parse(body) as { mode?: string }).mode === 'executed') executed.push(JSON.parse(body));
      await route.fulfill({ response, body });
    });
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.page.publish', { page_id: ABOUT });
    await panel(page).waitOpen();
    // Capell's publish preview is longer than the panel: read to its end before Send counts.
    await panel(page).scrollToEnd();
    await panel(page).click('Send');
    const answer = answerOf(await callResult(page)) as { status: string; answer: Record<string, unknown> };
    // Capell's executed data (AgentPagePublicationTool.php @3affada) carries the six keys.
    expect(executed).toHaveLength(1);
    const data = (executed[0] as { data: Record<string, unknown> }).data;
    expect(Object.keys(data)).toEqual(['page_id', 'transition', 'outcome', 'reason', ...PUBLISH_EXTRAS]);
    expect(answer).toEqual({ status: 'submitted', httpStatus: 200, answer: { page_id: ABOUT, transition: 'publish-now', outcome: data.outcome, reason: data.reason } });
    await expect.poll(() => auditOf(page)).toContainEqual({
      level: 'warning', surface: 'tool admin.page.publish',
      message: `the site answered ${PUBLISH_EXTRAS.join(', ')}, which its outputSchema does not allow (additionalProperties: false); left out of the answer`,
    });
  });

  test('an executed write whose answer breaks its outputSchema otherwise: the agent is told it was executed (the change is made) and that the answer does not match', async ({ page, demo }) => {
    // Capell's executed answer as the page receives it, with `assigned` of the wrong type.
    await page.route('**/admin/agent/v1/tools/invoke', async (route) => {
      const response = await route.fetch();
      const answer = JSON.parse(await response.text()) as { mode?: string; data: Record<string, unknown> };
      if (answer.mode === 'executed') answer.data.assigned = 'yes';
      await route.fulfill({ response, body: JSON.stringify(answer) });
    });
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.page.terms.write', TERMS);
    await panel(page).waitOpen();
    await panel(page).click('Send');
    const result = await callResult(page);
    expect(result.isError).toBeUndefined();
    expect(answerOf(result)).toEqual({
      status: 'submitted', httpStatus: 200, answer: { page_id: ABOUT, term_ids: [CARE], assigned: 'yes' },
      answerNote: 'the admin executed the write (the change is made), but its answer does not match admin.page.terms.write\'s outputSchema (a site error, not the agent\'s): assigned: expected boolean, got string',
    });
    expect(demo.admin.page('a', 'about')!.record.terms).toEqual([{ taxonomy: 'topics', term: 'care' }]);
  });

  test('a write: Capell\'s preview in the panel; a script-made click does nothing; the person\'s click sends { tool, confirmation_token } and the admin executes it', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.page.terms.write', TERMS);
    const shown = await panel(page).waitOpen();
    for (const text of ['Explicit confirmation is required before this admin write.', 'admin.page.terms.write', 'term_ids', 'Before: []', `After: [${CARE}]`, 'page_id', String(ABOUT)]) expect(shown.text).toContain(text);
    expect(traffic.requests.map((request) => request.body)).toEqual([undefined, { tool: 'admin.page.terms.write', payload: TERMS }]);
    expect(demo.admin.page('a', 'about')!.record.terms).toEqual([]);

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
    expect(traffic.approvals()).toBe(0);

    await panel(page).click('Send');
    const answer = answerOf(await callResult(page));
    expect(answer).toEqual({ status: 'submitted', httpStatus: 200, answer: { page_id: ABOUT, term_ids: [CARE], assigned: true } });
    await panel(page).waitText('Sent.');
    // Capell's bridge sends the tool and the token, nothing else: Capell runs the payload it stored.
    const approval = traffic.requests.at(-1)!;
    expect(Object.keys(approval.body as object)).toEqual(['tool', 'confirmation_token']);
    expect(approval.body).toEqual({ tool: 'admin.page.terms.write', confirmation_token: traffic.tokens[0] });
    expect(traffic.approvals()).toBe(1);
    expect(demo.admin.page('a', 'about')!.record.terms).toEqual([{ taxonomy: 'topics', term: 'care' }]);
  });

  test('a write refused by policy: Capell\'s 403 message reaches the agent and no panel opens; a preview Capell rejects: its 422 message', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    demo.admin.revoke('ada', 'a', 'page.update');
    const refused = await call(page, 'admin.page.terms.write', TERMS);
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toBe('admin.page.terms.write: HTTP 403 from /admin/agent/v1/tools/invoke: This action is unauthorized.');
    demo.admin.grant('ada', 'a', 'page.update');
    // A product without its SKU is not ready to publish.
    demo.admin.setDraftValue('a', 'trail-runner', 'capell:commerce.product.sku', '');
    const rejected = await call(page, 'admin.page.publish', { page_id: TRAIL_RUNNER });
    expect(rejected.isError).toBe(true);
    expect(rejected.content[0]!.text).toBe('admin.page.publish: HTTP 422 from /admin/agent/v1/tools/invoke: The page is not ready for this publication transition.');
    expect(await panel(page).count()).toBe(0);
    expect(traffic.tokens).toEqual([]);
    expect(traffic.approvals()).toBe(0);
  });

  test('a token used twice: a page script that wrapped fetch before the runtime approves first; the person\'s click gets Capell\'s 403, said truthfully to the panel and the agent', async ({ page, demo }) => {
    // What docs/security.md says a script that runs before the runtime can do: read the one-use
    // token from the invoke answer, and approve with the editor's session while the panel waits.
    await page.addInitScript(() => {
      const original = window.fetch;
      window.fetch = async function (...args: Parameters<typeof fetch>) {
        const response = await original.apply(this, args);
        if (String(args[0] instanceof Request ? args[0].url : args[0]).endsWith('/tools/invoke')) {
          void response.clone().json().then((answer: { tool: string; confirmationToken?: string }) => {
            if (answer.confirmationToken) (window as unknown as { stolen: unknown }).stolen = { tool: answer.tool, confirmation_token: answer.confirmationToken };
          });
        }
        return response;
      };
    });
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.page.terms.write', TERMS);
    await panel(page).waitOpen();
    await page.waitForFunction(() => (window as unknown as { stolen?: unknown }).stolen !== undefined);
    const first = await page.evaluate(async () => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const answer = await fetch('/admin/agent/v1/tools/invoke', { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-TOKEN': csrf }, body: JSON.stringify((window as unknown as { stolen: unknown }).stolen) });
      return answer.status;
    });
    expect(first).toBe(200);
    expect(demo.admin.page('a', 'about')!.record.terms).toEqual([{ taxonomy: 'topics', term: 'care' }]);
    await panel(page).click('Send');
    const result = await callResult(page);
    expect(result.isError).toBe(true);
    const line = result.content[0]!.text;
    expect(line).toMatch(new RegExp(`^admin\\.page\\.terms\\.write: HTTP 403 from /admin/agent/v1/tools/invoke: ${CONFIRMATION_INVALID.replace(/[.,]/g, '\\$&')}; not executed: the runtime sent this confirmation once, on the editor's approval; Capell refuses one that was already used \\(then something else on this page used it first`));
    expect(line).not.toContain('\n');
    await panel(page).waitText(`The site did not accept it (HTTP 403): ${CONFIRMATION_INVALID}`);
    expect(demo.admin.log.filter((entry) => entry.startsWith('invoke admin.page.terms.write by ada')).slice(-2)).toEqual([
      'invoke admin.page.terms.write by ada on a: executed', 'invoke admin.page.terms.write by ada on a: confirmation refused',
    ]);
  });

  test('a token from another session is refused there (403) and stays good for the editor\'s own approval in the panel', async ({ page, demo, browser }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.page.terms.write', TERMS);
    await panel(page).waitOpen();
    await expect.poll(() => traffic.tokens.length).toBe(1);
    // The same editor signed in elsewhere: another session, with its own CSRF token.
    const elsewhere = await browser.newContext();
    try {
      const other = await elsewhere.newPage();
      await signIn(other, demo.url, 'ada');
      expect(await adminSessionId(other)).not.toBe(await adminSessionId(page));
      const status = await other.evaluate(async (token) => {
        const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
        const answer = await fetch('/admin/agent/v1/tools/invoke', { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-TOKEN': csrf }, body: JSON.stringify({ tool: 'admin.page.terms.write', confirmation_token: token }) });
        return `${answer.status} ${(await answer.json() as { message: string }).message}`;
      }, traffic.tokens[0]!);
      expect(status).toBe(`403 ${CONFIRMATION_INVALID}`);
    } finally {
      await elsewhere.close();
    }
    expect(demo.admin.page('a', 'about')!.record.terms).toEqual([]);
    await panel(page).click('Send');
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'submitted', httpStatus: 200 });
    expect(demo.admin.page('a', 'about')!.record.terms).toEqual([{ taxonomy: 'topics', term: 'care' }]);
  });

  test('site_id: the agent cannot send one (no tool takes it; nothing is sent), and Capell refuses a request that has one with 422', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    await signIn(page, demo.url, 'gil');
    await readyReport(page);
    const refused = await call(page, 'admin.page.properties.read', { page_id: ABOUT, site_id: 2 });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^invalid input for admin\.page\.properties\.read: .*site_id/);
    expect(traffic.requests.filter((request) => request.path === INVOKE)).toEqual([]);
    const answers = await page.evaluate(async () => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const post = async (path: string, body: unknown) => {
        const answer = await fetch(path, { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-TOKEN': csrf }, body: JSON.stringify(body) });
        return `${answer.status} ${(await answer.json() as { message: string }).message}`;
      };
      return [
        await post('/admin/agent/v1/tools/invoke', { site_id: 2, tool: 'admin.page.properties.read', payload: { page_id: 810702 } }),
        await post('/admin/agent/v1/tools/invoke?site_id=2', { tool: 'admin.page.properties.read', payload: { page_id: 810702 } }),
      ];
    });
    expect(answers).toEqual(Array(2).fill('422 The active site must come from the authenticated admin session.'));
  });

  test('the confirmation token is in nothing the agent or the page\'s registry sees: not the answers, the write status, the Report, the tool list, an event, the DOM, storage or the console', async ({ page, demo }) => {
    const traffic = await recordAdminTraffic(page);
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seenEvents: string[] }).seenEvents = seen;
      for (const type of ['capell-webmcp:ready', 'capell-webmcp:change', 'capell-webmcp:confirm-close', 'capell-webmcp:source-change']) {
        for (const target of [window, document]) target.addEventListener(type, (event) => { seen.push(`${type} ${JSON.stringify((event as CustomEvent).detail ?? null)}`); }, true);
      }
    });
    await signIn(page, demo.url, 'ada');
    await readyReport(page);
    await startCall(page, 'admin.page.terms.write', TERMS);
    await panel(page).waitOpen();
    await expect.poll(() => traffic.tokens.length).toBe(1);
    const [token] = traffic.tokens;
    const waiting = await executeTool(page, 'capell.write.status', {});
    await panel(page).click('Send');
    const result = await callResult(page);
    await panel(page).click('Close');
    const status = await executeTool(page, 'capell.write.status', {});
    const tools = await listTools(page);
    const seen = await page.evaluate(() => JSON.stringify({
      html: document.documentElement.outerHTML,
      attributes: [...document.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((attribute) => attribute.value)),
      local: { ...localStorage },
      session: { ...sessionStorage },
      report: window.capellWebMCP!.report,
      events: (window as unknown as { seenEvents: string[] }).seenEvents,
      url: location.href,
    }));
    expect(seen).toContain('capell-webmcp:confirm-close');
    for (const place of [seen, JSON.stringify(result), JSON.stringify(waiting), JSON.stringify(status), JSON.stringify(tools), logged.join('\n'), demo.admin.log.join('\n')]) {
      expect(place).not.toContain(token!);
      expect(place).not.toContain('confirmationToken');
    }
  });

  test('expired between invoke and click (Capell\'s 10 minutes): the person\'s click gets 403, said truthfully; one approval, nothing retried', async ({ page }) => {
    // A demo server of its own, on a clock the test moves on by Capell's 10 minutes.
    let ahead = 0;
    const app = createDemoApp({ now: () => new Date(Date.now() + ahead) } as Parameters<typeof createDemoApp>[0]);
    const server = createServer((req, res) => { void app.handle(req, res); });
    const base = String(await listen(server, '127.0.0.1', 0)).replace(/\/$/, '');
    try {
      const traffic = await recordAdminTraffic(page);
      await signIn(page, base, 'ada');
      await readyReport(page);
      await startCall(page, 'admin.page.terms.write', TERMS);
      await panel(page).waitOpen();
      ahead = 10 * 60_000;
      await panel(page).click('Send');
      const result = await callResult(page);
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toContain(`admin.page.terms.write: HTTP 403 from /admin/agent/v1/tools/invoke: ${CONFIRMATION_INVALID}; not executed`);
      expect(result.content[0]!.text).toContain('expired (10 minutes by default)');
      await panel(page).waitText(`The site did not accept it (HTTP 403): ${CONFIRMATION_INVALID}`);
      expect(app.admin.log.filter((line: string) => line.startsWith('invoke '))).toEqual(['invoke admin.page.terms.write by ada on a: confirmation required', 'invoke admin.page.terms.write by ada on a: confirmation refused']);
      expect(traffic.approvals()).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

test.describe('admin: public pages', () => {
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

  test('a public page\'s tools island declaring admin-invoke is rejected with its reason', async ({ page, demo }) => {
    const island = JSON.stringify({
      capellAgentSchema: 1,
      tools: [{
        name: 'admin.page.terms.write', description: 'Replace a page\'s terms.', effect: 'write',
        inputSchema: { type: 'object', properties: { page_id: { type: 'integer' } }, additionalProperties: false },
        binding: { type: 'admin-invoke', target: 'admin.page.terms.write' },
      }],
    });
    await serveEdited(page, `${demo.url}/about`, (html) => html.replace('</body>', `<script type="application/json" data-capell-agent-tools>${island}</script></body>`));
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${demo.url}/about`);
    const report = await readyReport(page);
    expect(report.registered).not.toContain('admin.page.terms.write');
    expect(report.rejected).toContainEqual({
      name: 'admin.page.terms.write',
      source: expect.stringMatching(/^capell-island\[\d+\]$/),
      reasons: ['binding.type: "admin-invoke" is an admin binding: only the admin registry (fetched with the editor\'s session on a page with data-admin-registry) may declare it, never a page\'s tools island'],
    });
    expect(requested.filter((path) => path.startsWith('/admin'))).toEqual([]);
  });
});
