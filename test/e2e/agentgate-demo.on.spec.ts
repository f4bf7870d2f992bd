/**
 * A browser agent on any demo page finds `send_message`, calls it, and the site verifies the
 * signature with the agent's published key. The demo's own pages, unchanged: every page's script
 * tag names AgentGate (`data-agentgate`), so the first Report of each page already registers the
 * AgentGate tools, with no rejection and no signer in the page; the agent's companion
 * (capell-webmcp/agent, attached to the browser context) signs the calls in its network layer, and
 * the demo site's verifier fetches the key from the demo agent's key set on its own origin.
 */
import { KEY_DIRECTORY_PATH, withDemoAgent } from './agentgate-page.ts';
import { expect, listTools, readyReport, sharedTabTest as test } from './demo-fixture.ts';

/** Home, a product, the contact form (a page with write tools), German, the 404 page and the inbox (no tools island). */
const PAGES = ['/', '/products/ridgeline-trail-runner', '/contact', '/de/kontakt', '/no-such-page', '/contact/messages'];

const answerOf = (result: { content: { text?: string }[] }) => JSON.parse(result.content[0]!.text!) as unknown;

test('every demo page registers send_message and message_status in its first Report, with no rejection', async ({ page, demo }) => {
  for (const path of PAGES) {
    const response = await page.goto(`${demo.url}${path}`);
    expect(response?.status(), path).toBe(path === '/no-such-page' ? 404 : 200);
    const report = await readyReport(page);
    expect(report.rejected, path).toEqual([]);
    expect(report.registered, path).toEqual(expect.arrayContaining(['send_message', 'message_status']));
    expect((await listTools(page)).map((tool) => tool.name), path).toEqual(expect.arrayContaining(['send_message', 'message_status']));
  }
});

test('an agent on the 404 page, the contact page and home calls send_message and message_status; the site verifies each with the demo agent\'s published key', async ({ page, demo }) => {
  const logBefore = demo.agentGateLog.length;
  const ids: string[] = [];
  await withDemoAgent(page, demo, async (agent) => {
    for (const path of ['/no-such-page', '/contact', '/']) {
      await page.goto(`${demo.url}${path}`);
      await readyReport(page);
      const id = `demo-page-${Date.now()}-${ids.length}`;
      ids.push(id);
      const sent = await agent.callTool(page, 'send_message', { id, message: `Hello from ${path}` });
      expect(sent.isError, path).toBeUndefined();
      expect(answerOf(sent), path).toMatchObject({ status: 'accepted' });
    }
    const again = await agent.callTool(page, 'send_message', { id: ids[0]!, message: 'Hello from /no-such-page' });
    expect(answerOf(again)).toMatchObject({ status: 'already_accepted' });
    const status = await agent.callTool(page, 'message_status', { id: ids[1]! });
    expect(answerOf(status)).toEqual({ status: 'accepted' });
  });

  const calls = demo.agentGateLog.slice(logBefore);
  const signed = { outcome: 'verified', status: 200 };
  expect(calls).toEqual([
    ...ids.map(() => expect.objectContaining({ path: '/agent/submit', tool: 'send_message', ...signed })),
    expect.objectContaining({ path: '/agent/submit', tool: 'send_message', ...signed }),
    expect.objectContaining({ path: '/agent/message-status', outcome: 'verified', status: 200, keyid: 'demo-shared-key-1' }),
  ]);
  // The key the site verified with is the one the demo agent publishes.
  const directory = await (await fetch(`${demo.agentUrl}${KEY_DIRECTORY_PATH}`)).json() as { keys: { kid: string }[] };
  expect(calls[0]!.keyid).toBe(directory.keys[0]!.kid);
});
