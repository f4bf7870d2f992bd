/**
 * The `agentgate` binding's executor (src/agentgate/call/tool-call.ts) against a local node:http
 * server that answers from a script: the input is the JSON body with its Content-Digest, sent
 * unsigned by the page (the agent's network layer signs; the page holds no key); a 403 with
 * Accept-Signature is sent once more (for the agent's layer to sign as asked) and a second one
 * answers that the agent's browser must sign; a 429 is retried once after Retry-After; a 402
 * is sent once more with crawler-exact-price (the agent decides whether it is paid); anything
 * else is the result.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { executeAgentGate, retryAfterMs, signedComponentsText } from '../../src/agentgate/call/tool-call.ts';
import { acceptSignatureComponents } from '../../src/agent/network-layer.ts';
import { contentDigest } from '../../src/agentgate/call/content-digest.ts';
import type { RuntimeConfig } from '../../src/start/config.ts';
import type { AgentGateAuth, ToolSpec } from '../../src/shared/declarations/tool-spec.ts';

interface Seen { method: string; path: string; headers: IncomingMessage['headers']; body: string }
type Answer = { status: number; headers?: Record<string, string>; body?: string };

let server: Server;
let base: string;
const seen: Seen[] = [];
let script: Answer[] = [];

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      const answer = script.shift() ?? { status: 200, body: '{"status":"accepted"}' };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen.length = 0;
  script = [];
});

const COMPONENTS = ['@authority', '@method', '@path', 'content-digest'];

function config(): RuntimeConfig {
  return { origin: base, timeoutMs: 5_000 } as unknown as RuntimeConfig;
}

function specWith(auth: AgentGateAuth): ToolSpec {
  return {
    name: 'send_message', description: 'Send.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false }, effect: 'write',
    binding: { type: 'agentgate', target: `${base}/agent/submit`, method: 'POST', contentType: 'application/json', auth },
    source: 'agentgate[0]', messages: {},
  };
}

const WEB_BOT_AUTH: AgentGateAuth = { type: 'web-bot-auth', components: COMPONENTS, tag: 'web-bot-auth' };
const call = (spec: ToolSpec) => executeAgentGate(spec, { id: 'message-0001', message: 'hi' }, { config: config(), signal: new AbortController().signal, messages: {} });
const BODY = '{"id":"message-0001","message":"hi"}';

describe('agentgate executor', () => {
  it('sends the input as the JSON body with the endpoint\'s method, content type and Content-Digest (RFC 9530), and no signature: the page does not sign', async () => {
    const outcome = await call(specWith(WEB_BOT_AUTH));
    assert.deepEqual(outcome, { ok: true, answer: { status: 'accepted' }, data: { status: 'accepted' } });
    assert.equal(seen.length, 1);
    const [request] = seen;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.path, '/agent/submit');
    assert.equal(request!.headers['content-type'], 'application/json');
    assert.equal(request!.body, BODY);
    assert.equal(request!.headers['content-digest'], await contentDigest(new TextEncoder().encode(BODY)));
    for (const name of ['signature', 'signature-input', 'signature-agent']) assert.equal(request!.headers[name], undefined, name);
  });

  it('sends a 403 with Accept-Signature once more (the agent\'s layer signs as asked), then answers that the agent\'s browser must sign, naming the components', async () => {
    const ask = 'sig1=("@authority" "@method" "@path" "content-digest" "signature-agent";key="sig1");tag="web-bot-auth"';
    script = [
      { status: 403, headers: { 'accept-signature': ask }, body: '{"message":"The request is not signed."}' },
      { status: 403, headers: { 'accept-signature': ask }, body: '{"message":"The request is not signed."}' },
    ];
    const outcome = await call(specWith(WEB_BOT_AUTH));
    assert.equal(seen.length, 2, 'one resend, never a second');
    assert.equal(seen[1]!.body, BODY);
    assert.deepEqual(outcome, {
      ok: false,
      reason: 'the site refused the call to /agent/submit as not signed (403: The request is not signed.): send_message must be signed by the agent\'s own browser (capell-webmcp/agent, or a signing extension or proxy) with Web Bot Auth (Ed25519, with Signature-Agent) over "@authority" "@method" "@path" "content-digest" "signature-agent";key="sig1"; this page does not sign, and no agent signed it',
    });
  });

  it('names the shared key for a shared-key tool refused with 401', async () => {
    script = [{ status: 401, body: '{"message":"Unknown key."}' }];
    const outcome = await call(specWith({ type: 'shared-key', components: ['@method'] }));
    assert.equal(seen.length, 1);
    assert.equal(outcome.ok, false);
    assert.match((outcome as { reason: string }).reason, /^the site refused the call to \/agent\/submit as not signed \(401: Unknown key\.\): send_message must be signed .* with the key this site issued to the agent \(shared-key, HMAC\) over "@method" "@authority" "@path" "content-digest";/);
  });

  it('takes a 403 without Accept-Signature as the result', async () => {
    script = [{ status: 403, body: '{"message":"no"}' }];
    const outcome = await call(specWith(WEB_BOT_AUTH));
    assert.equal(seen.length, 1);
    assert.deepEqual(outcome, { ok: false, reason: 'the site refused the call to /agent/submit with 403: no' });
  });

  it('retries a 429 once after Retry-After, and takes a second 429 as the result', async () => {
    script = [
      { status: 429, headers: { 'retry-after': '1' }, body: '{"message":"nonce reused"}' },
      { status: 429, headers: { 'retry-after': '1' }, body: '{"message":"again"}' },
    ];
    const started = Date.now();
    const outcome = await call(specWith(WEB_BOT_AUTH));
    assert.equal(seen.length, 2);
    assert.ok(Date.now() - started >= 950, 'waited for Retry-After');
    assert.deepEqual(outcome, { ok: false, reason: 'the site refused the call to /agent/submit with 429: again' });
  });

  it('sends a 402 once more with crawler-exact-price at the price asked, never a third time; the page sets no cap', async () => {
    script = [
      { status: 402, headers: { 'crawler-price': 'USD 0.50' }, body: '{"message":"Payment required."}' },
      { status: 200, headers: { 'crawler-charged': 'USD 0.50' }, body: '{"status":"accepted"}' },
    ];
    const outcome = await call(specWith(WEB_BOT_AUTH));
    assert.equal(seen.length, 2);
    assert.equal(seen[0]!.headers['crawler-exact-price'], undefined);
    assert.equal(seen[1]!.headers['crawler-exact-price'], 'USD 0.50');
    assert.deepEqual(outcome, { ok: true, answer: { answer: { status: 'accepted' }, payment: { price: 'USD 0.50', charged: 'USD 0.50' } }, data: { status: 'accepted' } });
  });

  it('answers a 402 the agent did not pay (no crawler-price, the agent\'s reason) as isError with that reason, sending nothing more', async () => {
    script = [{ status: 402, body: '{"message":"not paid: the site asks USD 0.50; the agent\'s cap is 0.05 USD a call"}' }];
    const outcome = await call(specWith(WEB_BOT_AUTH));
    assert.equal(seen.length, 1);
    assert.deepEqual(outcome, { ok: false, reason: 'the call to /agent/submit was not paid (402: not paid: the site asks USD 0.50; the agent\'s cap is 0.05 USD a call)' });
  });

  it('answers a paid retry that is refused again with 402 as isError, naming the price', async () => {
    script = [
      { status: 402, headers: { 'crawler-price': 'USD 0.50' } },
      { status: 402, body: '{"message":"not paid: the agent\'s budget has USD 0.10 left"}' },
    ];
    const outcome = await call(specWith(WEB_BOT_AUTH));
    assert.equal(seen.length, 2);
    assert.deepEqual(outcome, { ok: false, reason: 'the call to /agent/submit costs USD 0.50 and was not paid (402: not paid: the agent\'s budget has USD 0.10 left)' });
  });

  it('writes the components an agent signs as Signature-Input lists them', () => {
    assert.equal(signedComponentsText({ type: 'web-bot-auth', components: ['content-digest'], tag: 'web-bot-auth' }), '"content-digest" "@authority" "@method" "@path" "signature-agent";key="sig1"');
    assert.equal(signedComponentsText({ type: 'shared-key', components: [] }), '"@authority" "@method" "@path" "content-digest"');
  });

  it('reads Accept-Signature members (the agent\'s layer, for a resend) and Retry-After as seconds or a date', () => {
    assert.deepEqual(acceptSignatureComponents('sig1=("@authority" "signature-agent";key="sig1");tag="web-bot-auth"'), ['@authority', { name: 'signature-agent', key: 'sig1' }]);
    assert.deepEqual(acceptSignatureComponents('not a dictionary ('), []);
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6_000);
    assert.equal(retryAfterMs(null), 0);
  });
});
