import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { startDemoServer } from '../../demo/server/start.js';
import { DEMO_AGENT_PRIVATE_JWK, DEMO_SHARED_KEY } from '../../demo/server/agentgate/demo-keys.js';
import { fromBase64 } from '../../src/agentgate/call/base64.ts';
import { contentDigest } from '../../src/agentgate/call/content-digest.ts';
import { jwkThumbprint } from '../../src/agent/jwk-thumbprint.ts';
import { signerFromCryptoKey, signMessage, signRequest, type Signer } from '../../src/agent/signer.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

interface Demo {
  url: string;
  agentUrl: string;
  agentKeysUrl: string;
  app: { agentGate: { log: Json[]; messages: Map<string, Json> } };
  close(): Promise<void>;
}

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; json: Json }

/** A request as bytes on the wire, so a test can send it twice or change it after signing. */
interface Wire { method: string; path: string; headers: Record<string, string>; body: Uint8Array }

const COMPONENTS = ['@authority', '@method', '@path', 'content-digest'];

let demo: Demo;
let port: number;
let demoSigner: Signer;
let sharedKeySigner: Signer;
const extraServers: Server[] = [];

/** Flatten a signed Request for node:http. */
async function toWire(signed: Request): Promise<Wire> {
  const url = new URL(signed.url);
  const headers: Record<string, string> = { host: url.host };
  signed.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { method: signed.method, path: `${url.pathname}${url.search}`, headers, body: new Uint8Array(await signed.arrayBuffer()) };
}

/** Send a wire request to the demo server's port, whatever its Host header says. */
function sendWire(wire: Wire): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ hostname: '127.0.0.1', port, path: wire.path, method: wire.method, headers: wire.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? JSON.parse(text) : undefined });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(wire.body.byteLength > 0 ? Buffer.from(wire.body) : undefined);
  });
}

