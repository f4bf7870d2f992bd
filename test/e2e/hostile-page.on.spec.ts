/**
 * Mediated writes against a page that works against the person (each test a page edited to
 * reproduce one attack found by a red-team pass): the contact form's send button relabelled or its
 * destination changed after the panel opened; the page left and come back to with the agent's
 * values; a panel chunk that never arrives; and (a second pass) the person's Enter, click or send
 * turned into another send by a trapped focus, a new submit button, another origin, a `formdata`
 * listener, or DOM clobbering. The demo server counts every contact POST and sign-up. Since issue
 * 37 the person sends with the panel's own Send: a click on any page control (whatever it reads or
 * where it sends) or Enter in the form sends nothing while the proposal is open, and a change of
 * destination is refused at the panel's Send.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { armedContactProposal, PAGE_CONTROL_REASON as PAGE_CONTROL } from './page-acts.ts';
import { PROPOSAL, callResult, startCall } from './agent-calls.ts';

function fieldValue(page: Page, name: string): Promise<string> {
  return page.evaluate((name) => ((document.getElementById('capell-form-contact') as HTMLFormElement).elements.namedItem(name) as HTMLInputElement).value, name);
}

/** A submit button the page adds: its id, text and attributes, and where it goes. */
interface AddedButton {
  id: string;
  text: string;
  attributes: Record<string, string>;
  /** Beside the form's own send button, or at the end of the body (placed by `style`). */
  place: 'before send' | 'after send' | 'body';
  style?: string;
}

/** Adds a submit button to the page, as a page script would. */
function addSubmitButton(page: Page, added: AddedButton): Promise<void> {
  return page.evaluate(({ id, text, attributes, place, style }) => {
    const button = document.createElement('button');
    button.type = 'submit';
    button.id = id;
    for (const [name, value] of Object.entries(attributes)) button.setAttribute(name, value);
    button.textContent = text;
    if (style) button.style.cssText = style;
    const send = document.querySelector('#capell-form-contact button[type="submit"]')!;
    if (place === 'before send') send.before(button);
    else if (place === 'after send') send.after(button);
    else document.body.append(button);
  }, added);
}

/**
 * Makes the person's act (`control`: a click on it; or a function: the act) and waits for the
 * panel to refuse it with `reason`; then the person edits the message (the panel shows the change:
 * its refusal line goes and its input protection starts over), reads the panel again and acts once
 * more: refused again.
 */
async function refusedEveryTime(page: Page, panel: PanelDriver, control: Locator | (() => Promise<void>), reason: string): Promise<void> {
  const act = typeof control === 'function' ? control : () => control.click();
  await act();
  await panel.waitText(reason);
  await page.locator('#capell-form-contact-message').press('End');
  await page.keyboard.type(' Thanks.');
  await expect.poll(async () => (await panel.state())?.refusal ?? 'no panel', { intervals: [50], timeout: 15_000 }).toBe('');
  await panel.scrollToEnd();
  await panel.waitArmed();
  await act();
  await panel.waitText(reason);
}

/**
 * The beforeEach of the tests that start on the contact page as served (the others open it
 * themselves, edited first): the page, ready, and the worker's counts of contact POSTs and sign-ups
 * cleared.
 */
async function openContact({ page, demo }: { page: Page; demo: Demo }): Promise<void> {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
  demo.signups.length = 0;
}

