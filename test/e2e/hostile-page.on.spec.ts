/**
 * Issue 7 against a page that works against the person (findings of a red-team pass, each a page
 * edited to reproduce it): the contact form's send button relabelled or its destination changed
 * after the panel opened; the page left and come back to with the agent's values; a panel chunk
 * that never arrives. The demo server counts every contact POST and sign-up.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { PROPOSAL, callResult, startCall } from './agent-calls.ts';

function fieldValue(page: Page, name: string): Promise<string> {
  return page.evaluate((name) => ((document.getElementById('contact') as HTMLFormElement).elements.namedItem(name) as HTMLInputElement).value, name);
}

test.describe('a hostile page cannot turn the person\'s act into another send (issue 7, item 2)', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
    demo.formPosts.length = 0;
    demo.signups.length = 0;
  });

  test('the panel says where the form sends (POST /contact) and names its send button', async ({ page }) => {
    await startCall(page, 'form.submit.contact', PROPOSAL);
    const panel = new PanelDriver(page);
    await panel.waitText('POST /contact');
    await panel.waitText('“Send message”');
  });

  test('a send button relabelled "Cancel" after the panel opened: the person\'s click sends nothing, and the panel names the new label', async ({ page, demo }) => {
    await startCall(page, 'form.submit.contact', PROPOSAL);
    const panel = new PanelDriver(page);
    await panel.waitArmed();
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
    await startCall(page, 'form.submit.contact', PROPOSAL);
    const panel = new PanelDriver(page);
    await panel.waitArmed();
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
