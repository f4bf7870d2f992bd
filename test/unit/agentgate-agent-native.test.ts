/**
 * AgentGate's agent-native answers end to end in Node, the runtime's executor (callAgentGate)
 * against the real demo server, its requests signed by the agent's network layer
 * (test/support/node-agent-fetch.ts; the page side never signs): handoff polling
 * (request_callback, GET /v1/handoff/{id}), payment as the page does it (stock_report: one resend
 * with crawler-exact-price at the price asked; whether it is paid is the agent's decision, tested
 * with capell-webmcp/agent), the price parser. The same behaviour runs in Chromium in
 * test/e2e/agentgate-agent-native.on.spec.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoServer } from '../../demo/server/start.js';
import type { RuntimeConfig } from '../../src/start/config.ts';
import type { ToolSpec } from '../../src/shared/declarations/tool-spec.ts';
import { installAgentFetch } from '../support/node-agent-fetch.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

interface Demo {
  url: string;
  agentUrl: string;
  agentKeysUrl: string;
  app: { agentGate: { log: Json[]; charges: Json[]; handoffs: Map<string, Json> } };
  close(): Promise<void>;
}

const demo = await startDemoServer({ port: 0 }) as Demo;
const agent = await installAgentFetch(demo.url, demo.agentKeysUrl);
// The runtime takes `fetch` once, when its modules are first evaluated (src/start/primitives.ts): they
// are imported only now, so that its requests go through the agent's network layer.
const { HANDOFF_STATUS_TOOL } = await import('../../src/agentgate/call/handoff.ts');
const { createHandoffStatusTool } = await import('../../src/agentgate/discover/handoff-status-tool.ts');
const { checkAgentGateTool, readAgentGateManifest } = await import('../../src/agentgate/discover/manifest-rules.ts');
const { parsePrice, priceMicros } = await import('../../src/agentgate/call/payment-price.ts');
const { callAgentGate } = await import('../../src/agentgate/call/tool-call.ts');

let specs: Map<string, ToolSpec>;

const configWith = (extra: Partial<RuntimeConfig> = {}): RuntimeConfig => ({ origin: demo.url, timeoutMs: 5_000, ...extra }) as unknown as RuntimeConfig;
const call = (name: string, input: Record<string, unknown>, config = configWith(), signal = new AbortController().signal, options = {}) => (
  callAgentGate(specs.get(name)!, input, { config, signal, messages: {} }, options)
);
let seq = 0;
const freshId = () => `native-${Date.now()}-${(seq += 1)}`;
const pollsOf = (handoffId: string) => demo.app.agentGate.log.filter((entry) => entry.path === `/v1/handoff/${handoffId}`);

before(async () => {
  const reading = readAgentGateManifest(await (await fetch(`${demo.url}/.well-known/agentgate-tools.json`)).text());
  specs = new Map();
  for (const tool of reading.tools) {
    const checked = checkAgentGateTool(tool, { source: 'agentgate[0]', origin: demo.url, messages: {} });
    if (checked.ok) specs.set(checked.spec.name, checked.spec);
  }
});

after(() => {
  agent.restore();
  return demo.close();
});

describe('prices', () => {
  test('reads "0.05 USD" and "USD 0.05" alike, exactly, and refuses what is not a price', () => {
    assert.deepEqual(parsePrice('0.05 USD'), { currency: 'USD', amount: '0.05' });
    assert.deepEqual(parsePrice('USD 0.05'), { currency: 'USD', amount: '0.05' });
    assert.equal(priceMicros(parsePrice('USD 0.1')!), 100_000);
    for (const bad of ['0.05', 'usd 0.05', '-1 USD', '1e3 USD', '0.0000001 USD', 'USD', '', '0.05 USD EUR']) assert.equal(parsePrice(bad), undefined, bad);
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

describe('handoff against the demo site: timing, the status tool, abort', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test('honours Retry-After: never polls sooner than the site asked', async () => {
    const started = Date.now();
    const outcome = await call('request_callback', { id: freshId(), topic: 'boot repair', polls: 3, retryAfter: 1 }) as Json;
    assert.equal(outcome.ok, true, outcome.reason);
    const times = pollsOf(outcome.answer.handoffId).map((entry) => Date.parse(entry.at));
    assert.equal(times.length, 3);
    // The 202 asked for 1 s, each pending poll for 1 s again (the log's times are whole ms).
    assert.ok(times[0]! - started >= 950);
    assert.ok(times[1]! - times[0]! >= 950);
    assert.ok(times[2]! - times[1]! >= 950);
  });

  test('times out to pending with the id and agentgate.handoff.status, which asks again until final', async () => {
    // One runtime: the status tool knows the handoffs of calls made with the same config.
    const config = configWith();
    const outcome = await call('request_callback', { id: freshId(), topic: 'boot repair', polls: 4, retryAfter: 1 }, config, undefined, { handoffMaxWaitMs: 1_500 }) as Json;
    assert.equal(outcome.ok, true, outcome.reason);
    const { handoffId } = outcome.answer;
    assert.deepEqual(outcome.answer.next, { tool: HANDOFF_STATUS_TOOL, input: { handoffId } });
    assert.match(outcome.answer.reason, /beyond this call's bound of 1500 ms/);
    assert.equal(pollsOf(handoffId).length, 1);
    const tool = createHandoffStatusTool(config, new AbortController().signal);
    assert.deepEqual(tool.annotations, { readOnlyHint: true });
    const asked = await tool.execute({ handoffId });
    assert.equal(asked.isError, undefined, asked.content[0]!.text);
    assert.equal(JSON.parse(asked.content[0]!.text).status, 'pending');
    const final = await tool.execute({ handoffId, waitMs: 5_000 });
    assert.equal(final.isError, undefined);
    assert.equal(JSON.parse(final.content[0]!.text).status, 'completed');
    assert.equal(pollsOf(handoffId).length, 4);
    const unknown = await tool.execute({ handoffId: 'h_never-seen' });
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0]!.text, /no pending handoff "h_never-seen" on this page/);
  });

  test('stops on abort with no further request (server-side count)', async () => {
    const aborter = new AbortController();
    const before = demo.app.agentGate.log.length;
    const pending = call('request_callback', { id: freshId(), topic: 'boot repair', polls: 20, retryAfter: 1 }, configWith(), aborter.signal);
    let handoffId: string | undefined;
    for (let tries = 0; tries < 100 && !handoffId; tries += 1) {
      await sleep(50);
      handoffId = demo.app.agentGate.log.slice(before).find((entry) => entry.path.startsWith('/v1/handoff/') && entry.outcome === 'verified')?.path.slice('/v1/handoff/'.length);
    }
    assert.equal(typeof handoffId, 'string', 'the first poll reached the site');
    aborter.abort();
    const outcome = await pending as Json;
    assert.equal(outcome.ok, false);
    assert.match(outcome.reason, new RegExp(`^the call was aborted while request_callback's handoff ${handoffId} was pending`));
    const countAtAbort = pollsOf(handoffId!).length;
    await sleep(2_500); // more than two Retry-After periods
    assert.equal(pollsOf(handoffId!).length, countAtAbort);
  });
});

describe('payment against the demo site', () => {
  test('a 402 is sent once more with crawler-exact-price at the price asked, and the paid answer reports crawler-charged', async () => {
    const before = demo.app.agentGate.log.length;
    const outcome = await call('stock_report', { category: 'jackets' });
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    assert.deepEqual((outcome as Json).answer, { answer: { category: 'jackets', inStock: 17 }, payment: { price: 'USD 0.02', charged: 'USD 0.02' } });
    assert.deepEqual((outcome as Json).data, { category: 'jackets', inStock: 17 });
    assert.equal(demo.app.agentGate.log.length - before, 2, 'the unpaid call and one paid resend');
    assert.equal(agent.signed.at(-1)!.headers.get('crawler-exact-price'), 'USD 0.02');
  });

  test('a crawler-error is reported with its code', async () => {
    const outcome = await call('stock_report', { category: 'gift-cards' });
    assert.match((outcome as Json).reason, /refused payment of USD 0\.01 .*crawler-error PaymentFailed \(402\)/);
  });
});

/** A local site that answers from a script, for the edges the demo does not show. */
describe('handoff and retries against a scripted site', () => {
  type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'break';
  let server: import('node:http').Server;
  let base: string;
  let script: Answer[] = [];
  const seen: { method: string; path: string; signed: boolean }[] = [];

  before(async () => {
    const { createServer } = await import('node:http');
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push({ method: req.method!, path: req.url!, signed: req.headers['signature-input'] !== undefined });
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
    assert.ok(seen.every((request) => !request.signed), 'the page signs neither the call nor its polls');
  });

  test('a handoff id that is not one path segment of safe characters (".", "..", "%2e%2e", "a/b", "a?b") is no handoff: no GET goes to another path', async () => {
    for (const id of ['.', '..', '%2e%2e', 'a/b', 'a?b', '']) {
      reset({ status: 202, headers: { 'retry-after': '0' }, body: JSON.stringify({ handoffId: id }) });
      assert.deepEqual(await run(scriptedSpec()), { ok: true, answer: { handoffId: id }, data: { handoffId: id } });
      assert.deepEqual(seen.map((request) => request.method), ['POST']);
    }
  });

  test('one deadline for every send of a call: a 403 answered late leaves the resend only the rest of timeoutMs', async () => {
    const ask = 'sig1=("@authority" "@method" "@path" "content-digest" "content-type" "signature-agent";key="sig1");tag="web-bot-auth"';
    // Wide margins: the resend must start (the 403 comes at 3 s of 5) and then run out (its answer
    // would take 4 s more); a loaded machine can shift each by a second and still test the same.
    reset({ status: 403, headers: { 'accept-signature': ask }, delayMs: 3_000 }, { status: 200, body: '{"status":"accepted"}', delayMs: 4_000 });
    const outcome = await run(scriptedSpec(), {}, { timeoutMs: 5_000 }) as Json;
    assert.equal(seen.length, 2);
    assert.equal(outcome.ok, false);
    assert.match(outcome.reason, /^the call to \/agent\/x was sent but no answer came within \d+ ms/);
  });

  test('a 202 without a handoff id is the site\'s answer as it is', async () => {
    reset({ status: 202, body: '{"status":"queued"}' });
    assert.deepEqual(await run(scriptedSpec()), { ok: true, answer: { status: 'queued' }, data: { status: 'queued' } });
  });

  test('a pending answer is the runtime\'s status: the tool\'s outputSchema is not applied to it', async () => {
    const { callTool } = await import('../../src/call/call-tool.ts');
    reset({ status: 202, headers: { 'retry-after': '60' }, body: '{"handoffId":"h3"}' });
    const spec = scriptedSpec({}, { type: 'object', properties: { callback: { type: 'string' } }, required: ['callback'] });
    const result = await callTool({ ...spec, inputSchema: { type: 'object' } }, {}, undefined, configWith({ origin: base } as Json), new AbortController().signal);
    assert.equal(result.isError, undefined, result.content[0]!.text);
    assert.equal(JSON.parse(result.content[0]!.text).status, 'pending');
  });

  test('a non-idempotent tool is never retried after a network failure; an idempotent or read-only one once', async () => {
    reset('break');
    assert.match((await run(scriptedSpec()) as Json).reason, /failed: network error/);
    assert.equal(seen.length, 1);
    for (const annotations of [{ idempotentHint: true }, { readOnlyHint: true }]) {
      reset('break', { status: 200, body: '{"status":"accepted"}' });
      assert.deepEqual((await run(scriptedSpec(annotations)) as Json).answer, { status: 'accepted' });
      assert.equal(seen.length, 2);
    }
    reset('break', 'break');
    assert.equal((await run(scriptedSpec({ idempotentHint: true })) as Json).ok, false);
    assert.equal(seen.length, 2); // once, not twice
  });

  test('a paid send is never resent after a network failure, even for an idempotent tool', async () => {
    reset({ status: 402, headers: { 'crawler-price': 'USD 0.01' } }, 'break');
    const outcome = await callAgentGate(scriptedSpec({ idempotentHint: true }), { id: 'x' }, { config: configWith({ origin: base } as Json), signal: new AbortController().signal, messages: {} }) as Json;
    assert.equal(outcome.ok, false);
    assert.match(outcome.reason, /\(a payment of USD 0\.01 was offered; whether it was charged is unknown\)$/);
    assert.equal(seen.length, 2);
  });
});
