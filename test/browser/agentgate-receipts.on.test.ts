/**
 * AgentGate receipts in real Chromium: the kept receipts in IndexedDB (idb-keyval), newest first,
 * bounded per origin, none lost when two calls end together; the `agentgate.receipts` tool lists
 * them; a receipt JWS signed with WebCrypto Ed25519 verifies with its public JWK, and a changed one
 * does not. (The signed calls, the site's keys and rotation are in test/unit/agentgate-receipts
 * against the demo server and in test/e2e/agentgate-receipts.on.spec.ts.)
 */
import { expect } from 'chai';
import { clear, createStore, get, set } from 'idb-keyval';
import { parseReceiptJWS, verifyReceiptSignature, type Ed25519PublicJWK } from '../../src/agentgate/call/receipt-jws.ts';
import { keepReceipt, listReceipts, RECEIPTS_DB, RECEIPTS_STORE, type KeptReceipt } from '../../src/agentgate/discover/receipt-store.ts';
import { createReceiptsTool, RECEIPTS_TOOL } from '../../src/agentgate/discover/receipts-tool.ts';
import type { RuntimeConfig } from '../../src/start/config.ts';

const ORIGIN = 'https://shop.example';
const OTHER = 'https://other.example';
const receiptsDB = createStore(RECEIPTS_DB, RECEIPTS_STORE);

// Kept as not verified: a kept `verified: true` is checked again against the site's keys when listed.
const receipt = (n: number, tool = 'send_message'): KeptReceipt => ({ receivedAt: new Date(Date.UTC(2026, 11, 1, 12, 0, n)).toISOString(), tool, verified: false, reason: `r${n}` });
const idOf = (kept: KeptReceipt) => kept.reason;

const base64url = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

beforeEach(() => clear(receiptsDB));

describe('kept receipts (IndexedDB)', () => {
  it('keeps receipts per origin, newest first, in IndexedDB', async () => {
    await keepReceipt(ORIGIN, receipt(1));
    await keepReceipt(ORIGIN, receipt(2));
    await keepReceipt(OTHER, receipt(3));
    expect((await listReceipts(ORIGIN)).map(idOf)).to.deep.equal(['r2', 'r1']);
    expect((await listReceipts(OTHER)).map(idOf)).to.deep.equal(['r3']);
    // In IndexedDB itself, not only in the page's memory.
    expect(((await get(ORIGIN, receiptsDB)) as KeptReceipt[]).map(idOf)).to.deep.equal(['r2', 'r1']);
  });

  it('keeps at most the bounded count: the oldest receipt is dropped', async () => {
    for (let n = 1; n <= 5; n += 1) await keepReceipt(ORIGIN, receipt(n), 3);
    expect((await listReceipts(ORIGIN)).map(idOf)).to.deep.equal(['r5', 'r4', 'r3']);
  });

  it('loses none when calls end together', async () => {
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => keepReceipt(ORIGIN, receipt(n))));
    expect((await listReceipts(ORIGIN)).map(idOf).sort()).to.deep.equal(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
  });
});

