/**
 * A failed call reaches every client with its one-line reason, as an `isError` CallToolResult,
 * however the call came in (src/registry/result.ts, `errorResult`). Chromium 156's DevTools
 * `WebMCP` domain (what Puppeteer and chrome-devtools-mcp read) reports it `Completed` with the
 * result as its output; the page's `executeTool`, called from the page's own script or from a
 * world of the client's own (Playwright's `page.webmcp`, Playwright MCP 0.0.86), hands it back
 * whole. A rejection would reach the latter as a bare `UnknownError`, so no call rejects.
 * Failures tried: a bad input (the field named), an unknown writeId, and a 404 from the site.
 */
import type { CDPSession, Page } from '@playwright/test';
import { call } from './agent-calls.ts';
import { expect, readyReport, otherTabTest } from './demo-fixture.ts';

// Chromium with its WebMCP feature: a browser the worker launches beside the project's.
const test = otherTabTest('webmcpFeature');

// One worker for the file: it launches that browser once, not once per worker.
test.describe.configure({ mode: 'default' });

/** What the DevTools `WebMCP.toolResponded` event says of one invocation. */
interface Responded { status: string; output?: { content: { text: string }[]; isError?: boolean }; errorText?: string; exception?: { description?: string } }

/** Invokes a tool as the browser does for an agent (DevTools `WebMCP.invokeTool`) and waits for its response. */
async function invoke(cdp: CDPSession, page: Page, toolName: string, input: object): Promise<Responded> {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const responded = new Promise<Responded>((resolve) => {
    cdp.on('WebMCP.toolResponded' as never, ((event: Responded & { invocationId: string }) => resolve(event)) as never);
  });
  await cdp.send('WebMCP.invokeTool' as never, { frameId: frameTree.frame.id, toolName, input } as never);
  return responded;
}

/** The failures tried, each with what its reason must name. */
const FAILURES = [
  { what: 'a bad input', tool: 'site.search', input: { q: 5 }, names: /\bq\b/ },
  { what: 'an unknown writeId', tool: 'capell.write.status', input: { writeId: 'w-never-issued' }, names: /writeId|w-never-issued/ },
  { what: 'a 404 from the site', tool: 'catalogue.lookup', input: { sku: 'CW-9999' }, names: /404|CW-9999/ },
] as const;

test.describe('a failed call is a failure in every client, with its reason', () => {
  let cdp: CDPSession;

  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
    // The runtime's capell.write.status is not a declaration: it is in WebMCP's list, not the Report's.
    await page.waitForFunction(async (names) => {
      const tools = await (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]> } }).modelContext.getTools();
      return names.every((name) => tools.some((tool) => tool.name === name));
    }, FAILURES.map((failure) => failure.tool));
    cdp = await page.context().newCDPSession(page);
    await cdp.send('WebMCP.enable' as never);
  });

  test.afterEach(async () => {
    await cdp?.detach().catch(() => {});
  });

  for (const failure of FAILURES) {
    test(`${failure.what}: the browser's invocation ends Completed with an isError output whose one line is the reason`, async ({ page }) => {
      const seen = await invoke(cdp, page, failure.tool, failure.input);
      expect(seen.status, JSON.stringify(seen)).toBe('Completed');
      expect(seen.exception).toBeUndefined();
      expect(seen.output?.isError).toBe(true);
      const reason = seen.output?.content[0]?.text ?? '';
      expect(reason).toMatch(failure.names);
      // One line: the runtime's chunk URLs (a stack) are not what an agent should read.
      expect(reason).not.toContain('\n');
    });

    test(`${failure.what}: the page's own executeTool answers the same isError result`, async ({ page }) => {
      const result = await call(page, failure.tool, failure.input);
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(failure.names);
      const viaBrowser = await invoke(cdp, page, failure.tool, failure.input);
      expect(viaBrowser.output).toEqual(result);
    });
  }

  test('a successful call is unchanged: Completed, its answer the only text item', async ({ page }) => {
    const seen = await invoke(cdp, page, 'site.search', { q: 'boot' });
    expect(seen.status).toBe('Completed');
    expect(seen.output?.isError).toBeUndefined();
    expect(JSON.parse(seen.output!.content[0]!.text)).toHaveProperty('data');
  });

  test('Playwright page.webmcp, which calls executeTool from a world of its own, gets the isError result with the reason', async ({ page }) => {
    // A rejection would reach it as a bare UnknownError, the reason only on the page's console.
    const result = await page.webmcp.callTool('site.search', { q: 5 }) as { content: { text: string }[]; isError?: boolean };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^invalid input for site\.search: q: /);
  });
});
