/**
 * MCP-B hosts (WebMCP hosts seen in the wild besides Chromium's own), end to end: the demo pages
 * and the built bundle in Chromium without the WebMCP flag, with `@mcp-b/webmcp-polyfill` or
 * `@mcp-b/global` installed as the page's WebMCP host by a `<script src>` before the runtime's
 * (mcp-b-hosts.ts). The demo's tools register there, answer through the host's own call paths
 * (`executeTool(tool, inputJson)` with a JSON string, the testing shim's `executeTool(name,
 * inputJson)`, and for `@mcp-b/global` an MCP client's `tools/call` over its tab transport), refuse
 * bad input naming the field, a write proposal opens the panel, and `stop()` leaves the host's own
 * tool lists empty.
 */
import { answerOf } from '../support/answer-of.ts';
import { PROPOSAL } from './agent-calls.ts';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { hostCall, hostToolNames, installHost, mcpRequest, MCP_B_HOSTS, testingShimCall, type HostResult } from './mcp-b-hosts.ts';
import { panel } from './panel-driver.ts';

const PRODUCT = '/products/ridgeline-trail-runner';

/** The runtime's own tools (runtime-tools.ts) the demo's AgentGate theme brings: registered by the runtime, not declared. */
const RUNTIME_TOOLS = ['agentgate.handoff.status', 'agentgate.receipts'];

