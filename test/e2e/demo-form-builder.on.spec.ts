/**
 * Both kinds of form on the demo, with real clicks: form-builder's Livewire forms (the contact
 * form on /contact, the product enquiry form on the Summit boot's page: capell-app/form-builder @
 * 770cf636's markup, sent by the demo's stand-in for Livewire's client to
 * `POST /livewire-<8 hex>/update`), and the plain HTML contact form on /contact/plain (sent by the
 * runtime's own fetch). The agent calls the form tool through document.modelContext, the person
 * reads the panel (test/e2e/panel-driver.ts) and clicks its Send with Playwright's mouse (Send
 * submits the form through its own Submit, so the site's script sends it as for a click there);
 * what the site received is read from the demo server's logs (`livewirePosts`, `formPosts`,
 * `submissions`).
 *
 * Covered: every field type form-builder writes (text, email, select, textarea, checkbox on the
 * contact form; number on the enquiry form; the hidden field and the honeypot on both); the
 * honeypot is never filled and never listed; the person's accepted Send sends exactly the
 * panel's values; the status after the site's redraw and a field error the site draws reach the
 * agent (the site-sent answer of the contract `{status: 'submitted', sentBy: 'site', siteShowed,
 * fieldErrors}` for a form the site's own script sends, issue 36); a page script that changes a
 * control (Livewire-bound, or of the plain form) after the panel showed, with an `input` event, is
 * not followed silently: the person's Send is refused, nothing is sent, the panel shows the change
 * marked, and the next Send sends what the panel then shows (issue 37, item 2). A click inside the
 * panel's input protection: demo-form-builder-early-click.on.spec.ts.
 */
