/**
 * Issue 12 in real Chromium: the AgentGate call executor (callAgentGate) makes real signed calls
 * from the page to the demo site (served by the dev server, test/support/agentgate-routes.js),
 * signed as the demo agent whose key directory the page's own origin publishes. Each refusal is a
 * named test; the server's own records (its log of verified calls and polls, its charges, and the
 * fixture's request counts) are what the assertions read.
 */
import { expect } from 'chai';
import { del } from 'idb-keyval';
import { parseDictionary, type InnerList } from 'structured-headers';
import { DEMO_AGENT_PRIVATE_JWK } from '../../demo/server/agentgate/demo-keys.js';
import { HANDOFF_STATUS_TOOL } from '../../src/agentgate/handoff.ts';
import { createHandoffStatusTool } from '../../src/agentgate/handoff-status-tool.ts';
import { checkAgentGateTool, readAgentGateManifest } from '../../src/agentgate/manifest-rules.ts';
import { loadStoredSigner } from '../../src/agentgate/stored-signer.ts';
import { callAgentGate, type AgentGateCallOptions } from '../../src/agentgate/tool-call.ts';
import type { RuntimeConfig } from '../../src/config.ts';
import type { ToolSpec } from '../../src/declarations/tool-spec.ts';
import { SignerSlots } from '../../src/signer-slots.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const STORAGE_KEY = 'capell-webmcp:test:agent-native';
let specs: Map<string, ToolSpec>;
let signers: SignerSlots;

const configWith = (extra: Partial<RuntimeConfig> = {}): RuntimeConfig => (
  { origin: location.origin, timeoutMs: 5_000, signers, ...extra } as unknown as RuntimeConfig
);
function call(name: string, input: Record<string, unknown>, { config = configWith(), signal = new AbortController().signal, options = {} as AgentGateCallOptions } = {}) {
  return callAgentGate(specs.get(name)!, input, { config, signal, messages: {} }, options);
}
let seq = 0;
const freshId = (what: string) => `${what}-${Date.now()}-${(seq += 1)}`;

