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
  agentKeysUrl: string;
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
  signers.set(signerFromCryptoKey(key, { label: 'sig1', keyid: await jwkThumbprint(DEMO_AGENT_PRIVATE_JWK as Json), signatureAgent: demo.agentKeysUrl }), 'test');
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
    assert.equal(readOptions({ script: script(' 0.05 USD ') }, 'https://shop.example').settings.maxPrice, '0.05 USD');
    assert.equal(readOptions({ values: { maxPrice: 'USD 0.05' } }, 'https://shop.example').settings.maxPrice, 'USD 0.05');
    for (const bad of ['0.05', 'usd 0.05', '-1 USD', '1e3 USD', '0.0000001 USD']) assert.equal('maxPrice' in readOptions({ values: { maxPrice: bad } }, 'https://shop.example').settings, false, bad);
    const bad = readOptions({ script: script('five dollars') }, 'https://shop.example');
    assert.equal('maxPrice' in bad.settings, false);
    assert.match(bad.problems[0]!.message, /^data-max-price="five dollars" is not a price such as "0.05 USD"/);
  });

  test('a price is paid only within the cap, in its currency', () => {
    const cap = '0.05 USD';
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
    const outcome = await call('request_callback', { id: freshId(), topic: 'boots', polls: 20, retryAfter: 1 }, configWith(), undefined, { handoffMaxWaitMs: 1_500 });
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
    const outcome = await call('stock_report', { category: 'jackets' }, configWith({ maxPrice: '0.05 USD' }));
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    assert.deepEqual((outcome as Json).answer, { answer: { category: 'jackets', inStock: 17 }, payment: { price: 'USD 0.02', charged: 'USD 0.02' } });
    assert.deepEqual((outcome as Json).data, { category: 'jackets', inStock: 17 });
  });

  test('a price above the cap is never paid', async () => {
    const charges = demo.app.agentGate.charges.length;
    const outcome = await call('stock_report', { category: 'archive' }, configWith({ maxPrice: '0.05 USD' }));
    assert.match((outcome as Json).reason, /costs USD 0\.50 .* above this page's cap of USD 0\.05/);
    assert.equal(demo.app.agentGate.charges.length, charges);
  });

  test('a crawler-error is reported with its code', async () => {
    const outcome = await call('stock_report', { category: 'gift-cards' }, configWith({ maxPrice: '0.05 USD' }));
    assert.match((outcome as Json).reason, /refused payment of USD 0\.01 .*crawler-error PaymentFailed \(402\)/);
  });
});

