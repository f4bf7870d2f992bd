/**
 * What the agent wrote is drawn as it is sent (issue 37, item 5): a value holding a bidi control
 * (U+202E draws "bob@\u202Emoc.knab-ytsim" as "bob@mistry-bank.com", "refund \u202E0005" as
 * "refund 5000") or a zero-width character. The panel draws each such character as a boxed
 * `⟨U+202E⟩` where it is, in an isolated left-to-right run, and says so; a form fill refuses a bidi
 * control (the page's control would draw the value reordered), naming the field and the code point;
 * other invisible characters are filled and shown. The demo server counts every contact POST and
 * newsletter sign-up: what is sent is compared with what the panel showed.
 */
import { expect, readyReport, serveEdited, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { PROPOSAL, call, callResult, fieldValues, startCall } from './agent-calls.ts';

const NOTE = 'each is shown as ⟨U+…⟩ where it is, and is sent as it is';

test.beforeEach(async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
});

test('a form value with U+202E (drawn "bob@mistry-bank.com", sent reversed) is refused naming the field and the code point; nothing is filled or sent', async ({ page, demo }) => {
  // The name field (the email field's format already refuses it).
  const result = await call(page, 'form.submit.capell-form-contact', { ...PROPOSAL, name: 'bob@\u202Emoc.knab-ytsim' });
  expect(result.isError).toBe(true);
  expect(result.content[0]!.text).toContain('cannot fill form #capell-form-contact for form.submit.capell-form-contact: field “name”: its value holds U+202E, a character that changes the order in which text is drawn');
  expect(await fieldValues(page)).toMatchObject({ name: '', email: '', message: '' });
  expect(await new PanelDriver(page).count()).toBe(0);
  expect(demo.formPosts).toEqual([]);
});

test('"refund 5000" drawn while "refund ⟨U+202E⟩0005" is sent: a form fill refuses it, naming the message field', async ({ page, demo }) => {
  const result = await call(page, 'form.submit.capell-form-contact', { ...PROPOSAL, message: 'Please refund \u202E0005 today.' });
  expect(result.isError).toBe(true);
  expect(result.content[0]!.text).toContain('field “message”: its value holds U+202E');
  expect(demo.formPosts).toEqual([]);
});

test('a zero-width space in a form value is filled and the panel shows it as ⟨U+200B⟩, says so, and sends exactly that', async ({ page, demo }) => {
  const before = demo.submissions.length;
  await startCall(page, 'form.submit.capell-form-contact', { ...PROPOSAL, name: 'Ada\u200BLovelace' });
  const panel = new PanelDriver(page);
  await panel.waitText('Ada⟨U+200B⟩Lovelace');
  await panel.waitText(NOTE);
  await panel.scrollToEnd();
  const outcome = callResult(page);
  await panel.click('Send');
  expect(answerOf(await outcome)).toMatchObject({ status: 'submitted', httpStatus: 200 });
  expect(demo.submissions).toHaveLength(before + 1);
  expect(demo.submissions.at(-1)!.name).toBe('Ada\u200BLovelace');
});

test('an entry the page adds with U+202E ("refund 5000" drawn, "0005" sent) is listed under "Sent with it" as "refund ⟨U+202E⟩0005"', async ({ page }) => {
  await page.evaluate(() => {
    const hidden = document.createElement('input');
    hidden.type = 'hidden';
    hidden.name = 'note';
    hidden.value = 'refund \u202E0005';
    document.getElementById('capell-form-contact')!.append(hidden);
  });
  await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
  const panel = new PanelDriver(page);
  await panel.waitText('refund ⟨U+202E⟩0005');
  await panel.waitText(NOTE);
  expect((await panel.state())!.text).not.toContain('\u202E');
  await panel.click('Cancel');
  expect(answerOf(await callResult(page))).toMatchObject({ status: 'cancelled' });
});

test('an endpoint write whose value holds U+202E shows it as ⟨U+202E⟩ in logical order, and sends exactly what it showed', async ({ page, demo }) => {
  // A site whose newsletter tool declares no email format (the runtime's check would refuse it
  // first); the demo server takes any address without white space.
  await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replaceAll('"format":"email",', ''));
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  const email = 'bob@\u202Emoc.knab-ytsim';
  await startCall(page, 'newsletter.subscribe', { email });
  const panel = new PanelDriver(page);
  await panel.waitText('bob@⟨U+202E⟩moc.knab-ytsim');
  await panel.waitText(NOTE);
  expect((await panel.state())!.text).not.toContain('\u202E');
  await panel.scrollToEnd();
  await panel.waitArmed();
  const outcome = callResult(page);
  await panel.click('Send');
  expect(answerOf(await outcome)).toMatchObject({ status: 'submitted', httpStatus: 200 });
  expect(demo.subscriptions.at(-1)).toBe(email);
});
