/**
 * AgentGate's agent-native answers end to end, WebMCP on: the built runtime on a page that names
 * AgentGate, the demo agent's companion (capell-webmcp/agent) attached to the browser context, and
 * each mechanism through the page's tools with real calls the demo site verifies: handoff
 * (request_callback, polled at the manifest's handoff.poll, each poll signed by the agent's
 * layer), payment (stock_report, pay per crawl) within the agent's own cap and never above it
 * whatever the page says, and the one retry after a network failure (only for an idempotent tool).
 */
import type { Page } from '@playwright/test';
import { withDemoAgent } from './agentgate-page.ts';
import { expect, listTools, readyReport, sharedTabTest as test, type Demo } from './demo-fixture.ts';

type LogEntry = Demo['agentGateLog'][number] & { offered?: string };

/** Serves a page at /agentgate-native whose runtime script tag carries `attributes`, and waits for its Report. */
async function openPage(page: Page, demo: Demo, attributes: string): Promise<void> {
  await page.route(`${demo.url}/agentgate-native`, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>AgentGate agent-native</title>
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp ${attributes}></script></head><body><h1>AgentGate</h1></body></html>`,
  }));
  await page.goto(`${demo.url}/agentgate-native`);
  await readyReport(page);
}

const answerOf = (result: { content: { text?: string }[] }) => JSON.parse(result.content[0]!.text!);
const logSince = (demo: Demo, before: number) => demo.agentGateLog.slice(before) as LogEntry[];

test.describe('AgentGate agent-native answers', () => {
  // Each test loads the page (twice for payment and retries) and makes several signed round trips,
  // each verified against the demo agent's key directory: more than the default 30 s on a loaded machine.
  test.describe.configure({ timeout: 60_000 });

  test('handoff: request_callback answers 202, the runtime polls handoff.poll, the agent\'s layer signs each poll of its own call\'s id, and the call resolves with the final state', async ({ page, demo }) => {
    await openPage(page, demo, 'data-agentgate');
    const names = (await listTools(page)).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['request_callback', 'stock_report', 'agentgate.handoff.status']));
    const before = demo.agentGateLog.length;
    await withDemoAgent(page, demo, async (agent) => {
      const result = await agent.callTool(page, 'request_callback', { id: `e2e-callback-${Date.now()}`, topic: 'resoling', polls: 3, retryAfter: 0 });
      expect(result.isError).toBeUndefined();
      const answer = answerOf(result);
      expect(answer).toMatchObject({ status: 'completed', handoffId: expect.stringMatching(/^h_/), answer: { status: 'completed', result: { callback: 'scheduled', topic: 'resoling' } } });
      expect(logSince(demo, before).map((entry) => [entry.path, entry.outcome, entry.status])).toEqual([
        ['/agent/request-callback', 'verified', 202],
        ...Array.from({ length: 3 }, () => [`/v1/handoff/${answer.handoffId}`, 'verified', 200]),
      ]);
      const asked = await agent.callTool(page, 'agentgate.handoff.status', { handoffId: answer.handoffId });
      expect(asked.isError).toBe(true); // finished handoffs are forgotten: the call already answered the final state
    });
  });

  test('payment: the agent pays within its own cap, once, signed; above its cap or without one nothing is paid and the call names the price and the limit; a page that writes data-max-price changes nothing', async ({ page, demo }) => {
    // The page asks for a generous cap: the runtime no longer reads one, and the agent never sees it.
    await openPage(page, demo, 'data-agentgate data-max-price="100 USD"');
    let before = demo.agentGateLog.length;
    await withDemoAgent(page, demo, async (agent) => {
      const unpaid = await agent.callTool(page, 'stock_report', { category: 'boots' });
      expect(unpaid.isError).toBe(true);
      expect(unpaid.content[0]!.text).toMatch(/^not paid: the site asks 0\.01 USD; the agent pays nothing/);
      expect(logSince(demo, before).map((entry) => entry.offered)).toEqual([undefined]);
      expect(demo.agentGateLog.slice(before).every((entry) => entry.status !== 200)).toBe(true);
    });

    await withDemoAgent(page, demo, async (agent) => {
      before = demo.agentGateLog.length;
      const paid = await agent.callTool(page, 'stock_report', { category: 'boots' });
      expect(paid.isError).toBeUndefined();
      expect(answerOf(paid)).toEqual({ answer: { category: 'boots', inStock: 42 }, payment: { price: 'USD 0.01', charged: 'USD 0.01' } });
      expect(logSince(demo, before).map((entry) => [entry.outcome, entry.status, entry.offered])).toEqual([['verified', 402, undefined], ['verified', 200, 'USD 0.01']]);

      before = demo.agentGateLog.length;
      const above = await agent.callTool(page, 'stock_report', { category: 'archive' });
      expect(above.isError).toBe(true);
      expect(above.content[0]!.text).toMatch(/^not paid: the site asks 0\.50 USD; the agent's cap is 0\.05 USD a call/);
      expect(logSince(demo, before).map((entry) => entry.offered)).toEqual([undefined]);
    }, { maxPrice: '0.05 USD' });
  });

  test('retries: after a network failure an idempotent tool is sent once more and signed again; a non-idempotent one never', async ({ page, demo }) => {
    const attempts: (string | null)[] = [];
    await page.route(`${demo.url}/agent/submit`, async (route) => {
      attempts.push(route.request().postData());
      if (attempts.length % 2 === 1) await route.abort('connectionreset'); // every first attempt of a call fails
      else await route.continue();
    });
    await openPage(page, demo, 'data-agentgate');
    await withDemoAgent(page, demo, async (agent) => {
      const before = demo.agentGateLog.length;
      const result = await agent.callTool(page, 'send_message', { id: `e2e-retry-${Date.now()}`, message: 'sent twice, accepted once' });
      expect(answerOf(result)).toMatchObject({ status: 'accepted' });
      expect(attempts).toHaveLength(2);
      expect(attempts[1]).toBe(attempts[0]);
      expect(logSince(demo, before).map((entry) => [entry.path, entry.outcome, entry.status])).toEqual([['/agent/submit', 'verified', 200]]);
    });

    // The same tool as a site that does not call it idempotent: never sent again.
    await page.route(`${demo.url}/.well-known/agentgate-tools.json`, async (route) => {
      const manifest = await (await route.fetch()).json();
      for (const tool of manifest.tools) if (tool.name === 'send_message') tool.annotations.idempotentHint = false;
      await route.fulfill({ json: manifest });
    });
    await openPage(page, demo, 'data-agentgate');
    attempts.length = 0;
    await withDemoAgent(page, demo, async (agent) => {
      const failed = await agent.callTool(page, 'send_message', { id: `e2e-once-${Date.now()}`, message: 'sent once' });
      expect(failed.isError).toBe(true);
      expect(failed.content[0]!.text).toMatch(/^the call to \/agent\/submit failed: network error/);
      expect(attempts).toHaveLength(1);
    });
  });
});
