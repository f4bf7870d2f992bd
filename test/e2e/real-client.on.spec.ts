/**
 * A real agent client, not our own page script: Playwright's `page.webmcp` (Playwright 1.65,
 * Chromium launched with `--enable-features=WebMCPTesting,WebMCP`) lists and calls the demo's tools
 * the way an MCP bridge does, with a client-side timeout like an MCP client's. Real agent clients
 * got stuck on write tools that waited for the person; with the default `data-write-wait-ms`
 * (10 000 ms) a write call answers well inside a 20 s client timeout, and the agent learns the
 * person's later decision from `capell.write.status`.
 */
import { expect, readyReport, otherTabTest } from './demo-fixture.ts';
import { PanelDriver } from './panel-driver.ts';

// Chromium with its WebMCP feature: a browser the worker launches beside the project's.
const test = otherTabTest('webmcpFeature');

/** The shortest tool-call timeout among common MCP clients (20–60 s), in ms. */
const CLIENT_TIMEOUT_MS = 20_000;

// One worker for the file: it launches that browser once, not once per worker.
test.describe.configure({ mode: 'default' });

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

function answer(result: unknown): Record<string, unknown> {
  return JSON.parse((result as TextResult).content[0]!.text) as Record<string, unknown>;
}

test.describe('Playwright page.webmcp as the agent client', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
  });

  test('lists the declared tools and the runtime\'s read-only capell.write.status with their annotations, a priced tool consequential', async ({ page }) => {
    const tools = await page.webmcp.tools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('capell.write.status')?.annotations?.readOnly).toBe(true);
    expect(byName.get('site.search')?.annotations?.readOnly).toBe(true);
    expect(byName.get('newsletter.subscribe')?.annotations?.consequential).toBe(true);
    expect(byName.get('form.submit.capell-form-contact')?.annotations?.consequential).toBe(true);
    // A priced AgentGate tool (the demo's manifest has payment) is consequential though read-only.
    expect(byName.get('stock_report')?.annotations).toEqual({ readOnly: true, consequential: true });
  });

  test('a write call answers awaiting_person inside a 20 s client timeout; the person\'s later Send reaches the agent through capell.write.status', async ({ page, demo }) => {
    // The page runs on Playwright's fake clock (running as real time does until it is paused).
    await page.clock.install();
    await page.reload();
    await readyReport(page);
    demo.subscriptions.length = 0;
    const started = Date.now();
    const pageStarted = await page.evaluate(() => Date.now());
    const call = page.webmcp.callTool('newsletter.subscribe', { email: 'ada@example.test' }, { timeout: CLIENT_TIMEOUT_MS });
    const panel = new PanelDriver(page);
    await panel.waitOpen();
    // The page's clock jumps to just short of the client's timeout and stops there: the runtime's
    // default wait (data-write-wait-ms) must have answered by then, or the call runs into the
    // client's own timeout.
    await page.clock.pauseAt(pageStarted + CLIENT_TIMEOUT_MS - 1);
    const first = answer(await call);
    await page.clock.resume();
    expect(Date.now() - started).toBeLessThan(CLIENT_TIMEOUT_MS);
    expect(first).toMatchObject({ status: 'awaiting_person', writeId: expect.any(String), expiresAt: expect.any(String), next: expect.stringContaining('capell.write.status') });
    expect(demo.subscriptions).toEqual([]);

    // The proposal is still on screen for the person, who sends it after the agent's call ended.
    await panel.click('Send');
    const outcome = answer(await page.webmcp.callTool('capell.write.status', { writeId: first.writeId, waitMs: 5_000 }, { timeout: CLIENT_TIMEOUT_MS }));
    expect(outcome).toMatchObject({ tool: 'newsletter.subscribe', status: 'submitted', httpStatus: 200 });
    expect(demo.subscriptions).toEqual(['ada@example.test']);
  });

  test('a read answer reaches the client once, as the text of its only content item', async ({ page }) => {
    const result = await page.webmcp.callTool('site.search', { q: 'trail' }, { timeout: CLIENT_TIMEOUT_MS }) as TextResult & Record<string, unknown>;
    expect(Object.keys(result).sort()).toEqual(['content']);
    expect(result.content).toHaveLength(1);
    expect(answer(result)).toMatchObject({ capellAgentSchema: 1, links: expect.any(Object) });
  });
});
