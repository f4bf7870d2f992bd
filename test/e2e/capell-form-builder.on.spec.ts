/**
 * The runtime on form-builder's own form, not the demo's: the contact form exactly as
 * capell-app/form-builder @ 770cf636 renders it (test/fixtures/capell/form-builder/contact-form.html:
 * controls with `wire:model="data.<key>"` and id `<formId>-<key>`, a hidden field and a honeypot
 * without a label, a send button holding Livewire's `wire:loading.remove` "Submit" and idle
 * `wire:loading` "Submitting..." spans), and the same form with the controls' `name` removed, as
 * the view rendered it before. Served on the demo's origin through a Playwright route. In Chromium
 * with WebMCP on: the form tool registers (with its name warning, and, without names, the
 * Report's note of the rule that found the controls); a call fills the controls by that rule; the
 * panel opens naming the send button "Submit"; the hidden field and the honeypot are never
 * filled nor listed.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { callResult, startCall } from './agent-calls.ts';
import { panel } from './panel-driver.ts';
import { capellFormBuilderPage } from '../support/capell-fixtures.ts';

const FORM_ID = 'capell-form-5d1f6a3c-8b2e-4f7a-9c41-2e7b9d0a6f35';
const TOOL = `form.submit.${FORM_ID}`;
const INPUT = { name: 'Ada Lovelace', email: 'ada@example.test', topic: 'support', message: 'My boot sole came off.', newsletter: true };

type Audit = { level: string; surface: string; message: string }[];

async function openForm(page: Page, origin: string, withoutNames: boolean): Promise<{ registered: string[]; rejected: unknown[]; audit: Audit }> {
  await page.route(`${origin}/capell/contact`, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: capellFormBuilderPage('<script type="module" src="/dist/capell-webmcp.js"></script>', { withoutNames }),
  }));
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

    test('a call fills the controls, the panel names the send button "Submit"; the hidden field and honeypot stay as they were and unlisted', async ({ page, demo }) => {
      await openForm(page, demo.url, withoutNames);
      await startCall(page, TOOL, INPUT);
      const state = await panel(page).waitOpen();
      expect(state.refusal).toBe('');
      expect(await controlValues(page)).toEqual({ ...INPUT, source: '', company_website: '' });
      await panel(page).waitText('Ada Lovelace');
      await panel(page).waitText('Support');
      await panel(page).waitText('To send it, use the form’s own “Submit” button.');
      const text = (await panel(page).state())!.text;
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

test.describe("form-builder's send button: what is rendered and read", () => {
  test('its Livewire loading text, once rendered but unreadable (visibility: hidden), still refuses the button', async ({ page, demo }) => {
    await openForm(page, demo.url, false);
    // Rendered (it takes room), so a person would see a gap a page could fill with anything: refused as before.
    await page.evaluate((formId) => {
      const loading = document.querySelector(`#${formId} button[type="submit"] span[wire\\:loading]`) as HTMLElement;
      loading.style.cssText = 'display: inline !important; visibility: hidden';
    }, FORM_ID);
    await startCall(page, TOOL, INPUT);
    const result = await Promise.race([
      callResult(page),
      panel(page).waitOpen().then((state) => ({ content: [{ type: 'text', text: state.refusal }], isError: true })),
    ]);
    expect(result.content[0]!.text).toContain('its text “Submitting...” is hidden: visibility: hidden on span');
  });
});
