/**
 * What the person saw is the data set that is sent: the panel lists every entry of the contact
 * form (hidden ones as "Sent with it"), a structural change after it showed (a control renamed,
 * added through the `form` attribute, disabled, pointed at another form; a hidden value changed
 * without events) refuses the person's click on the panel's Send, naming what changed and
 * marking it on the panel, and what goes out is the entry list the panel showed. The demo server
 * counts every contact POST.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { armedContactProposal } from './page-acts.ts';
import { PROPOSAL, callResult } from './agent-calls.ts';

/** The bodies of the contact POSTs the page makes, as name/value pairs in order. */
function recordPosts(page: Page, demoUrl: string): [string, string][][] {
  const bodies: [string, string][][] = [];
  void page.route(`${demoUrl}/contact/plain`, (route) => {
    if (route.request().method() === 'POST') bodies.push([...new URLSearchParams(route.request().postData() ?? '')]);
    return route.continue();
  });
  return bodies;
}

test.beforeEach(async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
});

test.describe('the submit sends the data set the panel showed', () => {

  test('the panel lists every entry, the CSRF token and the empty honeypot as sent with it, in plain words, and the body sent is exactly that list', async ({ page, demo }) => {
    const bodies = recordPosts(page, demo.url);
    const token = await page.locator('#capell-form-contact input[name="_token"]').inputValue();
    const panel = await armedContactProposal(page);
    // Named in plain words (entry-kind.ts); the token by its ends, whole behind "show all".
    await panel.waitText(`Sent with it: a security token the site adds (_token) ${token.slice(0, 8)}…${token.slice(-6)} (show all ${token.length} characters) ${token} an anti-spam field, left empty (website)`);
    const outcome = callResult(page);
    await panel.click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(bodies).toEqual([[
      ['_token', token], ['name', PROPOSAL.name], ['email', PROPOSAL.email], ['topic', PROPOSAL.topic],
      ['message', PROPOSAL.message], ['newsletter', 'yes'], ['website', ''],
    ]]);
  });

  const changes: { name: string; change: (form: HTMLFormElement) => void; reason: string }[] = [
    {
      name: 'a filled control renamed',
      change: (form) => { (form.elements.namedItem('email') as HTMLInputElement).name = 'reply_to'; },
      reason: 'email removed, reply_to added',
    },
    {
      name: 'a control outside the form added to it with the form attribute, under a name already sent',
      change: (form) => {
        const extra = document.createElement('input');
        extra.type = 'hidden';
        extra.name = 'email';
        extra.value = 'attacker@evil.test';
        extra.setAttribute('form', form.id);
        document.body.append(extra);
      },
      reason: 'email added',
    },
    {
      name: 'a filled control disabled',
      change: (form) => { (form.elements.namedItem('message') as HTMLTextAreaElement).disabled = true; },
      reason: 'message removed',
    },
    {
      name: 'a filled control pointed at another form with the form attribute',
      change: () => {
        const other = document.createElement('form');
        other.id = 'elsewhere';
        document.body.append(other);
        document.getElementById('capell-form-contact-name')!.setAttribute('form', 'elsewhere');
      },
      reason: 'name removed',
    },
  ];

  for (const { name, change, reason } of changes) {
    test(`${name} after the panel showed: the person's Send sends nothing, and the panel names it (${reason})`, async ({ page, demo }) => {
      const panel = await armedContactProposal(page);
      const outcome = callResult(page);
      await page.evaluate(`(${change.toString()})(document.getElementById('capell-form-contact'))`);
      await panel.click('Send');
      await panel.waitText(`what the form sends changed after this panel showed it (${reason}), so check it again`);
      await panel.click('Cancel');
      expect(answerOf(await outcome)).toMatchObject({ status: 'cancelled', refused: expect.stringContaining(reason) });
      expect(demo.formPosts).toEqual([]);
    });
  }

  test('a hidden field the page changes without events after the panel showed: refused and shown; the person\'s next Send sends what the panel then showed', async ({ page, demo }) => {
    const bodies = recordPosts(page, demo.url);
    await page.evaluate(() => {
      const campaign = document.createElement('input');
      campaign.type = 'hidden';
      campaign.name = 'campaign';
      campaign.value = 'spring';
      document.getElementById('capell-form-contact')!.append(campaign);
    });
    const panel = await armedContactProposal(page);
    await panel.waitText('campaign = spring');
    const outcome = callResult(page);
    await page.evaluate(() => { (document.querySelector('input[name="campaign"]') as HTMLInputElement).value = 'refund to IBAN DE00'; });
    await panel.click('Send');
    await panel.waitText('(campaign changed)');
    await panel.waitText('campaign = refund to IBAN DE00 changed after this panel first showed it');
    expect(demo.formPosts).toEqual([]);
    // The person has now seen it; read again and past the input protection, their Send sends it.
    await panel.scrollToEnd();
    await panel.waitArmed();
    await panel.click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContainEqual(['campaign', 'refund to IBAN DE00']);
  });
});
