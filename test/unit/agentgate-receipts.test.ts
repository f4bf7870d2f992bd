/**
 * AgentGate receipts against the real demo server: a call to `send_message`, signed by the
 * agent's network layer (test/support/node-agent-fetch.ts, as capell-webmcp/agent signs in a
 * browser), is answered with an `AgentGate-Receipt` the runtime verifies (WebCrypto Ed25519,
 * the site's JWKS) and returns as `added.receipt`; a tampered receipt, one for another call and one
 * signed by an unknown key are `verified: false` with their reasons; a key rotation is picked up
 * by one refetch of the JWKS; the manifest's `receipts` are checked and carried onto each tool;
 * the site's verify endpoint agrees with the runtime.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, Server } from 'node:http';
import { startDemoServer } from '../../demo/server/start.js';
import { renderManifest, SITES } from '../../demo/server/agentgate/manifest.js';
import { createReceiptKey, signReceipt } from '../../demo/server/agentgate/receipts.js';
import type { ReceiptResult, SentCall } from '../../src/agentgate/call/receipt.ts';
import type { RuntimeConfig } from '../../src/start/config.ts';
import type { AgentGateBinding, ToolSpec } from '../../src/shared/declarations/tool-spec.ts';
import { installAgentFetch } from '../support/node-agent-fetch.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

interface Demo {
  url: string;
  agentUrl: string;
  agentKeysUrl: string;
  app: { agentGate: { rotateReceiptKey(): string; receipts: { currentKid(): string } } };
  server: Server;
  close(): Promise<void>;
}

const demo = await startDemoServer({ port: 0 }) as Demo;
const agent = await installAgentFetch(demo.url, demo.agentKeysUrl);
// The runtime takes `fetch` once, when its modules are first evaluated (src/start/primitives.ts): they
// are imported only now, so that its requests go through the agent's network layer.
const { checkAgentGateTool, readAgentGateManifest } = await import('../../src/agentgate/discover/manifest-rules.ts');
const { checkReceipt } = await import('../../src/agentgate/call/receipt.ts');
const { findReceiptKey, forgetReceiptKeys } = await import('../../src/agentgate/call/receipt-keys.ts');
const { listReceipts } = await import('../../src/agentgate/discover/receipt-store.ts');
const { executeAgentGate } = await import('../../src/agentgate/call/tool-call.ts');
const { REF_CHECKS } = await import('../../src/shared/declarations/ref-checks.ts');
const { renderReason } = await import('../../src/shared/declarations/reason-text.ts');
const { RULES, SOURCES } = await import('../../src/shared/declarations/rules.ts');

let config: RuntimeConfig;
let sendMessage: ToolSpec;

/** The demo manifest's tools as the runtime maps them. */
function demoTools(origin: string): ToolSpec[] {
  const reading = readAgentGateManifest(renderManifest(SITES[0]!, origin).json);
  return reading.tools.map((tool) => {
    const result = checkAgentGateTool(tool, { source: 'agentgate[0]', origin, messages: {} }, REF_CHECKS);
    assert.ok(result.ok, result.ok ? '' : result.reasons.map(renderReason).join(' | '));
    return result.spec;
  });
}

let seq = 0;
const freshInput = () => ({ id: `receipt-test-${Date.now()}-${(seq += 1)}`, message: 'hello' });

/** A real signed call to the demo's send_message; returns its outcome's receipt. */
async function callSendMessage(): Promise<ReceiptResult> {
  const outcome = await executeAgentGate(sendMessage, freshInput(), { config, signal: new AbortController().signal, messages: {} });
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
  assert.deepEqual(outcome.answer, { status: 'accepted' });
  return outcome.added!.receipt as ReceiptResult;
}

const receiptsOf = (spec: ToolSpec) => (spec.binding as AgentGateBinding).receipts!;
const options = () => ({ timeoutMs: 5_000 });

/** The call a verified receipt covers, as the runtime records it. */
const sentOf = (receipt: ReceiptResult & { verified: true }): SentCall => ({
  tool: 'send_message', origin: demo.url, nonce: receipt.nonce, contentDigest: receipt.contentDigest, status: 200,
});

function verified(receipt: ReceiptResult): ReceiptResult & { verified: true } {
  assert.equal(receipt.verified, true, receipt.verified ? '' : receipt.reason);
  return receipt as ReceiptResult & { verified: true };
}

/** A JWS part re-encoded with a change to its JSON. */
function reencode(part: string, change: (value: Json) => Json): string {
  return Buffer.from(JSON.stringify(change(JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))))).toString('base64url');
}

/** Runs `run` and counts the JWKS requests it made, as the demo server received them. */
async function countJWKSFetches<T>(run: () => Promise<T>): Promise<{ result: T; count: number }> {
  let count = 0;
  const onRequest = (request: IncomingMessage) => {
    if (new URL(request.url ?? '/', demo.url).pathname === '/.well-known/agentgate-keys.json') count += 1;
  };
  demo.server.on('request', onRequest);
  try {
    return { result: await run(), count };
  } finally {
    demo.server.off('request', onRequest);
  }
}

