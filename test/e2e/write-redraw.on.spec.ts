/**
 * The write outlives the redraw (issue 36, item 4) on form-builder's own markup: the contact form
 * component exactly as capell-app/form-builder @ 770cf636 renders it, and the html its Livewire
 * answers carry after a validation failure and after a success
 * (test/fixtures/capell/form-builder/contact-form*.html, SOURCES.md §3 and §6), served on the
 * demo's origin through a Playwright route. The component is drawn again the hardest way a script
 * can: its root element replaced by the answer's html (new island, new form with the same id;
 * Livewire's morph keeps more elements than this). In Chromium with WebMCP on:
 * - after the validation redraw the form tool was never handed to `registerTool` again and none of
 *   the runtime's registrations was withdrawn; the proposal open on the old form ends `aborted`,
 *   saying the form was taken out; a new call fills the new form;
 * - after the success redraw (the form replaced by the success message, the island kept) the form
 *   tool is gone, and `capell.write.status` still answers the writeIds it gave.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { callResult, startCall } from './agent-calls.ts';
import { panel } from './panel-driver.ts';
import { answerOf } from '../support/answer-of.ts';
import { capellFormBuilderPage, fixtureText } from '../support/capell-fixtures.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';
import { formRedrawnReason } from '../../src/write/forms/form-redraw.ts';

const FORM_ID = 'capell-form-5d1f6a3c-8b2e-4f7a-9c41-2e7b9d0a6f35';
const TOOL = `form.submit.${FORM_ID}`;
const INPUT = { name: 'Ada Lovelace', email: 'ada@example.test', topic: 'support', message: 'My boot sole came off.', newsletter: true };

type Awaiting = { status: 'awaiting_person'; writeId: string };
type Registration = { name: string; withdrawn: boolean };

/**
 * Opens form-builder's contact page with a short write wait, after an init script that records
 * every `registerTool` call (the tool's name, and whether its signal aborted since) and passes it
 * on to WebMCP unchanged.
 */
async function openForm(page: Page, origin: string): Promise<void> {
  await page.addInitScript(() => {
    const context = (document as unknown as { modelContext?: { registerTool(tool: { name: string }, options?: { signal?: AbortSignal }): unknown } }).modelContext;
    if (!context) return;
    const original = context.registerTool;
    const seen: { name: string; signal?: AbortSignal }[] = [];
    (window as unknown as { registrations: () => Registration[] }).registrations = () => seen.map(({ name, signal }) => ({ name, withdrawn: Boolean(signal?.aborted) }));
    context.registerTool = function registerTool(tool, options) {
      seen.push({ name: tool.name, signal: options?.signal });
      return original.call(this, tool, options);
    };
  });
  await page.route(`${origin}/capell/contact`, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: capellFormBuilderPage('<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-write-wait-ms="300"></script>'),
  }));
  await page.goto(`${origin}/capell/contact`);
  expect((await readyReport(page)).registered).toContain(TOOL);
}

function registrations(page: Page): Promise<Registration[]> {
  return page.evaluate(() => (window as unknown as { registrations: () => Registration[] }).registrations());
}

/** Draws the component again as a Livewire answer's html: its root element replaced by `html`. */
function redraw(page: Page, html: string): Promise<void> {
  return page.evaluate((html) => { document.querySelector('[wire\\:id]')!.outerHTML = html; }, html);
}

async function status(page: Page, writeId: string, waitMs = 0): Promise<Record<string, unknown>> {
  return page.evaluate(async ({ writeId, waitMs }) => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === 'capell.write.status');
    if (!tool) throw new Error('capell.write.status is not registered');
    return JSON.parse(JSON.parse(await context.executeTool(tool, { writeId, waitMs })).content[0].text);
  }, { writeId, waitMs });
}

async function toolNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]> } }).modelContext.getTools()).map((tool) => tool.name));
}

test.describe("form-builder's component drawn again", () => {
  test('after the validation redraw (a new form with the same id) the tool never left WebMCP; the open proposal ends aborted and says why; a new call fills the new form', async ({ page, demo }) => {
    await openForm(page, demo.url);
    await startCall(page, TOOL, INPUT);
    await panel(page).waitOpen();
    const { writeId } = answerOf(await callResult(page)) as Awaiting;
    const before = await registrations(page);

    await redraw(page, fixtureText('form-builder/contact-form-after-validation-error.html'));
    await expect.poll(async () => (await status(page, writeId, 200)).status).toBe('aborted');
    expect(await status(page, writeId)).toEqual({ status: 'aborted', tool: TOOL, reason: formRedrawnReason(FORM_ID), next: NEXT_STEPS.aborted });
    await panel(page).waitClosed();
    // The page observer's update ran (the status call above loaded after it); still nothing withdrawn or handed over again.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(await registrations(page)).toEqual(before.map((registration) => ({ ...registration, withdrawn: false })));
    expect(before.filter((registration) => registration.name === TOOL)).toHaveLength(1);
    expect(await toolNames(page)).toEqual(expect.arrayContaining([TOOL, 'capell.write.status']));

    // The site's error text is on the page; the next call fills the new form's controls.
    await expect(page.locator(`#${FORM_ID}-name-error`)).toHaveText('The data.name field must be at least 2 characters.');
    await startCall(page, TOOL, { ...INPUT, name: 'Grace Hopper' });
    await panel(page).waitOpen();
    await panel(page).waitText('Grace Hopper');
    expect(await page.locator(`#${FORM_ID}-name`).inputValue()).toBe('Grace Hopper');
    await panel(page).click('Cancel');
    // The call answers within this page's write wait: on a loaded machine that may come before
    // the Cancel (awaiting_person, with its writeId); the write's status then says cancelled.
    const second = answerOf(await callResult(page)) as { status: string; writeId?: string };
    if (second.status === 'awaiting_person') await expect.poll(async () => (await status(page, second.writeId!)).status).toBe('cancelled');
    else expect(second).toMatchObject({ status: 'cancelled' });
  });

  test('after the success redraw (the form gone, the island kept) the form tool is gone and capell.write.status answers the writeIds it gave', async ({ page, demo }) => {
    await openForm(page, demo.url);
    await startCall(page, TOOL, INPUT);
    await panel(page).waitOpen();
    const cancelled = answerOf(await callResult(page)) as Awaiting;
    await panel(page).click('Cancel');
    await startCall(page, TOOL, INPUT);
    await panel(page).waitOpen();
    const open = answerOf(await callResult(page)) as Awaiting;
    expect(open.writeId).not.toBe(cancelled.writeId);

    const changed = page.evaluate(() => new Promise((resolve) => document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent).detail), { once: true })));
    await redraw(page, fixtureText('form-builder/contact-form-after-success.html'));
    const report = await changed as { registered: string[]; rejected: { name: string; reasons: string[] }[] };
    expect(report.registered).not.toContain(TOOL);
    expect(report.rejected).toEqual([{ name: TOOL, source: expect.any(String), reasons: [`form #${FORM_ID} is not on this page`] }]);
    expect(await toolNames(page)).toEqual(['capell.write.status']);
    await expect(page.getByRole('status')).toHaveText('Thanks for getting in touch. We will reply soon.');

    // Both writeIds still answer, after their tool was unregistered.
    expect(await status(page, cancelled.writeId)).toEqual({ status: 'cancelled', tool: TOOL, next: NEXT_STEPS.cancelled });
    expect(await status(page, open.writeId)).toEqual({ status: 'aborted', tool: TOOL, reason: formRedrawnReason(FORM_ID), next: NEXT_STEPS.aborted });
    await panel(page).waitClosed();
  });
});
