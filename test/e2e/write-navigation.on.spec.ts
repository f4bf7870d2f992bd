/**
 * The outcome survives the send's navigation (issue 36, item 8), with real navigations on the
 * demo: a plain HTML form (no script of the site) that posts to the demo's real `/signups`, which
 * answers 303 to the page named in `return` (demo/server/signup.js), served on the demo's origin
 * through a Playwright route so the form stays the same whatever the demo's own pages become. The
 * person sends it with a real click on the panel's Send; the tab lands on the demo's home page,
 * which declares no write tool; there the agent asks `capell.write.status` for the writeId:
 * - native send (`data-capell-submit="native"`): the browser posts and follows the redirect;
 * - the runtime's fetch send: it posts, sees the redirect, and takes the tab to the same page.
 * The home page registers the status tool only because the tab kept the write, answers the status,
 * the HTTP status and its own address, and keeps nothing of what was sent. Another tab of the same
 * browser keeps nothing. Each test has a fresh context: sessionStorage is the tab's.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, test } from './demo-fixture.ts';
import { callResult, startCall } from './agent-calls.ts';
import { panel } from './panel-driver.ts';
import { answerOf } from '../support/answer-of.ts';
import { TAB_WRITES_KEY } from '../../src/registry/write-status-tool.ts';

const TOOL = 'form.submit.notify';
const EMAIL = 'ada@example.test';

/**
 * The routed page: a back-in-stock sign-up as plain HTML, its tool in a Capell tools island.
 * `form` replaces the form's opening tag's attributes after its id (default: posts to /signups).
 */
function notifyPage(csrfToken: string, native: boolean, form = 'action="/signups" method="post"'): string {
  const manifest = {
    capellAgentSchema: 1,
    tools: [{
      name: TOOL,
      description: 'Ask to be told when the Trail Runner is back in stock.',
      inputSchema: { type: 'object', properties: { email: { type: 'string', format: 'email', maxLength: 254 } }, required: ['email'], additionalProperties: false },
      effect: 'write',
      binding: { type: 'form', target: 'notify' },
    }],
  };
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Back in stock</title>
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-write-wait-ms="300"></script></head>
<body><main>
<form id="notify" ${form}${native ? ' data-capell-submit="native"' : ''}>
<input type="hidden" name="_token" value="${csrfToken}"><input type="hidden" name="list" value="back-in-stock">
<input type="hidden" name="sku" value="TR-42"><input type="hidden" name="return" value="/">
<p><label for="notify-email">Email</label> <input type="email" id="notify-email" name="email" required></p>
<p><button type="submit">Notify me</button></p>
</form>
<script type="application/json" data-capell-agent-tools>${JSON.stringify(manifest)}</script>
</main></body></html>`;
}

/**
 * Opens the routed page in a session of the demo (a first visit to the home page gives the
 * session cookie; its footer form carries the session's CSRF token).
 */
async function openNotify(page: Page, origin: string, native: boolean, form?: string): Promise<void> {
  await page.goto(`${origin}/`);
  const token = await page.locator('#newsletter input[name="_token"]').inputValue();
  await page.route(`${origin}/nav/notify`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: notifyPage(token, native, form) }));
  await page.goto(`${origin}/nav/notify`);
  expect((await readyReport(page)).registered).toEqual([TOOL]);
}

/** Proposes the sign-up, and the person sends it with the panel's Send. @returns the writeId. */
async function proposeAndSend(page: Page): Promise<string> {
  await startCall(page, TOOL, { email: EMAIL });
  await panel(page).waitOpen();
  const answer = answerOf(await callResult(page)) as { status: string; writeId: string };
  expect(answer.status).toBe('awaiting_person');
  await panel(page).click('Send');
  return answer.writeId;
}

async function toolNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]> } }).modelContext.getTools()).map((tool) => tool.name));
}

async function status(page: Page, writeId: string): Promise<{ isError?: boolean; content: { text: string }[] }> {
  return page.evaluate(async (writeId) => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === 'capell.write.status');
    if (!tool) throw new Error('capell.write.status is not registered');
    return JSON.parse(await context.executeTool(tool, { writeId }));
  }, writeId);
}

for (const native of [true, false]) {
  const how = native ? 'the browser\'s native send (data-capell-submit="native") and its redirect' : 'the runtime\'s fetch send, then its navigation to the redirect';
  test(`after ${how}, the next page answers capell.write.status: status, HTTP status, its own address; nothing sent is kept`, async ({ page, demo, context }) => {
    await openNotify(page, demo.url, native);
    const signups = demo.signups.length;
    const writeId = await proposeAndSend(page);
    await page.waitForURL(`${demo.url}/?signed-up=1`);
    const report = await readyReport(page);
    expect(report.registered).not.toContain(TOOL);
    expect(demo.signups.slice(signups)).toEqual([{ list: 'back-in-stock', email: EMAIL, sku: 'TR-42' }]);

    // The home page declares no write tool: the status tool is there for the kept write.
    expect(await toolNames(page)).toContain('capell.write.status');
    const answer = await status(page, writeId);
    expect(answer.isError).toBeUndefined();
    expect(JSON.parse(answer.content[0]!.text)).toEqual({ status: 'submitted', tool: TOOL, httpStatus: 200, navigatedTo: `${demo.url}/?signed-up=1` });
    // Kept for the tab: the outcome only, never the values sent.
    const kept = await page.evaluate((key) => sessionStorage.getItem(key), TAB_WRITES_KEY);
    expect(kept).toContain(writeId);
    expect(kept).not.toContain(EMAIL);
    expect(kept).not.toContain('TR-42');

    // Another tab of the same browser keeps nothing: no status tool there.
    const other = await context.newPage();
    await other.goto(`${demo.url}/`);
    await readyReport(other);
    expect(await toolNames(other)).not.toContain('capell.write.status');

    // A later page of this tab still answers, naming the page the send led to, not itself.
    await page.goto(`${demo.url}/products`);
    await readyReport(page);
    expect(JSON.parse((await status(page, writeId)).content[0]!.text)).toEqual({ status: 'submitted', tool: TOOL, httpStatus: 200, navigatedTo: `${demo.url}/?signed-up=1` });
  });
}

test('after a native GET send, the next page names itself without the query: the values sent are in it', async ({ page, demo }) => {
  // A GET form's address is built from its values (here to the demo's home page, which ignores them).
  await openNotify(page, demo.url, true, 'action="/" method="get"');
  const writeId = await proposeAndSend(page);
  await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('email') === EMAIL);
  await readyReport(page);
  const answer = await status(page, writeId);
  expect(JSON.parse(answer.content[0]!.text)).toEqual({ status: 'submitted', tool: TOOL, httpStatus: 200, navigatedTo: `${demo.url}/` });
  const kept = await page.evaluate((key) => sessionStorage.getItem(key), TAB_WRITES_KEY);
  expect(kept).toContain(writeId);
  expect(kept).not.toContain('ada%40example.test');
  expect(kept).not.toContain(EMAIL);
  expect(kept).not.toContain('TR-42');
});
