/**
 * chrome-devtools-mcp 1.11 as the agent's MCP server (`--categoryExperimentalWebmcp`:
 * `list_webmcp_tools`, `execute_webmcp_tool`), driven over stdio by
 * test/clients/mcp/chrome-devtools-mcp.js (see mcp-clients.ts). Two runs, each shared by the
 * tests that read it: `tools`, where the server launches Chromium itself (listing, reads, bad
 * input); `agent`, where the server connects to the agent's own Chromium (`--wsEndpoint`),
 * beside the agent companion in `'origins'` mode and a person who presses Send (the write, the
 * AgentGate call). chrome-devtools-mcp reads the DevTools WebMCP domain and answers
 * `{ status, output, error }` as text, so a failed call reaches it as `status: "Completed"` with
 * the runtime's isError result, the reason its text, as `output` (docs/agent-clients.md).
 */
import { expect, test } from './demo-fixture.ts';
import { answerOf, notInstalled, SERVER_OVERHEAD_MS, sharedRuns, WRITE_WAIT_MS, type CallResult, type AgentRun } from './mcp-clients.ts';

/** What the script observed of one `execute_webmcp_tool` call: the answer's text, parsed. */
interface Seen { ms: number; isError: boolean; text: string; answer: { status: string; output?: CallResult; error?: string } | null }

interface Runs extends Record<string, unknown> {
  tools: {
    navigate: { ms: number; isError: boolean; tools: string[] };
    listed: { ms: number; isError: boolean; tools: string[]; text: string };
    report: { api: string; registered: string[] };
    reads: { search: Seen; lookup: Seen };
    bad: { navigationPage: Seen; subscribeEmail: Seen };
  };
  agent: AgentRun<Seen>;
}

const runOnce = sharedRuns<Runs>('chrome-devtools-mcp.js');

/** Expects a completed call and returns the page's result. */
function completed(seen: Seen | null | undefined): CallResult | undefined {
  expect(seen?.answer?.status, seen?.text).toBe('Completed');
  expect(seen?.answer?.output?.isError).toBeUndefined();
  return seen?.answer?.output;
}

// The tests share a run per scenario: one worker for the file, in order.
test.describe.configure({ mode: 'default' });

test.describe('chrome-devtools-mcp as the agent client', () => {
  // Spawning Node 22, an MCP server and a Chromium: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000);

  test.beforeEach(() => {
    // Not a skip: without the folder's install this client is not tested, and that must show.
    expect(notInstalled()).toBeUndefined();
  });

  test('right after navigate_page its answer and list_webmcp_tools name every registered tool', async ({ demo }) => {
    const { run } = await runOnce('tools', demo);
    expect(run.navigate.isError).toBe(false);
    expect(run.listed.isError, run.listed.text).toBe(false);
    expect(run.report.api).toBe('document.modelContext');
    const expected = [...run.report.registered, 'capell.write.status'];
    expect(run.navigate.tools).toEqual(expect.arrayContaining(expected));
    expect(run.listed.tools).toEqual(expect.arrayContaining(expected));
  });

  test('a read answers Completed with the page\'s JSON as its output', async ({ demo }) => {
    const { run } = await runOnce('tools', demo);
    const found = answerOf(completed(run.reads.search)) as { capellAgentSchema: number; data: { url: string }[]; links: object };
    expect(found).toMatchObject({ capellAgentSchema: 1, links: expect.any(Object) });
    expect(found.data.length).toBeGreaterThan(0);
    expect(found.data.length).toBeLessThanOrEqual(10);
    expect(answerOf(completed(run.reads.lookup))).toMatchObject({ '@context': 'https://schema.org', '@graph': [expect.objectContaining({ '@type': 'WebPage', name: 'Contact', url: `${demo.url}/contact` })] });
  });

  test('bad input answers Completed with an isError output whose one-line text names the field', async ({ demo }) => {
    const { run } = await runOnce('tools', demo);
    for (const [seen, reason] of [
      [run.bad.navigationPage, /^invalid input for site\.navigation: page: [^\n]+$/],
      [run.bad.subscribeEmail, /^invalid input for newsletter\.subscribe: email: [^\n]+$/],
    ] as const) {
      expect(seen.answer?.status, seen.text).toBe('Completed');
      expect(seen.answer?.error).toBeUndefined();
      expect(seen.answer?.output?.isError, seen.text).toBe(true);
      expect(seen.answer?.output?.content[0]?.text).toMatch(reason);
    }
  });

  test('a write answers awaiting_person with a writeId within its wait; capell.write.status answers for that writeId, and submitted once the person pressed Send', async ({ demo }) => {
    const { run, site } = await runOnce('agent', demo);
    expect(run.write.ms).toBeLessThan(WRITE_WAIT_MS + SERVER_OVERHEAD_MS);
    const first = answerOf(completed(run.write));
    expect(first).toMatchObject({ status: 'awaiting_person', writeId: expect.any(String), expiresAt: expect.any(String), next: expect.stringContaining('capell.write.status') });
    expect(run.writeId).toBe(first.writeId);
    expect(answerOf(completed(run.statusWhileAwaiting))).toMatchObject({ status: 'awaiting_person', tool: 'newsletter.subscribe', writeId: first.writeId });
    expect(answerOf(completed(run.statusAfterSend)), `the person's clicks: ${JSON.stringify(run.person)}`).toMatchObject({ status: 'submitted', tool: 'newsletter.subscribe', httpStatus: 200 });
    expect(site.subscriptions).toEqual([run.write.email]);
  });

  test('an AgentGate call is signed by the agent companion attached over CDP in origins mode, verified by the site, and its receipt verified by the agent', async ({ demo }) => {
    const { run, site } = await runOnce('agent', demo);
    expect(answerOf(completed(run.agentGate))).toEqual({ status: 'accepted' });
    expect(run.signed).toEqual([{ url: `${demo.url}/agent/submit`, tool: 'send_message' }]);
    const directory = await (await fetch(demo.agentKeysUrl)).json() as { keys: { kid: string }[] };
    expect(site.agentGate).toEqual([
      expect.objectContaining({ path: '/agent/submit', tool: 'send_message', outcome: 'verified', status: 200, keyid: directory.keys[0]!.kid, agent: demo.agentKeysUrl }),
    ]);
    expect(run.receipts).toEqual([expect.objectContaining({ tool: 'send_message', verified: true, status: 200 })]);
  });
});
