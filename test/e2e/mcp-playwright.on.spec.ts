/**
 * Playwright MCP (@playwright/mcp 0.0.83) as the agent's MCP server, driven over stdio by
 * test/clients/mcp/playwright-mcp.js (see mcp-clients.ts). Two runs, each shared by the tests
 * that read it: `tools`, where the server launches Chromium from its config file (listing, reads,
 * bad input); `agent`, where the server connects to the agent's own Chromium over CDP, beside the
 * agent companion in `'origins'` mode and a person who presses Send (the write, the AgentGate call).
 * Playwright MCP calls page tools through the page's `document.modelContext.executeTool` (0.0.86
 * from a world of its own, which the page does not see), so a failed call reaches it as the
 * `isError` result, which it answers as an MCP error. The newest version the folder holds
 * (`playwright-mcp-newest`) runs the `bad` scenario alone: a rejection reached it as a bare
 * `UnknownError`, so every version is held to the reason.
 */
import { expect, test } from './demo-fixture.ts';
import { answerOf, notInstalled, runMcpClient, SERVER_OVERHEAD_MS, sharedRuns, webmcpName, WRITE_WAIT_MS, type CallResult, type AgentRun } from './mcp-clients.ts';

/** What the script observed of one `webmcp_*` call. */
interface Seen { ms: number; isError: boolean; text: string; page: CallResult | null }

interface Runs extends Record<string, unknown> {
  tools: {
    navigate: { ms: number; isError: boolean; text: string };
    listed: { name: string; description: string; inputSchema: unknown; annotations: Record<string, unknown> | null }[];
    report: { api: string; registered: string[] };
    reads: { search: Seen; lookup: Seen };
    bad: { navigationPage: Seen; subscribeEmail: Seen };
  };
  agent: AgentRun<Seen>;
}

/** What the `bad` scenario observed: the server's version and three failed calls. */
interface BadRun { version: string; bad: { navigationPage: Seen; subscribeEmail: Seen; unknownWrite: Seen } }

const runOnce = sharedRuns<Runs>('playwright-mcp.js');

// The tests share a run per scenario: one worker for the file, in order.
test.describe.configure({ mode: 'default' });

