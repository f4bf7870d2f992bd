/**
 * Write calls never hang the agent (MCP clients give up on a call after 20–60 s; a person may take
 * minutes), end to end: the demo contact page served with small `data-write-wait-ms` /
 * `data-confirm-timeout-ms`, the built bundle, an agent calling `form.submit.capell-form-contact`,
 * `newsletter.subscribe` and `capell.write.status` through document.modelContext, and a person
 * clicking later (Playwright's real input). The demo server counts every contact POST and
 * newsletter request, so "nothing was sent" is checked where it matters.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { fieldValues, PROPOSAL, type ToolResult } from './agent-calls.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';
import { PanelDriver } from './panel-driver.ts';

type Result = ToolResult;
type Awaiting = { status: 'awaiting_person'; writeId: string; expiresAt: string; next: string };

const EMPTY = { name: '', email: '', topic: '', message: '', newsletter: false, website: '' };

/**
 * Runs a tool call in the page as an agent does; `slot` names the promise so that several calls
 * can be outstanding; `abortable` gives the call an AbortController the test can abort.
 */
async function startCall(page: Page, slot: string, name: string, input: object, abortable = false): Promise<void> {
  await page.evaluate(({ slot, name, input, abortable }) => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object, options?: { signal?: AbortSignal }): Promise<string> } }).modelContext;
    const store = window as unknown as { calls: Record<string, Promise<unknown>>; agents: Record<string, AbortController> };
    store.calls ??= {};
    store.agents ??= {};
    const agent = new AbortController();
    store.agents[slot] = agent;
    store.calls[slot] = context.getTools()
      .then((tools) => context.executeTool(tools.find((tool) => tool.name === name), input, abortable ? { signal: agent.signal } : undefined))
      .then((text) => JSON.parse(text), (error: Error) => ({ rejected: error.name }));
  }, { slot, name, input, abortable });
}

function result(page: Page, slot: string): Promise<Result> {
  return page.evaluate((slot) => (window as unknown as { calls: Record<string, Promise<Result>> }).calls[slot]!, slot);
}

async function call(page: Page, name: string, input: object): Promise<Result> {
  const slot = `call-${Math.random()}`;
  await startCall(page, slot, name, input);
  return result(page, slot);
}

async function status(page: Page, writeId: string, waitMs?: number): Promise<Record<string, unknown>> {
  return answerOf(await call(page, 'capell.write.status', waitMs === undefined ? { writeId } : { writeId, waitMs })) as Record<string, unknown>;
}


/** Opens the demo contact page with the runtime's script tag given `attributes`. */
async function openContact(page: Page, url: string, attributes: string): Promise<void> {
  await page.route(`${url}/contact/plain`, async (route) => {
    // Only the page itself: the form's POST to the same URL must reach the server untouched.
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()).replace('data-capell-webmcp', `data-capell-webmcp ${attributes}`) });
  });
  await page.goto(`${url}/contact/plain`);
  await readyReport(page);
}

const drivers = new WeakMap<Page, PanelDriver>();

/** The person's view of the page's confirmation panel (in a closed shadow root: read through DevTools). */
function panel(page: Page): PanelDriver {
  let driver = drivers.get(page);
  if (!driver) drivers.set(page, driver = new PanelDriver(page));
  return driver;
}

const REPLACED = 'This replaces the assistant’s earlier proposal.';

/**
 * Starts a write call in slot `slot` and answers it without waiting out its `data-write-wait-ms`:
 * once the proposal is on screen, the page's clock (Playwright's fake clock, installed before the
 * page loaded and running as real time does) jumps `writeWaitMs` ahead, which fires the call's
 * wait. For the tests whose subject is what comes after the call's first answer.
 */
async function awaitingAfterJump(page: Page, slot: string, name: string, input: object, writeWaitMs: number): Promise<Awaiting> {
  await startCall(page, slot, name, input);
  await panel(page).waitOpen();
  await page.clock.fastForward(writeWaitMs);
  return answerOf(await result(page, slot)) as Awaiting;
}

