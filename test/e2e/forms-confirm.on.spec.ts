/**
 * form.submit.capell-form-contact, the person confirms: the panel, the person's Send, Cancel, Escape,
 * concurrent calls, the site's answers, values the form refuses, and the page options. The person
 * sends with the panel's own Send; the form's own button and Enter in a field send nothing while
 * the panel is open (issue 37, item 1).
 *
 * Mediated writes end to end with WebMCP on: the demo contact page, the built bundle, an agent
 * calling `form.submit.capell-form-contact` and `newsletter.subscribe` through document.modelContext, and a
 * person clicking (Playwright's real input). The server counts every contact POST, so "nothing
 * is sent before the person's Send" is checked where it matters.
 *
 * One tab per worker serves every test (sharedTabTest, demo-fixture.ts): each test opens its page
 * itself, as on a fresh tab.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { expect, listTools, readyReport, serveEdited, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { startCall, callResult, call, fieldValues, PROPOSAL, type ToolResult } from './agent-calls.ts';
import { panel } from './panel-driver.ts';
import { PAGE_CONTROL_REASON, expectPageActRefused } from './page-acts.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

type Result = ToolResult;

/**
 * Starts two calls of form.submit.capell-form-contact in the same task, so neither has opened its panel when
 * the other begins, and waits for the first to settle.
 * @returns which call settled first (0 or 1) and its result.
 */
async function startTwoCalls(page: Page, inputs: object[]): Promise<{ refused: number; result: Result }> {
  return page.evaluate((inputs) => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    const calls = inputs.map((input) => context.getTools()
      .then((tools) => context.executeTool(tools.find((tool) => tool.name === 'form.submit.capell-form-contact'), input))
      .then((text) => JSON.parse(text) as Result));
    (window as unknown as { twoCalls: Promise<Result>[] }).twoCalls = calls;
    return Promise.race(calls.map((call, index) => call.then((result) => ({ refused: index, result }))));
  }, inputs);
}

/** Waits for call `index` started by startTwoCalls. */
function openCallResult(page: Page, index: number): Promise<Result> {
  return page.evaluate((index) => (window as unknown as { twoCalls: Promise<Result>[] }).twoCalls[index]!, index);
}