before(async () => {
  config = { origin: demo.url, timeoutMs: 5_000 } as unknown as RuntimeConfig;
  sendMessage = demoTools(demo.url).find((tool) => tool.name === 'send_message')!;
});

after(() => {
  agent.restore();
  return demo.close();
});

beforeEach(() => forgetReceiptKeys());

describe('AgentGate receipts: the manifest', () => {
  it('carries the demo manifest\'s receipts onto each tool\'s binding', () => {
    for (const tool of demoTools(demo.url)) {
      assert.deepEqual(receiptsOf(tool), {
        header: 'AgentGate-Receipt', jwks: `${demo.url}/.well-known/agentgate-keys.json`, verify: `${demo.url}/v1/receipts/verify`,
      });
    }
  });

  const ROWS: { rule: string; receipts: unknown; rejects: RegExp }[] = [
    { rule: 'receipts that are not an object are refused', receipts: 'yes', rejects: /^receipts: must be an object/ },
    { rule: 'a receipt header that is not a field name is refused', receipts: { header: 'Agent Gate', jwks: 'https://shop.example/k.json' }, rejects: /^receipts\.header: "Agent Gate" is not an HTTP header name/ },
    { rule: 'a JWKS on another origin is refused', receipts: { header: 'AgentGate-Receipt', jwks: 'https://keys.example/k.json' }, rejects: /^receipts\.jwks: "https:\/\/keys\.example\/k\.json" is not an absolute http\(s\) URL on this page's origin/ },
    { rule: 'a relative JWKS URL is refused', receipts: { header: 'AgentGate-Receipt', jwks: '/k.json' }, rejects: /^receipts\.jwks: / },
    { rule: 'a verify endpoint on another origin is refused', receipts: { header: 'AgentGate-Receipt', jwks: 'https://shop.example/k.json', verify: 'http://shop.example/v' }, rejects: /^receipts\.verify: / },
  ];
  for (const row of ROWS) {
    it(row.rule, () => {
      const manifest = JSON.parse(renderManifest(SITES[0]!, 'https://shop.example').json);
      manifest.receipts = row.receipts;
      const reading = readAgentGateManifest(JSON.stringify(manifest));
      const result = checkAgentGateTool(reading.tools[0], { source: 'agentgate[0]', origin: 'https://shop.example', messages: {} }, REF_CHECKS);
      assert.equal(result.ok, false);
      if (result.ok) return;
      const matching = result.reasons.filter((reason) => row.rejects.test(renderReason(reason)));
      assert.equal(matching.length, 1, result.reasons.map(renderReason).join(' | '));
      assert.equal(RULES[matching[0]![1]].source, SOURCES.agentgateReceipts);
    });
  }
});

describe('AgentGate receipts: checked on a real signed call to the demo site', () => {
  it('a valid receipt verifies: it covers the Content-Digest this call sent and the nonce the agent signed with, and is kept', async () => {
    const receipt = verified(await callSendMessage());
    const nonce = /;nonce="([^"]+)"/.exec(agent.signed.at(-1)!.headers.get('signature-input') ?? '')?.[1];
    assert.equal(receipt.nonce, nonce, 'the receipt names the nonce the agent\'s layer signed with (the page never saw it)');
    assert.equal(receipt.tool, 'send_message');
    assert.equal(receipt.action, 'agent_submit');
    assert.equal(receipt.status, 200);
    assert.match(receipt.contentDigest, /^sha-256=:[A-Za-z0-9+/]+=*:$/);
    assert.match(receipt.nonce, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(receipt.kid, demo.app.agentGate.receipts.currentKid());
    // The site's own verify endpoint agrees.
    const answer = await (await fetch(`${demo.url}/v1/receipts/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ receipt: receipt.jws }) })).json();
    assert.equal(answer.valid, true);
    assert.equal(answer.claims.nonce, receipt.nonce);
    const kept = await listReceipts(demo.url);
    assert.equal(kept[0]!.jws, receipt.jws);
    assert.equal(kept[0]!.verified, true);
  });

  it('refuses a tampered receipt: a bad signature (and the site\'s verify endpoint refuses it too)', async () => {
    const receipt = verified(await callSendMessage());
    const [header, payload, signature] = receipt.jws.split('.') as [string, string, string];
    const tampered = `${header}.${reencode(payload, (claims) => ({ ...claims, action: 'agent_delete' }))}.${signature}`;
    const result = await checkReceipt(tampered, sentOf(receipt), receiptsOf(sendMessage), options());
    assert.deepEqual(result, { verified: false, reason: `a bad signature: the receipt was changed after the site signed it, or not signed by its key ${receipt.kid}`, jws: tampered });
    const answer = await (await fetch(`${demo.url}/v1/receipts/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ receipt: tampered }) })).json();
    assert.equal(answer.valid, false);
    assert.match(answer.reason, /does not verify/);
  });

  it('refuses a malformed receipt with its reason', async () => {
    const receipt = verified(await callSendMessage());
    const [header, payload, signature] = receipt.jws.split('.') as [string, string, string];
    const cases: [string, RegExp][] = [
      ['not-a-jws', /^a malformed receipt: it is not a compact JWS/],
      [`${reencode(header, (h) => ({ ...h, alg: 'HS256' }))}.${payload}.${signature}`, /^a malformed receipt: its header names alg "HS256", not EdDSA/],
      [`${reencode(header, (h) => ({ ...h, crit: ['exp'] }))}.${payload}.${signature}`, /^a malformed receipt: its header has crit/],
    ];
    for (const [jws, reason] of cases) {
      const result = await checkReceipt(jws, sentOf(receipt), receiptsOf(sendMessage), options());
      assert.equal(result.verified, false);
      assert.match((result as { reason: string }).reason, reason);
    }
  });

  it('refuses a receipt for another call: a valid receipt of the first call is not one of the second (nonce, then Content-Digest)', async () => {
    const first = verified(await callSendMessage());
    const second = verified(await callSendMessage());
    const otherNonce = await checkReceipt(first.jws, sentOf(second), receiptsOf(sendMessage), options());
    assert.equal(otherNonce.verified, false);
    assert.match((otherNonce as { reason: string }).reason, /^a receipt for another call: its nonce "[^"]+" is not the one this call was signed with/);
    const otherDigest = await checkReceipt(first.jws, { ...sentOf(first), contentDigest: second.contentDigest }, receiptsOf(sendMessage), options());
    assert.equal(otherDigest.verified, false);
    assert.match((otherDigest as { reason: string }).reason, /^a receipt for another call: its contentDigest "sha-256=:[^"]+:" is not the Content-Digest this call sent/);
    const otherStatus = await checkReceipt(first.jws, { ...sentOf(first), status: 201 }, receiptsOf(sendMessage), options());
    assert.match((otherStatus as { reason: string }).reason, /^the receipt states status 200, but the site answered 201/);
  });

  it('refuses a receipt signed by an unknown key, after fetching the site\'s keys once', async () => {
    const receipt = verified(await callSendMessage());
    const stranger = createReceiptKey();
    const claims = JSON.parse(Buffer.from(receipt.jws.split('.')[1]!, 'base64url').toString('utf8'));
    const forged = signReceipt(claims, stranger);
    const result = await checkReceipt(forged, sentOf(receipt), receiptsOf(sendMessage), options());
    assert.deepEqual(result, {
      verified: false, jws: forged,
      reason: `signed by an unknown key: ${stranger.kid} is not in the site's receipt keys at /.well-known/agentgate-keys.json`,
    });
    const lookup = { jwks: new URL(receiptsOf(sendMessage).jwks), origin: demo.url, timeoutMs: 5_000 };
    assert.equal((await findReceiptKey(lookup, stranger.kid)).fetched, 1, 'an unknown kid fetches the keys once per lookup, not more');
  });

  it('picks up a key rotation: a receipt with the new kid fetches the keys once, then they are kept', async () => {
    const lookup = { jwks: new URL(receiptsOf(sendMessage).jwks), origin: demo.url, timeoutMs: 5_000 };
    const before = verified(await callSendMessage());
    assert.equal((await findReceiptKey(lookup, before.kid)).fetched, 0, 'the keys fetched for the first receipt are kept');
    const jwksFetches = await countJWKSFetches(async () => verified(await callSendMessage()));
    assert.equal(jwksFetches.count, 0, 'a receipt of a kept kid fetches nothing');
    const rotated = demo.app.agentGate.rotateReceiptKey();
    assert.notEqual(rotated, before.kid);
    const { result: after, count } = await countJWKSFetches(async () => verified(await callSendMessage()));
    assert.equal(count, 1, 'the new kid fetches the keys exactly once');
    assert.equal(after.kid, rotated);
    assert.equal((await findReceiptKey(lookup, rotated)).fetched, 0, 'the refetched keys are kept');
    // A receipt signed before the rotation still verifies: the JWKS keeps the previous key.
    assert.equal((await checkReceipt(before.jws, sentOf(before), receiptsOf(sendMessage), options())).verified, true);
  });

  it('reports a missing receipt header as not verified, never dropping the call\'s answer', async () => {
    const result = await checkReceipt(null, { tool: 'send_message', origin: demo.url, nonce: 'n', contentDigest: 'd', status: 200 }, receiptsOf(sendMessage), options());
    assert.deepEqual(result, { verified: false, reason: 'no receipt: the site declares receipts, but its 200 answer has no AgentGate-Receipt header' });
  });
});
