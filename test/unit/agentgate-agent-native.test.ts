/**
 * Issue 12's agent-native answers end to end in Node, the runtime's executor (callAgentGate)
 * against the real demo server and demo agent: handoff polling (request_callback, GET
 * /v1/handoff/{id}), capped payment (stock_report, pay per crawl headers), the price parser and
 * the option that caps it. The same behaviour runs in Chromium in
 * test/browser/agentgate-agent-native.on.test.ts and test/e2e/agentgate-agent-native.on.spec.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoServer } from '../../demo/server/start.js';
import { DEMO_AGENT_PRIVATE_JWK } from '../../demo/server/agentgate/demo-keys.js';
import { HANDOFF_STATUS_TOOL } from '../../src/agentgate/handoff.ts';
import { jwkThumbprint } from '../../src/agentgate/jwk-thumbprint.ts';
import { checkAgentGateTool, readAgentGateManifest } from '../../src/agentgate/manifest-rules.ts';
import { decidePayment } from '../../src/agentgate/payment.ts';
import { parsePrice, priceMicros } from '../../src/agentgate/payment-price.ts';
import { signerFromCryptoKey } from '../../src/agentgate/signer.ts';
import { callAgentGate } from '../../src/agentgate/tool-call.ts';
import { readOptions, type RuntimeConfig } from '../../src/config.ts';
import type { ToolSpec } from '../../src/declarations/tool-spec.ts';
import { SignerSlots } from '../../src/signer-slots.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

interface Demo {
  url: string;
  agentUrl: string;
  app: { agentGate: { log: Json[]; charges: Json[]; handoffs: Map<string, Json> } };
  close(): Promise<void>;
}

let demo: Demo;
let specs: Map<string, ToolSpec>;
let signers: SignerSlots;

const configWith = (extra: Partial<RuntimeConfig> = {}): RuntimeConfig => ({ origin: demo.url, timeoutMs: 5_000, signers, ...extra }) as unknown as RuntimeConfig;
const call = (name: string, input: Record<string, unknown>, config = configWith(), signal = new AbortController().signal, options = {}) => (
  callAgentGate(specs.get(name)!, input, { config, signal, messages: {} }, options)
);
let seq = 0;
const freshId = () => `native-${Date.now()}-${(seq += 1)}`;
const pollsOf = (handoffId: string) => demo.app.agentGate.log.filter((entry) => entry.path === `/v1/handoff/${handoffId}`);

before(async () => {
  demo = await startDemoServer({ port: 0 }) as Demo;
  const key = await crypto.subtle.importKey('jwk', { ...DEMO_AGENT_PRIVATE_JWK }, { name: 'Ed25519' }, false, ['sign']);
  signers = new SignerSlots();
  signers.set(signerFromCryptoKey(key, { label: 'sig1', keyid: await jwkThumbprint(DEMO_AGENT_PRIVATE_JWK as Json), signatureAgent: demo.agentUrl }), 'test');
  const reading = readAgentGateManifest(await (await fetch(`${demo.url}/.well-known/agentgate-tools.json`)).text());
  specs = new Map();
  for (const tool of reading.tools) {
    const checked = checkAgentGateTool(tool, { source: 'agentgate[0]', origin: demo.url, messages: {} });
    if (checked.ok) specs.set(checked.spec.name, checked.spec);
  }
});

after(() => demo.close());

describe('prices', () => {
  test('reads "0.05 USD" and "USD 0.05" alike, exactly, and refuses what is not a price', () => {
    assert.deepEqual(parsePrice('0.05 USD'), { currency: 'USD', amount: '0.05' });
    assert.deepEqual(parsePrice('USD 0.05'), { currency: 'USD', amount: '0.05' });
    assert.equal(priceMicros(parsePrice('USD 0.1')!), 100_000);
    for (const bad of ['0.05', 'usd 0.05', '-1 USD', '1e3 USD', '0.0000001 USD', 'USD', '', '0.05 USD EUR']) assert.equal(parsePrice(bad), undefined, bad);
  });

  test('data-max-price sets the cap; an invalid one is named and leaves no cap', () => {
    const script = (value: string) => ({ dataset: { maxPrice: value } as DOMStringMap });
    assert.deepEqual(readOptions({ script: script('0.05 USD') }, 'https://shop.example').settings.maxPrice, { currency: 'USD', amount: '0.05' });
    const bad = readOptions({ script: script('five dollars') }, 'https://shop.example');
    assert.equal('maxPrice' in bad.settings, false);
    assert.match(bad.problems[0]!.message, /^data-max-price="five dollars" is not a price such as "0.05 USD"/);
  });

  test('a price is paid only within the cap, in its currency', () => {
    const cap = parsePrice('0.05 USD');
    assert.deepEqual(decidePayment('USD 0.05', cap, '/x').pay, { currency: 'USD', amount: '0.05' });
    assert.match(decidePayment('USD 0.051', cap, '/x').reason!, /costs USD 0.051 .* above this page's cap of USD 0.05/);
    assert.match(decidePayment('EUR 0.01', cap, '/x').reason!, /another currency/);
    assert.match(decidePayment('USD 0.01', undefined, '/x').reason!, /this page allows no payment; its owner can allow up to that price with data-max-price="0.01 USD"/);
    assert.match(decidePayment(null, cap, '/x').reason!, /names no crawler-price/);
  });
});

describe('handoff against the demo site', () => {
  test('handoff resolves after several polls', async () => {
    const outcome = await call('request_callback', { id: freshId(), topic: 'boots', polls: 3, retryAfter: 0 });
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    const answer = (outcome as Json).answer;
    assert.equal(answer.status, 'completed');
    assert.equal(answer.answer.result.callback, 'scheduled');
    assert.equal(pollsOf(answer.handoffId).length, 3);
    assert.ok(pollsOf(answer.handoffId).every((entry) => entry.outcome === 'verified' && entry.status === 200));
  });

  test('handoff times out to pending with the id and the status tool', async () => {
    const outcome = await call('request_callback', { id: freshId(), topic: 'boots', polls: 20, retryAfter: 0 }, configWith(), undefined, { handoffMaxWaitMs: 1_500 });
    const answer = (outcome as Json).answer;
    assert.equal(answer.status, 'pending');
    assert.deepEqual(answer.next, { tool: HANDOFF_STATUS_TOOL, input: { handoffId: answer.handoffId } });
    assert.ok(pollsOf(answer.handoffId).length >= 1);
  });
});

describe('payment against the demo site', () => {
  test('no payment header without a cap: the 402 is an error stating the price', async () => {
    const before = demo.app.agentGate.log.length;
    const outcome = await call('stock_report', { category: 'boots' });
    assert.equal(outcome.ok, false);
    assert.match((outcome as Json).reason, /costs USD 0\.01 \(402, crawler-price\) and was not paid: this page allows no payment/);
    assert.equal(demo.app.agentGate.log.length - before, 1); // one request, never a paid retry
  });

  test('a charged call reports crawler-charged', async () => {
    const outcome = await call('stock_report', { category: 'jackets' }, configWith({ maxPrice: parsePrice('0.05 USD') }));
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    assert.deepEqual((outcome as Json).answer, { answer: { category: 'jackets', inStock: 17 }, payment: { price: 'USD 0.02', charged: 'USD 0.02' } });
    assert.deepEqual((outcome as Json).data, { category: 'jackets', inStock: 17 });
  });

  test('a price above the cap is never paid', async () => {
    const charges = demo.app.agentGate.charges.length;
    const outcome = await call('stock_report', { category: 'archive' }, configWith({ maxPrice: parsePrice('0.05 USD') }));
    assert.match((outcome as Json).reason, /costs USD 0\.50 .* above this page's cap of USD 0\.05/);
    assert.equal(demo.app.agentGate.charges.length, charges);
  });

  test('a crawler-error is reported with its code', async () => {
    const outcome = await call('stock_report', { category: 'gift-cards' }, configWith({ maxPrice: parsePrice('0.05 USD') }));
    assert.match((outcome as Json).reason, /refused payment of USD 0\.01 .*crawler-error PaymentFailed \(402\)/);
  });
});