test.describe('form.submit.capell-form-contact: the person confirms', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
  });

  test('registers the two write tools on the contact page, with consequential annotations', async ({ page }) => {
    const report = await readyReport(page);
    expect(report.rejected).toEqual([]);
    expect(report.registered).toEqual(expect.arrayContaining(['form.submit.capell-form-contact', 'newsletter.subscribe']));
    const annotations = await page.evaluate(async () => {
      const tools = await (document as unknown as { modelContext: { getTools(): Promise<{ name: string; annotations?: object }[]> } }).modelContext.getTools();
      return tools.find((tool) => tool.name === 'form.submit.capell-form-contact')?.annotations;
    });
    expect(annotations).toMatchObject({ readOnlyHint: false });
  });

  test('fills the form and shows the panel; nothing reaches the server until the person clicks the panel\'s Send', async ({ page, demo }) => {
    const before = demo.submissions.length;
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    expect(await fieldValues(page)).toEqual({ ...PROPOSAL, website: '' });
    await panel(page).waitText('Ada Lovelace');
    await panel(page).waitText('Repair request');
    await panel(page).waitText('To send it, press Send on this panel; the page’s own buttons do not send it while this panel is open.');
    await page.waitForTimeout(300);
    expect(demo.formPosts).toEqual([]);

    // Awaited from before the click: the page navigates to the thank-you notice right after.
    const outcome = callResult(page);
    await panel(page).click('Send');
    const result = await outcome;
    expect(answerOf(result)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(JSON.parse(result.content[0]!.text)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
    expect(demo.submissions).toHaveLength(before + 1);
    expect(demo.submissions.at(-1)).toEqual({ lang: 'en', ...PROPOSAL });
    // Then the person sees the site's thank-you notice, as after a native submit.
    await page.waitForURL(/\/contact\/plain\?sent=1$/);
    await expect(page.locator('.notice')).toBeVisible();
  });

  test('Enter in a field and a click on the form\'s own button send nothing while the panel is open; the panel says why, and its Send then sends', async ({ page, demo }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    const outcome = callResult(page);
    await panel(page).waitArmed();
    // The person clicks into the field, then presses Enter: implicit submission, which the panel refuses.
    await page.locator('#capell-form-contact-email').click({ position: { x: 4, y: 4 } }); // its left edge: the panel covers the rest here
    await page.keyboard.press('Enter');
    await expectPageActRefused(page, 'enter');
    await page.locator('#capell-form-contact button[type="submit"]').click();
    await expectPageActRefused(page, 'click');
    expect(demo.formPosts).toEqual([]);
    expect(page.url()).toBe(`${demo.url}/contact/plain`);
    await panel(page).click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
  });

  test('the form\'s own button, clicked while the panel is open, sends nothing and reaches no submit listener of the site; the agent hears the refusal on Cancel', async ({ page, demo }) => {
    await page.evaluate(() => {
      document.getElementById('capell-form-contact')!.addEventListener('submit', () => { (window as unknown as { siteSaw: number }).siteSaw = ((window as unknown as { siteSaw?: number }).siteSaw ?? 0) + 1; });
    });
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitArmed();
    const outcome = callResult(page);
    await page.locator('#capell-form-contact button[type="submit"]').click();
    await expectPageActRefused(page, 'click');
    await panel(page).click('Cancel');
    expect(answerOf(await outcome)).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled, refused: PAGE_CONTROL_REASON });
    expect(await page.evaluate(() => (window as unknown as { siteSaw?: number }).siteSaw ?? 0)).toBe(0);
    expect(demo.formPosts).toEqual([]);
  });

  test('Cancel resolves cancelled, puts back what the person had typed and sends nothing', async ({ page, demo }) => {
    await page.locator('#capell-form-contact-name').fill('Grace');
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    // The person's typed name is not overwritten; they take the assistant's, then cancel.
    await expect(page.locator('#capell-form-contact-email')).toHaveValue('ada@example.test');
    await expect(page.locator('#capell-form-contact-name')).toHaveValue('Grace');
    await panel(page).click('Use the assistant’s value: Your name');
    await expect(page.locator('#capell-form-contact-name')).toHaveValue('Ada Lovelace');
    await panel(page).click('Cancel');
    expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
    expect(await fieldValues(page)).toEqual({ name: 'Grace', email: '', topic: '', message: '', newsletter: false, website: '' });
    await panel(page).waitClosed();
    expect(demo.formPosts).toEqual([]);
  });

  test('the panel takes focus and Escape cancels', async ({ page, demo }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await expect.poll(async () => (await panel(page).state())?.focused).toBe('dialog');
    await page.keyboard.press('Escape');
    expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
    expect((await fieldValues(page)).name).toBe('');
    expect(demo.formPosts).toEqual([]);
  });

  test('the panel is keyboard operable: Tab reaches Send, then Cancel, and Enter cancels', async ({ page }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await expect.poll(async () => (await panel(page).state())?.focused).toBe('dialog');
    // Through the panel's own controls: a long token's "show all" toggle, then Send, then Cancel.
    const passed: (string | null | undefined)[] = [];
    for (let presses = 0; presses < 4 && passed.at(-1) !== 'Cancel'; presses++) {
      const before = (await panel(page).state())?.focused;
      await page.keyboard.press('Tab');
      await expect.poll(async () => (await panel(page).state())?.focused).not.toBe(before);
      passed.push((await panel(page).state())?.focused);
    }
    expect(passed.slice(-2)).toEqual(['Send', 'Cancel']);
    expect(passed.slice(0, -2).every((text) => text?.includes('show all'))).toBe(true);
    await page.keyboard.press('Enter');
    expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
  });

  test('aborting the call (the runtime stops) resolves aborted and restores the values', async ({ page, demo }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    await page.evaluate(() => window.capellWebMCP!.stop());
    expect(answerOf(await callResult(page))).toEqual({ status: 'aborted', next: NEXT_STEPS.aborted });
    expect((await fieldValues(page)).message).toBe('');
    await panel(page).waitClosed();
    expect(demo.formPosts).toEqual([]);
  });

  test('navigating away while the panel is open withdraws the proposal and sends nothing', async ({ page, demo }) => {
    // While a document unloads only a beacon still gets out; the server records it (404 or not),
    // so the closing panel's outcome can be seen after the page is gone.
    await page.evaluate(() => {
      document.addEventListener('capell-webmcp:confirm-close', (event) => {
        navigator.sendBeacon(`/agent/v1/test-beacon?outcome=${(event as CustomEvent<{ outcome: string }>).detail.outcome}`);
      });
    });
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    demo.requests.length = 0;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link').first().click();
    await page.waitForURL(`${demo.url}/`);
    await expect.poll(() => demo.requests.filter((request) => request.path === '/agent/v1/test-beacon').map((request) => request.query))
      .toEqual(['?outcome=withdrawn']);
    expect(demo.formPosts).toEqual([]);
  });

  test('script-made submits are not consent: requestSubmit, button.click() and a dispatched SubmitEvent send nothing', async ({ page, demo }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    await page.evaluate(() => {
      const form = document.getElementById('capell-form-contact') as HTMLFormElement;
      form.requestSubmit();
      form.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
      form.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true }));
    });
    await page.waitForTimeout(500);
    expect(demo.formPosts).toEqual([]);
    expect(page.url()).toBe(`${demo.url}/contact/plain`);
    await panel(page).waitOpen();
    await panel(page).click('Cancel');
    expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
  });

  test('two concurrent calls for the form: one is superseded and touches nothing; the person sends the other', async ({ page, demo }) => {
    const before = demo.submissions.length;
    const proposals = [PROPOSAL, { ...PROPOSAL, name: 'Mallory', message: 'Unsubscribe me from everything.' }];
    const { refused, result } = await startTwoCalls(page, proposals);
    expect(answerOf(result)).toMatchObject({ status: 'superseded', next: NEXT_STEPS.superseded });
    // WebMCP does not promise which call runs first; the other one is the open proposal.
    const open = proposals[1 - refused]!;
    await panel(page).waitOpen();
    expect(await panel(page).count()).toBe(1);
    await panel(page).waitText(open.name);
    expect(await fieldValues(page)).toEqual({ ...open, website: '' });
    const outcome = openCallResult(page, 1 - refused);
    await panel(page).click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.submissions).toHaveLength(before + 1);
    expect(demo.submissions.at(-1)).toEqual({ lang: 'en', ...open });
  });

  test('two concurrent calls, then Cancel: the person\'s own values come back', async ({ page }) => {
    await page.locator('#capell-form-contact-name').fill('Grace');
    const { refused, result } = await startTwoCalls(page, [PROPOSAL, { ...PROPOSAL, name: 'Mallory' }]);
    expect(answerOf(result)).toMatchObject({ status: 'superseded' });
    await panel(page).waitOpen();
    expect(await panel(page).count()).toBe(1);
    const outcome = openCallResult(page, 1 - refused);
    await panel(page).click('Cancel');
    expect(answerOf(await outcome)).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
    await panel(page).waitClosed();
    expect(await fieldValues(page)).toEqual({ name: 'Grace', email: '', topic: '', message: '', newsletter: false, website: '' });
  });

  test('a stale session (the site answers 419 to the person\'s submit) comes back as isError saying the session expired', async ({ page, demo }) => {
    await page.evaluate(() => { (document.querySelector('#capell-form-contact input[name="_token"]') as HTMLInputElement).value = 'stale'; });
    const before = demo.submissions.length;
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    const outcome = callResult(page);
    await panel(page).click('Send');
    const result = await outcome;
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('form.submit.capell-form-contact: the session expired or its CSRF token was refused (HTTP 419 from /contact/plain); the person should reload the page and try again');
    expect(demo.formPosts).toHaveLength(1);
    expect(demo.submissions).toHaveLength(before);
    await panel(page).waitText('The site did not accept it (HTTP 419).');
  });

  test('a 403 answer is a session expiry too; any other status is handed back as submitted with httpStatus', async ({ page, demo }) => {
    let answer = 403;
    await page.route(`${demo.url}/contact/plain`, (route) => route.request().method() === 'POST'
      ? route.fulfill({ status: answer, contentType: 'application/json', body: JSON.stringify({ message: 'nope' }) })
      : route.continue());
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    let outcome = callResult(page);
    await panel(page).click('Send');
    const forbidden = await outcome;
    expect(forbidden.isError).toBe(true);
    expect(forbidden.content[0]!.text).toMatch(/^form\.submit\.capell-form-contact: the session expired .*\(HTTP 403 from \/contact\/plain\)/);

    answer = 422;
    await panel(page).click('Close');
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    outcome = callResult(page);
    await panel(page).click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 422, answer: { message: 'nope' } });
    await panel(page).waitText('The site did not accept it (HTTP 422).');
    expect(page.url()).toBe(`${demo.url}/contact/plain`);
  });

  test('a value the control would not hold as given is refused, naming the field; nothing is filled', async ({ page }) => {
    // A text input drops line breaks: the panel would list a name the form does not hold.
    const result = await call(page, 'form.submit.capell-form-contact', { ...PROPOSAL, name: 'Ada\nLovelace' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('cannot fill form #capell-form-contact for form.submit.capell-form-contact: name: the text input would hold "AdaLovelace", not "Ada\\nLovelace"; give a value it holds as given');
    expect(await fieldValues(page)).toMatchObject({ name: '', email: '' });
    await panel(page).waitClosed();
  });

  test('a select given an option label is refused, naming the field; nothing is filled', async ({ page }) => {
    const result = await call(page, 'form.submit.capell-form-contact', { ...PROPOSAL, topic: 'Repair request' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^invalid input for form\.submit\.capell-form-contact: topic: /);
    expect((await fieldValues(page)).name).toBe('');
    await panel(page).waitClosed();
  });

  test('a disabled field is refused, naming the field; nothing is filled', async ({ page }) => {
    await page.evaluate(() => { (document.getElementById('capell-form-contact-name') as HTMLInputElement).disabled = true; });
    const result = await call(page, 'form.submit.capell-form-contact', PROPOSAL);
    expect(result).toMatchObject({ isError: true });
    expect(result.content[0]!.text).toBe('cannot fill form #capell-form-contact for form.submit.capell-form-contact: name: the control is disabled');
    expect((await fieldValues(page)).email).toBe('');
    await panel(page).waitClosed();
  });

  test('the CSRF token and the honeypot cannot be written', async ({ page }) => {
    const token = await call(page, 'form.submit.capell-form-contact', { ...PROPOSAL, _token: 'forged' });
    const honeypot = await call(page, 'form.submit.capell-form-contact', { ...PROPOSAL, website: 'http://spam.test' });
    expect(token.content[0]!.text).toContain('_token: not an allowed property');
    expect(honeypot.content[0]!.text).toContain('website: not an allowed property');
    expect(await fieldValues(page)).toMatchObject({ name: '', website: '' });
    expect(await page.locator('#capell-form-contact input[name="_token"]').inputValue()).not.toBe('forged');
  });

  test('the panel has no accessibility violations (axe-core)', async ({ page }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    // The demo's CSP refuses inline scripts; DevTools evaluation is not subject to it, so axe runs
    // in the page while the panel lives under the strict policy.
    await page.evaluate(readFileSync(AXE_PATH, 'utf8'));
    // axe walks element.shadowRoot; the panel's is closed, so DevTools lends axe a way in.
    await panel(page).exposeRootForAxe();
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: object): Promise<{ violations: { id: string; help: string; nodes: unknown[] }[] }> } }).axe;
      const results = await axe.run({ include: [['capell-confirm-write']] });
      // Proof that axe looked inside the closed root: it checked the panel's button names.
      const buttonsChecked = (results as unknown as { passes: { id: string; nodes: unknown[] }[] }).passes.find(({ id }) => id === 'button-name')?.nodes.length ?? 0;
      return { buttonsChecked, found: results.violations.map(({ id, help, nodes }) => ({ id, help, nodes: nodes.length })) };
    });
    expect(violations.found).toEqual([]);
    expect(violations.buttonsChecked).toBeGreaterThan(0);
  });
});