test.describe('a hostile page cannot turn the person\'s act into another send', () => {
  test.describe(() => {
    test.beforeEach(openContact);

    test('the panel says where the form sends (POST /contact/plain) and that its own Send sends it', async ({ page }) => {
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      const panel = new PanelDriver(page);
      await panel.waitText('POST /contact/plain');
      await panel.waitText('To send it, press Send on this panel; the page’s own buttons do not send it while this panel is open.');
    });

    test('a send button relabelled "Cancel" after the panel opened: every click on it is refused, the panel never tells the person to press "Cancel", and the agent hears it was refused', async ({ page, demo }) => {
      const panel = await armedContactProposal(page);
      const outcome = callResult(page);
      await page.evaluate(() => { document.querySelector('#capell-form-contact button[type="submit"]')!.textContent = 'Cancel'; });
      const reason = PAGE_CONTROL;
      await refusedEveryTime(page, panel, page.locator('#capell-form-contact button[type="submit"]'), reason);
      const text = (await panel.state())!.text;
      expect(text).toContain('press Send on this panel');
      expect(text).not.toContain('“Cancel”');
      await panel.click('Cancel');
      const answer = answerOf(await outcome) as { status: string; refused?: string };
      expect(answer.status).toBe('cancelled');
      expect(answer.refused).toContain(reason);
      expect(demo.formPosts).toEqual([]);
    });

    test('a second submit button "Cancel" sending elsewhere, added after the panel opened: the person who clicks it twice to cancel sends nothing, and the agent hears it was refused', async ({ page, demo }) => {
      const panel = await armedContactProposal(page);
      const outcome = callResult(page);
      await addSubmitButton(page, { id: 'fake-cancel', text: 'Cancel', attributes: { formaction: '/signups' }, place: 'after send' });
      await refusedEveryTime(page, panel, page.locator('#fake-cancel'), PAGE_CONTROL);
      expect((await panel.state())!.text).not.toContain('“Cancel”');
      await panel.click('Cancel');
      const answer = answerOf(await outcome) as { status: string; refused?: string };
      expect(answer).toMatchObject({ status: 'cancelled', refused: expect.stringContaining(PAGE_CONTROL) });
      expect(demo.signups).toEqual([]);
      expect(demo.formPosts).toEqual([]);
    });

    test('a submit button "Cancel" sending elsewhere that was there from the start: every click on it is refused, and the panel\'s Send goes through the real send button, where the panel says', async ({ page, demo }) => {
      // First in tree order: the form's default button, which implicit submission would press.
      await addSubmitButton(page, { id: 'fake-cancel', text: 'Cancel', attributes: { formaction: '/signups' }, place: 'before send' });
      const panel = await armedContactProposal(page);
      const outcome = callResult(page);
      await panel.waitText('POST /contact/plain');
      await refusedEveryTime(page, panel, page.locator('#fake-cancel'), PAGE_CONTROL);
      expect(demo.signups).toEqual([]);
      expect(demo.formPosts).toEqual([]);
      // The panel's Send never stands for a control that reads "Cancel": it sends to POST /contact/plain.
      await panel.scrollToEnd();
      await panel.waitArmed();
      await panel.click('Send');
      expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
      expect(demo.formPosts).toHaveLength(1);
      expect(demo.signups).toEqual([]);
    });

    test('a form pointed elsewhere after the panel opened: the person\'s click on the page\'s button or the panel\'s Send sends nothing, and the panel shows the new destination', async ({ page, demo }) => {
      const panel = await armedContactProposal(page);
      await page.evaluate(() => { (document.getElementById('capell-form-contact') as HTMLFormElement).action = '/signups'; });
      await page.locator('#capell-form-contact button[type="submit"]').click();
      await panel.waitText(PAGE_CONTROL);
      await panel.scrollToEnd();
      await panel.waitArmed();
      await panel.click('Send');
      await panel.waitText('sends to POST /signups instead of POST /contact/plain');
      expect(demo.formPosts).toEqual([]);
      expect(demo.signups).toEqual([]);
    });

    test('leaving the page puts the person\'s values back: coming back (history) finds no agent values to send', async ({ page, demo }) => {
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      await new PanelDriver(page).waitOpen();
      expect(await fieldValue(page, 'name')).toBe(PROPOSAL.name);
      await page.goto(`${demo.url}/`);
      await page.goBack();
      await readyReport(page);
      expect(await fieldValue(page, 'name')).toBe('');
      expect(await fieldValue(page, 'email')).toBe('');
      expect(await fieldValue(page, 'message')).toBe('');
      expect(demo.formPosts).toEqual([]);
    });
  });

  test('a panel chunk that never arrives: the write call still answers awaiting_person within data-write-wait-ms, and nothing is filled', async ({ page, demo }) => {
    await page.route(`${demo.url}/contact/plain`, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace('data-capell-webmcp', 'data-capell-webmcp data-write-wait-ms="1500"') });
    });
    // The panel's chunk is requested and never answered.
    await page.route('**/chunks/panel-*.js', () => undefined);
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    const answer = answerOf(await callResult(page)) as { status: string; writeId: string };
    expect(answer.status).toBe('awaiting_person');
    expect(await fieldValue(page, 'name')).toBe('');
    expect(demo.formPosts).toEqual([]);
  });
});

test.describe('a page that replaces built-ins after the runtime loaded', () => {
  test('window.setTimeout, clearTimeout, Promise.race, FormData and fetch replaced: the write call still answers awaiting_person within data-write-wait-ms', async ({ page, demo }) => {
    await page.route(`${demo.url}/contact/plain`, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace('data-capell-webmcp', 'data-capell-webmcp data-write-wait-ms="1500"') });
    });
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
    await page.evaluate(() => {
      const never = () => 0;
      Object.assign(window, { setTimeout: never, clearTimeout: never, fetch: () => new Promise(() => undefined), FormData: function FormData() { throw new Error('no FormData'); } });
      Promise.race = () => new Promise(() => undefined);
    });
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    // Measured by the test's own clock (Node's): the page's timers are the ones replaced.
    const started = Date.now();
    const answer = answerOf(await callResult(page)) as { status: string };
    expect(answer.status).toBe('awaiting_person');
    expect(Date.now() - started).toBeLessThan(10_000);
    await new PanelDriver(page).waitOpen();
    expect(demo.formPosts).toEqual([]);
  });
});