describe(`${RECEIPTS_TOOL}`, () => {
  const tool = createReceiptsTool({ origin: ORIGIN } as RuntimeConfig, () => []);

  it('is read-only and lists the kept receipts of this origin, newest first, within limit and by tool', async () => {
    expect(tool.annotations).to.deep.equal({ readOnlyHint: true });
    await keepReceipt(ORIGIN, receipt(1));
    await keepReceipt(ORIGIN, receipt(2, 'message_status'));
    await keepReceipt(ORIGIN, receipt(3));
    await keepReceipt(OTHER, receipt(4));
    const all = await tool.execute({});
    expect(all.isError).to.equal(undefined);
    const answer = JSON.parse(all.content[0]!.text);
    expect(answer.site).to.equal(ORIGIN);
    expect(answer.kept).to.equal(3);
    expect(answer.receipts.map(idOf)).to.deep.equal(['r3', 'r2', 'r1']);
    const limited = JSON.parse((await tool.execute({ limit: 1 })).content[0]!.text);
    expect(limited.receipts.map(idOf)).to.deep.equal(['r3']);
    const ofTool = JSON.parse((await tool.execute({ tool: 'message_status' })).content[0]!.text);
    expect(ofTool.receipts.map(idOf)).to.deep.equal(['r2']);
  });

  it('leaves out a stored entry that is not a receipt (a page script wrote it: 20 MB, nested 2000 deep, or not the shape)', async function () {
    // IndexedDB clones the 20 MB entry on the way in and out: seconds on a loaded machine, not what is tested.
    this.timeout(60_000);
    await keepReceipt(ORIGIN, receipt(1));
    const kept = (await get(ORIGIN, receiptsDB)) as unknown[];
    const deep = JSON.parse('['.repeat(2000) + ']'.repeat(2000));
    await set(ORIGIN, [
      { ...receipt(2), reason: 'x'.repeat(20_000_000) },
      { ...receipt(3), reason: deep },
      { receivedAt: 'now', tool: 'send_message', verified: 'yes' },
      'not a receipt',
      ...kept,
    ], receiptsDB);
    const result = await tool.execute({ limit: 10 });
    expect(result.content[0]!.text.length).to.be.below(1_000);
    const answer = JSON.parse(result.content[0]!.text);
    expect(answer.kept).to.equal(1);
    expect(answer.receipts.map(idOf)).to.deep.equal(['r1']);
  });

  it('lists a stored verified: true that cannot be checked again against the site\'s keys as verified: false, with the reason', async () => {
    const jwks = `${location.origin}/test-fixtures/no-such-keys.json`;
    const checking = createReceiptsTool({ origin: location.origin, timeoutMs: 5_000 } as RuntimeConfig, () => [{ binding: { type: 'agentgate', receipts: { header: 'AgentGate-Receipt', jwks } } } as never]);
    const planted = { receivedAt: new Date().toISOString(), tool: 'send_message', verified: true, action: 'agent_refund', status: 200, nonce: 'n', contentDigest: 'sha-256=:x:', issuedAt: new Date().toISOString(), id: 'fake', kid: 'k', jws: 'not.a.jws' };
    await set(location.origin, [planted], receiptsDB);
    const answer = JSON.parse((await checking.execute({})).content[0]!.text);
    expect(answer.receipts).to.have.length(1);
    expect(answer.receipts[0]).to.deep.include({ verified: false, tool: 'send_message', jws: 'not.a.jws' });
    expect(answer.receipts[0].reason).to.match(/^kept as verified, but it does not check out now: /);
    expect(answer.receipts[0]).to.not.have.property('action');
  });

  it('refuses a bad input with the reason', async () => {
    for (const [input, reason] of [[{ limit: 0 }, /limit must be an integer from 1 to 100/], [{ since: 'x' }, /since is not an input of agentgate\.receipts/], [{ tool: '' }, /tool must be a non-empty string/]] as const) {
      const result = await tool.execute(input);
      expect(result.isError).to.equal(true);
      expect(result.content[0]!.text).to.match(reason);
    }
  });
});

describe('receipt JWS with WebCrypto Ed25519', () => {
  it('verifies a receipt signed with the matching key and refuses a changed one', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as Ed25519PublicJWK;
    const header = base64url(new TextEncoder().encode(JSON.stringify({ alg: 'EdDSA', kid: 'k1' })));
    const payload = base64url(new TextEncoder().encode(JSON.stringify({ tool: 'send_message', status: 200 })));
    const signature = base64url(await crypto.subtle.sign('Ed25519', pair.privateKey, new TextEncoder().encode(`${header}.${payload}`)));
    const parsed = parseReceiptJWS(`${header}.${payload}.${signature}`);
    expect(parsed.header).to.deep.equal({ alg: 'EdDSA', kid: 'k1' });
    expect(await verifyReceiptSignature(parsed, jwk)).to.equal(true);
    const changed = base64url(new TextEncoder().encode(JSON.stringify({ tool: 'send_message', status: 201 })));
    expect(await verifyReceiptSignature(parseReceiptJWS(`${header}.${changed}.${signature}`), jwk)).to.equal(false);
  });
});
