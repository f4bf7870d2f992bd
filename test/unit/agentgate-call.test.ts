/**
 * The `agentgate` binding's executor (src/agentgate/tool-call.ts) against a local node:http
 * server that answers from a script: the input is the JSON body, signed per the tool's auth; a
 * 403 with Accept-Signature is answered once with a signature covering what it asks; a 429 is
 * retried once after Retry-After with a fresh nonce; anything else is the result; without a
 * signer nothing is sent.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseDictionary, type InnerList } from 'structured-headers';
import { executeAgentGate, requestedComponents, retryAfterMs } from '../../src/agentgate/tool-call.ts';
import { signerFromCryptoKey } from '../../src/agentgate/signer.ts';
import type { RuntimeConfig } from '../../src/config.ts';
import type { AgentGateAuth, ToolSpec } from '../../src/declarations/tool-spec.ts';
import { SignerSlots } from '../../src/signer-slots.ts';

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

async function ed25519Signer() {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  return signerFromCryptoKey(pair.privateKey, { label: 'sig1', keyid: 'test-key', signatureAgent: 'https://agent.example' });
}

function configWith(...signers: unknown[]): RuntimeConfig {
  const slots = new SignerSlots();
  for (const signer of signers) slots.set(signer, 'test');
  return { origin: base, timeoutMs: 5_000, signers: slots } as unknown as RuntimeConfig;
}

function specWith(auth: AgentGateAuth): ToolSpec {
  return {
    name: 'send_message', description: 'Send.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false }, effect: 'write',
    binding: { type: 'agentgate', target: `${base}/agent/submit`, method: 'POST', contentType: 'application/json', auth },
    source: 'agentgate[0]', messages: {},
  };
}

const WEB_BOT_AUTH: AgentGateAuth = { type: 'web-bot-auth', components: COMPONENTS, tag: 'web-bot-auth' };
const call = (spec: ToolSpec, config: RuntimeConfig) => executeAgentGate(spec, { id: 'message-0001', message: 'hi' }, { config, signal: new AbortController().signal, messages: {} });

/** The covered components and parameters of the sig1 signature a request carried. */
function signatureOf(request: Seen): { covered: string[]; params: Map<string, unknown> } {
  const member = parseDictionary(String(request.headers['signature-input'])).get('sig1') as InnerList;
  return { covered: member[0].map(([name, params]) => (params.has('key') ? `${String(name)};key=${String(params.get('key'))}` : String(name))), params: member[1] };
}

describe('agentgate executor', () => {
  it('sends the input as the JSON body with the endpoint\'s method and content type, signed web-bot-auth over the declared components and the signature-agent member', async () => {
    const outcome = await call(specWith(WEB_BOT_AUTH), configWith(await ed25519Signer()));
    assert.deepEqual(outcome, { ok: true, answer: { status: 'accepted' }, data: { status: 'accepted' } });
    assert.equal(seen.length, 1);
    const [request] = seen;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.path, '/agent/submit');
    assert.equal(request!.headers['content-type'], 'application/json');
    assert.equal(request!.body, '{"id":"message-0001","message":"hi"}');
    assert.equal(request!.headers['signature-agent'], 'sig1="https://agent.example"');
    assert.match(String(request!.headers['content-digest']), /^sha-256=:[A-Za-z0-9+/]+=*:$/);
    const { covered, params } = signatureOf(request!);
    assert.deepEqual(covered, [...COMPONENTS, 'signature-agent;key=sig1']);
    assert.equal(params.get('tag'), 'web-bot-auth');
    assert.equal(params.get('keyid'), 'test-key');
  });

  it('answers a 403 with Accept-Signature once, covering what it asks for as well', async () => {
    const ask = 'sig1=("@authority" "@method" "@path" "content-digest" "content-type" "signature-agent";key="sig1");tag="web-bot-auth"';
    script = [
      { status: 403, headers: { 'accept-signature': ask }, body: '{"message":"cover content-type"}' },
      { status: 403, headers: { 'accept-signature': ask }, body: '{"message":"still not"}' },
    ];
    const outcome = await call(specWith(WEB_BOT_AUTH), configWith(await ed25519Signer()));
    assert.equal(seen.length, 2, 'one answer to the 403, never a second');
    assert.deepEqual(signatureOf(seen[1]!).covered, [...COMPONENTS, 'content-type', 'signature-agent;key=sig1']);
    assert.deepEqual(outcome, { ok: false, reason: 'the site refused the signed call to /agent/submit with 403: still not' });
  });

  it('takes a 403 without Accept-Signature as the result', async () => {
    script = [{ status: 403, body: '{"message":"no"}' }];
    const outcome = await call(specWith(WEB_BOT_AUTH), configWith(await ed25519Signer()));
    assert.equal(seen.length, 1);
    assert.equal(outcome.ok, false);
  });

  it('retries a 429 once after Retry-After with a fresh nonce, and takes a second 429 as the result', async () => {
    script = [
      { status: 429, headers: { 'retry-after': '1' }, body: '{"message":"nonce reused"}' },
      { status: 429, headers: { 'retry-after': '1' }, body: '{"message":"again"}' },
    ];
    const started = Date.now();
    const outcome = await call(specWith(WEB_BOT_AUTH), configWith(await ed25519Signer()));
    assert.equal(seen.length, 2);
    assert.ok(Date.now() - started >= 950, 'waited for Retry-After');
    assert.notEqual(signatureOf(seen[0]!).params.get('nonce'), signatureOf(seen[1]!).params.get('nonce'));
    assert.deepEqual(outcome, { ok: false, reason: 'the site refused the signed call to /agent/submit with 429: again' });
  });

  it('signs a shared-key tool with the HMAC signer, never tagged web-bot-auth, without Signature-Agent', async () => {
    const key = await crypto.subtle.importKey('raw', crypto.getRandomValues(new Uint8Array(32)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const hmac = signerFromCryptoKey(key, { label: 'sig1', keyid: 'demo-shared-key-1' });
    const outcome = await call(specWith({ type: 'shared-key', components: COMPONENTS }), configWith(await ed25519Signer(), hmac));
    assert.equal(outcome.ok, true);
    const { covered, params } = signatureOf(seen[0]!);
    assert.deepEqual(covered, COMPONENTS);
    assert.equal(params.get('tag'), undefined);
    assert.equal(params.get('keyid'), 'demo-shared-key-1');
    assert.equal(seen[0]!.headers['signature-agent'], undefined);
  });

  it('sends nothing without a signer for the tool\'s auth', async () => {
    const outcome = await call(specWith({ type: 'shared-key', components: COMPONENTS }), configWith(await ed25519Signer()));
    assert.deepEqual(outcome, { ok: false, reason: 'send_message is waiting for a signer: it needs a shared-key signer from the agent (window.capellWebMCP.setSigner)' });
    assert.equal(seen.length, 0);
  });

  it('reads Accept-Signature members and Retry-After as seconds or a date', () => {
    assert.deepEqual(requestedComponents('sig1=("@authority" "signature-agent";key="sig1");tag="web-bot-auth"'), ['@authority', { name: 'signature-agent', key: 'sig1' }]);
    assert.deepEqual(requestedComponents('not a dictionary ('), []);
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6_000);
    assert.equal(retryAfterMs(null), 0);
  });
});
