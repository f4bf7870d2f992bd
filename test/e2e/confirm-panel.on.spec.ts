/**
 * What the person sees is what is sent, end to end on the demo's contact page with the built bundle
 * under its strict CSP: page CSS and scripts that try to hide, disguise or hurry the panel, and the
 * person's own typing. The person sends with the panel's own Send (issue 37); a click on a page
 * button sends nothing while the proposal is open. The server counts every contact POST (`demo.formPosts`) and newsletter
 * subscription (`demo.subscriptions`), so "nothing was sent" is checked where it matters. The
 * person acts through Playwright's real mouse and keyboard.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { startCall, callResult, PROPOSAL, type ToolResult } from './agent-calls.ts';
import { PanelDriver } from './panel-driver.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';

type Result = ToolResult;

const SUBMIT = '#capell-form-contact button[type="submit"]';
/** The panel's refusal of a person's click on a button of the page while a proposal is open (issue 37). */
const PAGE_CONTROL_REFUSED = 'That did not count: a button of the page does not send this proposal, whatever it reads; only Send on this panel does. Nothing was sent; the proposal is still open.';
/** The demo's JSON answer to a newsletter subscription (a write endpoint's answer is handed back). */
const SUBSCRIBED = { capellAgentSchema: 1, data: { subscribed: 'ada@example.test' }, links: { next: null, previous: null } };



/**
 * Adds a page stylesheet the way the demo's CSP allows (a constructed sheet: no inline <style>),
 * as a site's own CSS would be. Returns a function that removes it.
 */
async function pageCSS(page: Page, text: string): Promise<() => Promise<void>> {
  await page.evaluate((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    (window as unknown as { hostileSheet: CSSStyleSheet }).hostileSheet = sheet;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }, text);
  return () => page.evaluate(() => {
    const sheet = (window as unknown as { hostileSheet: CSSStyleSheet }).hostileSheet;
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((candidate) => candidate !== sheet);
  });
}

/** The panel's input protection (click-guard.ts INPUT_PROTECTION_MS), in ms. */
const INPUT_PROTECTION_MS = 500;

/**
 * Starts the contact write and clicks the panel's Send as soon as the panel has drawn it, and
 * tells whether that click landed inside the input protection as the page's own clock measured
 * it: from the panel element's arrival (the protection starts no earlier) to the click event.
 */
async function clickAsThePanelAppears(page: Page, panel: PanelDriver): Promise<boolean> {
  await page.evaluate(() => {
    const times: { attached?: number; clicked?: number } = {};
    (window as unknown as { earlyClick: typeof times }).earlyClick = times;
    new MutationObserver(() => { if (document.querySelector('capell-confirm-write')) times.attached ??= performance.now(); }).observe(document.body, { childList: true });
    document.addEventListener('click', () => { times.clicked ??= performance.now(); }, true);
  });
  await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
  await panel.waitAttached();
  await expect.poll(async () => (await panel.state())?.buttons.some((button) => button.text === 'Send') ?? false, { intervals: [10], timeout: 15_000 }).toBe(true);
  await panel.clickNow('Send');
  const { attached, clicked } = await page.evaluate(() => (window as unknown as { earlyClick: { attached?: number; clicked?: number } }).earlyClick);
  return attached !== undefined && clicked !== undefined && clicked - attached < INPUT_PROTECTION_MS;
}

