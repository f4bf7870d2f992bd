/**
 * Issue 12 end to end, WebMCP on: the built runtime on a page that names AgentGate, the demo
 * agent's signer given with setSigner, and each agent-native mechanism through
 * `document.modelContext.executeTool` with real signed calls the demo site verifies:
 * handoff (request_callback, polled at the manifest's handoff.poll), capped payment
 * (stock_report, pay per crawl; `data-max-price`), and the one retry after a network failure
 * (only for an idempotent tool).
 */
import type { Page } from '@playwright/test';
import { parseDictionary, type InnerList } from 'structured-headers';
import { DEMO_AGENT_PRIVATE_JWK } from '../../demo/server/agentgate/demo-keys.js';
import { executeTool, expect, listTools, readyReport, test, type Demo } from './demo-fixture.ts';

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

/** Gives the runtime the demo agent's signer (library build) and waits for the update it starts. */
async function giveDemoSigner(page: Page, demo: Demo): Promise<{ registered: string[] }> {
  return page.evaluate(async ({ agentUrl, jwk }) => {
    const library = '/dist/lib/index.js';
    const { loadStoredSigner } = await import(library);
    const { signer } = await loadStoredSigner({ alg: 'ed25519', signatureAgent: agentUrl, privateJwk: jwk, storageKey: 'capell-webmcp:e2e:agent-native' });
    const changed = new Promise((resolve) => document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent).detail), { once: true }));
    window.capellWebMCP!.setSigner(signer);
    return changed;
  }, { agentUrl: demo.agentUrl, jwk: { ...DEMO_AGENT_PRIVATE_JWK } }) as Promise<{ registered: string[] }>;
}

const answerOf = (result: { content: { text: string }[] }) => JSON.parse(result.content[0]!.text);
const logSince = (demo: Demo, before: number) => demo.agentGateLog.slice(before) as LogEntry[];

