/**
 * Enter never sends a form proposal (issue 37, items 1 and 6): while the panel is open, Enter in
 * any field of the form sends nothing, whichever field it is (a search box inside the contact form
 * but drawn in the page header, position: fixed, or a field the panel lists), however the person
 * reached it; the panel says why each time, the write's record keeps the refusal, no submit
 * listener of the site sees it, and only the panel's Send sends. The demo server counts every
 * contact POST.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { PROPOSAL, callResult, startCall } from './agent-calls.ts';
import { PAGE_ENTER_REASON, expectPageActRefused } from './page-acts.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';

test.beforeEach(async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
  // The shop's search box, drawn in the page header, but inside the contact form (no name:
  // it adds no entry, so the form's data set is what the panel shows); and a count of the submit
  // events the site's own script sees.
  await page.evaluate(() => {
    const search = document.createElement('input');
    search.type = 'search';
    search.id = 'search';
    search.setAttribute('aria-label', 'Search the shop');
    search.style.cssText = 'position:fixed;top:8px;left:8px;z-index:5;width:12rem';
    const form = document.getElementById('capell-form-contact')!;
    form.prepend(search);
    form.addEventListener('submit', () => { (window as unknown as { siteSaw: number }).siteSaw = ((window as unknown as { siteSaw?: number }).siteSaw ?? 0) + 1; });
  });
});

const siteSaw = (page: Page) => page.evaluate(() => (window as unknown as { siteSaw?: number }).siteSaw ?? 0);

test('Enter in a search box of the form drawn in the page header sends nothing, and the panel says why; the agent hears the refusal', async ({ page, demo }) => {
  await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
  const panel = new PanelDriver(page);
  await panel.scrollToEnd();
  await panel.waitArmed();
  const outcome = callResult(page);
  // The person's own click into the box (their focus), their typing, and Enter at once.
  await page.locator('#search').click();
  await page.keyboard.type('boots');
  await page.keyboard.press('Enter');
  await expectPageActRefused(page, 'enter');
  expect(demo.formPosts).toEqual([]);
  expect(await siteSaw(page)).toBe(0);
  await panel.click('Cancel');
  expect(answerOf(await outcome)).toEqual({ status: 'cancelled', next: NEXT_STEPS.cancelled, refused: PAGE_ENTER_REASON });
  expect(demo.formPosts).toEqual([]);
});

test('Enter in a field the panel lists sends nothing either, and the panel says why; the panel\'s Send then sends exactly the proposal', async ({ page, demo }) => {
  const before = demo.submissions.length;
  await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
  const panel = new PanelDriver(page);
  await panel.scrollToEnd();
  await panel.waitArmed();
  const outcome = callResult(page);
  await page.locator('#capell-form-contact-email').click({ position: { x: 4, y: 4 } }); // its left edge: the panel covers the rest here
  await page.keyboard.press('Enter');
  await expectPageActRefused(page, 'enter');
  // No listener of the site saw a submit, and nothing left the page (the one POST below is the Send's).
  expect(demo.formPosts).toEqual([]);
  expect(await siteSaw(page)).toBe(0);
  expect(page.url()).toBe(`${demo.url}/contact/plain`);
  await panel.click('Send');
  expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
  expect(demo.formPosts).toHaveLength(1);
  expect(demo.submissions).toHaveLength(before + 1);
  expect(demo.submissions.at(-1)).toEqual({ lang: 'en', ...PROPOSAL });
});