test.describe('form.submit.capell-form-contact: what the person sees is what is sent', () => {
  let panel: PanelDriver;

  /**
   * Makes attempts (`prepare`, then clickAsThePanelAppears) until one click lands inside the input
   * protection, three at most: a busy machine can deliver the click later, and such an attempt
   * proves nothing (the page is loaded again for the next).
   */
  async function clickInsideProtection(page: Page, demo: { url: string; formPosts: unknown[] }, prepare: () => Promise<void> = async () => undefined): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await prepare();
      if (await clickAsThePanelAppears(page, panel)) return;
      expect(attempt, 'a click inside the input protection within three attempts').toBeLessThan(3);
      // The late click was judged (refused on the panel, or sent) before the page goes.
      await expect.poll(async () => demo.formPosts.length > 0 || ((await panel.state().catch(() => undefined))?.refusal ?? '') !== '').toBe(true);
      await page.goto(`${demo.url}/contact/plain`);
      await readyReport(page);
      demo.formPosts.length = 0;
    }
  }

  test.beforeEach(async ({ page, demo }) => {
    panel = new PanelDriver(page);
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
  });

  test('the panel\'s Send within INPUT_PROTECTION_MS of the panel opening sends nothing; after it, it sends', async ({ page, demo }) => {
    await clickInsideProtection(page, demo);
    await panel.waitOpen();
    await page.waitForTimeout(200);
    expect(demo.formPosts).toEqual([]);
    expect((await panel.state())!.refusal).toContain('only just appeared or changed');
    const outcome = callResult(page);
    // The refusal line under the body leaves it too short for the whole proposal in a 720 px window.
    await panel.scrollToEnd();
    await panel.waitArmed();
    await panel.click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
  });

  test('a01 "A page script can fake the person\'s Send": a consentRefusal patched to approve everything does not let an early Send through', async ({ page, demo }) => {
    await clickInsideProtection(page, demo, () => page.evaluate(() => {
      const approve = () => undefined;
      customElements.whenDefined('capell-confirm-write').then(() => {
        try { Object.defineProperty(customElements.get('capell-confirm-write')!.prototype, 'consentRefusal', { value: approve }); } catch { /* frozen */ }
      });
      new MutationObserver(() => {
        const host = document.querySelector('capell-confirm-write');
        try { if (host) Object.defineProperty(host, 'consentRefusal', { value: approve }); } catch { /* locked */ }
      }).observe(document.body, { childList: true });
    }));
    await panel.waitOpen();
    await page.waitForTimeout(300);
    expect(demo.formPosts).toEqual([]);
    expect((await panel.state())!.refusal).toContain('only just appeared or changed');
  });

  test('a transparent submit button stretched over the page is not consent: the person\'s click on it is refused, nothing is sent', async ({ page, demo }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel.waitOpen();
    const remove = await pageCSS(page, `${SUBMIT} { position: fixed !important; inset: 0 !important; width: 100vw !important; height: 100vh !important; margin: 0 !important; background: transparent !important; color: transparent !important; border: 0 !important; z-index: 2147483000 !important; }`);
    await panel.scrollToEnd();
    await panel.waitArmed();
    // The person clicks what looks like empty page, away from the panel.
    const { box } = (await panel.state())!;
    const viewport = page.viewportSize()!;
    const y = box.y > viewport.height / 2 ? box.y / 2 : (box.y + box.height + viewport.height) / 2;
    await page.mouse.click(viewport.width / 2, y);
    await expect.poll(async () => (await panel.state())!.refusal).toBe(PAGE_CONTROL_REFUSED);
    expect(demo.formPosts).toEqual([]);

    // The same button fully transparent (opacity) is refused the same way.
    await remove();
    const removeOpacity = await pageCSS(page, `${SUBMIT} { position: fixed !important; inset: 0 !important; width: 100vw !important; height: 100vh !important; opacity: 0 !important; z-index: 2147483000 !important; }`);
    await page.evaluate(() => (window as unknown as { clicks: number }).clicks = 0);
    await page.evaluate((submit) => document.querySelector(submit)!.addEventListener('click', () => { (window as unknown as { clicks: number }).clicks += 1; }), SUBMIT);
    await page.mouse.click(viewport.width / 2, y);
    await expect.poll(() => page.evaluate(() => (window as unknown as { clicks: number }).clicks)).toBe(1);
    expect((await panel.state())!.refusal).toBe(PAGE_CONTROL_REFUSED);
    expect(demo.formPosts).toEqual([]);
    expect(page.url()).toBe(`${demo.url}/contact/plain`);

    // The panel's own Send sends what it shows.
    await removeOpacity();
    const outcome = callResult(page);
    await panel.scrollToEnd();
    await panel.waitArmed();
    await panel.click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
  });

  test('the panel\'s Send is not consent while a page popover covers the panel', async ({ page, demo }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel.waitOpen();
    // The host cannot be hidden (its :host !important wins); a page element in the top layer
    // over the panel (letting the pointer through) can cover it, and then Send does not count.
    await page.evaluate(() => {
      const cover = document.createElement('div');
      cover.id = 'cover';
      cover.setAttribute('popover', 'manual');
      cover.textContent = 'Nothing to see here';
      document.body.append(cover);
      cover.style.cssText = 'position: fixed; inset: auto 0 0 0; width: 100vw; height: 60vh; margin: 0; background: white; border: 0; pointer-events: none;';
      cover.showPopover();
    });
    const { box } = (await panel.state())!;
    // Cover whatever half the panel docked in.
    if (box.y < page.viewportSize()!.height / 2) await page.evaluate(() => { document.getElementById('cover')!.style.inset = '0 0 auto 0'; });
    await page.waitForTimeout(800);
    await panel.clickNow('Send');
    await expect.poll(async () => (await panel.state())!.refusal).toContain('this panel was hidden or covered');
    expect(demo.formPosts).toEqual([]);
    await page.evaluate(() => (document.getElementById('cover') as HTMLElement).hidePopover());
    const outcome = callResult(page);
    await panel.scrollToEnd();
    await panel.waitArmed();
    await panel.click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
  });

  test('the person\'s typed value stays and is shown beside the agent\'s; \'use the assistant\'s value\' fills it', async ({ page, demo }) => {
    await page.locator('#capell-form-contact-name').fill('Grace Hopper');
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel.waitOpen();
    await expect(page.locator('#capell-form-contact-name')).toHaveValue('Grace Hopper');
    await expect(page.locator('#capell-form-contact-email')).toHaveValue('ada@example.test');
    const { text } = (await panel.state())!;
    expect(text).toContain('Grace Hopper (yours, kept: this is sent)');
    expect(text).toContain('The assistant proposes: Ada Lovelace');
    // A script's click cannot take the agent's value: the root is closed, the host is all it gets.
    await page.evaluate(() => document.querySelector('capell-confirm-write')!.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    await expect(page.locator('#capell-form-contact-name')).toHaveValue('Grace Hopper');
    await panel.click('Use the assistant’s value: Your name');
    await expect(page.locator('#capell-form-contact-name')).toHaveValue('Ada Lovelace');
    await panel.waitText('Ada Lovelace');
    await page.waitForTimeout(150);
    expect((await panel.state())!.text).not.toContain('yours, kept');
    const before = demo.submissions.length;
    const outcome = callResult(page);
    // The contact proposal is taller than the panel in a 720 px window: read to its end.
    await panel.scrollToEnd();
    await panel.waitArmed();
    await panel.click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.submissions).toHaveLength(before + 1);
    expect(demo.submissions.at(-1)).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.test' });
  });

  test('a message of 60 lines: the panel\'s Send is refused until the person scrolled the panel to its end (the email below it was out of view)', async ({ page, demo }) => {
    const message = Array.from({ length: 60 }, (_, index) => `line ${index + 1}`).join('\n');
    await startCall(page, 'form.submit.capell-form-contact', { ...PROPOSAL, message });
    await panel.waitOpen();
    await page.waitForTimeout(1200);
    const state = (await panel.state())!;
    expect(state.unread).toBe(true);
    expect(state.text).toContain('Scroll to the end of this panel');
    await panel.clickNow('Send');
    await expect.poll(async () => (await panel.state())!.refusal).toContain('part of this panel was not yet read');
    expect(demo.formPosts).toEqual([]);
    await panel.scrollToEnd();
    const outcome = callResult(page);
    await panel.waitArmed();
    await panel.click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
  });

  test('the person\'s typed value is what is sent when they keep it', async ({ page, demo }) => {
    await page.locator('#capell-form-contact-name').fill('Grace Hopper');
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel.waitOpen();
    const before = demo.submissions.length;
    const outcome = callResult(page);
    // The contact proposal is taller than the panel in a 720 px window: read to its end. A click
    // the panel refuses as too soon (its layout settled again just then, on a loaded machine) is
    // what a person clicks again; what this test is about is what the accepted click sends.
    for (let attempt = 0; attempt < 3 && demo.submissions.length === before; attempt += 1) {
      await panel.scrollToEnd();
      await panel.waitArmed();
      await panel.click('Send');
      await expect.poll(() => demo.submissions.length, { timeout: 2_000 }).toBe(before + 1).catch(() => {});
    }
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.submissions).toHaveLength(before + 1);
    expect(demo.submissions.at(-1)).toMatchObject({ name: 'Grace Hopper', email: 'ada@example.test' });
  });

  test('a script that changes filled values after the panel opened (with an input event or without): nothing is re-read silently; the next Send is refused and the panel shows the change; the Send after it sends that', async ({ page, demo }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    await panel.waitOpen();
    // The contact proposal is taller than the panel in a 720 px window: read to its end.
    await panel.scrollToEnd();
    await panel.waitArmed();
    await panel.watchArmed();
    // With a page-dispatched input event (as a site's formatter would), and without one: the panel is not told either way.
    await page.evaluate(() => {
      const email = document.getElementById('capell-form-contact-email') as HTMLInputElement;
      email.value = 'mallory@example.test';
      email.dispatchEvent(new Event('input', { bubbles: true }));
      (document.getElementById('capell-form-contact-message') as HTMLTextAreaElement).value = 'Unsubscribe me from everything.';
    });
    expect((await panel.state())!.text).not.toContain('mallory@example.test');
    await panel.click('Send');
    await expect.poll(async () => (await panel.state())!.refusal).toContain('what the form sends changed after this panel showed it (email changed, message changed), so check it again');
    expect(demo.formPosts).toEqual([]);
    const state = (await panel.state())!;
    expect(state.text).toContain('mallory@example.test');
    expect(state.text).toContain('Unsubscribe me from everything.');
    expect(state.text).toContain('changed after this panel first showed it');
    // The refusal started the input protection over: the person looks at the new values first.
    expect(await panel.armedSeen()).toContain(false);
    // Now the person has seen them; their next Send sends exactly that.
    const before = demo.submissions.length;
    const outcome = callResult(page);
    await panel.scrollToEnd();
    await panel.waitArmed();
    await panel.click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
    expect(demo.submissions).toHaveLength(before + 1);
    expect(demo.submissions.at(-1)).toMatchObject({ email: 'mallory@example.test', message: 'Unsubscribe me from everything.' });
  });
});

