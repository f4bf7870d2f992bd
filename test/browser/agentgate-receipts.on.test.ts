/**
 * AgentGate receipts in real Chromium: the kept receipts in IndexedDB (idb-keyval), newest first,
 * bounded per origin, none lost when two calls end together; the `agentgate.receipts` tool lists
 * them; a receipt JWS signed with WebCrypto Ed25519 verifies with its public JWK, and a changed one
 * does not. (The signed calls, the site's keys and rotation are in test/unit/agentgate-receipts
 * against the demo server and in test/e2e/agentgate-receipts.on.spec.ts.)
 */
import { expect } from 'chai';
import { clear, createStore, get } from 'idb-keyval';
import { parseReceiptJWS, verifyReceiptSignature, type Ed25519PublicJWK } from '../../src/agentgate/receipt-jws.ts';
import { keepReceipt, listReceipts, RECEIPTS_DB, RECEIPTS_STORE, type KeptReceipt } from '../../src/agentgate/receipt-store.ts';
import { createReceiptsTool, RECEIPTS_TOOL } from '../../src/agentgate/receipts-tool.ts';
import type { RuntimeConfig } from '../../src/config.ts';

const ORIGIN = 'https://shop.example';
const OTHER = 'https://other.example';
const receiptsDB = createStore(RECEIPTS_DB, RECEIPTS_STORE);

const receipt = (n: number, tool = 'send_message'): KeptReceipt => ({ receivedAt: new Date(Date.UTC(2026, 11, 1, 12, 0, n)).toISOString(), tool, verified: true, id: `r${n}` });

const base64url = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

beforeEach(() => clear(receiptsDB));

describe('kept receipts (IndexedDB)', () => {
  it('keeps receipts per origin, newest first, in IndexedDB', async () => {
    await keepReceipt(ORIGIN, receipt(1));
    await keepReceipt(ORIGIN, receipt(2));
    await keepReceipt(OTHER, receipt(3));
    expect((await listReceipts(ORIGIN)).map((kept) => kept.id)).to.deep.equal(['r2', 'r1']);
    expect((await listReceipts(OTHER)).map((kept) => kept.id)).to.deep.equal(['r3']);
    // In IndexedDB itself, not only in the page's memory.
    expect(((await get(ORIGIN, receiptsDB)) as KeptReceipt[]).map((kept) => kept.id)).to.deep.equal(['r2', 'r1']);
  });

  it('keeps at most the bounded count: the oldest receipt is dropped', async () => {
    for (let n = 1; n <= 5; n += 1) await keepReceipt(ORIGIN, receipt(n), 3);
    expect((await listReceipts(ORIGIN)).map((kept) => kept.id)).to.deep.equal(['r5', 'r4', 'r3']);
  });

  it('loses none when calls end together', async () => {
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => keepReceipt(ORIGIN, receipt(n))));
    expect((await listReceipts(ORIGIN)).map((kept) => kept.id).sort()).to.deep.equal(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
  });
});

describe(`${RECEIPTS_TOOL}`, () => {
  const tool = createReceiptsTool({ origin: ORIGIN } as RuntimeConfig);

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
    expect(answer.receipts.map((kept: KeptReceipt) => kept.id)).to.deep.equal(['r3', 'r2', 'r1']);
    const limited = JSON.parse((await tool.execute({ limit: 1 })).content[0]!.text);
    expect(limited.receipts.map((kept: KeptReceipt) => kept.id)).to.deep.equal(['r3']);
    const ofTool = JSON.parse((await tool.execute({ tool: 'message_status' })).content[0]!.text);
    expect(ofTool.receipts.map((kept: KeptReceipt) => kept.id)).to.deep.equal(['r2']);
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