/** A JSON POST to a tool endpoint, as the runtime makes it before beforeSend. */
function toolRequest(path: string, input: unknown, origin = demo.url): Request {
  return new Request(`${origin}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(input) });
}

async function signAndSend(path: string, input: unknown, signer: Signer, options: Json = {}, origin?: string): Promise<Answer> {
  const signed = await signRequest(toolRequest(path, input, origin), signer, { components: COMPONENTS, ...options });
  return sendWire(await toWire(signed));
}

/** The log entry of the last signed call. */
function lastLog(): Json {
  return demo.app.agentGate.log.at(-1);
}

async function ed25519Signer(jwk: JsonWebKey, signatureAgent: string): Promise<Signer> {
  const key = await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, d: jwk.d }, { name: 'Ed25519' }, false, ['sign']);
  return signerFromCryptoKey(key, { label: 'sig1', keyid: await jwkThumbprint(jwk as Json), signatureAgent });
}

/** A loopback agent origin of the test's own, whose directory answers as `answer` does (e.g. misbehaving). */
async function startFixtureAgent(answer: (res: import('node:http').ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  extraServers.push(server);
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

let seq = 0;
function freshId(): string {
  seq += 1;
  return `test-message-${String(seq).padStart(4, '0')}`;
}

before(async () => {
  demo = await startDemoServer({ port: 0 }) as Demo;
  port = Number(new URL(demo.url).port);
  demoSigner = await ed25519Signer(DEMO_AGENT_PRIVATE_JWK, demo.agentKeysUrl);
  const hmacKey = await crypto.subtle.importKey('raw', fromBase64(DEMO_SHARED_KEY.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  sharedKeySigner = signerFromCryptoKey(hmacKey, { label: 'sig1', keyid: DEMO_SHARED_KEY.keyid });
});

after(async () => {
  for (const server of extraServers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await demo.close();
});

describe('AgentGate manifest', () => {
  test('by host: agentgate-tools/1 with send_message (web-bot-auth) and one shared-key tool, endpoints on the own origin', async () => {
    const response = await fetch(`${demo.url}/.well-known/agentgate-tools.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const manifest = await response.json();
    assert.equal(manifest.version, 'agentgate-tools/1');
    assert.deepEqual(manifest.site, { siteKey: 'site_demo', name: 'Capell demo shop (AgentGate demo)' });
    assert.deepEqual(manifest.tools.map((tool: Json) => [tool.name, tool.auth[0].type, tool.endpoint.url]), [
      ['send_message', 'web-bot-auth', `${demo.url}/agent/submit`],
      ['message_status', 'shared-key', `${demo.url}/agent/message-status`],
      ['request_callback', 'web-bot-auth', `${demo.url}/agent/request-callback`],
      ['stock_report', 'web-bot-auth', `${demo.url}/agent/stock-report`],
    ]);
    assert.deepEqual(manifest.handoff, { poll: `${demo.url}/v1/handoff/{id}` });
    assert.deepEqual(manifest.payment, { price: 'crawler-price', offer: ['crawler-exact-price', 'crawler-max-price'], charged: 'crawler-charged' });
    const send = manifest.tools[0];
    assert.deepEqual(send.inputSchema.properties.id, { type: 'string', minLength: 8, maxLength: 128, description: send.inputSchema.properties.id.description });
    assert.deepEqual([send.inputSchema.properties.message.minLength, send.inputSchema.properties.message.maxLength], [1, 1000]);
    assert.deepEqual(send.auth[0], { type: 'web-bot-auth', components: COMPONENTS, tag: 'web-bot-auth' });
    assert.equal(send.endpoint.method, 'POST');
    assert.equal(send.endpoint.contentType, 'application/json');
  });

  test('by ?siteKey= and at /v1/agent-tools/{siteKey}: the same document; an unknown site is 404', async () => {
    const byHost = await (await fetch(`${demo.url}/.well-known/agentgate-tools.json`)).text();
    assert.equal(await (await fetch(`${demo.url}/.well-known/agentgate-tools.json?siteKey=site_demo`)).text(), byHost);
    assert.equal(await (await fetch(`${demo.url}/v1/agent-tools/site_demo`)).text(), byHost);
    assert.equal((await fetch(`${demo.url}/v1/agent-tools/site_other`)).status, 404);
    assert.equal((await fetch(`${demo.url}/.well-known/agentgate-tools.json?siteKey=site_other`)).status, 404);
    const foreignHost = await sendWire({ method: 'GET', path: '/.well-known/agentgate-tools.json', headers: { host: `shop.example:${port}` }, body: new Uint8Array() });
    assert.equal(foreignHost.status, 404);
  });

  test('ETag: an unchanged manifest revalidates with 304', async () => {
    const first = await fetch(`${demo.url}/.well-known/agentgate-tools.json`);
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]+"$/);
    const again = await fetch(`${demo.url}/.well-known/agentgate-tools.json`, { headers: { 'If-None-Match': etag ?? '' } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
  });
});