test.describe('AgentGate agent-native answers', () => {
  // Each test loads the page (twice for payment and retries) and makes several signed round trips,
  // each verified against the demo agent's key directory: more than the default 30 s on a loaded machine.
  test.describe.configure({ timeout: 60_000 });

  test('handoff: request_callback answers 202, the runtime polls handoff.poll with signed GETs and resolves with the final state', async ({ page, demo }) => {
    await openPage(page, demo, 'data-agentgate');
    const report = await giveDemoSigner(page, demo);
    expect(report.registered).toEqual(expect.arrayContaining(['request_callback', 'stock_report']));
    const names = (await listTools(page)).map((tool) => tool.name);
    expect(names).toContain('agentgate.handoff.status');
    const before = demo.agentGateLog.length;
    const result = await executeTool(page, 'request_callback', { id: `e2e-callback-${Date.now()}`, topic: 'resoling', polls: 3, retryAfter: 0 });
    expect(result.isError).toBeUndefined();
    const answer = answerOf(result);
    expect(answer).toMatchObject({ status: 'completed', handoffId: expect.stringMatching(/^h_/), answer: { status: 'completed', result: { callback: 'scheduled', topic: 'resoling' } } });
    expect(logSince(demo, before).map((entry) => [entry.path, entry.outcome, entry.status, entry.agent])).toEqual([
      ['/agent/request-callback', 'verified', 202, demo.agentUrl],
      ...Array.from({ length: 3 }, () => [`/v1/handoff/${answer.handoffId}`, 'verified', 200, demo.agentUrl]),
    ]);
    const asked = await executeTool(page, 'agentgate.handoff.status', { handoffId: answer.handoffId });
    expect(asked.isError).toBe(true); // finished handoffs are forgotten: the call already answered the final state
  });

  test('payment: without data-max-price the 402 is an error stating the price; with it the price is paid once, signed, and crawler-charged reported', async ({ page, demo }) => {
    await openPage(page, demo, 'data-agentgate');
    await giveDemoSigner(page, demo);
    let before = demo.agentGateLog.length;
    const unpaid = await executeTool(page, 'stock_report', { category: 'boots' });
    expect(unpaid.isError).toBe(true);
    expect(unpaid.content[0]!.text).toMatch(/costs USD 0\.01 \(402, crawler-price\) and was not paid: this page allows no payment; its owner can allow up to that price with data-max-price="0\.01 USD"/);
    expect(logSince(demo, before).map((entry) => [entry.status, entry.offered])).toEqual([[402, undefined]]);

    const sent: { exact: string | null; covered: string[] }[] = [];
    page.on('request', (request) => {
      if (!request.url().endsWith('/agent/stock-report')) return;
      const member = parseDictionary(request.headers()['signature-input'] ?? '').get('sig1') as InnerList;
      sent.push({ exact: request.headers()['crawler-exact-price'] ?? null, covered: member[0].map(([name]) => String(name)) });
    });
    await openPage(page, demo, 'data-agentgate data-max-price="0.05 USD"');
    await giveDemoSigner(page, demo);
    before = demo.agentGateLog.length;
    const paid = await executeTool(page, 'stock_report', { category: 'boots' });
    expect(paid.isError).toBeUndefined();
    expect(answerOf(paid)).toEqual({ answer: { category: 'boots', inStock: 42 }, payment: { price: 'USD 0.01', charged: 'USD 0.01' } });
    expect(logSince(demo, before).map((entry) => [entry.outcome, entry.status, entry.offered])).toEqual([['verified', 402, undefined], ['verified', 200, 'USD 0.01']]);
    expect(sent.map((request) => request.exact)).toEqual([null, 'USD 0.01']);
    expect(sent[1]!.covered).toContain('crawler-exact-price');

    before = demo.agentGateLog.length;
    const above = await executeTool(page, 'stock_report', { category: 'archive' });
    expect(above.content[0]!.text).toMatch(/costs USD 0\.50 .*above this page's cap of USD 0\.05/);
    expect(logSince(demo, before).map((entry) => entry.offered)).toEqual([undefined]);
  });

  test('retries: after a network failure an idempotent tool is sent once more with a fresh nonce; a non-idempotent one never', async ({ page, demo }) => {
    const attempts: { body: string | null; nonce: unknown }[] = [];
    await page.route(`${demo.url}/agent/submit`, async (route) => {
      const member = parseDictionary(route.request().headers()['signature-input'] ?? '').get('sig1') as InnerList;
      attempts.push({ body: route.request().postData(), nonce: member[1].get('nonce') });
      if (attempts.length % 2 === 1) await route.abort('connectionreset'); // every first attempt of a call fails
      else await route.continue();
    });
    await openPage(page, demo, 'data-agentgate');
    await giveDemoSigner(page, demo);
    const before = demo.agentGateLog.length;
    const result = await executeTool(page, 'send_message', { id: `e2e-retry-${Date.now()}`, message: 'sent twice, accepted once' });
    expect(answerOf(result)).toEqual({ status: 'accepted' });
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.body).toBe(attempts[0]!.body);
    expect(attempts[1]!.nonce).not.toBe(attempts[0]!.nonce);
    expect(logSince(demo, before).map((entry) => [entry.path, entry.outcome, entry.status])).toEqual([['/agent/submit', 'verified', 200]]);

    // The same tool as a site that does not call it idempotent: never sent again.
    await page.route(`${demo.url}/.well-known/agentgate-tools.json`, async (route) => {
      const manifest = await (await route.fetch()).json();
      for (const tool of manifest.tools) if (tool.name === 'send_message') tool.annotations.idempotentHint = false;
      await route.fulfill({ json: manifest });
    });
    await page.evaluate(() => indexedDB.deleteDatabase('capell-webmcp-agentgate')); // no cached manifest
    await openPage(page, demo, 'data-agentgate');
    await giveDemoSigner(page, demo);
    attempts.length = 0;
    const failed = await executeTool(page, 'send_message', { id: `e2e-once-${Date.now()}`, message: 'sent once' });
    expect(failed.isError).toBe(true);
    expect(failed.content[0]!.text).toMatch(/^the signed call to \/agent\/submit failed: network error/);
    expect(attempts).toHaveLength(1);
  });
});
