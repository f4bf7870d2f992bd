/**
 * What a person's act on the page itself (a click on any of the page's submit controls, Enter in
 * a field of the form) does while a form proposal is open (issue 37, item 1): it sends nothing,
 * and the panel says why; only the panel's own Send sends (write/forms/submit-guard.ts,
 * confirm-text.ts confirmReasonPageControl and confirmReasonPageEnter). The English texts are
 * written out here, not imported, so that a changed wording is a failing test, not a silent pass.
 */
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { panel, type PanelDriver } from './panel-driver.ts';
import { PROPOSAL, startCall } from './agent-calls.ts';

/** The reason the write's record keeps (`refused`) for a click on a page control. */
export const PAGE_CONTROL_REASON = 'a button of the page does not send this proposal, whatever it reads; only Send on this panel does';

/** The reason the write's record keeps for Enter in a field of the form. */
export const PAGE_ENTER_REASON = 'Enter in the form does not send this proposal; only Send on this panel does';

/** The refusal line the panel shows for `reason` (confirmRefused). */
export function refusalLine(reason: string): string {
  return `That did not count: ${reason}. Nothing was sent; the proposal is still open.`;
}

/**
 * Waits until the panel's refusal line says that the person's act on the page (`'click'` or
 * `'enter'`) did not send; waits for the line itself, so an earlier refusal does not count.
 */
export async function expectPageActRefused(page: Page, kind: 'click' | 'enter'): Promise<void> {
  const line = refusalLine(kind === 'click' ? PAGE_CONTROL_REASON : PAGE_ENTER_REASON);
  await expect.poll(async () => (await panel(page).state())?.refusal ?? 'no panel', { intervals: [50], timeout: 15_000 }).toBe(line);
}

/**
 * Starts the agent's call of the demo contact form's tool with `input` and waits for its panel:
 * open, read to its end (a 720 px window may need scrolling) and past its input protection, so the
 * person's next act counts.
 */
export async function armedContactProposal(page: Page, input: object = PROPOSAL): Promise<PanelDriver> {
  const driver = panel(page);
  await startCall(page, 'form.submit.capell-form-contact', input);
  await driver.waitOpen();
  await driver.scrollToEnd();
  await driver.waitArmed();
  return driver;
}