describe('AgentGate signed calls, accepted', () => {
  test('send_message: accepted, the same id and message again already_accepted, another message with that id 409', async () => {
    const id = freshId();
    const accepted = await signAndSend('/agent/submit', { id, message: 'hello' }, demoSigner);
    assert.equal(accepted.status, 200, JSON.stringify(accepted.json));
    assert.deepEqual(accepted.json, { status: 'accepted' });
    assert.deepEqual(lastLog(), { ...lastLog(), outcome: 'verified', status: 200, tool: 'send_message', agent: demo.agentKeysUrl, keyid: demoSigner.keyid });
    assert.equal(demo.app.agentGate.messages.get(id)?.message, 'hello');
    const retry = await signAndSend('/agent/submit', { id, message: 'hello' }, demoSigner);
    assert.deepEqual([retry.status, retry.json], [200, { status: 'already_accepted' }]);
    assert.equal(lastLog().outcome, 'verified');
    const conflict = await signAndSend('/agent/submit', { id, message: 'another' }, demoSigner);
    assert.equal(conflict.status, 409);
    assert.match(conflict.json.message, /different message was already accepted/);
    assert.equal(demo.app.agentGate.messages.get(id)?.message, 'hello');
  });

  test('the agent\'s key directory is fetched once and reused for a while', async () => {
    let fetches = 0;
    const agent = await startFixtureAgent((res) => {
      fetches += 1;
      res.writeHead(200, { 'Content-Type': 'application/http-message-signatures-directory+json' });
      res.end(JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: DEMO_AGENT_PRIVATE_JWK.x }] }));
    });
    const signer = await ed25519Signer(DEMO_AGENT_PRIVATE_JWK, agent);
    assert.equal((await signAndSend('/agent/submit', { id: freshId(), message: 'one' }, signer)).status, 200);
    assert.equal((await signAndSend('/agent/submit', { id: freshId(), message: 'two' }, signer)).status, 200);
    assert.equal(fetches, 1);
  });

  test('send_message input is checked after the signature: a 7-character id is 422', async () => {
    const answer = await signAndSend('/agent/submit', { id: 'short12', message: 'hello' }, demoSigner);
    assert.equal(answer.status, 422);
    assert.ok(answer.json.errors.id);
  });

  test('message_status (shared-key): an hmac-sha256 signature without tag is verified', async () => {
    const id = freshId();
    await signAndSend('/agent/submit', { id, message: 'hi' }, demoSigner);
    const answer = await signAndSend('/agent/message-status', { id }, sharedKeySigner);
    assert.deepEqual([answer.status, answer.json], [200, { status: 'accepted' }]);
    assert.equal(lastLog().keyid, DEMO_SHARED_KEY.keyid);
    const unknown = await signAndSend('/agent/message-status', { id: freshId() }, sharedKeySigner);
    assert.deepEqual(unknown.json, { status: 'unknown' });
  });
});

