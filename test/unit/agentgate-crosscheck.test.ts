import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseDictionary, type InnerList, type Parameters } from 'structured-headers';
import { signatureHeaders, verify as webBotAuthVerify } from 'web-bot-auth';
import { signerFromJWK, verifierFromJWK } from 'web-bot-auth/crypto';
import { appendSignature, component, createSignature, verifySignature, webcrypto, type Verifier } from 'http-message-sig';
import { createVerifier, DIRECTORY_MEDIA_TYPE } from '../../demo/server/agentgate/verifier.js';
import { contentDigest } from '../../src/agentgate/call/content-digest.ts';
import { jwkThumbprint } from '../../src/agent/jwk-thumbprint.ts';
import { buildSignatureBase, type Component } from '../../src/agentgate/call/signature-base.ts';
import { signerFromCryptoKey, signRequest, type Signer } from '../../src/agent/signer.ts';

/**
 * Cross-checks with signing code we did not write, in both directions: Cloudflare's
 * `web-bot-auth` (0.1.x signs and verifies the signature-agent member as the whole header, not
 * the member as RFC 9421 §2.1.2 says, so it is checked on a request without that member) and
 * `http-message-sig` 0.3 (keyed members done right) on the full web-bot-auth request.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** RFC 9421 Appendix B.1.4 `test-key-ed25519`. */
const TEST_KEY = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' };
const PUBLIC_KEY = { kty: 'OKP', crv: 'Ed25519', x: TEST_KEY.x };
const COMPONENTS = ['@authority', '@method', '@path', 'content-digest'];
const BODY = '{"id":"order-7f3a-0001","message":"hello"}';
const AGENT = 'http://127.0.0.1:9';

async function testSigner(signatureAgent?: string): Promise<Signer> {
  const key = await crypto.subtle.importKey('jwk', TEST_KEY, { name: 'Ed25519' }, false, ['sign']);
  const keyid = await jwkThumbprint(TEST_KEY);
  return signerFromCryptoKey(key, signatureAgent === undefined ? { keyid } : { keyid, signatureAgent });
}

function toolRequest(headers: Record<string, string> = {}): Request {
  return new Request('https://shop.example/agent/submit', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: BODY });
}

/** Verify a request's `label` signature with the runtime's own signature base and WebCrypto. */
async function verifyWithRuntimeBase(request: Request, label = 'sig1'): Promise<boolean> {
  const input = parseDictionary(request.headers.get('signature-input') ?? '').get(label) as InnerList;
  const [items, params] = input as [[string, Parameters][], Parameters];
  const components: Component[] = items.map(([name, p]) => (p.has('key') ? { name, key: String(p.get('key')) } : name));
  const { base } = buildSignatureBase(request, components, Object.fromEntries(params));
  const signature = parseDictionary(request.headers.get('signature') ?? '').get(label)?.[0] as ArrayBuffer;
  const key = await crypto.subtle.importKey('jwk', PUBLIC_KEY, { name: 'Ed25519' }, false, ['verify']);
  return crypto.subtle.verify('Ed25519', key, signature, new TextEncoder().encode(base));
}

/** The demo site's verifier, with the test key's directory answered in memory (no network). */
async function verifyWithDemoVerifier(request: Request): Promise<Json> {
  const directoryFetch = (async () => new Response(JSON.stringify({ keys: [PUBLIC_KEY] }), { headers: { 'Content-Type': DIRECTORY_MEDIA_TYPE } })) as typeof fetch;
  const verifier = createVerifier({ fetch: directoryFetch });
  const headers: Record<string, string> = { host: new URL(request.url).host };
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = new Uint8Array(await request.clone().arrayBuffer());
  return verifier.verify({ method: request.method, url: request.url, headers, body }, { type: 'web-bot-auth', components: COMPONENTS, tag: 'web-bot-auth' }, ['shop.example']);
}