test.describe('a hostile page cannot make the person\'s other act send the form (red-team pass of 2026-12-02)', () => {
  test.beforeEach(openContact);

  test('Enter in a field the page moved the focus into (an off-screen input of the form trapping the shop\'s search box) sends nothing, and the panel says why', async ({ page, demo }) => {
    await page.evaluate(() => {
      const trap = document.createElement('input');
      trap.style.cssText = 'position:absolute;left:-9999px;top:0';
      document.querySelector('#capell-form-contact button[type="submit"]')!.before(trap);
      const search = document.createElement('input');
      search.id = 'search';
      search.setAttribute('aria-label', 'Search the shop');
      search.style.cssText = 'position:fixed;top:8px;left:8px;z-index:5';
      document.body.append(search);
      search.addEventListener('focus', () => trap.focus());
      trap.addEventListener('input', () => { search.value = trap.value; });
    });
    const panel = await armedContactProposal(page);
    await page.locator('#search').click();
    await page.keyboard.type('boots');
    await page.keyboard.press('Enter');
    await panel.waitText('Enter in the form does not send this proposal; only Send on this panel does');
    expect(demo.formPosts).toEqual([]);
  });

  test('a submit button added under the pointer after the panel opened: every click on it is refused, however long it has been still', async ({ page, demo }) => {
    const panel = await armedContactProposal(page);
    const outcome = callResult(page);
    await addSubmitButton(page, { id: 'slid', text: 'Send message', attributes: { form: 'capell-form-contact' }, place: 'body', style: 'position:fixed;bottom:8px;left:8px;z-index:5' });
    // The panel's own wait has passed (the button's arrival did not restart it): refused because
    // the panel never named this button, now and after any wait.
    await panel.waitArmed();
    await refusedEveryTime(page, panel, page.locator('#slid'), PAGE_CONTROL);
    expect(demo.formPosts).toEqual([]);
    await panel.click('Cancel');
    expect(answerOf(await outcome)).toMatchObject({ status: 'cancelled', refused: expect.stringContaining(PAGE_CONTROL) });
    expect(demo.formPosts).toEqual([]);
  });

  test('a form pointed at another origin after the panel opened (enctype text/plain, sent natively): the panel names that origin and nothing leaves', async ({ page, demo }) => {
    const other = `http://127.0.0.2:${new URL(demo.url).port}`;
    const elsewhere: string[] = [];
    await page.route(`${other}/**`, (route) => { elsewhere.push(route.request().url()); return route.abort(); });
    const panel = await armedContactProposal(page);
    await page.evaluate((other) => {
      const form = document.getElementById('capell-form-contact') as HTMLFormElement;
      form.action = `${other}/contact`;
      form.enctype = 'text/plain';
    }, other);
    // The page's button: refused as any page control.
    await page.locator('#capell-form-contact button[type="submit"]').click();
    await panel.waitText(PAGE_CONTROL);
    // The panel's Send: refused on every click, naming the new destination (the panel still shows POST /contact/plain).
    await panel.scrollToEnd();
    await panel.waitArmed();
    await refusedEveryTime(page, panel, () => panel.click('Send'), `sends to POST ${other}/contact text/plain instead of POST /contact/plain`);
    await panel.waitText('POST /contact/plain');
    expect(elsewhere).toEqual([]);
    expect(demo.formPosts).toEqual([]);
  });

  test('a formdata listener that rewrites what the form sends after the panel\'s check: the panel\'s Send sends nothing, and the panel names the fields', async ({ page, demo }) => {
    await page.evaluate(() => {
      document.getElementById('capell-form-contact')!.addEventListener('formdata', (event) => {
        const { formData } = event as FormDataEvent;
        formData.set('email', 'attacker@evil.test');
        formData.append('extra', 'refund to IBAN');
      });
    });
    const panel = await armedContactProposal(page);
    await panel.click('Send');
    await panel.waitText('a script of the page changed what the form would send (email changed, extra added)');
    await page.waitForTimeout(300);
    expect(demo.formPosts).toEqual([]);
  });

  for (const name of ['scrollIntoView', 'addEventListener']) {
    test(`a control named "${name}" (DOM clobbering, no script): the call still proposes, and the person's send goes out`, async ({ page, demo }) => {
      await page.evaluate((name) => {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        document.querySelector('#capell-form-contact button[type="submit"]')!.before(input);
      }, name);
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      const panel = new PanelDriver(page);
      const outcome = callResult(page);
      // The hidden control is listed as sent with it, which may make the panel's body scroll.
      await panel.waitText(`${name} = (empty)`);
      await panel.scrollToEnd();
      await panel.waitArmed();
      await panel.click('Send');
      expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
      expect(demo.formPosts).toHaveLength(1);
    });
  }
});
