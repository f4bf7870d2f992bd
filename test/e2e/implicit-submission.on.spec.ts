/**
 * Enter sends a form proposal only from a field the panel lists (issue 37, item 6): a search box
 * inside the contact form but drawn in the page header (position: fixed)
 * sends nothing on the person's Enter, however they reached it, and the panel says why; Enter in a
 * field the panel lists still sends. The demo server counts every contact POST.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { PROPOSAL, callResult, startCall } from './agent-calls.ts';

test.beforeEach(async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
  // The shop's search box, drawn in the page header, but inside the contact form (no name:
  // it adds no entry, so the form's data set is what the panel shows).
  await page.evaluate(() => {
    const search = document.createElement('input');
    search.type = 'search';
    search.id = 'search';
    search.setAttribute('aria-label', 'Search the shop');
    search.style.cssText = 'position:fixed;top:8px;left:8px;z-index:5;width:12rem';
    document.getElementById('capell-form-contact')!.prepend(search);
  });
});

test('Enter in a search box of the form drawn in the page header sends nothing, and the panel says why; Enter in a listed field then sends', async ({ page, demo }) => {
  await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
  const panel = new PanelDriver(page);
  await panel.scrollToEnd();
  await panel.waitArmed();
  const outcome = callResult(page);
  // The person's own click into the box (their focus), their typing, and Enter at once.
  await page.locator('#search').click();
  await page.keyboard.type('boots');
  await page.keyboard.press('Enter');
  await panel.waitText('Enter was pressed in the field “Search the shop”, which this panel does not list, so it does not send the proposal; use the form’s “Send message” button');
  expect(demo.formPosts).toEqual([]);
  // Enter in a field the panel lists still sends the proposal.
  await panel.waitArmed();
  await page.locator('#capell-form-contact-email').click({ position: { x: 4, y: 4 } });
  await page.keyboard.press('Enter');
  const answer = answerOf(await outcome) as { status: string; refused?: string };
  expect(answer.status).toBe('submitted');
  expect(demo.formPosts).toHaveLength(1);
});