for (const host of MCP_B_HOSTS) {
  test.describe(host.name, () => {
    test.beforeEach(async ({ page, demo }) => {
      // Writes wait for the person longer than a test runs: a call still open when stop() comes.
      await installHost(page, demo.url, host, 'data-write-wait-ms="60000"');
    });

    test('the demo\'s tools register with the host, and the host lists exactly them', async ({ page, demo }) => {
      const console: string[] = [];
      page.on('console', (message) => { if (message.type() === 'error' || message.type() === 'warning') console.push(`${message.type()}: ${message.text()}`); });
      page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`));
      await page.goto(`${demo.url}${PRODUCT}`);
      const report = await readyReport(page);
      expect(report.api).toBe('document.modelContext');
      expect(report.rejected).toEqual([]);
      expect(report.registered).toEqual(expect.arrayContaining(['page.get', 'site.pages.query', 'site.taxonomies.browse', 'site.navigation', 'site.search', 'catalogue.lookup', 'send_message', 'message_status']));
      // The runtime's own tools may still be registering just after ready.
      await expect.poll(async () => (await hostToolNames(page)).getTools).toEqual([...report.registered, ...RUNTIME_TOOLS].sort());
      const held = await hostToolNames(page);
      expect(held.listTools).toEqual(held.getTools);
      expect(console).toEqual([]);
    });

    test('read tools answer through executeTool(tool, inputJson) and the testing shim, as the site\'s API does', async ({ page, demo }) => {
      await page.goto(`${demo.url}${PRODUCT}`);
      await readyReport(page);
      const navigation = await hostCall(page, 'site.navigation', { page: 2 }) as HostResult;
      expect(navigation.isError).toBeUndefined();
      expect(answerOf(navigation)).toEqual(await demo.api('/agent/v1/navigation?page=2'));
      demo.requests.length = 0;
      const search = await hostCall(page, 'site.search', { q: 'trail' }) as HostResult;
      expect(search.isError).toBeUndefined();
      expect(demo.requests).toHaveLength(1);
      expect(answerOf(search)).toEqual(await demo.api(`/agent/v1/search?${demo.requests[0]!.query.replace(/^\?/, '')}`));
      expect((answerOf(search) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      const shim = await testingShimCall(page, 'site.navigation', { page: 2 });
      expect(answerOf(shim)).toEqual(answerOf(navigation));
    });

    test('bad input is isError naming the field, and reaches no endpoint', async ({ page, demo }) => {
      await page.goto(`${demo.url}${PRODUCT}`);
      await readyReport(page);
      demo.requests.length = 0;
      const wrongType = await hostCall(page, 'site.search', { q: 5 });
      expect(wrongType).toEqual({ isError: true, content: [{ type: 'text', text: 'invalid input for site.search: q: expected string, got integer' }] });
      const tooMany = await hostCall(page, 'site.navigation', { page: 1001 }) as HostResult;
      expect(tooMany.isError).toBe(true);
      expect(tooMany.content[0]!.text).toMatch(/^invalid input for site\.navigation: page: /);
      const shimMissing = await testingShimCall(page, 'site.search', {});
      expect(shimMissing.isError).toBe(true);
      expect(shimMissing.content[0]!.text).toContain('q: required');
      expect(demo.requests).toEqual([]);
    });

    test('a write proposal opens the panel; stop() unregisters every tool from the host and ends the call', async ({ page, demo }) => {
      // The worker's demo server is shared: other specs' messages may be there already.
      const delivered = demo.submissions.length;
      await page.goto(`${demo.url}/contact/plain`);
      const report = await readyReport(page);
      expect(report.registered).toEqual(expect.arrayContaining(['form.submit.capell-form-contact', 'newsletter.subscribe']));
      await page.evaluate(({ input }) => {
        type Context = { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, inputJson: string): Promise<string> };
        const context = (document as unknown as { modelContext: Context }).modelContext;
        (window as unknown as { pendingCall: Promise<unknown> }).pendingCall = context.getTools()
          .then((tools) => context.executeTool(tools.find((tool) => tool.name === 'form.submit.capell-form-contact'), JSON.stringify(input)))
          .then((text) => JSON.parse(text), (error: Error) => ({ rejected: error.name, message: error.message }));
      }, { input: PROPOSAL });
      const shown = await panel(page).waitOpen();
      expect(shown.text).toContain(PROPOSAL.email);
      expect((await hostToolNames(page)).getTools).toContain('form.submit.capell-form-contact');

      await page.evaluate(() => window.capellWebMCP!.stop());
      expect(await hostToolNames(page)).toEqual({ getTools: [], listTools: [] });
      // Both hosts end a call whose registration's signal is aborted with UnknownError "Tool unregistered".
      expect(await page.evaluate(() => (window as unknown as { pendingCall: Promise<unknown> }).pendingCall)).toEqual({ rejected: 'UnknownError', message: 'Tool unregistered' });
      await panel(page).waitClosed();
      expect(demo.submissions.slice(delivered)).toEqual([]);
    });

    if (host.name !== '@mcp-b/global') return;

    test('an MCP client over the tab transport lists the tools, calls them, is refused bad input by field, and sees none after stop()', async ({ page, demo }) => {
      const delivered = demo.submissions.length;
      await page.goto(`${demo.url}/contact/plain`);
      const report = await readyReport(page);
      const mcpNames = async () => ((await mcpRequest(page, 'tools/list')).result?.tools as { name: string }[]).map((tool) => tool.name).sort();
      // The runtime's own tools (capell.write.status here) may still be registering after ready.
      await expect.poll(async () => (await mcpNames()).join() === (await hostToolNames(page)).getTools.join()).toBe(true);
      expect(await mcpNames()).toEqual(expect.arrayContaining([...report.registered, 'capell.write.status']));

      const navigation = await mcpRequest(page, 'tools/call', { name: 'site.navigation', arguments: { page: 2 } });
      expect(navigation.result?.isError).toBeUndefined();
      expect(answerOf(navigation.result as HostResult)).toEqual(await demo.api('/agent/v1/navigation?page=2'));
      // The MCP server checks arguments against the registered inputSchema before the tool runs
      // (its own message, naming the field); the runtime's own check answers what passes that.
      demo.requests.length = 0;
      const wrongType = (await mcpRequest(page, 'tools/call', { name: 'site.navigation', arguments: { page: 'three' } })).result as HostResult;
      expect(wrongType.isError).toBe(true);
      expect(wrongType.content[0]!.text).toMatch(/page/);
      const missing = (await mcpRequest(page, 'tools/call', { name: 'site.search', arguments: {} })).result as HostResult;
      expect(missing.isError).toBe(true);
      expect(missing.content[0]!.text).toMatch(/"q"/);
      expect(demo.requests).toEqual([]);

      // A write proposal from the MCP client opens the panel as one through executeTool does.
      const write = mcpRequest(page, 'tools/call', { name: 'form.submit.capell-form-contact', arguments: PROPOSAL }, 25_000);
      expect((await panel(page).waitOpen()).text).toContain(PROPOSAL.email);
      await page.evaluate(() => window.capellWebMCP!.stop());
      expect((await mcpRequest(page, 'tools/list')).result?.tools).toEqual([]);
      expect(await hostToolNames(page)).toEqual({ getTools: [], listTools: [] });
      // The MCP server turns the host's "Tool unregistered" into an error result for the client.
      expect((await write).result).toEqual({ isError: true, content: [{ type: 'text', text: 'Tool unregistered' }] });
      await panel(page).waitClosed();
      expect(demo.submissions.slice(delivered)).toEqual([]);
    });
  });
}
