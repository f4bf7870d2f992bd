/**
 * The browser tests each MCP-B host (WebMCP hosts seen in the wild besides Chromium's own) gets,
 * run in a page of the `webmcp-off` group where the host's own package has installed
 * `document.modelContext` (the file that calls `describeMCPBHost` imports the package first). A
 * client there calls `executeTool(tool, inputJson)` with a JSON *string* (Chromium takes an object)
 * and gets the result's JSON string back; the testing shim's `executeTool(name, inputJson)`
 * likewise (read from @mcp-b/webmcp-polyfill 5.1.0: parseChromeToolInput,
 * serializeChromeToolResult).
 */
// First: it wraps attachShadow before the runtime's primitives take it (closed-root.ts).
import { rootOf } from './closed-root.ts';
import { expect } from 'chai';
import { answerOf } from '../support/answer-of.ts';
import { start, type Runtime } from '../../src/index.ts';
import { CORE_READ_TOOLS, mountToolsIsland, requestsTo, resetRequestCount, unmountIslands } from './fixtures.ts';

/** A CallToolResult as the host hands it back, parsed. */
export type HostResult = { content: { type: string; text: string }[]; isError?: boolean };

/** What the MCP-B hosts put on `document.modelContext` and `navigator.modelContextTesting`. */
interface MCPBContext {
  getTools(): Promise<{ name: string }[]>;
  executeTool(tool: unknown, inputJson: string, options?: { signal?: AbortSignal }): Promise<string>;
}
interface MCPBTesting {
  listTools(): { name: string }[];
  executeTool(name: string, inputJson: string): Promise<string>;
}

const context = () => (document as Document & { modelContext: MCPBContext }).modelContext;
const testing = () => (navigator as Navigator & { modelContextTesting: MCPBTesting }).modelContextTesting;

/** Calls `name` through `document.modelContext.executeTool(tool, JSON.stringify(input))`. */
export async function hostCall(name: string, input: object): Promise<HostResult> {
  const tool = (await context().getTools()).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`${name} is not in the host's getTools()`);
  return JSON.parse(await context().executeTool(tool, JSON.stringify(input)));
}

/** The names the host holds: `getTools()` and the testing shim's `listTools()`, sorted. */
export async function hostToolNames(): Promise<{ getTools: string[]; listTools: string[] }> {
  return { getTools: (await context().getTools()).map((tool) => tool.name).sort(), listTools: testing().listTools().map((tool) => tool.name).sort() };
}

/** A write bound to the fixture echo endpoint: calling it proposes the request to the person. */
export const WRITE_TOOL = {
  name: 'order.place',
  description: 'Place an order',
  inputSchema: { type: 'object', properties: { sku: { type: 'string', minLength: 2 } }, required: ['sku'], additionalProperties: false },
  effect: 'write',
  binding: { type: 'endpoint', target: '/test-fixtures/echo' },
};

const READ_NAMES = CORE_READ_TOOLS.map((tool) => tool.name);

/**
 * Waits for a panel with its buttons rendered, for as long as the test may run (its timeout then
 * fails it): the first write of a run loads the write room, lit and the panel through the test
 * server's on-the-fly transform, which once took over 7 s beside the other suites.
 */