import type { Page } from '@playwright/test';
import { expect, listTools, readyReport, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { callResult, startCall, PROPOSAL } from './agent-calls.ts';
import { panel } from './panel-driver.ts';
import { refusalLine } from './page-acts.ts';

const CONTACT = { path: '/contact', formId: 'capell-form-contact', tool: 'form.submit.capell-form-contact' };
const ENQUIRY = { path: '/products/summit-leather-boot', formId: 'capell-form-product-enquiry', tool: 'form.submit.capell-form-product-enquiry' };
const ENQUIRY_INPUT = { name: 'Ada Lovelace', email: 'ada@example.test', size: '42', quantity: 2, question: 'Do you resole them too?' };

/** The tool's inputSchema as getTools() lists it. */
async function inputSchemaOf(page: Page, tool: string): Promise<{ properties: Record<string, { type: string }>; required: string[] }> {
  const listed = (await listTools(page)).find((candidate) => candidate.name === tool)?.inputSchema;
  return (typeof listed === 'string' ? JSON.parse(listed) : listed) as never;
}

/** The form's controls by id (`<formId>-<key>`): value, or checked for a checkbox. */
function controlValues(page: Page, formId: string, keys: string[]): Promise<Record<string, string | boolean>> {
  return page.evaluate(({ formId, keys }) => Object.fromEntries(keys.map((key) => {
    const control = document.getElementById(`${formId}-${key}`) as HTMLInputElement;
    return [key, control.type === 'checkbox' ? control.checked : control.value];
  })), { formId, keys });
}

/** Opens a page and waits for the runtime's Report; empties the server's logs of form posts. */
async function open(page: Page, demo: Demo, path: string): Promise<{ registered: string[]; rejected: unknown[] }> {
  await page.goto(`${demo.url}${path}`);
  const report = await readyReport(page);
  demo.livewirePosts.length = 0;
  demo.formPosts.length = 0;
  return report;
}

/** The person waits for the panel's input protection to pass, then clicks the panel's Send (it submits the form through its Submit). */
async function personClicksSubmit(page: Page, formId: string): Promise<void> {
  await panel(page).waitArmed();
  await expect(page.locator(`#${formId} button[type="submit"]`)).toBeVisible();
  await panel(page).click('Send');
}

const CHANGED_MESSAGE = 'Please send the order to another address.';

/**
 * The agent's proposal on screen, read and armed; then a page script that rewrites the message
 * when the person presses the mouse on the panel's Send (the value and an `input` event, as
 * Livewire takes a change: a document listener sees the press on the panel's host), so the change
 * lands between the panel's showing and the click; the person clicks Send: refused, the panel
 * shows the new message marked as changed.
 */
async function scriptChangesMessageAtTheSend(page: Page, formId: string): Promise<void> {
  await startCall(page, CONTACT.tool, PROPOSAL);
  await panel(page).waitOpen();
  await panel(page).scrollToEnd();
  await panel(page).waitArmed();
  await page.evaluate(({ formId, changed }) => {
    const message = document.getElementById(`${formId}-message`) as HTMLTextAreaElement;
    document.addEventListener('pointerdown', () => {
      message.value = changed;
      message.dispatchEvent(new Event('input', { bubbles: true }));
    }, { once: true, capture: true });
  }, { formId, changed: CHANGED_MESSAGE });
  await panel(page).click('Send');
  await expect.poll(async () => (await panel(page).state())?.refusal ?? 'no panel', { intervals: [50], timeout: 15_000 })
    .toBe(refusalLine('what the form sends changed after this panel showed it (message changed), so check it again'));
  await panel(page).waitText(`${CHANGED_MESSAGE} changed after this panel first showed it`);
  expect(await page.locator(`#${formId}-message`).inputValue()).toBe(CHANGED_MESSAGE);
}

/** The person reads the panel again and, past its input protection, clicks Send: it sends what the panel shows now. */
async function personSendsAgain(page: Page, formId: string): Promise<void> {
  await panel(page).scrollToEnd();
  await personClicksSubmit(page, formId);
}

test.describe("form-builder's forms on the demo: every field type, the honeypot, and what reaches the site", () => {
  test('the contact form and the enquiry form register from their own islands, with every visible field and never the hidden field or the honeypot', async ({ page, demo }) => {
    const contact = await open(page, demo, CONTACT.path);
    expect(contact.rejected).toEqual([]);
    expect(contact.registered).toContain(CONTACT.tool);
    // The island is inside the component, as form-builder writes it.
    expect(await page.locator('[wire\\:id] > script[data-capell-agent-tools]').count()).toBe(1);
    const contactSchema = await inputSchemaOf(page, CONTACT.tool);
    expect(Object.fromEntries(Object.entries(contactSchema.properties).map(([key, schema]) => [key, schema.type]))).toEqual({
      name: 'string', email: 'string', topic: 'string', message: 'string', newsletter: 'boolean',
    });
    expect(contactSchema.required).toEqual(['name', 'email', 'topic', 'message']);
    // The controls are form-builder's: text, email, select, textarea, checkbox, hidden, honeypot.
    const kinds = await page.evaluate((formId) => [...document.querySelectorAll(`#${formId} [wire\\:model]`)].map((control) => [
      control.getAttribute('wire:model'), control.localName === 'input' ? (control as HTMLInputElement).type : control.localName, control.getAttribute('name'),
    ]), CONTACT.formId);
    expect(kinds).toEqual([
      ['data.name', 'text', 'name'], ['data.email', 'email', 'email'], ['data.topic', 'select', 'topic'], ['data.message', 'textarea', 'message'],
      ['data.newsletter', 'checkbox', 'newsletter'], ['data.source', 'hidden', null], ['data.company_website', 'text', null],
    ]);

    const enquiry = await open(page, demo, ENQUIRY.path);
    expect(enquiry.rejected).toEqual([]);
    expect(enquiry.registered).toContain(ENQUIRY.tool);
    const enquirySchema = await inputSchemaOf(page, ENQUIRY.tool);
    expect(enquirySchema.properties).toEqual({
      name: { type: 'string', maxLength: 80 },
      email: { type: 'string', format: 'email', maxLength: 254 },
      size: { type: 'string', enum: ['39', '40', '41', '42', '43', '44', '45', '46'] },
      quantity: { type: 'number' },
      question: { type: 'string', maxLength: 1000 },
    });
    expect(await page.locator(`#${ENQUIRY.formId}-quantity`).getAttribute('type')).toBe('number');
  });

  test('a call fills every field through wire:model; the hidden field keeps its default; the honeypot is never filled nor listed', async ({ page, demo }) => {
    await open(page, demo, CONTACT.path);
    // The stand-in wrote the snapshot's default into the hidden field, as x-model does.
    expect(await controlValues(page, CONTACT.formId, ['source', 'company_website'])).toEqual({ source: 'contact-page', company_website: '' });
    await startCall(page, CONTACT.tool, PROPOSAL);
    await panel(page).waitOpen();
    expect(await controlValues(page, CONTACT.formId, ['name', 'email', 'topic', 'message', 'newsletter', 'source', 'company_website'])).toEqual({
      ...PROPOSAL, source: 'contact-page', company_website: '',
    });
    await panel(page).waitText('Repair request');
    const text = (await panel(page).state())!.text;
    for (const value of [PROPOSAL.name, PROPOSAL.email, PROPOSAL.message]) expect(text).toContain(value);
    expect(text).not.toMatch(/company_website|contact-page|Submitting/);
    await panel(page).click('Cancel');
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'cancelled' });
    expect(await controlValues(page, CONTACT.formId, ['company_website'])).toEqual({ company_website: '' });
    expect(demo.livewirePosts).toEqual([]);
  });

  test('the panel says the site\'s own page script sends the form, that only its own Send sends it, and names no native destination [contract: panel]', async ({ page, demo }) => {
    await open(page, demo, CONTACT.path);
    await startCall(page, CONTACT.tool, PROPOSAL);
    await panel(page).waitOpen();
    await panel(page).waitText('Repair request');
    await panel(page).waitText('To send it, press Send on this panel; the page’s own buttons do not send it while this panel is open.');
    // The contract's message confirmSentBySiteScript (either apostrophe).
    await expect.poll(async () => (await panel(page).state())?.text ?? '', { timeout: 15_000 }).toMatch(/This site[’']s own page script sends it\./);
    // The form has no action: a native submission would be GET /contact?…, which Livewire never makes.
    expect((await panel(page).state())!.text).not.toMatch(/GET \/contact|POST \/contact/);
    await panel(page).click('Cancel');
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'cancelled' });
  });

  test('the contact form: the person\'s accepted Send sends exactly the panel\'s values, and the agent learns what the site showed [contract: sentBy, siteShowed]', async ({ page, demo }) => {
    await open(page, demo, CONTACT.path);
    const before = demo.submissions.length;
    await startCall(page, CONTACT.tool, PROPOSAL);
    await panel(page).waitOpen();
    await panel(page).waitText('Repair request');
    const shown = (await panel(page).state())!.text;
    const outcome = callResult(page);
    await personClicksSubmit(page, CONTACT.formId);
    await expect.poll(() => demo.livewirePosts.length).toBe(1);
    const [post] = demo.livewirePosts;
    // What the stand-in sent is what the panel listed: each value, and nothing else the agent set.
    expect(post).toMatchObject({ status: 200, outcome: 'accepted', form: CONTACT.formId, calls: [{ method: 'submit', params: [], metadata: {} }] });
    expect(post!.updates).toEqual({ 'data.name': PROPOSAL.name, 'data.email': PROPOSAL.email, 'data.topic': PROPOSAL.topic, 'data.message': PROPOSAL.message, 'data.newsletter': true });
    for (const value of [PROPOSAL.name, PROPOSAL.email, 'Repair request', PROPOSAL.message]) expect(shown).toContain(value);
    expect(demo.submissions.slice(before)).toEqual([{
      lang: 'en', form: CONTACT.formId, ...PROPOSAL,
      values: { ...PROPOSAL, source: 'contact-page' },
    }]);
    // The site redrew its component with form-builder's success message.
    await expect(page.locator('[wire\\:id] p[role="status"]')).toHaveText('Form submitted.');
    await expect(page.locator(`#${CONTACT.formId}`)).toHaveCount(0);
    const answer = answerOf(await outcome) as Record<string, unknown>;
    expect(answer).toMatchObject({ status: 'submitted', sentBy: 'site', siteShowed: 'Form submitted.' });
    expect(answer).not.toHaveProperty('httpStatus');
  });

  test('status after the redraw: capell.write.status answers the writeId with what the site showed [contract: sentBy, siteShowed]', async ({ page, demo }) => {
    // The call answers awaiting_person at once (write wait 1 ms), so the agent asks later by writeId.
    await open(page, demo, `${CONTACT.path}?write-wait-ms=1`);
    await startCall(page, CONTACT.tool, PROPOSAL);
    const first = answerOf(await callResult(page)) as { status: string; writeId: string };
    expect(first.status).toBe('awaiting_person');
    await panel(page).waitOpen();
    await personClicksSubmit(page, CONTACT.formId);
    await expect(page.locator('[wire\\:id] p[role="status"]')).toHaveText('Form submitted.');
    expect(demo.livewirePosts.map((post) => post.outcome)).toEqual(['accepted']);
    await expect.poll(async () => {
      const tools = await listTools(page);
      if (!tools.some((tool) => tool.name === 'capell.write.status')) return 'capell.write.status is not registered';
      return page.evaluate(async (writeId) => {
        const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
        const tool = (await context.getTools()).find((candidate) => candidate.name === 'capell.write.status');
        return JSON.parse(JSON.parse(await context.executeTool(tool, { writeId })).content[0].text);
      }, first.writeId);
    }).toMatchObject({ status: 'submitted', sentBy: 'site', siteShowed: 'Form submitted.', tool: CONTACT.tool });
  });

  test('the enquiry form: a number the schema allows but the site refuses is redrawn as a field error, the form and controls stay the same elements, and the error reaches the agent [contract: fieldErrors]', async ({ page, demo }) => {
    await open(page, demo, ENQUIRY.path);
    const input = { ...ENQUIRY_INPUT, quantity: 50 };
    await startCall(page, ENQUIRY.tool, input);
    await panel(page).waitOpen();
    await panel(page).waitText('EU 42');
    expect(await controlValues(page, ENQUIRY.formId, ['name', 'email', 'size', 'quantity', 'question', 'product', 'company_website'])).toEqual({
      ...input, quantity: '50', product: 'CW-1002', company_website: '',
    });
    // Mark the elements a morph must keep.
    await page.evaluate((formId) => {
      for (const element of [document.getElementById(formId), document.getElementById(`${formId}-quantity`)]) (element as HTMLElement & { kept?: boolean }).kept = true;
    }, ENQUIRY.formId);
    const outcome = callResult(page);
    await personClicksSubmit(page, ENQUIRY.formId);
    await expect.poll(() => demo.livewirePosts.length).toBe(1);
    expect(demo.livewirePosts[0]).toMatchObject({
      status: 200, outcome: 'invalid', form: ENQUIRY.formId,
      updates: { 'data.name': input.name, 'data.email': input.email, 'data.size': '42', 'data.quantity': '50', 'data.question': input.question },
      errors: { quantity: ['The data.quantity field must not be greater than 10.'] },
    });
    const error = page.locator(`#${ENQUIRY.formId}-quantity-error`);
    await expect(error).toHaveText('The data.quantity field must not be greater than 10.');
    await expect(page.locator(`#${ENQUIRY.formId}-quantity`)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator(`#${ENQUIRY.formId}-quantity`)).toHaveAttribute('aria-describedby', `${ENQUIRY.formId}-quantity-error`);
    await expect(page.locator('.capell-form__error-summary[role="alert"]')).toContainText('Please check the highlighted fields.');
    expect(await page.evaluate((formId) => [document.getElementById(formId), document.getElementById(`${formId}-quantity`)].map((element) => (element as HTMLElement & { kept?: boolean }).kept === true), ENQUIRY.formId)).toEqual([true, true]);
    // The person's values are still in the form after the redraw.
    expect(await controlValues(page, ENQUIRY.formId, ['quantity', 'size'])).toEqual({ quantity: '50', size: '42' });
    const answer = answerOf(await outcome) as Record<string, unknown>;
    expect(answer).toMatchObject({ status: 'submitted', sentBy: 'site', fieldErrors: { quantity: 'The data.quantity field must not be greater than 10.' } });
    expect(String(answer.siteShowed)).toContain('The data.quantity field must not be greater than 10.');
    expect(answer).not.toHaveProperty('httpStatus');
  });

  test('the enquiry form: a number the site accepts is sent as the panel showed it and stored', async ({ page, demo }) => {
    await open(page, demo, ENQUIRY.path);
    const before = demo.submissions.length;
    await startCall(page, ENQUIRY.tool, ENQUIRY_INPUT);
    await panel(page).waitOpen();
    await panel(page).waitText('EU 42');
    const outcome = callResult(page);
    await personClicksSubmit(page, ENQUIRY.formId);
    await expect.poll(() => demo.livewirePosts.length).toBe(1);
    // x-model reads a number input's value as a string, as Livewire sends it.
    expect(demo.livewirePosts[0]).toMatchObject({
      outcome: 'accepted',
      updates: { 'data.name': ENQUIRY_INPUT.name, 'data.email': ENQUIRY_INPUT.email, 'data.size': '42', 'data.quantity': '2', 'data.question': ENQUIRY_INPUT.question },
    });
    expect(demo.submissions.slice(before)).toMatchObject([{ form: ENQUIRY.formId, values: { size: '42', quantity: '2', product: 'CW-1002' } }]);
    await expect(page.locator('[wire\\:id] p[role="status"]')).toHaveText('Form submitted.');
    expect(answerOf(await outcome)).toMatchObject({ status: 'submitted' });
  });

  test('a page script that changes a Livewire-bound control after the panel showed is refused at the Send and shown; nothing is sent until the next Send, which sends what the panel then shows', async ({ page, demo }) => {
    await open(page, demo, CONTACT.path);
    await scriptChangesMessageAtTheSend(page, CONTACT.formId);
    // The refused Send never submitted the form: the stand-in's listener saw nothing, no redraw.
    await expect(page.locator(`#${CONTACT.formId}`)).toHaveCount(1);
    expect(demo.livewirePosts).toEqual([]);
    // The person has now seen the changed message; their next Send sends it: the server's first
    // and only post carries it, so the refused Send sent nothing before it.
    await personSendsAgain(page, CONTACT.formId);
    await expect.poll(() => demo.livewirePosts.length).toBe(1);
    expect(demo.livewirePosts[0]).toMatchObject({ outcome: 'accepted', updates: { 'data.message': CHANGED_MESSAGE } });
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'submitted' });
  });
});

