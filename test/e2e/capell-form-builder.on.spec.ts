/**
 * The runtime on form-builder's own form, not the demo's: the contact form exactly as
 * capell-app/form-builder @ 770cf636 renders it (test/fixtures/capell/form-builder/contact-form.html:
 * controls with `wire:model="data.<key>"` and id `<formId>-<key>`, a hidden field and a honeypot
 * without a label, a send button holding Livewire's `wire:loading.remove` "Submit" and idle
 * `wire:loading` "Submitting..." spans), and the same form with the controls' `name` removed, as
 * the view rendered it before. Served on the demo's origin through a Playwright route. In Chromium
 * with WebMCP on: the form tool registers (with its name warning, and, without names, the
 * Report's note of the rule that found the controls); a call fills the controls by that rule; the
 * panel opens listing each field by the name it is sent under (`email`, or without names its
 * `wire:model`, `data.email`) and says that only its own Send sends it; the hidden field and the
 * honeypot are never filled nor listed. The form's own Submit, whatever it draws, sends nothing
 * while the panel is open; the panel's Send submits the form through it, so the site's script
 * sends it (issue 37, items 1 and 2).
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { callResult, startCall } from './agent-calls.ts';
import { panel } from './panel-driver.ts';
import { expectPageActRefused } from './page-acts.ts';
import { capellFormBuilderPage, fixtureText } from '../support/capell-fixtures.ts';

const FORM_ID = 'capell-form-5d1f6a3c-8b2e-4f7a-9c41-2e7b9d0a6f35';
const TOOL = `form.submit.${FORM_ID}`;
const INPUT = { name: 'Ada Lovelace', email: 'ada@example.test', topic: 'support', message: 'My boot sole came off.', newsletter: true };

type Audit = { level: string; surface: string; message: string }[];

/** Livewire 4's update endpoint as the fixtures name it (livewire-update-request.json). */
const UPDATE_PATH = '/livewire-3f9a2c1e/update';

/** Livewire's answers to the contact form's submit (livewire-update-response.json). */
const LIVEWIRE_ANSWERS = JSON.parse(fixtureText('form-builder/livewire-update-response.json')) as Record<'successful' | 'validationFailure', { body: unknown }>;

/**
 * A stand-in for Livewire 4's client on this one component, served as the site's own script
 * (test/fixtures/capell/form-builder/livewire-behaviour.md): `wire:model` state from the controls'
 * own `input`/`change` events (dot paths, as Livewire's diff), `wire:submit` as Alpine's
 * `x-on:submit.prevent` on the form (preventDefault, no defaultPrevented check), the POST to the
 * update endpoint with `X-Livewire`, and the redraw: the answer's `effects.html` children put into
 * the same component root (keyed by `wire:id`, as Livewire's morph keeps it).
 */
const LIVEWIRE_STAND_IN = `(() => {
  const root = document.querySelector('[wire\\\\:id]');
  const form = root.querySelector('form');
  const updates = {};
  for (const type of ['input', 'change']) {
    form.addEventListener(type, (event) => {
      const bound = event.target.getAttribute('wire:model');
      if (bound) updates[bound] = event.target.type === 'checkbox' ? event.target.checked : event.target.value;
    });
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    fetch('${UPDATE_PATH}', {
      method: 'POST',
      headers: { 'Content-type': 'application/json', 'X-Livewire': '1' },
      body: JSON.stringify({ _token: 'Y3vQm8XkT2pLr9aZc5WnB7dFh1sJg4uE6tKo0iNq', components: [{ snapshot: root.getAttribute('wire:snapshot'), updates, calls: [{ method: 'submit', params: [], metadata: {} }] }] }),
    }).then((response) => response.json()).then((answer) => {
      const next = document.createElement('template');
      next.innerHTML = answer.components[0].effects.html;
      root.replaceChildren(...next.content.firstElementChild.childNodes);
    });
  });
})();`;

/**
 * A site script that listens for `submit` on the window in the capture phase and ignores
 * `defaultPrevented` (what a site's own form library may do), as a module script after the
 * runtime's: it runs after the runtime's script, before DOMContentLoaded (and so before the
 * runtime's `start()`). It keeps what it saw in `window.siteCaptureSaw`.
 */
const SITE_CAPTURE = `window.siteCaptureSaw = [];
window.addEventListener('submit', (event) => window.siteCaptureSaw.push(event.target.id), true);`;

async function openForm(page: Page, origin: string, withoutNames: boolean, options: { standIn?: boolean } = {}): Promise<{ registered: string[]; rejected: unknown[]; audit: Audit }> {
  const scripts = '<script type="module" src="/dist/capell-webmcp.js"></script>'
    + (options.standIn ? '\n    <script type="module" src="/capell/site-capture.js"></script>' : '');
  const html = capellFormBuilderPage(scripts, { withoutNames });
  await page.route(`${origin}/capell/site-capture.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: SITE_CAPTURE }));
  await page.route(`${origin}/capell/contact`, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: options.standIn ? html.replace('</body>', '<script src="/capell/livewire-stand-in.js"></script>\n</body>') : html,
  }));
  await page.route(`${origin}/capell/livewire-stand-in.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: LIVEWIRE_STAND_IN }));
  await page.goto(`${origin}/capell/contact`);
  return await readyReport(page) as { registered: string[]; rejected: unknown[]; audit: Audit };
}

