/**
 * Entries change under the panel's labels (issue 37, item 2): the panel lists each entry of the
 * form by the name it is sent under (`<code class="name">`) and its value as sent ("sent as"),
 * and a change a page script makes after the panel showed is never re-read silently. One test per
 * attempt class the issue names, on the demo's plain contact form (/contact/plain,
 * `#capell-form-contact`, tool form.submit.capell-form-contact): swapping two controls' names,
 * moving a control to another form (`form` attribute), adding `dirname`, changing a select
 * option's value, changing a checkbox's value, a page-dispatched `input` event after a page
 * change, and an added entry. In each, after the panel showed, the page script makes the change;
 * the person's Send is refused with the data-changed reason; nothing reaches the server; the panel
 * now shows the change marked ("changed after this panel first showed it", or "No longer sent:")
 * with the names it is sent under; and the person's next Send, past the input protection, sends
 * exactly what the panel then shows. The demo server counts every contact POST (demo.formPosts);
 * the bodies are read where the browser sends them (a Playwright route that lets them through).
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { panel } from './panel-driver.ts';
import { PROPOSAL, callResult } from './agent-calls.ts';
import { refusalLine, armedContactProposal } from './page-acts.ts';

const FORM = '#capell-form-contact';
const CHANGED = 'changed after this panel first showed it';

/** The bodies of the contact POSTs the page makes from now on, as name/value pairs in order. */
async function recordPosts(page: Page, demo: Demo): Promise<[string, string][][]> {
  const bodies: [string, string][][] = [];
  await page.route(`${demo.url}/contact/plain`, (route) => {
    if (route.request().method() === 'POST') bodies.push([...new URLSearchParams(route.request().postData() ?? '')]);
    return route.continue();
  });
  return bodies;
}

/** The panel's visible text now. */
async function panelText(page: Page): Promise<string> {
  return (await panel(page).state())?.text ?? 'no panel';
}

/** The entries the form sends for the agent's proposal, before any change, in tree order. */
function proposalBody(token: string): [string, string][] {
  return [
    ['_token', token], ['name', PROPOSAL.name], ['email', PROPOSAL.email], ['topic', PROPOSAL.topic],
    ['message', PROPOSAL.message], ['newsletter', 'yes'], ['website', ''],
  ];
}

/**
 * The person clicks Send after the page's change: refused with the data-changed reason naming
 * `changes`; nothing reached the server.
 */
async function sendIsRefused(page: Page, demo: Demo, bodies: unknown[], changes: string): Promise<void> {
  await panel(page).click('Send');
  await expect.poll(async () => (await panel(page).state())?.refusal ?? 'no panel', { intervals: [50], timeout: 15_000 })
    .toBe(refusalLine(`what the form sends changed after this panel showed it (${changes}), so check it again`));
  expect(demo.formPosts).toEqual([]);
  expect(bodies).toEqual([]);
}

/** The person reads the panel again and, past its (restarted) input protection, clicks Send. */
async function sendAgain(page: Page): Promise<void> {
  await panel(page).scrollToEnd();
  await panel(page).click('Send');
}

let token = '';

test.beforeEach(async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
  token = await page.locator(`${FORM} input[name="_token"]`).inputValue();
});

test('the panel lists each entry by the name it is sent under, and a select\'s or checkbox\'s value as sent', async ({ page, demo }) => {
  const bodies = await recordPosts(page, demo);
  await armedContactProposal(page);
  const text = await panelText(page);
  // Label, sent name (code.name), value, and "sent as" where the value sent reads otherwise.
  for (const item of [
    'Your name nameAda Lovelace',
    'Email address emailada@example.test',
    'Topic topicRepair request sent as repair',
    'Message messageMy boot sole came off.',
    'Send me the journal newsletter newsletterYes sent as yes',
  ]) expect(text).toContain(item);
  expect(text).not.toContain(CHANGED);
  const outcome = callResult(page);
  await panel(page).click('Send');
  expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
  expect(bodies).toEqual([proposalBody(token)]);
});

test('(a) two controls\' names swapped after the panel showed: Send refused, both shown under their new names and marked; the next Send sends the swap as shown', async ({ page, demo }) => {
  const bodies = await recordPosts(page, demo);
  await armedContactProposal(page);
  const outcome = callResult(page);
  await page.evaluate((form) => {
    const name = document.querySelector(`${form} [name="name"]`)!;
    const message = document.querySelector(`${form} [name="message"]`)!;
    name.setAttribute('name', 'message');
    message.setAttribute('name', 'name');
  }, FORM);
  await sendIsRefused(page, demo, bodies, 'name changed, message changed');
  await panel(page).waitText(`Your name messageAda Lovelace ${CHANGED}`);
  await panel(page).waitText(`Message nameMy boot sole came off. ${CHANGED}`);
  await sendAgain(page);
  expect(answerOf(await outcome)).toMatchObject({ status: 'submitted' });
  expect(bodies).toEqual([[
    ['_token', token], ['message', PROPOSAL.name], ['email', PROPOSAL.email], ['topic', PROPOSAL.topic],
    ['name', PROPOSAL.message], ['newsletter', 'yes'], ['website', ''],
  ]]);
});

