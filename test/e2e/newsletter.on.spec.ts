/**
 * newsletter.subscribe: a write endpoint the person sends from the panel (preview, CSRF, query
 * string, Cancel).
 *
 * Mediated writes end to end with WebMCP on: the demo contact page, the built bundle, an agent
 * calling `form.submit.capell-form-contact` and `newsletter.subscribe` through document.modelContext, and a
 * person clicking (Playwright's real input). The server counts every contact POST, so "nothing
 * is sent before the person's click" is checked where it matters.
 *
 * One tab per worker serves every test (sharedTabTest, demo-fixture.ts): each test opens its page
 * itself, as on a fresh tab.
 */
import { expect, readyReport, serveEdited, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { startCall, callResult } from './agent-calls.ts';
import { panel } from './panel-driver.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';

test.describe('newsletter.subscribe: a write endpoint the person sends from the panel', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.requests.length = 0;
  });

  test('previews the request; a script click on Send is ignored; the person\'s click sends it with the CSRF token', async ({ page, demo }) => {
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    await panel(page).waitText('POST /agent/v1/newsletter');
    await panel(page).waitText('ada@example.test');
    // The root is closed: a page script reaches only the host, and clicking it (or what it finds
    // at Send's coordinates, the host again) is not consent.
    const send = (await panel(page).state())!.buttons.find((button) => button.text === 'Send')!;
    expect(await page.evaluate(({ x, y }) => {
      const host = document.querySelector('capell-confirm-write')!;
      host.click();
      (document.elementFromPoint(x, y) as HTMLElement).click();
      host.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, clientX: x, clientY: y }));
      return host.shadowRoot === null && document.elementFromPoint(x, y) === host;
    }, send)).toBe(true);
    await page.waitForTimeout(300);
    expect(demo.requests).toEqual([]);
    await panel(page).click('Send');
    expect(answerOf(await callResult(page))).toEqual({ status: 'submitted', httpStatus: 200, answer: { capellAgentSchema: 1, data: { subscribed: 'ada@example.test' }, links: { next: null, previous: null } } });
    expect(demo.requests).toHaveLength(1);
    expect(demo.requests[0]).toMatchObject({ method: 'POST', path: '/agent/v1/newsletter' });
    expect(demo.subscriptions.at(-1)).toBe('ada@example.test');
    await panel(page).waitText('Sent.');
  });

  test('a refused CSRF token (419) comes back as isError saying the session expired', async ({ page, demo }) => {
    await page.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.setAttribute('content', 'stale'));
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    await panel(page).click('Send');
    const result = await callResult(page);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^newsletter\.subscribe: the session expired .*HTTP 419/);
    expect(demo.requests).toHaveLength(1);
  });

  test('the preview shows the query string that is sent, and the person\'s click sends exactly that', async ({ page, demo }) => {
    await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replace('"target":"\\/agent\\/v1\\/newsletter"', '"target":"\\/agent\\/v1\\/newsletter?list=everything\\u0026unsubscribe_all=1"'));
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.requests.length = 0;
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    await panel(page).waitText('POST /agent/v1/newsletter?list=everything&unsubscribe_all=1');
    await panel(page).click('Send');
    expect(answerOf(await callResult(page))).toEqual({ status: 'submitted', httpStatus: 200, answer: { capellAgentSchema: 1, data: { subscribed: 'ada@example.test' }, links: { next: null, previous: null } } });
    expect(demo.requests).toHaveLength(1);
    expect(demo.requests[0]).toMatchObject({ method: 'POST', path: '/agent/v1/newsletter', query: '?list=everything&unsubscribe_all=1' });
  });

  test('Cancel sends nothing', async ({ page, demo }) => {
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    await panel(page).click('Cancel');
    expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
    expect(demo.requests).toEqual([]);
  });
});