test.describe('newsletter.subscribe: the panel\'s own Send', () => {
  let panel: PanelDriver;

  test.beforeEach(async ({ page, demo }) => {
    panel = new PanelDriver(page);
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.subscriptions.length = 0;
  });

  test('the panel\'s shadow root is closed: page scripts and Playwright selectors find nothing inside', async ({ page }) => {
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    await panel.waitOpen();
    expect(await page.evaluate(() => document.querySelector('capell-confirm-write')!.shadowRoot)).toBe(null);
    expect(await page.locator('capell-confirm-write').getByRole('button').count()).toBe(0);
    expect(await page.locator('capell-confirm-write section').count()).toBe(0);
    await panel.click('Cancel');
    expect(answerOf(await callResult(page))).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled });
  });

  test('page CSS cannot hide the panel or its buttons (display/opacity/transform/visibility on the host, stylesheet and inline)', async ({ page }) => {
    const hostile = 'display: none !important; opacity: 0 !important; transform: scale(0) !important; visibility: hidden !important; clip-path: inset(50%) !important; filter: opacity(0) !important;';
    await pageCSS(page, `capell-confirm-write, capell-confirm-write:popover-open { ${hostile} }`);
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    await expect.poll(() => page.locator('capell-confirm-write').count()).toBe(1);
    await page.evaluate((hostile) => {
      // Inline, through the CSSOM (the demo's CSP refuses style attributes set as markup).
      const host = document.querySelector('capell-confirm-write') as HTMLElement | null;
      if (host) host.style.cssText = hostile;
    }, hostile);
    const state = await panel.waitOpen();
    expect(state.text).toContain('ada@example.test');
    await panel.click('Send');
    expect(answerOf(await callResult(page))).toEqual({ status: 'submitted', httpStatus: 200, answer: SUBSCRIBED });
  });

  test('a click on a covered Send is refused', async ({ page, demo }) => {
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    const state = await panel.waitOpen();
    const send = state.buttons.find((button) => button.text === 'Send')!;
    // A page popover over Send that lets the click through (pointer-events: none) and says "Cancel".
    await page.evaluate(({ x, y }) => {
      const cover = document.createElement('div');
      cover.id = 'cover';
      cover.setAttribute('popover', 'manual');
      cover.textContent = 'Cancel';
      document.body.append(cover);
      cover.style.cssText = `position: fixed; inset: auto; left: ${x - 60}px; top: ${y - 25}px; width: 120px; height: 50px; margin: 0; background: white; color: black; border: 0; pointer-events: none;`;
      cover.showPopover();
    }, send);
    await page.waitForTimeout(900);
    await panel.clickNow('Send');
    await page.waitForTimeout(300);
    expect(demo.subscriptions).toEqual([]);
    expect((await panel.state())!.refusal).toContain('That did not count');
    await page.evaluate(() => (document.getElementById('cover') as HTMLElement).hidePopover());
    await page.waitForTimeout(200);
    await panel.click('Send');
    expect(answerOf(await callResult(page))).toEqual({ status: 'submitted', httpStatus: 200, answer: SUBSCRIBED });
    expect(demo.subscriptions).toEqual(['ada@example.test']);
  });

  test('a Send clicked within INPUT_PROTECTION_MS of opening is refused, one after it is accepted', async ({ page, demo }) => {
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    await panel.waitOpen();
    await panel.clickNow('Send');
    await page.waitForTimeout(200);
    expect(demo.subscriptions).toEqual([]);
    await panel.click('Send');
    expect(answerOf(await callResult(page))).toEqual({ status: 'submitted', httpStatus: 200, answer: SUBSCRIBED });
    expect(demo.subscriptions).toEqual(['ada@example.test']);
  });
  test('a01 "A page script can fake the person\'s Send": wrapping the class\'s present/consentRefusal or shadowing them on the element reaches no handler, and nothing is sent', async ({ page, demo }) => {
    // The hostile page script runs after the runtime started and keeps patching whatever it finds.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { patchLog: string[] }).patchLog = seen;
      const fake = function (this: unknown, ...args: unknown[]) {
        for (const arg of args) {
          const handlers = arg as { onSend?: () => void } | null;
          if (handlers && typeof handlers === 'object' && typeof handlers.onSend === 'function') {
            seen.push('got handlers');
            setTimeout(() => handlers.onSend!(), 0);
          }
        }
        seen.push('called');
        return undefined;
      };
      const patch = (target: object) => {
        for (const name of ['present', 'consentRefusal', 'refuse', 'render', 'update', 'requestUpdate']) {
          try { Object.defineProperty(target, name, { value: fake, configurable: true, writable: true }); } catch { seen.push(`refused ${name}`); }
        }
      };
      customElements.whenDefined('capell-confirm-write').then(() => patch(customElements.get('capell-confirm-write')!.prototype));
      new MutationObserver(() => {
        const host = document.querySelector('capell-confirm-write');
        if (host && !(host as unknown as { patched?: boolean }).patched) {
          patch(host);
          try { (host as unknown as { patched: boolean }).patched = true; } catch { /* sealed */ }
        }
      }).observe(document.body, { childList: true });
    });
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    const state = await panel.waitOpen();
    expect(state.text).toContain('ada@example.test');
    await page.waitForTimeout(800);
    expect(demo.subscriptions).toEqual([]);
    const log = await page.evaluate(() => (window as unknown as { patchLog: string[] }).patchLog);
    expect(log).not.toContain('got handlers');
    expect(log).not.toContain('called');
    // The person's own click still works.
    await panel.click('Send');
    expect(answerOf(await callResult(page))).toEqual({ status: 'submitted', httpStatus: 200, answer: SUBSCRIBED });
    expect(demo.subscriptions).toEqual(['ada@example.test']);
  });

  for (const zoom of ['0.2', '4']) {
    test(`a05 html { zoom: ${zoom} }: Send stays aria-disabled and a click on it is refused; nothing is sent`, async ({ page, demo }) => {
      await page.setViewportSize({ width: 1000, height: 800 });
      await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
      await panel.waitOpen();
      await pageCSS(page, `html { zoom: ${zoom} !important; }`);
      await page.waitForTimeout(1200);
      const state = (await panel.state())!;
      expect(state.armed).toBe(false);
      expect(state.buttons.find((button) => button.text === 'Send')!.disabled).toBe(true);
      await panel.clickNow('Send');
      await page.waitForTimeout(300);
      expect(demo.subscriptions).toEqual([]);
      expect((await panel.state())!.refusal).toContain('That did not count');
    });
  }

  test('a05 html { zoom: 1.5 } in a short window: the panel fits in the window (its body scrolls), and Send is accepted once the person scrolled it to its end', async ({ page, demo }) => {
    await page.setViewportSize({ width: 1000, height: 360 });
    await pageCSS(page, 'html { zoom: 1.5 !important; }');
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    const state = await panel.waitOpen();
    expect(state.box.y).toBeGreaterThanOrEqual(0);
    expect(state.box.y + state.box.height).toBeLessThanOrEqual(360);
    expect(state.unread).toBe(true);
    await page.waitForTimeout(800);
    await panel.clickNow('Send');
    await page.waitForTimeout(300);
    expect(demo.subscriptions).toEqual([]);
    expect((await panel.state())!.refusal).toContain('part of this panel was not yet read');
    await panel.scrollToEnd();
    await panel.click('Send');
    await expect.poll(() => demo.subscriptions.length).toBe(1);
  });

  test('a07 a substituted panel script that defines nothing: the call is an error at once and nothing is filled or sent', async ({ page, demo }) => {
    demo.formPosts.length = 0;
    await page.route('**/chunks/panel-*.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: 'export const CONFIRM_WRITE_TAG = "div";' }));
    await page.reload();
    await readyReport(page);
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    const result = await callResult(page);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('did not load');
    expect(await page.locator('#capell-form-contact [name="name"]').inputValue()).toBe('');
    expect(demo.subscriptions).toEqual([]);
    expect(demo.formPosts).toEqual([]);
  });
});