test('(b) a control moved to another form with the form attribute: Send refused, the panel says it is no longer sent; the next Send sends without it', async ({ page, demo }) => {
  const bodies = await recordPosts(page, demo);
  await armedContactProposal(page);
  const outcome = callResult(page);
  await page.evaluate((form) => {
    const other = document.createElement('form');
    other.id = 'elsewhere';
    document.body.append(other);
    document.querySelector(`${form} [name="email"]`)!.setAttribute('form', 'elsewhere');
  }, FORM);
  await sendIsRefused(page, demo, bodies, 'email removed');
  await panel(page).waitText('No longer sent: email');
  // The field the panel lists under that name is marked too: it no longer sends what it shows.
  await panel(page).waitText(`Email address emailada@example.test ${CHANGED}`);
  await sendAgain(page);
  // The site refuses a contact without an email (422); what went out is what the panel showed.
  expect(answerOf(await outcome)).toMatchObject({ status: 'submitted' });
  expect(bodies).toEqual([proposalBody(token).filter(([name]) => name !== 'email')]);
});

test('(c) dirname added to a control: Send refused, the panel shows the extra name and the value it sends, marked; the next Send sends it', async ({ page, demo }) => {
  const bodies = await recordPosts(page, demo);
  await armedContactProposal(page);
  const outcome = callResult(page);
  await page.evaluate((form) => { document.querySelector(`${form} [name="message"]`)!.setAttribute('dirname', 'message.dir'); }, FORM);
  await sendIsRefused(page, demo, bodies, 'message.dir added');
  await panel(page).waitText(`Message message, message.dirMy boot sole came off. sent as My boot sole came off., ltr ${CHANGED}`);
  await sendAgain(page);
  expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
  const expected = proposalBody(token);
  expected.splice(5, 0, ['message.dir', 'ltr']);
  expect(bodies).toEqual([expected]);
});

test('(d) the selected option\'s value changed: Send refused, the panel shows the option\'s text and the value it now sends, marked; the next Send sends that value', async ({ page, demo }) => {
  const bodies = await recordPosts(page, demo);
  await armedContactProposal(page);
  const outcome = callResult(page);
  // "Repair request" still drawn, "order" sent.
  await page.evaluate((form) => { (document.querySelector(`${form} [name="topic"] option[value="repair"]`) as HTMLOptionElement).value = 'order'; }, FORM);
  await sendIsRefused(page, demo, bodies, 'topic changed');
  await panel(page).waitText(`Topic topicRepair request sent as order ${CHANGED}`);
  await sendAgain(page);
  expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
  expect(bodies).toEqual([proposalBody(token).map(([name, value]) => [name, name === 'topic' ? 'order' : value])]);
  expect(demo.submissions.at(-1)).toMatchObject({ topic: 'order' });
});

test('(e) the checked checkbox\'s value changed: Send refused, the panel shows the value it now sends, marked; the next Send sends that value', async ({ page, demo }) => {
  const bodies = await recordPosts(page, demo);
  await armedContactProposal(page);
  const outcome = callResult(page);
  // Still checked ("Yes"), but the site reads only "yes" as consent.
  await page.evaluate((form) => { (document.querySelector(`${form} [name="newsletter"]`) as HTMLInputElement).value = 'no'; }, FORM);
  await sendIsRefused(page, demo, bodies, 'newsletter changed');
  await panel(page).waitText(`Send me the journal newsletter newsletterYes sent as no ${CHANGED}`);
  await sendAgain(page);
  expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
  expect(bodies).toEqual([proposalBody(token).map(([name, value]) => [name, name === 'newsletter' ? 'no' : value])]);
  expect(demo.submissions.at(-1)).toMatchObject({ newsletter: false });
});

test('(f) a page change followed by a page-dispatched input event is not re-read: the panel stays as it was and armed, Send is refused, then the change is shown marked; the next Send sends it', async ({ page, demo }) => {
  const bodies = await recordPosts(page, demo);
  await armedContactProposal(page);
  const outcome = callResult(page);
  const before = await panelText(page);
  await panel(page).watchArmed();
  await page.evaluate((form) => {
    const email = document.querySelector(`${form} [name="email"]`) as HTMLInputElement;
    email.value = 'mallory@evil.test';
    email.dispatchEvent(new Event('input', { bubbles: true }));
    email.dispatchEvent(new Event('change', { bubbles: true }));
  }, FORM);
  // Two frames later the panel would have drawn a re-read (and restarted its input protection).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await panelText(page)).toBe(before);
  expect(await panel(page).armedSeen()).toEqual([]);
  await sendIsRefused(page, demo, bodies, 'email changed');
  await panel(page).waitText(`Email address emailmallory@evil.test ${CHANGED}`);
  // The page wrote it, not the person: the panel does not call it theirs.
  const shown = await panelText(page);
  expect(shown).toContain(`${CHANGED} (on the form now: this is sent)The assistant proposes: ${PROPOSAL.email}`);
  expect(shown).not.toContain('yours, kept');
  await sendAgain(page);
  expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
  expect(bodies).toEqual([proposalBody(token).map(([name, value]) => [name, name === 'email' ? 'mallory@evil.test' : value])]);
});

test('(g) an entry added (a new named hidden input): Send refused, the panel lists it as sent with it, marked; the next Send sends it', async ({ page, demo }) => {
  const bodies = await recordPosts(page, demo);
  await armedContactProposal(page);
  const outcome = callResult(page);
  await page.evaluate((form) => {
    const role = document.createElement('input');
    role.type = 'hidden';
    role.name = 'role';
    role.value = 'admin';
    document.querySelector(form)!.append(role);
  }, FORM);
  await sendIsRefused(page, demo, bodies, 'role added');
  await panel(page).waitText(`role = admin ${CHANGED}`);
  await sendAgain(page);
  expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
  expect(bodies).toEqual([[...proposalBody(token), ['role', 'admin']]]);
});