/** The form's controls as the page holds them, by id (`<formId>-<key>`). */
function controlValues(page: Page): Promise<Record<string, string | boolean>> {
  return page.evaluate((formId) => {
    const control = (key: string) => document.getElementById(`${formId}-${key}`) as HTMLInputElement;
    return {
      name: control('name').value, email: control('email').value, topic: control('topic').value, message: control('message').value,
      newsletter: control('newsletter').checked, source: control('source').value, company_website: control('company_website').value,
    };
  }, FORM_ID);
}

for (const withoutNames of [false, true]) {
  const kind = withoutNames ? 'without name attributes (the older view)' : 'with name attributes (770cf636)';
  test.describe(`form-builder's contact form ${kind}`, () => {
    test('registers the form tool with its name warning; without names the Report says the rule that found the controls', async ({ page, demo }) => {
      const report = await openForm(page, demo.url, withoutNames);
      expect(report.rejected).toEqual([]);
      expect(report.registered).toContain(TOOL);
      const mine = report.audit.filter((entry) => entry.surface === `tool ${TOOL}`).map((entry) => entry.message);
      expect(mine.some((message) => message.includes('has "-" or "_" inside a segment'))).toBe(true);
      const ruleNote = `form #${FORM_ID} controls found by form-builder's binding, not name (wire:model: name, email, topic, message, newsletter)`;
      if (withoutNames) expect(mine).toContain(ruleNote);
      else expect(mine.filter((message) => message.includes('not name'))).toEqual([]);
      // Neither the hidden field nor the honeypot is an input of the tool.
      const tools = await page.evaluate(() => (document as unknown as { modelContext: { getTools(): Promise<{ name: string; inputSchema: string }[]> } }).modelContext.getTools());
      const listed = tools.find((tool) => tool.name === TOOL)!.inputSchema as unknown;
      const schema = (typeof listed === 'string' ? JSON.parse(listed) : listed) as { properties: Record<string, unknown> };
      expect(Object.keys(schema.properties)).toEqual(['name', 'email', 'topic', 'message', 'newsletter']);
    });

    test('a call fills the controls, the panel lists them by the names they are sent under and says only its Send sends; the hidden field and honeypot stay as they were and unlisted', async ({ page, demo }) => {
      await openForm(page, demo.url, withoutNames);
      await startCall(page, TOOL, INPUT);
      const state = await panel(page).waitOpen();
      expect(state.refusal).toBe('');
      expect(await controlValues(page)).toEqual({ ...INPUT, source: '', company_website: '' });
      await panel(page).waitText('Ada Lovelace');
      await panel(page).waitText('Support');
      await panel(page).waitText('To send it, press Send on this panel; the page’s own buttons do not send it while this panel is open.');
      const text = (await panel(page).state())!.text;
      // Each item: its label, the name it is sent under (code.name), its value, and the value as
      // sent where that reads otherwise. Without names the site's script sends it by wire:model.
      const sent = withoutNames
        ? ['Name data.nameAda Lovelace', 'Email data.emailada@example.test', 'Topic data.topicSupport', 'Send me the newsletter data.newsletterYes']
        : ['Name nameAda Lovelace', 'Email emailada@example.test', 'Topic topicSupport sent as support', 'Send me the newsletter newsletterYes sent as on'];
      for (const line of sent) expect(text).toContain(line);
      expect(text).not.toContain('Submitting');
      expect(text).not.toContain('company_website');
      expect(text).not.toContain('contact-page');
      expect(text).not.toMatch(/refuse|cannot be recognised|no rendered size/);
      await panel(page).click('Cancel');
      expect(JSON.parse((await callResult(page)).content[0]!.text)).toMatchObject({ status: 'cancelled' });
      expect(await controlValues(page)).toMatchObject({ company_website: '' });
    });
  });
}

/**
 * The POSTs that reach Livewire's update endpoint from now on, each answered as Livewire answers
 * `answer` (counted at the route: a request the browser never made is never counted).
 */
async function countUpdates(page: Page, origin: string, answer: 'successful' | 'validationFailure'): Promise<{ updates: Record<string, unknown>; headers: Record<string, string> }[]> {
  const posts: { updates: Record<string, unknown>; headers: Record<string, string> }[] = [];
  await page.route(`${origin}${UPDATE_PATH}`, (route) => {
    const body = route.request().postDataJSON() as { components: { updates: Record<string, unknown> }[] };
    posts.push({ updates: body.components[0]!.updates, headers: route.request().headers() });
    return route.fulfill({ contentType: 'application/json', body: JSON.stringify(LIVEWIRE_ANSWERS[answer].body) });
  });
  return posts;
}

