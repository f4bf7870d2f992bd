/**
 * AgentGate receipts end to end, WebMCP on (issue 12, "Receipts"): the demo site's manifest
 * declares receipts, the runtime registers `agentgate.receipts`, and a real signed call to
 * `send_message` through WebMCP comes back with `structuredContent.receipt` verified in the page
 * (WebCrypto Ed25519 against the site's JWKS) and covering the nonce and Content-Digest the page
 * sent; the receipt is kept and listed; a rotated site key is picked up by one refetch of the
 * JWKS; a receipt changed on the way or taken from another call is `verified: false` with its
 * reason and still kept.
 */
import type { Page, Request as PlaywrightRequest } from '@playwright/test';
import { parseDictionary } from 'structured-headers';
import { giveDemoSigner, openFixture } from './agentgate-page.ts';
import { executeTool, expect, listTools, readyReport, test, type Demo } from './demo-fixture.ts';

type Receipt = { verified: true; tool: string; action: string; status: number; nonce: string; contentDigest: string; issuedAt: string; id: string; kid: string; jws: string }
  | { verified: false; reason: string; jws?: string };
type Result = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: { receipt?: Receipt } };

const KEYS_PATH = '/.well-known/agentgate-keys.json';

let seq = 0;
const freshInput = () => ({ id: `e2e-receipt-${Date.now()}-${(seq += 1)}`, message: 'Hello with a receipt' });

/** Calls send_message through WebMCP and returns the result with the signed request the page sent. */
async function sendMessage(page: Page): Promise<{ result: Result; sent: PlaywrightRequest }> {
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/agent/submit');
  const result = await executeTool(page, 'send_message', freshInput()) as Result;
  return { result, sent: await sent };
}

/** The nonce of the signature a request carried. */
function nonceOf(request: PlaywrightRequest): string {
  const member = [...parseDictionary(request.headers()['signature-input']!).values()][0]!;
  return String(member[1].get('nonce'));
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
  await giveDemoSigner(page, demo);
}

test.describe('AgentGate receipts', () => {
  test('a signed call to send_message returns a verified receipt covering its nonce and Content-Digest; agentgate.receipts lists it; the site\'s verify endpoint agrees', async ({ page, demo }) => {
    await openFixture(page, demo, 'data-agentgate');
    const report = await readyReport(page);
    // The runtime's own tool: registered with the manifest's receipts (already while the tools
    // wait for a signer), never listed as a declaration in the Report.
    expect((await listTools(page)).map((tool) => tool.name)).toContain('agentgate.receipts');
    expect(report.registered).not.toContain('agentgate.receipts');
    const receiptsTool = await page.evaluate(async () => {
      const tools = await (document as unknown as { modelContext: { getTools(): Promise<{ name: string; annotations?: object }[]> } }).modelContext.getTools();
      return tools.find((tool) => tool.name === 'agentgate.receipts')!.annotations;
    });
    expect(receiptsTool).toMatchObject({ readOnlyHint: true });
    await giveDemoSigner(page, demo);

    const { result, sent } = await sendMessage(page);
    expect(JSON.parse(result.content[0]!.text)).toEqual({ status: 'accepted' }); // the text stays the site's answer
    const receipt = verified(result);
    expect(receipt).toMatchObject({ tool: 'send_message', action: 'agent_submit', status: 200 });
    expect(receipt.nonce).toBe(nonceOf(sent));
    expect(receipt.contentDigest).toBe(sent.headers()['content-digest']);

    const kept = await listKept(page);
    expect(kept.site).toBe(demo.url);
    expect(kept.kept).toBe(1);
    expect(kept.receipts[0]).toMatchObject({ tool: 'send_message', verified: true, jws: receipt.jws, nonce: receipt.nonce });

    const check = await fetch(`${demo.url}/v1/receipts/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ receipt: receipt.jws }) });
    expect(await check.json()).toMatchObject({ valid: true, kid: receipt.kid, claims: { nonce: receipt.nonce, tool: 'send_message' } });
  });

  test('a receipt a page script planted in IndexedDB as verified (red-team 2026-12-02) is listed verified: false; the genuine one stays verified', async ({ page, demo }) => {
    await ready(page, demo);
    const genuine = verified((await sendMessage(page)).result);
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
    const first = verified((await sendMessage(page)).result);
    expect(keyFetches).toHaveLength(1);
    verified((await sendMessage(page)).result);
    expect(keyFetches).toHaveLength(1); // a kept kid fetches nothing
    const rotated = demo.rotateReceiptKey();
    const after = verified((await sendMessage(page)).result);
    expect(after.kid).toBe(rotated);
    expect(after.kid).not.toBe(first.kid);
    expect(keyFetches).toHaveLength(2); // exactly one refetch for the unknown kid
    verified((await sendMessage(page)).result);
    expect(keyFetches).toHaveLength(2);
  });

  test('a receipt changed on the way is verified: false with the reason, the answer kept, and the receipt still kept', async ({ page, demo }) => {
    await ready(page, demo);
    await page.route(`${demo.url}/agent/submit`, async (route) => {
      const answer = await route.fetch();
      const [header, payload, signature] = answer.headers()['agentgate-receipt']!.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, action: 'agent_delete' })).toString('base64url')}.${signature}`;
      await route.fulfill({ response: answer, headers: { ...answer.headers(), 'agentgate-receipt': tampered } });
    });
    const { result } = await sendMessage(page);
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(result.content[0]!.text)).toEqual({ status: 'accepted' });
    expect(result.structuredContent?.receipt).toMatchObject({ verified: false, reason: expect.stringMatching(/^a bad signature: the receipt was changed after the site signed it/) });
    const kept = await listKept(page);
    expect(kept.receipts[0]).toMatchObject({ verified: false, reason: expect.stringMatching(/^a bad signature/) });
  });

  test('a receipt of another call is verified: false: its nonce is not the one this call was signed with', async ({ page, demo }) => {
    await ready(page, demo);
    const earlier = verified((await sendMessage(page)).result);
    await page.route(`${demo.url}/agent/submit`, async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, headers: { ...answer.headers(), 'agentgate-receipt': earlier.jws } });
    });
    const { result, sent } = await sendMessage(page);
    expect(result.structuredContent?.receipt).toMatchObject({
      verified: false, jws: earlier.jws,
      reason: `a receipt for another call: its nonce "${earlier.nonce}" is not the one this call was signed with ("${nonceOf(sent)}")`,
    });
  });
});
