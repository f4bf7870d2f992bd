/**
 * form.submit.capell-form-contact: nothing leaves before the person acts: script-made submits, change handlers,
 * kept submit functions, keyboard tricks and frames while the panel is open.
 *
 * Mediated writes end to end with WebMCP on: the demo contact page, the built bundle, an agent
 * calling `form.submit.capell-form-contact` and `newsletter.subscribe` through document.modelContext, and a
 * person clicking (Playwright's real input). The server counts every contact POST, so "nothing
 * is sent before the person's click" is checked where it matters.
 *
 * One tab per worker serves every test (sharedTabTest, demo-fixture.ts): each test opens its page
 * itself, as on a fresh tab.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, serveEdited, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { startCall, callResult, call, fieldValues, PROPOSAL } from './agent-calls.ts';
import { panel } from './panel-driver.ts';
import { PAGE_ENTER_REASON, expectPageActRefused } from './page-acts.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';

/**
 * Nothing left for the site within half a second of the page's attempt, and the page did not
 * navigate: no contact POST reached the demo server and the tab is still on /contact.
 */
async function expectNothingSent(page: Page, demo: { url: string; formPosts: unknown[] }): Promise<void> {
  await page.waitForTimeout(500);
  expect(demo.formPosts).toEqual([]);
  expect(page.url()).toBe(`${demo.url}/contact/plain`);
}

/** Installs the site's ordinary "submit when a field changes" handler on the contact form. */
async function submitOnChange(page: Page, { defer = false } = {}): Promise<void> {
  await page.evaluate((defer) => {
    document.getElementById('capell-form-contact')!.addEventListener('change', (event) => {
      const { form } = event.target as HTMLSelectElement;
      if (defer) setTimeout(() => form?.requestSubmit(), 0);
      else form?.requestSubmit();
    });
  }, defer);
}