test.describe("form-builder's contact form sent by the site's own script (a stand-in for Livewire's client)", () => {
  for (const withoutNames of [false, true]) {
    test(`${withoutNames ? 'without names: ' : ''}the panel says the site's page script sends it, names no GET; the person's Send is one POST of exactly the panel's values; the call answers with the site's status line`, async ({ page, demo }) => {
      await openForm(page, demo.url, withoutNames, { standIn: true });
      const posts = await countUpdates(page, demo.url, 'successful');
      await startCall(page, TOOL, INPUT);
      await panel(page).waitOpen();
      await panel(page).waitText('This site\'s own page script sends it.');
      const text = (await panel(page).state())!.text;
      expect(text).not.toMatch(/\bGET\b|\/capell\/contact/);
      expect(text).toContain('To send it, press Send on this panel; the page’s own buttons do not send it while this panel is open.');
      const outcome = callResult(page);
      await panel(page).click('Send');
      const answer = JSON.parse((await outcome).content[0]!.text);
      expect(answer).toEqual({ status: 'submitted', sentBy: 'site', siteShowed: 'Thanks for getting in touch. We will reply soon.' });
      expect(posts).toHaveLength(1);
      expect(posts[0]!.headers['x-livewire']).toBe('1');
      expect(posts[0]!.updates).toEqual({ 'data.name': INPUT.name, 'data.email': INPUT.email, 'data.topic': INPUT.topic, 'data.message': INPUT.message, 'data.newsletter': true });
      await expect(page.locator('[role="status"]')).toHaveText(/Thanks for getting in touch/);
      // The site's window capture listener saw the person's submit (and only that one).
      expect(await page.evaluate(() => (window as unknown as { siteCaptureSaw: string[] }).siteCaptureSaw)).toEqual([FORM_ID]);
    });
  }

  test('its send button, whatever it draws (the Livewire loading text rendered but unreadable), sends nothing when the person clicks it; the panel says why, and its Send is one POST', async ({ page, demo }) => {
    await openForm(page, demo.url, false, { standIn: true });
    const posts = await countUpdates(page, demo.url, 'successful');
    // Rendered (it takes room): a gap a page could fill with anything. Nothing the button draws is read any more.
    await page.evaluate((formId) => {
      const loading = document.querySelector(`#${formId} button[type="submit"] span[wire\\:loading]`) as HTMLElement;
      loading.style.cssText = 'display: inline !important; visibility: hidden';
    }, FORM_ID);
    await startCall(page, TOOL, INPUT);
    expect((await panel(page).waitOpen()).refusal).toBe('');
    await panel(page).waitArmed();
    const outcome = callResult(page);
    await page.locator(`#${FORM_ID} button[type="submit"]`).click();
    await expectPageActRefused(page, 'click');
    expect(posts).toEqual([]);
    // The site's window capture listener never saw the refused submit.
    expect(await page.evaluate(() => (window as unknown as { siteCaptureSaw: string[] }).siteCaptureSaw)).toEqual([]);
    await panel(page).click('Send');
    expect(JSON.parse((await outcome).content[0]!.text)).toMatchObject({ status: 'submitted', sentBy: 'site' });
    expect(posts).toHaveLength(1);
    expect(posts[0]!.updates).toEqual({ 'data.name': INPUT.name, 'data.email': INPUT.email, 'data.topic': INPUT.topic, 'data.message': INPUT.message, 'data.newsletter': true });
  });

  test('refused acts post nothing and reach no site listener: a script\'s requestSubmit, the person\'s click on the form\'s Submit, and their Send after a page script changed a wire:model control behind the panel', async ({ page, demo }) => {
    await openForm(page, demo.url, true, { standIn: true });
    const posts = await countUpdates(page, demo.url, 'successful');
    const requests: string[] = [];
    page.on('request', (request) => { if (new URL(request.url()).pathname === UPDATE_PATH) requests.push(request.method()); });
    await startCall(page, TOOL, INPUT);
    await panel(page).waitOpen();
    await panel(page).waitArmed();
    await page.evaluate((formId) => (document.getElementById(formId) as HTMLFormElement).requestSubmit(), FORM_ID);
    // As Livewire's x-model effect writes $wire back into the control: no input event, the panel is not told.
    await page.evaluate((formId) => { (document.getElementById(`${formId}-message`) as HTMLTextAreaElement).value = 'Send my card number to the shop.'; }, FORM_ID);
    await page.locator(`#${FORM_ID} button[type="submit"]`).click();
    await expectPageActRefused(page, 'click');
    await panel(page).click('Send');
    await expect.poll(async () => (await panel(page).state())?.refusal ?? '').toContain('what the form sends changed after this panel showed it (Message)');
    // Whatever was in flight has had its time to arrive.
    await page.waitForTimeout(300);
    expect(requests).toEqual([]);
    expect(posts).toEqual([]);
    // The site's window capture listener, added after the runtime's script ran, saw neither refused submit.
    expect(await page.evaluate(() => (window as unknown as { siteCaptureSaw: string[] }).siteCaptureSaw)).toEqual([]);
    await panel(page).waitText('Send my card number to the shop. changed after this panel first showed it');
    await panel(page).click('Cancel');
    const answer = JSON.parse((await callResult(page)).content[0]!.text);
    expect(answer).toMatchObject({ status: 'cancelled', refused: expect.stringContaining('(Message)') });
    expect(posts).toEqual([]);
  });
});