export async function openPanel(): Promise<Element> {
  for (;;) {
    const panel = document.querySelector('capell-confirm-write');
    if (panel && rootOf(panel)?.querySelector('button.cancel')) return panel;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The common tests for one host, titled `hostName`. Each test starts the runtime over
 * CORE_READ_TOOLS and WRITE_TOOL (writes wait 300 ms for the person); afterEach stops it.
 */
export function describeMCPBHost(hostName: string): void {
  let runtime: Runtime | undefined;
  async function startRuntime(): Promise<Runtime> {
    mountToolsIsland({ capellAgentSchema: 1, tools: [...CORE_READ_TOOLS, WRITE_TOOL] });
    runtime = start({ log: 'silent', writeWaitMs: 300 });
    await runtime.ready;
    return runtime;
  }
  afterEach(() => {
    runtime?.stop();
    runtime = undefined;
    unmountIslands();
    document.querySelectorAll('capell-confirm-write').forEach((panel) => panel.remove());
  });

  describe(`${hostName} as the WebMCP host (no WebMCP flag)`, () => {
    it('is the page\'s document.modelContext, and every declared tool registers there', async () => {
      expect('modelContext' in document).to.equal(true);
      const report = await (await startRuntime()).ready;
      expect(report.api).to.equal('document.modelContext');
      expect(report.rejected).to.deep.equal([]);
      expect(report.registered).to.deep.equal([...READ_NAMES, WRITE_TOOL.name]);
      const held = await hostToolNames();
      expect(held.getTools).to.include.members(report.registered);
      expect(held.listTools).to.deep.equal(held.getTools);
    });

    it('read tools answer through executeTool(tool, inputJson) and the testing shim', async () => {
      await startRuntime();
      const navigation = await hostCall('site.navigation', { page: 2 });
      expect(navigation.isError).to.equal(undefined);
      const page = answerOf(navigation) as { data: unknown[]; links: object };
      expect(page.data.length).to.be.within(1, 50);
      const search = await hostCall('site.search', { q: 'trail' });
      expect(search.isError).to.equal(undefined);
      expect((answerOf(search) as { data: unknown[] }).data.length).to.be.within(1, 10);
      const shim = JSON.parse(String(await testing().executeTool('site.navigation', JSON.stringify({ page: 2 })))) as HostResult;
      expect(answerOf(shim)).to.deep.equal(page);
    });

    it('bad input is isError naming the field, and reaches no endpoint', async () => {
      await startRuntime();
      resetRequestCount();
      expect(await hostCall('site.search', { q: 5 })).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'invalid input for site.search: q: expected string, got integer' }] });
      const extra = await hostCall('site.navigation', { page: 2, sort: 'title' });
      expect(extra.isError).to.equal(true);
      expect(extra.content[0]!.text).to.contain('sort: not an allowed property');
      const shim = JSON.parse(String(await testing().executeTool('order.place', JSON.stringify({})))) as HostResult;
      expect(shim.isError).to.equal(true);
      expect(shim.content[0]!.text).to.contain('sku: required');
      expect(document.querySelector('capell-confirm-write')).to.equal(null);
      expect(requestsTo('/agent/', '/test-fixtures/')).to.deep.equal([]);
    });

    it('a write proposal opens the panel, and the call answers awaiting_person within its wait', async function () {
      // The first panel of a run comes through the test server's transform: seconds on a loaded machine.
      this.timeout(30_000);
      await startRuntime();
      resetRequestCount();
      const began = performance.now();
      // When the answer came, measured apart from how long the panel took to show.
      const call = hostCall('order.place', { sku: 'A1' }).then((result) => ({ result, ms: performance.now() - began }));
      const panel = await openPanel();
      expect(rootOf(panel)!.textContent).to.contain('A1');
      const { result, ms } = await call;
      expect((answerOf(result) as { status: string }).status).to.equal('awaiting_person');
      expect(ms).to.be.below(5000);
      expect(requestsTo('/test-fixtures/')).to.deep.equal([]);
    });

    it('stop() unregisters every tool: the host\'s own lists are empty again', async () => {
      const before = await hostToolNames();
      const running = await startRuntime();
      expect((await hostToolNames()).getTools.length).to.be.above(before.getTools.length);
      running.stop();
      runtime = undefined;
      // The hosts drop a tool when its registration's signal aborts (synchronously in the
      // polyfill; @mcp-b/global forwards the abort to its mirror in the polyfill).
      expect(await hostToolNames()).to.deep.equal(before);
      expect(before).to.deep.equal({ getTools: [], listTools: [] });
    });
  });
}
