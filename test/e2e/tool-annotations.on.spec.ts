/**
 * What agent clients are shown of each demo tool, read back from Chromium's own list
 * (`document.modelContext.getTools()`): the title where the declaration has one, and the WebMCP
 * hints. Chromium keeps `readOnlyHint`, `consequentialHint` and `untrustedContentHint` (and
 * `debugging`), filling the unset ones with false; it drops MCP-only hints such as
 * `destructiveHint`, which the runtime therefore does not send. A form or endpoint write is
 * consequential (the person confirms it); a priced AgentGate tool (its manifest has `payment`) is
 * consequential even when it is read-only.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

interface Shown { title: string; readOnlyHint: boolean; consequentialHint: boolean; untrustedContentHint: boolean }

/** Every tool of the demo's contact page (reads, form and endpoint writes, AgentGate, the runtime's own), as a client sees it. */
const EXPECTED: Record<string, Shown> = {
  'page.get': { title: '', readOnlyHint: true, consequentialHint: false, untrustedContentHint: false },
  'site.pages.query': { title: '', readOnlyHint: true, consequentialHint: false, untrustedContentHint: false },
  'site.taxonomies.browse': { title: '', readOnlyHint: true, consequentialHint: false, untrustedContentHint: false },
  'site.navigation': { title: '', readOnlyHint: true, consequentialHint: false, untrustedContentHint: false },
  'site.search': { title: '', readOnlyHint: true, consequentialHint: false, untrustedContentHint: false },
  'catalogue.lookup': { title: '', readOnlyHint: true, consequentialHint: false, untrustedContentHint: false },
  'form.submit.capell-form-contact': { title: '', readOnlyHint: false, consequentialHint: true, untrustedContentHint: false },
  'newsletter.subscribe': { title: '', readOnlyHint: false, consequentialHint: true, untrustedContentHint: false },
  'capell.write.status': { title: '', readOnlyHint: true, consequentialHint: false, untrustedContentHint: false },
  // The demo's manifest names pay per crawl (`payment`), so each of its tools may be charged for.
  send_message: { title: 'Send a message', readOnlyHint: false, consequentialHint: true, untrustedContentHint: false },
  message_status: { title: 'Check a message', readOnlyHint: true, consequentialHint: true, untrustedContentHint: false },
  request_callback: { title: 'Request a call back', readOnlyHint: false, consequentialHint: true, untrustedContentHint: false },
  stock_report: { title: 'Stock report', readOnlyHint: true, consequentialHint: true, untrustedContentHint: false },
  'agentgate.receipts': { title: '', readOnlyHint: true, consequentialHint: false, untrustedContentHint: false },
  'agentgate.handoff.status': { title: '', readOnlyHint: true, consequentialHint: false, untrustedContentHint: false },
};

/** Chromium's list, once every expected tool is in it (the AgentGate tools follow the manifest). */
async function shownTools(page: Page): Promise<Record<string, Shown & { annotationKeys: string[] }>> {
  await expect.poll(() => page.evaluate(async () => (await (document as unknown as { modelContext: { getTools(): Promise<unknown[]> } }).modelContext.getTools()).length)).toBe(Object.keys(EXPECTED).length);
  return page.evaluate(async () => {
    type Listed = { name: string; title: string; annotations?: Record<string, boolean> };
    const tools = await (document as unknown as { modelContext: { getTools(): Promise<Listed[]> } }).modelContext.getTools();
    return Object.fromEntries(tools.map((tool) => [tool.name, {
      title: tool.title,
      readOnlyHint: tool.annotations?.readOnlyHint ?? false,
      consequentialHint: tool.annotations?.consequentialHint ?? false,
      untrustedContentHint: tool.annotations?.untrustedContentHint ?? false,
      annotationKeys: Object.keys(tool.annotations ?? {}).sort(),
    }]));
  });
}

test.describe('what clients are shown of each demo tool', () => {
  test('getTools() lists each tool of the contact page with its title and WebMCP hints', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
    const shown = await shownTools(page);
    for (const [name, expected] of Object.entries(EXPECTED)) {
      const { annotationKeys, ...tool } = shown[name] ?? ({} as Shown & { annotationKeys: string[] });
      expect(tool, name).toEqual(expected);
      // Only WebMCP's own members: the MCP-only hints never reach the browser's list.
      expect(annotationKeys, name).toEqual(['consequentialHint', 'debugging', 'readOnlyHint', 'untrustedContentHint']);
    }
  });

  test('the platform: Chromium keeps only WebMCP\'s hints of a tool registered with MCP-only ones too, so the runtime sends only those', async ({ page, demo }) => {
    // Should Chromium start keeping destructiveHint & co., this fails, and the runtime should pass them.
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
    const annotations = await page.evaluate(async () => {
      type Context = { registerTool(tool: object, options?: object): Promise<void>; getTools(): Promise<{ name: string; annotations?: object }[]> };
      const context = (document as unknown as { modelContext: Context }).modelContext;
      const controller = new AbortController();
      await context.registerTool({
        name: 'probe.hints', description: 'A probe of the annotations Chromium keeps.', execute: () => 'ok',
        annotations: { readOnlyHint: false, consequentialHint: true, untrustedContentHint: true, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      }, { signal: controller.signal });
      const listed = (await context.getTools()).find((tool) => tool.name === 'probe.hints')?.annotations;
      controller.abort();
      return listed;
    });
    expect(annotations).toEqual({ readOnlyHint: false, consequentialHint: true, untrustedContentHint: true, debugging: false });
  });
});