test.describe('Playwright MCP as the agent client', () => {
  // Spawning Node 22, an MCP server and a Chromium: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000);

  test.beforeEach(() => {
    // Not a skip: without the folder's install this client is not tested, and that must show.
    expect(notInstalled()).toBeUndefined();
  });

  test('right after browser_navigate the MCP tool list holds every registered tool as webmcp_<name>, with no other call between', async ({ demo }) => {
    const { run } = await runOnce('tools', demo);
    expect(run.navigate.isError).toBe(false);
    expect(run.report.api).toBe('document.modelContext');
    const listed = new Map(run.listed.map((tool) => [tool.name, tool]));
    for (const name of [...run.report.registered, 'capell.write.status']) expect(listed.has(webmcpName(name)), webmcpName(name)).toBe(true);
    expect(listed.get('webmcp_site_search')).toMatchObject({
      inputSchema: { required: ['q'], additionalProperties: false },
      annotations: { readOnlyHint: true },
    });
    expect(listed.get('webmcp_capell_write_status')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  test('a read answers with the page\'s JSON as an MCP result that is not an error', async ({ demo }) => {
    const { run } = await runOnce('tools', demo);
    const { search, lookup } = run.reads;
    expect(search.isError, search.text).toBe(false);
    expect(search.page?.isError).toBeUndefined();
    const found = answerOf(search.page) as { capellAgentSchema: number; data: { url: string }[]; links: object };
    expect(found).toMatchObject({ capellAgentSchema: 1, links: expect.any(Object) });
    expect(found.data.length).toBeGreaterThan(0);
    expect(found.data.length).toBeLessThanOrEqual(10);
    expect(lookup.isError, lookup.text).toBe(false);
    expect(answerOf(lookup.page)).toMatchObject({ '@context': 'https://schema.org', '@graph': [expect.objectContaining({ '@type': 'WebPage', name: 'Contact', url: `${demo.url}/contact` })] });
  });

  test('bad input answers an MCP error whose text names the field', async ({ demo }) => {
    const { run } = await runOnce('tools', demo);
    for (const [seen, reason] of [
      [run.bad.navigationPage, /^invalid input for site\.navigation: page: [^\n]+$/],
      [run.bad.subscribeEmail, /^invalid input for newsletter\.subscribe: email: [^\n]+$/],
    ] as const) {
      expect(seen.isError, seen.text).toBe(true);
      expect(seen.page?.isError).toBe(true);
      expect(seen.page?.content[0]?.text).toMatch(reason);
    }
  });

  test('a write answers awaiting_person with a writeId within its wait; capell.write.status answers for that writeId, and submitted once the person pressed Send', async ({ demo }) => {
    const { run, site } = await runOnce('agent', demo);
    expect(run.write.isError, run.write.text).toBe(false);
    expect(run.write.ms).toBeLessThan(WRITE_WAIT_MS + SERVER_OVERHEAD_MS);
    const first = answerOf(run.write.page);
    expect(first).toMatchObject({ status: 'awaiting_person', writeId: expect.any(String), expiresAt: expect.any(String), next: expect.stringContaining('capell.write.status') });
    expect(run.writeId).toBe(first.writeId);
    expect(run.statusWhileAwaiting?.isError, run.statusWhileAwaiting?.text).toBe(false);
    expect(answerOf(run.statusWhileAwaiting?.page)).toMatchObject({ status: 'awaiting_person', tool: 'newsletter.subscribe', writeId: first.writeId });
    expect(run.statusAfterSend?.isError, run.statusAfterSend?.text).toBe(false);
    expect(answerOf(run.statusAfterSend?.page), `the person's clicks: ${JSON.stringify(run.person)}`).toMatchObject({ status: 'submitted', tool: 'newsletter.subscribe', httpStatus: 200 });
    expect(site.subscriptions).toEqual([run.write.email]);
  });

  test('an AgentGate call is signed by the agent companion attached over CDP in origins mode, verified by the site, and its receipt verified by the agent', async ({ demo }) => {
    const { run, site } = await runOnce('agent', demo);
    expect(run.agentGate.isError, run.agentGate.text).toBe(false);
    expect(answerOf(run.agentGate.page)).toEqual({ status: 'accepted' });
    expect(run.signed).toEqual([{ url: `${demo.url}/agent/submit`, tool: 'send_message' }]);
    const directory = await (await fetch(demo.agentKeysUrl)).json() as { keys: { kid: string }[] };
    expect(site.agentGate).toEqual([
      expect.objectContaining({ path: '/agent/submit', tool: 'send_message', outcome: 'verified', status: 200, keyid: directory.keys[0]!.kid, agent: demo.agentKeysUrl }),
    ]);
    expect(run.receipts).toEqual([expect.objectContaining({ tool: 'send_message', verified: true, status: 200 })]);
  });
});

test.describe('the newest Playwright MCP as the agent client', () => {
  test.setTimeout(90_000);

  test('bad input and an unknown writeId answer an MCP error whose text is the page\'s one-line reason', async ({ demo }) => {
    expect(notInstalled()).toBeUndefined();
    const { run } = await runMcpClient<BadRun>('playwright-mcp.js', 'bad', demo, { PLAYWRIGHT_MCP: 'newest' });
    for (const [seen, reason] of [
      [run.bad.navigationPage, /^invalid input for site\.navigation: page: [^\n]+$/],
      [run.bad.subscribeEmail, /^invalid input for newsletter\.subscribe: email: [^\n]+$/],
      [run.bad.unknownWrite, /w-never-issued|writeId/],
    ] as const) {
      expect(seen.isError, `${run.version}: ${seen.text}`).toBe(true);
      expect(seen.text, run.version).not.toContain('UnknownError');
      expect(seen.page?.isError, `${run.version}: ${seen.text}`).toBe(true);
      expect(seen.page?.content[0]?.text).toMatch(reason);
    }
  });
});
