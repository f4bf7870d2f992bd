/**
 * Pages that replace built-ins after the runtime loaded (src/primitives.ts takes them when its
 * entry script runs): each test is a page script, run once `ready` has settled, that swaps a
 * built-in the runtime's promises rest on for one that lies, and shows the promise still holds
 * against the real demo server: reads are answered by the site, the person's send reaches the
 * site with what the panel showed, and a hidden, covered or disguised send button is still
 * refused. The demo server counts every contact POST and sign-up.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { PROPOSAL, call, callResult, startCall } from './agent-calls.ts';

const SEND = '#contact button[type="submit"]';

/** The contact form's proposal, open, read to its end and past its input protection. */
async function armedProposal(page: Page): Promise<PanelDriver> {
  await startCall(page, 'form.submit.contact', PROPOSAL);
  const panel = new PanelDriver(page);
  await panel.waitText('use the form’s own “Send message” button');
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

test.describe('what is sent, and where: fetch and Request replaced after the runtime loaded', () => {
  test('a read is answered by the site, not by the page\'s fetch', async ({ page, demo }) => {
    await page.evaluate(() => {
      const answered: string[] = [];
      Object.assign(window, { answeredByPage: answered });
      window.fetch = (async (input: RequestInfo | URL) => {
        answered.push(String(input instanceof Request ? input.url : input));
        return new Response(JSON.stringify({ capellAgentSchema: 1, data: [{ title: 'the page answered' }], links: { next: null, previous: null } }), { headers: { 'content-type': 'application/json' } });
      }) as typeof fetch;
    });
    const result = await call(page, 'site.navigation', {});
    expect(result.isError).toBeFalsy();
    expect(answerOf(result)).toEqual(await demo.api('/agent/v1/navigation'));
    expect(await page.evaluate(() => (window as unknown as { answeredByPage: string[] }).answeredByPage)).toEqual([]);
  });

  test('the person\'s send goes to the form\'s action with what the panel showed, and the agent reads the site\'s status', async ({ page, demo }) => {
    const panel = await armedProposal(page);
    const outcome = callResult(page);
    await page.evaluate(() => {
      const answered: string[] = [];
      Object.assign(window, { answeredByPage: answered });
      // A fetch that answers 200 itself, and a Request that sends elsewhere.
      window.fetch = (async (input: RequestInfo | URL) => {
        answered.push(String(input instanceof Request ? input.url : input));
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      }) as typeof fetch;
      const SiteRequest = Request;
      window.Request = class extends SiteRequest {
        constructor(_input: RequestInfo | URL, init?: RequestInit) {
          super('/signups?list=page', init);
        }
      } as typeof Request;
      URL.prototype.toString = () => `${location.origin}/signups?list=page`;
    });
    await page.locator(SEND).click();
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toEqual([expect.objectContaining({ path: '/contact' })]);
    expect(demo.submissions.at(-1)).toMatchObject({ name: PROPOSAL.name, email: PROPOSAL.email, message: PROPOSAL.message });
    expect(demo.signups).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { answeredByPage: string[] }).answeredByPage)).toEqual([]);
  });
});