describe('web-bot-auth (Cloudflare), on @authority, @method, @path, content-digest', () => {
  test('it verifies a request the runtime signed', async () => {
    const signed = await signRequest(toolRequest(), await testSigner(), { components: COMPONENTS });
    assert.equal(signed.headers.has('signature-agent'), false);
    const verifier = await verifierFromJWK(PUBLIC_KEY);
    let seen: Json;
    await webBotAuthVerify(signed, async (data, signature, params) => {
      seen = params;
      await verifier(data, signature, params);
    });
    assert.equal(seen.keyid, await jwkThumbprint(PUBLIC_KEY));
    assert.equal(seen.tag, 'web-bot-auth');
    // A tampered signature fails there, so the check above can fail.
    const tampered = new Request(signed, { headers: new Headers(signed.headers) });
    tampered.headers.set('content-digest', await contentDigest(new TextEncoder().encode('{}')));
    await assert.rejects(webBotAuthVerify(tampered, verifier));
  });

  test('the runtime\'s signature base verifies a request it signed', async () => {
    const request = toolRequest({ 'Content-Digest': await contentDigest(new TextEncoder().encode(BODY)) });
    const now = Date.now();
    const headers = await signatureHeaders(request, await signerFromJWK(TEST_KEY), { created: new Date(now), expires: new Date(now + 300_000), components: COMPONENTS });
    const signed = new Request(request, { headers: { ...Object.fromEntries(request.headers), Signature: headers.Signature, 'Signature-Input': headers['Signature-Input'] } });
    const params = (parseDictionary(headers['Signature-Input']).get('sig1') as InnerList)[1];
    assert.equal(params.get('keyid'), await jwkThumbprint(PUBLIC_KEY), 'its keyid is our thumbprint');
    assert.equal(params.get('tag'), 'web-bot-auth');
    assert.ok(await verifyWithRuntimeBase(signed));
  });
});

describe('web-bot-auth (Cloudflare), the signature-agent member', () => {
  const version = JSON.parse(readFileSync(new URL('../../node_modules/web-bot-auth/package.json', import.meta.url), 'utf8')).version as string;

  test(`web-bot-auth ${version}: 0.1.x covers the whole Signature-Agent header where RFC 9421 §2.1.2 says the member; later versions must agree with the runtime`, async () => {
    const request = new Request('https://shop.example/agent/submit', { method: 'POST', headers: { 'Signature-Agent': `sig1="${AGENT}"` } });
    const now = Date.now();
    const member = { name: 'signature-agent', parameters: new Map([['key', 'sig1']]) };
    const headers = await signatureHeaders(request, await signerFromJWK(TEST_KEY), { created: new Date(now), expires: new Date(now + 60_000), components: ['@authority', member as Json] });
    const signed = new Request(request.url, { method: 'POST', headers: { 'Signature-Agent': `sig1="${AGENT}"`, Signature: headers.Signature, 'Signature-Input': headers['Signature-Input'] } });
    if (!version.startsWith('0.1.')) {
      assert.ok(await verifyWithRuntimeBase(signed), 'a fixed web-bot-auth signs the member value: move its cross-check to the full request');
      return;
    }
    assert.equal(await verifyWithRuntimeBase(signed), false);
    // The exact divergence: its base has the whole field value on the member's line.
    const [items, params] = parseDictionary(headers['Signature-Input']).get('sig1') as InnerList as [[string, Parameters][], Parameters];
    const components: Component[] = items.map(([name, p]) => (p.has('key') ? { name, key: String(p.get('key')) } : name));
    const ours = buildSignatureBase(signed, components, Object.fromEntries(params)).base;
    const theirs = ours.replace(`"signature-agent";key="sig1": "${AGENT}"`, `"signature-agent";key="sig1": sig1="${AGENT}"`);
    assert.notEqual(theirs, ours);
    const key = await crypto.subtle.importKey('jwk', PUBLIC_KEY, { name: 'Ed25519' }, false, ['verify']);
    const signature = parseDictionary(headers.Signature).get('sig1')?.[0] as ArrayBuffer;
    assert.ok(await crypto.subtle.verify('Ed25519', key, signature, new TextEncoder().encode(theirs)));
  });
});