test.describe('the plain HTML contact form on /contact/plain: the runtime sends it', () => {
  test('the person\'s accepted Send sends exactly the panel\'s values; the honeypot is never filled nor listed', async ({ page, demo }) => {
    await open(page, demo, '/contact/plain');
    const before = demo.submissions.length;
    await startCall(page, CONTACT.tool, PROPOSAL);
    await panel(page).waitOpen();
    await panel(page).waitText('Repair request');
    const shown = (await panel(page).state())!.text;
    expect(shown).not.toContain('Leave this field empty');
    expect(await page.locator('#capell-form-contact-website').inputValue()).toBe('');
    const outcome = callResult(page);
    await personClicksSubmit(page, CONTACT.formId);
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toEqual([expect.objectContaining({ path: '/contact/plain' })]);
    expect(demo.submissions.slice(before)).toEqual([{ lang: 'en', ...PROPOSAL }]);
    for (const value of [PROPOSAL.name, PROPOSAL.email, 'Repair request', PROPOSAL.message]) expect(shown).toContain(value);
    expect(demo.livewirePosts).toEqual([]);
    await page.waitForURL(/\/contact\/plain\?sent=1$/);
  });

  test('a page script that changes a control after the panel showed is refused at the Send and shown; nothing is sent until the next Send, which sends what the panel then shows', async ({ page, demo }) => {
    await open(page, demo, '/contact/plain');
    await scriptChangesMessageAtTheSend(page, CONTACT.formId);
    expect(demo.formPosts).toEqual([]);
    await personSendsAgain(page, CONTACT.formId);
    expect(answerOf(await callResult(page))).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
    expect(demo.submissions.at(-1)).toEqual({ lang: 'en', ...PROPOSAL, message: CHANGED_MESSAGE });
  });
});