/** The demo site's records: every signed call and poll (verified or refused), and the charges. */
async function serverRecords(): Promise<{ log: Json[]; charges: Json[] }> {
  return (await fetch('/test-fixtures/agentgate/log', { cache: 'no-store' })).json();
}
const pollsOf = (log: Json[], handoffId: string) => log.filter((entry) => entry.path === `/v1/handoff/${handoffId}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

before(async () => {
  const { signer } = await loadStoredSigner({ alg: 'ed25519', signatureAgent: location.origin, privateJwk: { ...DEMO_AGENT_PRIVATE_JWK }, storageKey: STORAGE_KEY });
  signers = new SignerSlots();
  signers.set(signer, 'test');
  const reading = readAgentGateManifest(await (await fetch('/.well-known/agentgate-tools.json')).text());
  specs = new Map();
  for (const tool of reading.tools) {
    const checked = checkAgentGateTool(tool, { source: 'agentgate[0]', origin: location.origin, messages: {} });
    if (checked.ok) specs.set(checked.spec.name, checked.spec);
  }
});

after(() => del(STORAGE_KEY));

describe('AgentGate handoff (request_callback → GET /v1/handoff/{id})', function () {
  this.timeout(20_000);

  it('handoff resolves after several polls', async () => {
    const outcome = await call('request_callback', { id: freshId('callback'), topic: 'boot repair', polls: 3, retryAfter: 0 }) as Json;
    expect(outcome.ok, outcome.reason).to.equal(true);
    expect(outcome.answer).to.deep.include({ status: 'completed' });
    expect(outcome.answer.answer.result).to.deep.include({ callback: 'scheduled', topic: 'boot repair' });
    const polls = pollsOf((await serverRecords()).log, outcome.answer.handoffId);
    expect(polls.map((entry) => [entry.outcome, entry.status])).to.deep.equal([['verified', 200], ['verified', 200], ['verified', 200]]);
  });

  it('honours Retry-After: never polls sooner than the site asked', async () => {
    const started = Date.now();
    const outcome = await call('request_callback', { id: freshId('callback'), topic: 'boot repair', polls: 3, retryAfter: 1 }) as Json;
    expect(outcome.ok, outcome.reason).to.equal(true);
    const log = (await serverRecords()).log;
    const times = pollsOf(log, outcome.answer.handoffId).map((entry) => Date.parse(entry.at));
    expect(times).to.have.length(3);
    // The 202 asked for 1 s, each pending poll for 1 s again (the log's times are whole ms).
    expect(times[0]! - started).to.be.at.least(950);
    expect(times[1]! - times[0]!).to.be.at.least(950);
    expect(times[2]! - times[1]!).to.be.at.least(950);
  });

  it('times out to pending with the id and agentgate.handoff.status, which asks again until final', async () => {
    // One runtime: the status tool knows the handoffs of calls made with the same config.
    const config = configWith();
    const outcome = await call('request_callback', { id: freshId('callback'), topic: 'boot repair', polls: 4, retryAfter: 1 }, { config, options: { handoffMaxWaitMs: 1_500 } }) as Json;
    expect(outcome.ok, outcome.reason).to.equal(true);
    const { handoffId } = outcome.answer;
    expect(outcome.answer).to.deep.include({ status: 'pending', next: { tool: HANDOFF_STATUS_TOOL, input: { handoffId } } });
    expect(outcome.answer.reason).to.match(/beyond this call's bound of 1500 ms/);
    expect(pollsOf((await serverRecords()).log, handoffId)).to.have.length(1);

    const stop = new AbortController();
    const tool = createHandoffStatusTool(config, stop.signal);
    expect(tool.annotations).to.deep.equal({ readOnlyHint: true });
    const asked = await tool.execute({ handoffId });
    expect(asked.isError, asked.content[0]!.text).to.equal(undefined);
    const once = JSON.parse(asked.content[0]!.text);
    expect(once).to.deep.include({ status: 'pending', handoffId });
    const final = await tool.execute({ handoffId, waitMs: 5_000 });
    expect(final.isError).to.equal(undefined);
    expect(JSON.parse(final.content[0]!.text)).to.deep.include({ status: 'completed', handoffId });
    expect(pollsOf((await serverRecords()).log, handoffId)).to.have.length(4);
    const unknown = await tool.execute({ handoffId: 'h_never-seen' });
    expect(unknown.isError).to.equal(true);
    expect(unknown.content[0]!.text).to.match(/no pending handoff "h_never-seen" on this page/);
  });

  it('stops on abort with no further request (server-side count)', async () => {
    const agent = new AbortController();
    const before = (await serverRecords()).log.length;
    const pending = call('request_callback', { id: freshId('callback'), topic: 'boot repair', polls: 20, retryAfter: 1 }, { signal: agent.signal });
    // The 202 and its first poll (after the 1 s Retry-After) reach the site; then the agent aborts.
    let handoffId: string | undefined;
    for (let tries = 0; tries < 100 && !handoffId; tries += 1) {
      await sleep(50);
      handoffId = (await serverRecords()).log.slice(before).find((entry) => entry.path.startsWith('/v1/handoff/') && entry.outcome === 'verified')?.path.slice('/v1/handoff/'.length);
    }
    expect(handoffId, 'the first poll reached the site').to.be.a('string');
    agent.abort();
    const outcome = await pending as Json;
    expect(outcome.ok).to.equal(false);
    expect(outcome.reason).to.match(new RegExp(`^the call was aborted while request_callback's handoff ${handoffId} was pending`));
    const countAtAbort = pollsOf((await serverRecords()).log, handoffId!).length;
    await sleep(2_500); // more than two Retry-After periods
    expect(pollsOf((await serverRecords()).log, handoffId!).length).to.equal(countAtAbort);
  });
});