describe('http-message-sig 0.3, on the full web-bot-auth request (with the signature-agent member)', () => {
  const policy = {
    algorithms: ['ed25519'],
    requiredComponents: [...COMPONENTS, component('signature-agent', { key: 'sig1' })],
    requiredParameters: ['created', 'expires', 'keyid', 'nonce', 'tag'],
    maxAge: 300,
    clockSkew: 5,
  };

  test('it verifies a request the runtime signed', async () => {
    const signed = await signRequest(toolRequest(), await testSigner(AGENT), { components: COMPONENTS });
    const publicKey = await crypto.subtle.importKey('jwk', PUBLIC_KEY, { name: 'Ed25519' }, false, ['verify']);
    const [first, second] = [signed.clone(), signed.clone()];
    const verified = await verifySignature(signed, { policy, resolveVerifier: () => webcrypto.verifier(publicKey) });
    assert.equal(verified.label, 'sig1');
    assert.equal(verified.parameters.tag, 'web-bot-auth');
    // The member, not the whole header: a second agent in Signature-Agent changes nothing.
    const twoAgents = new Request(first, { headers: new Headers(signed.headers) });
    twoAgents.headers.set('signature-agent', `sig0="https://other.example", ${signed.headers.get('signature-agent')}`);
    await verifySignature(twoAgents, { policy, resolveVerifier: () => webcrypto.verifier(publicKey) });
    // Another agent under our label does break it.
    const swapped = new Request(second, { headers: new Headers(signed.headers) });
    swapped.headers.set('signature-agent', 'sig1="https://other.example"');
    await assert.rejects(verifySignature(swapped, { policy, resolveVerifier: () => webcrypto.verifier(publicKey) }));
  });

  test('it verifies a shared-key (hmac-sha256) request the runtime signed', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const signed = await signRequest(toolRequest(), signerFromCryptoKey(key, { keyid: 'k1' }), { components: COMPONENTS });
    const hmac: Verifier = { algorithm: 'hmac-sha256', verify: (data, signature) => crypto.subtle.verify('HMAC', key, new Uint8Array(signature), new Uint8Array(data)) };
    const verified = await verifySignature(signed, {
      policy: { algorithms: ['hmac-sha256'], requiredComponents: COMPONENTS, requiredParameters: ['created', 'expires', 'keyid', 'nonce'] },
      resolveVerifier: () => hmac,
    });
    assert.equal(verified.parameters.tag, undefined);
  });

  test('the runtime\'s signature base and the demo site\'s verifier verify a request it signed', async () => {
    const digest = await contentDigest(new TextEncoder().encode(BODY));
    const request = toolRequest({ 'Content-Digest': digest, 'Signature-Agent': `sig1="${AGENT}"` });
    const privateKey = await crypto.subtle.importKey('jwk', TEST_KEY, { name: 'Ed25519' }, false, ['sign']);
    const created = Math.floor(Date.now() / 1000);
    const fields = await createSignature(request, {
      label: 'sig1',
      components: [...COMPONENTS, component('signature-agent', { key: 'sig1' })],
      parameters: { created, expires: created + 300, keyid: await jwkThumbprint(PUBLIC_KEY), nonce: 'cross-check-nonce', tag: 'web-bot-auth' },
      signer: webcrypto.signer(privateKey),
    });
    const signed = new Request(request.url, { method: 'POST', headers: appendSignature(request.headers, fields), body: BODY });
    assert.ok(await verifyWithRuntimeBase(signed));
    const verdict = await verifyWithDemoVerifier(signed);
    assert.equal(verdict.ok, true, verdict.reason);
    assert.equal(verdict.agent, AGENT);
  });
});