/** A local site that answers from a script, for the edges the demo does not show. */
describe('handoff and retries against a scripted site', () => {
  type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'break';
  let server: import('node:http').Server;
  let base: string;
  let script: Answer[] = [];
  const seen: { method: string; path: string; nonce: string; covered: string }[] = [];

  before(async () => {
    const { createServer } = await import('node:http');
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const input = String(req.headers['signature-input']);
        seen.push({ method: req.method!, path: req.url!, nonce: /nonce="([^"]+)"/.exec(input)?.[1] ?? '', covered: /\(([^)]*)\)/.exec(input)?.[1] ?? '' });
        const answer = script.shift() ?? { status: 200, body: '{"status":"completed"}' };
        if (answer === 'break') {
          req.socket.destroy();
          return;
        }
        setTimeout(() => {
          res.writeHead(answer.status, { 'content-type': 'application/json', connection: 'close', ...answer.headers });
          res.end(answer.body ?? '');
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

  function scriptedSpec(annotations: { idempotentHint?: boolean; readOnlyHint?: boolean } = {}, outputSchema?: Json, components?: string[]): ToolSpec {
    const send = specs.get('send_message')!;
    const binding = send.binding as Json;
    return {
      ...send,
      ...(outputSchema ? { outputSchema } : {}),
      hints: { idempotentHint: annotations.idempotentHint ?? false },
      annotations: { readOnlyHint: annotations.readOnlyHint ?? false },
      // The scripted site issues no receipts (the demo's receipts are tested in agentgate-receipts).
      binding: { ...binding, target: `${base}/agent/x`, handoffPoll: `${base}/v1/handoff/{id}`, receipts: undefined, ...(components ? { auth: { ...binding.auth, components } } : {}) },
    };
  }
  const run = (spec: ToolSpec, options = {}, config: Json = {}) => callAgentGate(spec, { id: 'x' }, { config: configWith({ origin: base, ...config } as Json), signal: new AbortController().signal, messages: {} }, options);
  const reset = (...answers: Answer[]) => {
    script = answers;
    seen.length = 0;
  };

  test('a Retry-After beyond the bound answers pending at once, without a poll', async () => {
    reset({ status: 202, headers: { 'retry-after': '120' }, body: '{"handoffId":"h1"}' });
    const outcome = await run(scriptedSpec(), { handoffMaxWaitMs: 5_000 }) as Json;
    assert.equal(outcome.answer.status, 'pending');
    assert.match(outcome.answer.reason, /the site asked to wait 120000 ms before polling, beyond this call's bound of 5000 ms/);
    assert.equal(outcome.runtimeStatus, true);
    assert.deepEqual(seen.map((request) => request.method), ['POST']);
  });

  test('a poll that breaks is tried again (polls only read); a 404 ends the wait', async () => {
    reset({ status: 202, headers: { 'retry-after': '0' }, body: '{"handoffId":"h2"}' }, 'break', { status: 404, body: '{"message":"gone"}' });
    const outcome = await run(scriptedSpec()) as Json;
    assert.equal(outcome.ok, false);
    assert.match(outcome.reason, /^the site no longer knows handoff h2 \(\/v1\/handoff\/h2 answered 404: gone\)/);
    assert.deepEqual(seen.map((request) => `${request.method} ${request.path}`), ['POST /agent/x', 'GET /v1/handoff/h2', 'GET /v1/handoff/h2']);
    assert.notEqual(seen[1]!.nonce, seen[2]!.nonce);
  });

  test('AgentGate "signed with at least the auth[0].components": a manifest listing only content-digest still gets @authority, @method and @path covered (red-team 2026-12-02)', async () => {
    reset({ status: 200, body: '{"status":"accepted"}' });
    await run(scriptedSpec({}, undefined, ['content-digest']));
    assert.equal(seen[0]!.covered, '"content-digest" "@authority" "@method" "@path" "signature-agent";key="sig1"');
  });

  test('a handoff poll covers what a GET carries: a call signed over content-type polls without it, and gets its answer (red-team 2026-12-02)', async () => {
    reset({ status: 202, headers: { 'retry-after': '0' }, body: '{"handoffId":"h4"}' }, { status: 200, body: '{"status":"completed"}' });
    const outcome = await run(scriptedSpec({}, undefined, ['@authority', '@method', '@path', 'content-digest', 'content-type'])) as Json;
    assert.deepEqual(outcome.answer, { status: 'completed', handoffId: 'h4', answer: { status: 'completed' } });
    assert.equal(seen[0]!.covered, '"@authority" "@method" "@path" "content-digest" "content-type" "signature-agent";key="sig1"');
    assert.equal(seen[1]!.covered, '"@authority" "@method" "@path" "content-digest" "signature-agent";key="sig1"');
  });

  test('a handoff poll that cannot be sent (the agent took its signer back) answers pending with the handoffId, not an error that invites sending the call again', async () => {
    reset({ status: 202, headers: { 'retry-after': '0' }, body: '{"handoffId":"h5"}' });
    const held = configWith().signers as unknown as { get(type: string): unknown };
    let asked = 0;
    const once = { get: (type: string) => (asked++ === 0 ? held.get(type) : undefined) };
    const outcome = await run(scriptedSpec(), {}, { signers: once }) as Json;
    assert.equal(outcome.ok, true);
    assert.equal(outcome.answer.status, 'pending');
    assert.equal(outcome.answer.handoffId, 'h5');
    assert.match(outcome.answer.reason, /^the site accepted the call, but its handoff poll was not sent: .*no web-bot-auth signer is held any more/);
    assert.deepEqual(seen.map((request) => request.method), ['POST']);
  });

  test('a handoff id "." or ".." is no handoff: no signed GET goes to a parent path (red-team 2026-12-02)', async () => {
    for (const id of ['.', '..']) {
      reset({ status: 202, headers: { 'retry-after': '0' }, body: JSON.stringify({ handoffId: id }) });
      assert.deepEqual(await run(scriptedSpec()), { ok: true, answer: { handoffId: id }, data: { handoffId: id } });
      assert.deepEqual(seen.map((request) => request.method), ['POST']);
    }
  });

  test('one deadline for every send of a call: a 403 answered late leaves the resend only the rest of timeoutMs (red-team 2026-12-02)', async () => {
    const ask = 'sig1=("@authority" "@method" "@path" "content-digest" "content-type" "signature-agent";key="sig1");tag="web-bot-auth"';
    reset({ status: 403, headers: { 'accept-signature': ask }, delayMs: 700 }, { status: 200, body: '{"status":"accepted"}', delayMs: 700 });
    const outcome = await run(scriptedSpec(), {}, { timeoutMs: 1_000 }) as Json;
    assert.equal(seen.length, 2);
    assert.equal(outcome.ok, false);
    assert.match(outcome.reason, /^the signed call to \/agent\/x was sent but no answer came within \d+ ms/);
  });

  test('a 202 without a handoff id is the site\'s answer as it is', async () => {
    reset({ status: 202, body: '{"status":"queued"}' });
    assert.deepEqual(await run(scriptedSpec()), { ok: true, answer: { status: 'queued' }, data: { status: 'queued' } });
  });

  test('a pending answer is the runtime\'s status: the tool\'s outputSchema is not applied to it', async () => {
    const { callTool } = await import('../../src/bindings/index.ts');
    reset({ status: 202, headers: { 'retry-after': '60' }, body: '{"handoffId":"h3"}' });
    const spec = scriptedSpec({}, { type: 'object', properties: { callback: { type: 'string' } }, required: ['callback'] });
    const result = await callTool({ ...spec, inputSchema: { type: 'object' } }, {}, undefined, configWith({ origin: base } as Json), new AbortController().signal);
    assert.equal(result.isError, undefined, result.content[0]!.text);
    assert.equal(JSON.parse(result.content[0]!.text).status, 'pending');
  });

  test('a non-idempotent tool is never retried after a network failure; an idempotent or read-only one once, with a fresh nonce', async () => {
    reset('break');
    assert.match((await run(scriptedSpec()) as Json).reason, /failed: network error/);
    assert.equal(seen.length, 1);
    for (const annotations of [{ idempotentHint: true }, { readOnlyHint: true }]) {
      reset('break', { status: 200, body: '{"status":"accepted"}' });
      assert.deepEqual((await run(scriptedSpec(annotations)) as Json).answer, { status: 'accepted' });
      assert.equal(seen.length, 2);
      assert.notEqual(seen[0]!.nonce, seen[1]!.nonce);
    }
    reset('break', 'break');
    assert.equal((await run(scriptedSpec({ idempotentHint: true })) as Json).ok, false);
    assert.equal(seen.length, 2); // once, not twice
  });

  test('a paid send is never resent after a network failure, even for an idempotent tool', async () => {
    reset({ status: 402, headers: { 'crawler-price': 'USD 0.01' } }, 'break');
    const outcome = await callAgentGate(scriptedSpec({ idempotentHint: true }), { id: 'x' }, { config: configWith({ origin: base, maxPrice: '0.05 USD' } as Json), signal: new AbortController().signal, messages: {} }) as Json;
    assert.equal(outcome.ok, false);
    assert.match(outcome.reason, /\(a payment of USD 0\.01 was offered; whether it was charged is unknown\)$/);
    assert.equal(seen.length, 2);
  });
});
