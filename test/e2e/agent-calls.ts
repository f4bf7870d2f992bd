/**
 * What the write specs share: the agent's proposal for the demo contact form, a tool call started
 * in the page the way an agent makes it (through document.modelContext) and awaited later, while
 * the person decides, and the contact form's values as the page holds them.
 */
import type { Page } from '@playwright/test';

/** A CallToolResult as the page's executeTool hands it back, parsed. */
export type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };

/** What the agent proposes for the demo's contact form (form.submit.capell-form-contact). */
export const PROPOSAL = { name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair', message: 'My boot sole came off.', newsletter: true };

/** Starts a tool call in the page without waiting for it (the person decides later). */
export async function startCall(page: Page, name: string, input: object): Promise<void> {
  await page.evaluate(({ name, input }) => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    (window as unknown as { pendingCall: Promise<unknown> }).pendingCall = context.getTools()
      .then((tools) => context.executeTool(tools.find((tool) => tool.name === name), input))
      .then((text) => JSON.parse(text));
  }, { name, input });
}

/** Waits for the call started by startCall. */
export function callResult(page: Page): Promise<ToolResult> {
  return page.evaluate(() => (window as unknown as { pendingCall: Promise<ToolResult> }).pendingCall);
}

/** Runs a call to the end (for calls refused before any panel opens). */
export async function call(page: Page, name: string, input: object): Promise<ToolResult> {
  await startCall(page, name, input);
  return callResult(page);
}

/** The demo contact form's values (`newsletter` is the checkbox's checked state). */
export function fieldValues(page: Page): Promise<Record<string, string | boolean>> {
  return page.evaluate(() => {
    const form = document.getElementById('capell-form-contact') as HTMLFormElement;
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
    return {
      name: value('name'), email: value('email'), topic: value('topic'), message: value('message'),
      newsletter: (form.elements.namedItem('newsletter') as HTMLInputElement).checked, website: value('website'),
    };
  });
}
