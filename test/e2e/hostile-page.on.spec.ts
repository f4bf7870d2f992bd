/**
 * Issue 7 against a page that works against the person (findings of a red-team pass, each a page
 * edited to reproduce it): the contact form's send button relabelled or its destination changed
 * after the panel opened; the page left and come back to with the agent's values; a panel chunk
 * that never arrives; and (a second pass) the person's Enter, click or send turned into another
 * send by a trapped focus, a new submit button, another origin, a `formdata` listener, or DOM
 * clobbering. The demo server counts every contact POST and sign-up.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { PROPOSAL, callResult, startCall } from './agent-calls.ts';

function fieldValue(page: Page, name: string): Promise<string> {
  return page.evaluate((name) => ((document.getElementById('contact') as HTMLFormElement).elements.namedItem(name) as HTMLInputElement).value, name);
}

/** The contact form's proposal, open and past its input protection: the panel that shows it. */
async function armedProposal(page: Page): Promise<PanelDriver> {
  await startCall(page, 'form.submit.contact', PROPOSAL);
  const panel = new PanelDriver(page);
  // Read to its end (it may be taller than the panel in a 720 px window), then out of its input protection.
  await panel.scrollToEnd();
  await panel.waitArmed();
  return panel;
}

test.beforeEach(async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact`);
  await readyReport(page);
  demo.formPosts.length = 0;
  demo.signups.length = 0;
});

test.describe('a hostile page cannot turn the person\'s act into another send (issue 7, item 2)', () => {

  test('the panel says where the form sends (POST /contact) and names its send button', async ({ page }) => {
    await startCall(page, 'form.submit.contact', PROPOSAL);
    const panel = new PanelDriver(page);
    await panel.waitText('POST /contact');
    await panel.waitText('“Send message”');
  });

  test('a send button relabelled "Cancel" after the panel opened: the person\'s click sends nothing, and the panel names the new label', async ({ page, demo }) => {
    const panel = await armedProposal(page);
    await page.evaluate(() => { document.querySelector('#contact button[type="submit"]')!.textContent = 'Cancel'; });
    // The relabelled button changed size, which restarts the input protection; the person clicks
    // after it has passed again, believing it cancels.
    await page.waitForTimeout(800);
    await panel.waitArmed();
    await page.locator('#contact button[type="submit"]').click();
    await panel.waitText('the form changed after this panel showed it');
    await panel.waitText('“Cancel”');
    expect(demo.formPosts).toEqual([]);
  });

  test('a form pointed elsewhere after the panel opened: the person\'s click sends nothing, and the panel shows the new destination', async ({ page, demo }) => {
    const panel = await armedProposal(page);
    await page.evaluate(() => { (document.getElementById('contact') as HTMLFormElement).action = '/signups'; });
    await page.locator('#contact button[type="submit"]').click();
    await panel.waitText('POST /signups');
    await page.waitForTimeout(300);
    expect(demo.formPosts).toEqual([]);
    expect(demo.signups).toEqual([]);
  });

  test('leaving the page puts the person\'s values back: coming back (history) finds no agent values to send', async ({ page, demo }) => {
    await startCall(page, 'form.submit.contact', PROPOSAL);
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

  test('a panel chunk that never arrives: the write call still answers awaiting_person within data-write-wait-ms, and nothing is filled', async ({ page, demo }) => {
    await page.route(`${demo.url}/contact`, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace('data-capell-webmcp', 'data-capell-webmcp data-write-wait-ms="1500"') });
    });
    // The panel's chunk is requested and never answered.
    await page.route('**/chunks/capell-confirm-write-*.js', () => undefined);
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
    await startCall(page, 'form.submit.contact', PROPOSAL);
    const answer = answerOf(await callResult(page)) as { status: string; writeId: string };
    expect(answer.status).toBe('awaiting_person');
    expect(await fieldValue(page, 'name')).toBe('');
    expect(demo.formPosts).toEqual([]);
  });
});

test.describe('a hostile page cannot make the person\'s other act send the form (red-team pass of 2026-12-02)', () => {

  test('Enter in a field the page moved the focus into (an off-screen input of the form trapping the shop\'s search box) sends nothing, and the panel says why', async ({ page, demo }) => {
    await page.evaluate(() => {
      const trap = document.createElement('input');
      trap.style.cssText = 'position:absolute;left:-9999px;top:0';
      document.querySelector('#contact button[type="submit"]')!.before(trap);
      const search = document.createElement('input');
      search.id = 'search';
      search.setAttribute('aria-label', 'Search the shop');
      search.style.cssText = 'position:fixed;top:8px;left:8px;z-index:5';
      document.body.append(search);
      search.addEventListener('focus', () => trap.focus());
      trap.addEventListener('input', () => { search.value = trap.value; });
    });
    const panel = await armedProposal(page);
    await page.locator('#search').click();
    await page.keyboard.type('boots');
    await page.keyboard.press('Enter');
    await panel.waitText('Enter was pressed in a field the page, not the person, had moved the focus into');
    expect(demo.formPosts).toEqual([]);
  });

  test('a submit button added under the pointer after the panel opened: the click on it is refused as too soon, and counts once it has been still', async ({ page, demo }) => {
    const panel = await armedProposal(page);
    await page.evaluate(() => {
      const button = document.createElement('button');
      button.type = 'submit';
      button.id = 'slid';
      button.setAttribute('form', 'contact');
      button.textContent = 'Send message';
      button.style.cssText = 'position:fixed;bottom:8px;left:8px;z-index:5';
      document.body.append(button);
    });
    // The panel's own wait has passed (the button's arrival did not restart it): the click is refused only because the panel never watched this button.
    await panel.waitArmed();
    await page.locator('#slid').click();
    await panel.waitText('only just appeared or changed');
    expect(demo.formPosts).toEqual([]);
    // Watched from that click on: once it has stayed visible and still, the person's click sends.
    // The refusal line may have made the proposal taller than the panel: read it to its end again.
    await panel.scrollToEnd();
    await panel.waitArmed();
    await page.waitForTimeout(600);
    await page.locator('#slid').click();
    await expect.poll(() => demo.formPosts.length).toBe(1);
  });

  test('a form pointed at another origin after the panel opened (enctype text/plain, sent natively): the panel names that origin and nothing leaves', async ({ page, demo }) => {
    const other = `http://127.0.0.2:${new URL(demo.url).port}`;
    const elsewhere: string[] = [];
    await page.route(`${other}/**`, (route) => { elsewhere.push(route.request().url()); return route.abort(); });
    const panel = await armedProposal(page);
    await page.evaluate((other) => {
      const form = document.getElementById('contact') as HTMLFormElement;
      form.action = `${other}/contact`;
      form.enctype = 'text/plain';
    }, other);
    await page.locator('#contact button[type="submit"]').click();
    await panel.waitText(`POST ${other}/contact`);
    // Clicked again once the panel shows the new destination (read to its end): refused for the origin.
    await panel.scrollToEnd();
    await panel.waitArmed();
    await page.locator('#contact button[type="submit"]').click();
    await panel.waitText(`the form now sends to ${other}, not this site; nothing was sent`);
    expect(elsewhere).toEqual([]);
    expect(demo.formPosts).toEqual([]);
  });

  test('a formdata listener that rewrites what the form sends after the panel\'s check: the person\'s click sends nothing, and the panel names the fields', async ({ page, demo }) => {
    await page.evaluate(() => {
      document.getElementById('contact')!.addEventListener('formdata', (event) => {
        const { formData } = event as FormDataEvent;
        formData.set('email', 'attacker@evil.test');
        formData.append('extra', 'refund to IBAN');
      });
    });
    const panel = await armedProposal(page);
    await page.locator('#contact button[type="submit"]').click();
    await panel.waitText('a script of the page changed what the form would send (email, extra); nothing was sent');
    await page.waitForTimeout(300);
    expect(demo.formPosts).toEqual([]);
  });

  for (const name of ['scrollIntoView', 'addEventListener']) {
    test(`a control named "${name}" (DOM clobbering, no script): the call still proposes, and the person's send goes out`, async ({ page, demo }) => {
      await page.evaluate((name) => {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        document.querySelector('#contact button[type="submit"]')!.before(input);
      }, name);
      await startCall(page, 'form.submit.contact', PROPOSAL);
      const panel = new PanelDriver(page);
      const outcome = callResult(page);
      await panel.waitArmed();
      await page.locator('#contact button[type="submit"]').click();
      expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
      expect(demo.formPosts).toHaveLength(1);
    });
  }
});