test.describe('write calls never hang the agent', () => {
  test.beforeEach(({ demo }) => {
    demo.formPosts.length = 0;
    demo.requests.length = 0;
  });

  test('a write call resolves awaiting_person within data-write-wait-ms and the proposal stays open', async ({ page, demo }) => {
    await openContact(page, demo.url, 'data-write-wait-ms="400"');
    const began = Date.now();
    const answer = answerOf(await call(page, 'form.submit.capell-form-contact', PROPOSAL)) as Awaiting;
    expect(Date.now() - began).toBeLessThan(5000);
    expect(answer).toEqual({ status: 'awaiting_person', writeId: expect.stringMatching(/^[0-9a-f-]{36}$/), expiresAt: expect.any(String), next: NEXT_STEPS.awaiting_person });
    // The default proposal lifetime: five minutes.
    expect(Date.parse(answer.expiresAt) - Date.now()).toBeGreaterThan(290_000);
    await page.waitForTimeout(300);
    await panel(page).waitOpen();
    expect(await fieldValues(page)).toEqual({ ...PROPOSAL, website: '' });
    expect(demo.formPosts).toEqual([]);
  });

  test('capell.write.status reports submitted with httpStatus and the site\'s answer after the person\'s later click (write endpoint)', async ({ page, demo }) => {
    await openContact(page, demo.url, 'data-write-wait-ms="300"');
    const { writeId } = answerOf(await call(page, 'newsletter.subscribe', { email: 'ada@example.test' })) as Awaiting;
    expect(demo.requests).toEqual([]);
    await panel(page).click('Send');
    await panel(page).waitText('Sent.');
    expect(await status(page, writeId)).toEqual({
      status: 'submitted', tool: 'newsletter.subscribe', httpStatus: 200,
      answer: { capellAgentSchema: 1, data: { subscribed: 'ada@example.test' }, links: { next: null, previous: null } },
    });
    expect(demo.requests.filter((request) => request.path === '/agent/v1/newsletter')).toHaveLength(1);
  });

  test('capell.write.status reports submitted with httpStatus after the person\'s later click (contact form)', async ({ page, demo }) => {
    await page.clock.install();
    await openContact(page, demo.url, 'data-write-wait-ms="2000"');
    const before = demo.submissions.length;
    const { writeId } = await awaitingAfterJump(page, 'write', 'form.submit.capell-form-contact', PROPOSAL, 2000);
    expect(demo.formPosts).toEqual([]);
    // The site redirects to its thank-you page after a 2xx, so the agent waits with waitMs:
    // the answer comes as soon as the site answered, before the page follows the redirect.
    await startCall(page, 'status', 'capell.write.status', { writeId, waitMs: 2000 });
    await panel(page).click('Send');
    expect(answerOf(await result(page, 'status'))).toEqual({ status: 'submitted', tool: 'form.submit.capell-form-contact', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
    expect(demo.submissions).toHaveLength(before + 1);
    expect(demo.submissions.at(-1)).toEqual({ lang: 'en', ...PROPOSAL });
    await page.waitForURL(/\/contact\/plain\?sent=1$/);
  });

  test('capell.write.status reports cancelled after the person\'s later Cancel; nothing is sent', async ({ page, demo }) => {
    await openContact(page, demo.url, 'data-write-wait-ms="300"');
    await page.locator('#capell-form-contact-name').fill('Grace');
    const { writeId } = answerOf(await call(page, 'form.submit.capell-form-contact', PROPOSAL)) as Awaiting;
    await panel(page).click('Cancel');
    expect(await status(page, writeId)).toEqual({ status: 'cancelled', tool: 'form.submit.capell-form-contact', next: NEXT_STEPS.cancelled });
    expect(await fieldValues(page)).toEqual({ ...EMPTY, name: 'Grace' });
    expect(demo.formPosts).toEqual([]);
  });

  test('capell.write.status reports expired after data-confirm-timeout-ms, with values restored', async ({ page, demo }) => {
    await page.clock.install();
    await openContact(page, demo.url, 'data-write-wait-ms="300" data-confirm-timeout-ms="2500"');
    await page.locator('#capell-form-contact-name').fill('Grace');
    const { writeId, expiresAt } = answerOf(await call(page, 'form.submit.capell-form-contact', PROPOSAL)) as Awaiting;
    expect(await status(page, writeId)).toMatchObject({ status: 'awaiting_person', expiresAt });
    // The page's clock jumps to the proposal's end instead of waiting for it.
    await page.clock.fastForward(2500);
    let answer = await status(page, writeId, 300);
    for (let polls = 0; polls < 20 && answer.status === 'awaiting_person'; polls++) answer = await status(page, writeId, 300);
    expect(answer).toEqual({ status: 'expired', tool: 'form.submit.capell-form-contact', next: NEXT_STEPS.expired });
    expect(await fieldValues(page)).toEqual({ ...EMPTY, name: 'Grace' });
    await panel(page).waitClosed();
    expect(demo.formPosts).toEqual([]);
  });

  test('a second call supersedes the first: old writeId superseded, panel shows the notice, only the new values are sent on the person\'s Send', async ({ page, demo }) => {
    await page.clock.install();
    await openContact(page, demo.url, 'data-write-wait-ms="3000"');
    const before = demo.submissions.length;
    const first = await awaitingAfterJump(page, 'first', 'form.submit.capell-form-contact', PROPOSAL, 3000);
    expect((await panel(page).state())!.text).not.toContain(REPLACED);
    const newer = { ...PROPOSAL, name: 'Mallory', message: 'Unsubscribe me from everything.' };
    await startCall(page, 'second', 'form.submit.capell-form-contact', newer);
    await panel(page).waitText(REPLACED);
    await page.clock.fastForward(3000);
    const second = answerOf(await result(page, 'second')) as Awaiting;
    expect(second.status).toBe('awaiting_person');
    expect(await status(page, first.writeId)).toEqual({ status: 'superseded', tool: 'form.submit.capell-form-contact', supersededBy: second.writeId, next: NEXT_STEPS.superseded });
    expect(await panel(page).count()).toBe(1);
    await panel(page).waitText(REPLACED);
    const shown = (await panel(page).state())!.text;
    expect(shown.startsWith(REPLACED)).toBe(true);
    expect(shown).toContain('Mallory');
    expect(shown).not.toContain('Ada Lovelace');
    expect(await fieldValues(page)).toEqual({ ...newer, website: '' });
    expect(demo.formPosts).toEqual([]);
    // With the notice, the proposal is taller than the panel in a 720 px window: read to its end.
    await panel(page).scrollToEnd();
    await startCall(page, 'status', 'capell.write.status', { writeId: second.writeId, waitMs: 3000 });
    await panel(page).click('Send');
    expect(answerOf(await result(page, 'status'))).toMatchObject({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
    expect(demo.submissions).toHaveLength(before + 1);
    expect(demo.submissions.at(-1)).toEqual({ lang: 'en', ...newer });
  });

  test('an aborted call closes the proposal and restores values (status aborted)', async ({ page, demo }) => {
    await openContact(page, demo.url, 'data-write-wait-ms="5000"');
    await page.locator('#capell-form-contact-name').fill('Grace');
    await startCall(page, 'write', 'form.submit.capell-form-contact', PROPOSAL, true);
    await panel(page).waitOpen();
    await page.evaluate(() => (window as unknown as { agents: Record<string, AbortController> }).agents.write!.abort());
    expect(await result(page, 'write')).toEqual({ rejected: 'AbortError' });
    await panel(page).waitClosed();
    expect(await fieldValues(page)).toEqual({ ...EMPTY, name: 'Grace' });
    expect(demo.formPosts).toEqual([]);
  });

  test('waitMs long-polls until the person decides', async ({ page, demo }) => {
    // 6 s: the answer after the person's Send must come well before waitMs ends, also on a loaded
    // machine (2 s left too little room in CI). The call's own wait (data-write-wait-ms, the most
    // waitMs may be) is jumped over: the long poll after it is what this test times.
    await page.clock.install();
    await openContact(page, demo.url, 'data-write-wait-ms="6000"');
    const { writeId } = await awaitingAfterJump(page, 'write', 'newsletter.subscribe', { email: 'ada@example.test' }, 6000);
    const began = Date.now();
    await startCall(page, 'status', 'capell.write.status', { writeId, waitMs: 6000 });
    await page.waitForTimeout(300);
    await panel(page).click('Send');
    expect(answerOf(await result(page, 'status'))).toMatchObject({ status: 'submitted', httpStatus: 200 });
    expect(Date.now() - began).toBeLessThan(5000);
    expect(demo.subscriptions.at(-1)).toBe('ada@example.test');
  });
});
