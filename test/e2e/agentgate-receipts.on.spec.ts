/**
 * AgentGate receipts end to end, WebMCP on: the demo site's manifest declares receipts, the
 * runtime registers `agentgate.receipts`, and a call to `send_message` made through the agent's
 * companion (capell-webmcp/agent, which signs it in the agent's network layer) comes back with a
 * receipt the agent verified against the site's JWKS and the nonce it signed with, kept where the
 * agent keeps it (`agent.receipts()`). The page checks it too (WebCrypto Ed25519, the Content-Digest
 * it sent; it never learns the nonce) and lists what it kept, checked again when listed: a receipt
 * a page script planted as verified is listed `verified: false`. A rotated site key is picked up
 * by one refetch of the JWKS.
 */
import type { Page } from '@playwright/test';
import { openFixture, withDemoAgent, type Agent } from './agentgate-page.ts';
import { executeTool, expect, listTools, readyReport, sharedTabTest as test, type Demo } from './demo-fixture.ts';

type Receipt = { verified: true; tool: string; action: string; status: number; nonce: string; contentDigest: string; issuedAt: string; id: string; kid: string; jws: string }
  | { verified: false; reason: string; jws?: string };
type Result = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: { receipt?: Receipt } };

const KEYS_PATH = '/.well-known/agentgate-keys.json';

let seq = 0;
const freshInput = () => ({ id: `e2e-receipt-${Date.now()}-${(seq += 1)}`, message: 'Hello with a receipt' });

/** Calls send_message through the agent's companion and returns the result. */
async function sendMessage(agent: Agent, page: Page): Promise<Result> {
  return await agent.callTool(page, 'send_message', freshInput()) as Result;
}

function verified(result: Result): Receipt & { verified: true } {
  expect(result.isError).toBeUndefined();
  const receipt = result.structuredContent?.receipt;
  expect(receipt, 'the result carries a receipt').toBeDefined();
  expect(receipt!.verified, receipt!.verified ? '' : (receipt as { reason: string }).reason).toBe(true);
  return receipt as Receipt & { verified: true };
}

async function listKept(page: Page): Promise<{ site: string; kept: number; receipts: (Receipt & { tool: string; receivedAt: string })[] }> {
  const listed = await executeTool(page, 'agentgate.receipts', {});
  expect(listed.isError).toBeUndefined();
  return JSON.parse(listed.content[0]!.text);
}

async function ready(page: Page, demo: Demo): Promise<void> {
  await openFixture(page, demo, 'data-agentgate');
  await readyReport(page);
}

test.describe('AgentGate receipts', () => {
  test('a signed call to send_message returns a receipt the agent verified against the nonce it signed with; the page\'s result carries it checked too; agentgate.receipts lists it; the site\'s verify endpoint agrees', async ({ page, demo }) => {
    await openFixture(page, demo, 'data-agentgate');
    const report = await readyReport(page);
    // The runtime's own tool: registered with the manifest's receipts, never listed as a declaration in the Report.
    expect((await listTools(page)).map((tool) => tool.name)).toContain('agentgate.receipts');
    expect(report.registered).not.toContain('agentgate.receipts');
    const receiptsTool = await page.evaluate(async () => {
      const tools = await (document as unknown as { modelContext: { getTools(): Promise<{ name: string; annotations?: object }[]> } }).modelContext.getTools();
      return tools.find((tool) => tool.name === 'agentgate.receipts')!.annotations;
    });
    expect(receiptsTool).toMatchObject({ readOnlyHint: true });

    await withDemoAgent(page, demo, async (agent) => {
      const result = await sendMessage(agent, page);
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({ status: 'accepted' });
      const receipt = verified(result);
      expect(receipt).toMatchObject({ tool: 'send_message', action: 'agent_submit', status: 200 });
      const agents = agent.receipts() as unknown as { tool: string; verified: boolean; jws?: string; nonce?: string }[];
      expect(agents).toHaveLength(1);
      expect(agents[0]).toMatchObject({ tool: 'send_message', verified: true, jws: receipt.jws });
      expect(receipt.nonce).toBe(agents[0]!.nonce);

      const kept = await listKept(page);
      expect(kept.site).toBe(demo.url);
      expect(kept.kept).toBe(1);
      expect(kept.receipts[0]).toMatchObject({ tool: 'send_message', verified: true, jws: receipt.jws, nonce: receipt.nonce });

      const check = await fetch(`${demo.url}/v1/receipts/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ receipt: receipt.jws }) });
      expect(await check.json()).toMatchObject({ valid: true, kid: receipt.kid, claims: { nonce: receipt.nonce, tool: 'send_message' } });
    });
  });

  test('a forged receipt a page script planted in IndexedDB as verified is listed verified: false; the genuine one stays verified', async ({ page, demo }) => {
    await ready(page, demo);
    const genuine = await withDemoAgent(page, demo, async (agent) => verified(await sendMessage(agent, page)));
    // Any script of the origin can write the runtime's receipt store.
    await page.evaluate(async (origin) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => { const open = indexedDB.open('capell-webmcp-agentgate-receipts'); open.onsuccess = () => resolve(open.result); open.onerror = () => reject(open.error); });
      const store = db.transaction('receipts', 'readwrite').objectStore('receipts');
      const kept = await new Promise<unknown[]>((resolve) => { const read = store.get(origin); read.onsuccess = () => resolve(read.result as unknown[]); });
      const now = new Date().toISOString();
      const planted = { receivedAt: now, tool: 'send_message', verified: true, action: 'agent_refund', status: 200, nonce: 'n', contentDigest: 'sha-256=:AAAA:', issuedAt: now, id: 'planted', kid: (kept[0] as { kid: string }).kid, jws: 'eyJhbGciOiJFZERTQSJ9.eyJ9.AAAA' };
      await new Promise((resolve) => { const write = db.transaction('receipts', 'readwrite').objectStore('receipts').put([planted, ...kept], origin); write.onsuccess = resolve; });
    }, demo.url);
    const listed = await listKept(page);
    expect(listed.kept).toBe(2);
    expect(listed.receipts[0]).toMatchObject({ tool: 'send_message', verified: false, reason: expect.stringMatching(/^kept as verified, but it does not check out now: /) });
    expect(listed.receipts[0]).not.toHaveProperty('action');
    expect(listed.receipts[1]).toMatchObject({ verified: true, jws: genuine.jws, action: genuine.action });
  });

  test('a key rotation is picked up: the receipt with the new kid fetches the site\'s keys once, then they are kept', async ({ page, demo }) => {
    const keyFetches: string[] = [];
    page.on('request', (request) => { if (new URL(request.url()).pathname === KEYS_PATH) keyFetches.push(request.url()); });
    await ready(page, demo);
    await withDemoAgent(page, demo, async (agent) => {
      const first = verified(await sendMessage(agent, page));
      expect(keyFetches).toHaveLength(1);
      verified(await sendMessage(agent, page));
      expect(keyFetches).toHaveLength(1); // a kept kid fetches nothing
      const rotated = demo.rotateReceiptKey();
      const after = verified(await sendMessage(agent, page));
      expect(after.kid).toBe(rotated);
      expect(after.kid).not.toBe(first.kid);
      expect(keyFetches).toHaveLength(2); // exactly one refetch for the unknown kid
      verified(await sendMessage(agent, page));
      expect(keyFetches).toHaveLength(2);
    });
  });
});