test.describe('form.submit.capell-form-contact: timeouts and page options', () => {
  test('resolves expired after data-confirm-timeout-ms and restores the values', async ({ page, demo }) => {
    // Playwright's fake clock, running as real time does, jumps to the proposal's end instead of
    // waiting for it.
    await page.clock.install();
    await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replace('data-capell-webmcp', 'data-capell-webmcp data-confirm-timeout-ms="2500"'));
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    await page.clock.fastForward(2500);
    expect(answerOf(await callResult(page))).toEqual({ status: 'expired', next: NEXT_STEPS.expired });
    expect((await fieldValues(page)).name).toBe('');
    await panel(page).waitClosed();
    expect(demo.formPosts).toEqual([]);
  });

  test('a form that opts out of fetch (data-capell-submit="native") resolves submitted (no httpStatus) and navigates natively', async ({ page, demo }) => {
    await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replace('<form id="capell-form-contact"', '<form id="capell-form-contact" data-capell-submit="native"'));
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    const before = demo.submissions.length;
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    const result = callResult(page);
    await panel(page).click('Send');
    expect(answerOf(await result)).toEqual({ status: 'submitted' });
    await page.waitForURL(/\/contact\/plain\?sent=1$/);
    expect(demo.submissions).toHaveLength(before + 1);
  });

  test('a form that carries toolname is left to the browser and reported, not registered twice', async ({ page, demo }) => {
    await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replace('<form id="capell-form-contact"', '<form id="capell-form-contact" toolname="contact_form" tooldescription="Write to the shop"'));
    await page.goto(`${demo.url}/contact/plain`);
    const report = await readyReport(page);
    expect(report.registered).not.toContain('form.submit.capell-form-contact');
    expect(report.rejected).toEqual([{
      name: 'form.submit.capell-form-contact',
      source: 'capell-island[0]',
      reasons: ['form #capell-form-contact carries toolname="contact_form": the browser registers it natively, so capell-webmcp does not register it a second time'],
    }]);
    const names = (await listTools(page)).map((tool) => tool.name);
    expect(names).not.toContain('form.submit.capell-form-contact');
    expect(names.filter((name) => name === 'contact_form').length).toBeLessThanOrEqual(1);
  });

  test('the German contact page shows the panel in German', async ({ page, demo }) => {
    await page.goto(`${demo.url}/de/kontakt/einfach`);
    await readyReport(page);
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    expect((await panel(page).waitOpen()).name).toBe('Vor dem Senden prüfen');
    await panel(page).click('Abbrechen');
    expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
  });
});