describe('AgentGate refusals', () => {
  /** Assert a refusal: its status, its reason, and that the log has it. */
  function assertRefused(answer: Answer, status: number, reason: RegExp) {
    assert.equal(answer.status, status, JSON.stringify(answer.json));
    assert.match(answer.json.message, reason);
    assert.equal(lastLog().outcome, 'refused');
    assert.equal(lastLog().status, status);
    assert.match(lastLog().reason, reason);
  }

  test('an unsigned call: 403 with Accept-Signature naming the declared components', async () => {
    const answer = await sendWire(await toWire(toolRequest('/agent/submit', { id: freshId(), message: 'x' })));
    assertRefused(answer, 403, /not signed/);
    assert.equal(answer.headers['accept-signature'], 'sig1=("@authority" "@method" "@path" "content-digest" "signature-agent";key="sig1");tag="web-bot-auth"');
  });

  test('replayed nonce', async () => {
    const wire = await toWire(await signRequest(toolRequest('/agent/submit', { id: freshId(), message: 'once' }), demoSigner, { components: COMPONENTS }));
    assert.equal((await sendWire(wire)).status, 200);
    const replay = await sendWire(wire);
    assertRefused(replay, 429, /Replayed nonce/);
    assert.equal(replay.headers['retry-after'], '1');
  });

  test('expired', async () => {
    const answer = await signAndSend('/agent/submit', { id: freshId(), message: 'x' }, demoSigner, { now: Date.now() - 10 * 60_000, expiresInMs: 5 * 60_000 });
    assertRefused(answer, 401, /expired/);
  });

  test('created in the future', async () => {
    const answer = await signAndSend('/agent/submit', { id: freshId(), message: 'x' }, demoSigner, { now: Date.now() + 60_000 });
    assertRefused(answer, 401, /created in the future/);
  });

  test('body changed after signing', async () => {
    const wire = await toWire(await signRequest(toolRequest('/agent/submit', { id: freshId(), message: 'hello' }), demoSigner, { components: COMPONENTS }));
    wire.body = new TextEncoder().encode(new TextDecoder().decode(wire.body).replace('hello', 'HELLO'));
    assertRefused(await sendWire(wire), 400, /Content-Digest does not match the body/);
  });

  test('wrong authority: a Host that is not the site (421), and a signature made for another authority (401)', async () => {
    const foreign = await signAndSend('/agent/submit', { id: freshId(), message: 'x' }, demoSigner, {}, `http://shop.example:${port}`);
    assertRefused(foreign, 421, /Wrong authority: shop\.example/);
    const wire = await toWire(await signRequest(toolRequest('/agent/submit', { id: freshId(), message: 'x' }, `http://localhost:${port}`), demoSigner, { components: COMPONENTS }));
    wire.headers.host = `127.0.0.1:${port}`;
    assertRefused(await sendWire(wire), 401, /does not verify/);
  });

  test('a declared component missing: 403 with Accept-Signature', async () => {
    const answer = await signAndSend('/agent/submit', { id: freshId(), message: 'x' }, demoSigner, { components: ['@authority', '@method', '@path'] });
    assertRefused(answer, 403, /declared component is missing.*"content-digest"/);
    assert.match(String(answer.headers['accept-signature']), /"content-digest"/);
  });

  test('the signature-agent member not covered is a missing component too', async () => {
    const body = JSON.stringify({ id: freshId(), message: 'x' });
    const base = toolRequest('/agent/submit', JSON.parse(body));
    const headers = new Headers(base.headers);
    headers.set('Content-Digest', await contentDigest(new TextEncoder().encode(body)));
    headers.set('Signature-Agent', `sig1="${demo.agentKeysUrl}"`);
    const now = Math.floor(Date.now() / 1000);
    const signed = await signMessage({ method: 'POST', url: base.url, headers }, demoSigner, {
      components: COMPONENTS,
      params: { created: now, expires: now + 60, keyid: demoSigner.keyid, nonce: 'n-member-missing', tag: 'web-bot-auth' },
    });
    headers.set('Signature-Input', signed.signatureInput);
    headers.set('Signature', signed.signatureHeader);
    const answer = await sendWire(await toWire(new Request(base.url, { method: 'POST', headers, body })));
    assertRefused(answer, 403, /"signature-agent";key="sig1"/);
  });

  test('an unknown key', async () => {
    const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']) as CryptoKeyPair;
    const stranger = await ed25519Signer(await crypto.subtle.exportKey('jwk', pair.privateKey), demo.agentKeysUrl);
    assertRefused(await signAndSend('/agent/submit', { id: freshId(), message: 'x' }, stranger), 401, /Unknown key/);
    const unknownShared = signerFromCryptoKey(
      await crypto.subtle.importKey('raw', new Uint8Array(32), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), { keyid: 'not-issued' });
    assertRefused(await signAndSend('/agent/message-status', { id: freshId() }, unknownShared), 401, /no shared key not-issued/);
  });

  /** The one reason every failed key-set fetch gets. */
  const UNREADABLE = /could not be read: it must answer 200 with application\/http-message-signatures-directory\+json, a JWKS of at most 65536 bytes, within 2000 ms, without redirects\./;

  test('the key set is fetched at the Signature-Agent URL itself, nothing appended', async () => {
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/http-message-signatures-directory+json' });
      res.end(JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: DEMO_AGENT_PRIVATE_JWK.x }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    extraServers.push(server);
    const address = server.address();
    const keySet = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/agents/demo/keys.json`;
    const answer = await signAndSend('/agent/submit', { id: freshId(), message: 'x' }, await ed25519Signer(DEMO_AGENT_PRIVATE_JWK, keySet));
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.deepEqual(paths, ['/agents/demo/keys.json']);
    assert.equal(lastLog().agent, keySet);
  });

  test('a Signature-Agent member with parameters is ignored', async () => {
    const body = JSON.stringify({ id: freshId(), message: 'x' });
    const base = toolRequest('/agent/submit', JSON.parse(body));
    const headers = new Headers(base.headers);
    headers.set('Content-Digest', await contentDigest(new TextEncoder().encode(body)));
    headers.set('Signature-Agent', `sig1="${demo.agentKeysUrl}";type="jwks"`);
    const now = Math.floor(Date.now() / 1000);
    const signed = await signMessage({ method: 'POST', url: base.url, headers }, demoSigner, {
      components: [...COMPONENTS, { name: 'signature-agent', key: 'sig1' }],
      params: { created: now, expires: now + 60, keyid: demoSigner.keyid, nonce: 'n-member-params', tag: 'web-bot-auth' },
    });
    headers.set('Signature-Input', signed.signatureInput);
    headers.set('Signature', signed.signatureHeader);
    assertRefused(await sendWire(await toWire(new Request(base.url, { method: 'POST', headers, body }))), 400, /no string member sig1 without parameters/);
  });

  test('every failed key-set fetch is one 401 with one reason: redirected, wrong type, too large, dripping, silent, refused port', async () => {
    const keys = JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: DEMO_AGENT_PRIVATE_JWK.x }] });
    const agents = await Promise.all([
      startFixtureAgent((res) => {
        res.writeHead(302, { Location: demo.agentKeysUrl });
        res.end();
      }),
      startFixtureAgent((res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(keys);
      }),
      startFixtureAgent((res) => {
        res.writeHead(200, { 'Content-Type': 'application/http-message-signatures-directory+json' });
        res.end(' '.repeat(70 * 1024));
      }),
      startFixtureAgent((res) => {
        // Headers at once, then a byte every 300 ms: past the bound before the body ends.
        res.writeHead(200, { 'Content-Type': 'application/http-message-signatures-directory+json' });
        let sent = 0;
        const timer = setInterval(() => {
          if (res.destroyed || sent >= keys.length) return clearInterval(timer);
          res.write(keys[sent]);
          sent += 1;
        }, 300);
      }),
      startFixtureAgent(() => {
        // Listens and never answers.
      }),
    ]);
    // A port nothing listens on: bound, then closed.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedAddress = closed.address();
    await new Promise((resolve) => closed.close(resolve));
    agents.push(`http://127.0.0.1:${typeof closedAddress === 'object' && closedAddress ? closedAddress.port : 0}`);
    const outcomes = await Promise.all(agents.map(async (agent) => {
      const started = Date.now();
      const answer = await signAndSend('/agent/submit', { id: freshId(), message: 'x' }, await ed25519Signer(DEMO_AGENT_PRIVATE_JWK, `${agent}/keys`));
      return { status: answer.status, reason: String(answer.json.message).replace(/http:\/\/127\.0\.0\.1:\d+/, 'AGENT'), ms: Date.now() - started };
    }));
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 401);
      assert.match(outcome.reason, UNREADABLE);
      // The same time for all: none answers before the bound (a closed port would fail at once).
      assert.ok(outcome.ms >= 1_900, `${outcome.reason}: ${outcome.ms} ms`);
    }
    assert.equal(new Set(outcomes.map((outcome) => outcome.reason)).size, 1, 'one reason, whatever failed');
  });

  test('a web-bot-auth tag on an HMAC signature', async () => {
    const body = JSON.stringify({ id: freshId() });
    const url = `${demo.url}/agent/message-status`;
    const headers = new Headers({ 'Content-Type': 'application/json', 'Content-Digest': await contentDigest(new TextEncoder().encode(body)) });
    const now = Math.floor(Date.now() / 1000);
    // signRequest refuses to make this; signMessage signs whatever it is given.
    const signed = await signMessage({ method: 'POST', url, headers }, sharedKeySigner, {
      components: COMPONENTS,
      params: { created: now, expires: now + 60, keyid: DEMO_SHARED_KEY.keyid, nonce: 'n-hmac-tagged', tag: 'web-bot-auth' },
    });
    headers.set('Signature-Input', signed.signatureInput);
    headers.set('Signature', signed.signatureHeader);
    assertRefused(await sendWire(await toWire(new Request(url, { method: 'POST', headers, body }))), 400, /web-bot-auth tag on an HMAC/);
  });

  test('a web-bot-auth tool needs the web-bot-auth tag', async () => {
    const answer = await signAndSend('/agent/submit', { id: freshId(), message: 'x' }, demoSigner, { tag: null });
    assertRefused(answer, 400, /tag is missing/);
  });
});