describe('AgentGate payment (stock_report, pay per crawl)', () => {
  const cap = '0.05 USD';

  it('no payment header without a cap: the 402 is an error stating the price and how to allow it', async () => {
    const before = (await serverRecords()).log.length;
    const outcome = await call('stock_report', { category: 'boots' }) as Json;
    expect(outcome.ok).to.equal(false);
    expect(outcome.reason).to.match(/costs USD 0\.01 \(402, crawler-price\) and was not paid: this page allows no payment; its owner can allow up to that price with data-max-price="0\.01 USD"/);
    const calls = (await serverRecords()).log.slice(before);
    expect(calls.map((entry) => [entry.path, entry.status, entry.offered])).to.deep.equal([['/agent/stock-report', 402, undefined]]);
  });

  it('a price above the cap is never paid', async () => {
    const before = await serverRecords();
    const outcome = await call('stock_report', { category: 'archive' }, { config: configWith({ maxPrice: cap }) }) as Json;
    expect(outcome.ok).to.equal(false);
    expect(outcome.reason).to.match(/costs USD 0\.50 .*not paid: above this page's cap of USD 0\.05/);
    const after = await serverRecords();
    expect(after.log.slice(before.log.length).map((entry) => [entry.status, entry.offered])).to.deep.equal([[402, undefined]]);
    expect(after.charges).to.have.length(before.charges.length);
  });

  it('a charged call reports crawler-charged', async () => {
    const before = await serverRecords();
    const outcome = await call('stock_report', { category: 'boots' }, { config: configWith({ maxPrice: cap }) }) as Json;
    expect(outcome.ok, outcome.reason).to.equal(true);
    expect(outcome.answer).to.deep.equal({ answer: { category: 'boots', inStock: 42 }, payment: { price: 'USD 0.01', charged: 'USD 0.01' } });
    const after = await serverRecords();
    expect(after.log.slice(before.log.length).map((entry) => [entry.outcome, entry.status, entry.offered])).to.deep.equal([['verified', 402, undefined], ['verified', 200, 'USD 0.01']]);
    expect(after.charges.slice(before.charges.length).map((charge: Json) => charge.price)).to.deep.equal(['USD 0.01']);
  });

  it('a crawler-error is reported with its code', async () => {
    const outcome = await call('stock_report', { category: 'gift-cards' }, { config: configWith({ maxPrice: cap }) }) as Json;
    expect(outcome.ok).to.equal(false);
    expect(outcome.reason).to.match(/^the site refused payment of USD 0\.01 for the call to \/agent\/stock-report: crawler-error PaymentFailed \(402\)/);
  });
});

describe('AgentGate retries after a network failure', () => {
  /** A tool whose endpoint fails at the network level on its first request (the fixture's drop-once route). */
  function dropOnceSpec(key: string, idempotent: boolean): ToolSpec {
    const send = specs.get('send_message')!;
    return {
      ...send,
      hints: { ...send.hints, idempotentHint: idempotent },
      binding: { ...(send.binding as Json), target: `${location.origin}/test-fixtures/agentgate/drop-once/${key}` },
    };
  }
  async function requestsOf(key: string): Promise<{ body: string; signatureInput: string }[]> {
    return (await (await fetch(`/test-fixtures/agentgate/drop-once-count/${key}`, { cache: 'no-store' })).json()).requests;
  }
  const nonceOf = (signatureInput: string) => (parseDictionary(signatureInput).get('sig1') as InnerList)[1].get('nonce');

  it('a non-idempotent tool is never retried', async () => {
    const key = freshId('never');
    const outcome = await callAgentGate(dropOnceSpec(key, false), { id: 'message-0001', message: 'hi' }, { config: configWith(), signal: new AbortController().signal, messages: {} }) as Json;
    expect(outcome.ok).to.equal(false);
    expect(outcome.reason).to.match(/failed: network error/);
    expect(await requestsOf(key)).to.have.length(1);
  });

  it('an idempotent one is retried once: same body, fresh signature and nonce', async () => {
    const key = freshId('once');
    const outcome = await callAgentGate(dropOnceSpec(key, true), { id: 'message-0002', message: 'hi' }, { config: configWith(), signal: new AbortController().signal, messages: {} }) as Json;
    expect(outcome.ok, outcome.reason).to.equal(true);
    expect(outcome.answer).to.deep.equal({ status: 'accepted' });
    const requests = await requestsOf(key);
    expect(requests).to.have.length(2);
    expect(requests[1]!.body).to.equal(requests[0]!.body);
    expect(nonceOf(requests[1]!.signatureInput)).to.not.equal(nonceOf(requests[0]!.signatureInput));
  });
});