test.describe('form.submit.capell-form-contact: nothing leaves before the person acts', () => {
  // The tests that open the contact page themselves (an init script or an edited page first) are
  // outside this group, so that they do not load it twice.
  test.describe(() => {
    test.beforeEach(async ({ page, demo }) => {
      await page.goto(`${demo.url}/contact/plain`);
      await readyReport(page);
      demo.formPosts.length = 0;
    });

    test('a change handler that calls requestSubmit does not send while filling; the person\'s Send then sends once', async ({ page, demo }) => {
      await submitOnChange(page);
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await panel(page).waitOpen();
      expect(await fieldValues(page)).toEqual({ ...PROPOSAL, website: '' });
      await expectNothingSent(page, demo);
      const outcome = callResult(page);
      await panel(page).click('Send');
      expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
      expect(demo.formPosts).toHaveLength(1);
    });

    test('a change handler that calls requestSubmit does not send while restoring on Cancel either', async ({ page, demo }) => {
      await page.locator('#capell-form-contact-topic').selectOption('order');
      await submitOnChange(page);
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await panel(page).waitOpen();
      await panel(page).click('Cancel');
      expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
      expect((await fieldValues(page)).topic).toBe('order');
      await expectNothingSent(page, demo);
    });

    test('a change handler that defers requestSubmit (setTimeout 0) sends nothing, while filling or after the restore', async ({ page, demo }) => {
      // The person's own complete message: once restored, the form is valid, so a deferred
      // requestSubmit from the restore's events would send it without the person.
      await page.locator('#capell-form-contact-name').fill('Grace Hopper');
      await page.locator('#capell-form-contact-email').fill('grace@example.test');
      await page.locator('#capell-form-contact-topic').selectOption('order');
      await page.locator('#capell-form-contact-message').fill('Where is my order?');
      await submitOnChange(page, { defer: true });
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await panel(page).waitOpen();
      await panel(page).click('Cancel');
      expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
      await expectNothingSent(page, demo);
      expect(await fieldValues(page)).toMatchObject({ name: 'Grace Hopper', topic: 'order', message: 'Where is my order?' });
    });

    test('form.submit() while the panel is open sends nothing', async ({ page, demo }) => {
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await panel(page).waitOpen();
      await page.evaluate(() => (document.getElementById('capell-form-contact') as HTMLFormElement).submit());
      await expectNothingSent(page, demo);
      await panel(page).waitOpen();
      await panel(page).click('Cancel');
      expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
    });

    test('HTMLFormElement.prototype.submit.call(form) sends nothing', async ({ page, demo }) => {
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await panel(page).waitOpen();
      await page.evaluate(() => HTMLFormElement.prototype.submit.call(document.getElementById('capell-form-contact') as HTMLFormElement));
      await expectNothingSent(page, demo);
    });

    test('a site handler that stops propagation of submit does not open the native path', async ({ page, demo }) => {
      await page.evaluate(() => document.getElementById('capell-form-contact')!.addEventListener('submit', (event) => event.stopImmediatePropagation()));
      await submitOnChange(page);
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await panel(page).waitOpen();
      await page.evaluate(() => (document.getElementById('capell-form-contact') as HTMLFormElement).requestSubmit());
      await expectNothingSent(page, demo);
    });

    test('a10: Enter for a new line in the message, which the page\'s keydown handler turns into requestSubmit, sends nothing and is refused as Enter', async ({ page, demo }) => {
      await page.evaluate(() => {
        const form = document.getElementById('capell-form-contact') as HTMLFormElement;
        (form.elements.namedItem('message') as HTMLTextAreaElement).addEventListener('keydown', (event) => { if (event.key === 'Enter') form.requestSubmit(); });
      });
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await panel(page).waitOpen();
      await panel(page).waitArmed();
      await page.locator('#capell-form-contact-message').click();
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await expectNothingSent(page, demo);
      // The panel said why, then followed the new line the person's Enter typed (which shows the
      // proposal again, without the refusal line); the write's record keeps the refusal.
      await panel(page).click('Cancel');
      expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled, refused: PAGE_ENTER_REASON });
      expect(demo.formPosts).toEqual([]);
    });

    test('a03: the page moves the focus to the submit button while the person types in a search box; their Enter and Space send nothing and are refused; the panel\'s Send then sends the proposal', async ({ page, demo }) => {
      await page.evaluate(() => {
        const button = document.querySelector('#capell-form-contact button[type="submit"]') as HTMLButtonElement;
        const search = document.createElement('input');
        search.id = 'search-box';
        search.setAttribute('aria-label', 'Search the shop');
        document.body.prepend(search);
        search.addEventListener('keydown', (event) => { if (event.key === 'x') setTimeout(() => button.focus(), 0); });
      });
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await panel(page).waitOpen();
      await panel(page).waitArmed();
      await page.locator('#search-box').click();
      await page.keyboard.press('x');
      // The page's timer moves the focus (a busy renderer may run it late).
      await expect.poll(() => page.evaluate(() => document.activeElement === document.querySelector('#capell-form-contact button[type="submit"]'))).toBe(true);
      // Enter on the button the page focused counts as Enter in the form; Space as a click on it.
      await page.keyboard.press('Enter');
      await expectPageActRefused(page, 'enter');
      await page.keyboard.press('Space');
      await expectPageActRefused(page, 'click');
      await expectNothingSent(page, demo);
      // The panel's Send still sends exactly the proposal it showed.
      const outcome = callResult(page);
      await panel(page).click('Send');
      expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
      expect(demo.formPosts).toHaveLength(1);
      expect(demo.submissions.at(-1)).toEqual({ lang: 'en', ...PROPOSAL });
    });

    test('a02: the form pointed at a same-origin frame after the fill and sent with that frame\'s submit() sends nothing', async ({ page, demo }) => {
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await panel(page).waitOpen();
      await page.evaluate(async () => {
        const form = document.getElementById('capell-form-contact') as HTMLFormElement;
        const sink = document.createElement('iframe');
        sink.name = 'sink';
        sink.src = 'about:blank';
        document.body.append(sink);
        await new Promise((resolve) => setTimeout(resolve, 50));
        form.setAttribute('target', 'sink');
        (sink.contentWindow as Window & typeof globalThis).HTMLFormElement.prototype.submit.call(form);
      });
      await page.waitForTimeout(500);
      expect(demo.formPosts).toEqual([]);
      await panel(page).click('Cancel');
      expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
      expect(demo.formPosts).toEqual([]);
    });
  });

  test('an original submit a page script kept before the runtime loaded is cancelled by the navigate backstop', async ({ page, demo }) => {
    await page.addInitScript(() => { (window as unknown as { keptSubmit: () => void }).keptSubmit = HTMLFormElement.prototype.submit; });
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    await page.evaluate(() => (window as unknown as { keptSubmit: () => void }).keptSubmit.call(document.getElementById('capell-form-contact')));
    await expectNothingSent(page, demo);
  });

  test('a window capture listener that stops submit before the runtime\'s does not open the native path either', async ({ page, demo }) => {
    await page.addInitScript(() => window.addEventListener('submit', (event) => event.stopImmediatePropagation(), true));
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel(page).waitOpen();
    // The navigate backstop cancels this submission. (Playwright then keeps waiting for the
    // navigation it saw requested, so no locator is used after it; the server count decides.)
    await page.evaluate(() => (document.getElementById('capell-form-contact') as HTMLFormElement).requestSubmit());
    await expectNothingSent(page, demo);
    expect(await page.evaluate(() => (document.getElementById('capell-form-contact-name') as HTMLInputElement).value)).toBe(PROPOSAL.name);
  });

  test('a form with target=_blank is refused and nothing is filled', async ({ page, demo }) => {
    await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replace('<form id="capell-form-contact"', '<form id="capell-form-contact" target="_blank"'));
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    const result = await call(page, 'form.submit.capell-form-contact', PROPOSAL);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('form.submit.capell-form-contact: form #capell-form-contact submits to target="_blank", another browsing context, where the runtime cannot hold its submission back; only forms that submit in this page can be filled');
    expect((await fieldValues(page)).name).toBe('');
    expect(await panel(page).count()).toBe(0);
  });

  test('a data-agent-tools=none form is refused although a declaration names it, quoting its reason', async ({ page, demo }) => {
    await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replace('<form id="capell-form-contact"', '<form id="capell-form-contact" data-agent-tools="none" data-agent-tools-reason="Messages to the shop are written by people."'));
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
    const result = await call(page, 'form.submit.capell-form-contact', PROPOSAL);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('form.submit.capell-form-contact: form #capell-form-contact is marked data-agent-tools="none" ("Messages to the shop are written by people."); an agent never fills it');
    expect((await fieldValues(page)).name).toBe('');
    expect(await panel(page).count()).toBe(0);
    expect(demo.formPosts).toEqual([]);
  });
});
