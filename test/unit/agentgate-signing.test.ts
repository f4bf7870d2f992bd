import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDictionary } from 'structured-headers';
import { fromBase64, toBase64 } from '../../src/agentgate/call/base64.ts';
import { contentDigest } from '../../src/agentgate/call/content-digest.ts';
import { jwkThumbprint } from '../../src/agent/jwk-thumbprint.ts';
import { buildSignatureBase } from '../../src/agentgate/call/signature-base.ts';
import { signerFromCryptoKey, signMessage, signRequest } from '../../src/agent/signer.ts';

/** RFC 9421 Appendix B.1.4, `test-key-ed25519` (a published test key). */
const ED25519_TEST_KEY = {
  kty: 'OKP', crv: 'Ed25519',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
};

/** RFC 9421 Appendix B.1.5, `test-shared-secret`. */
const SHARED_SECRET = 'uzvJfB4u3N0Jy4T7NZ75MDVcr8zSTInedJtkgcu46YW4XByzNJjxBdtjUkdJPBtbmHhIDi6pcl8jsasjlTMtDQ==';

/** RFC 9421 Appendix B.2's test request (the Date and Content-Length a browser would set itself). */
const B2_REQUEST = {
  method: 'POST',
  url: 'https://example.com/foo?param=Value&Pet=dog',
  headers: new Headers({
    Host: 'example.com',
    Date: 'Tue, 20 Apr 2021 02:07:55 GMT',
    'Content-Type': 'application/json',
    'Content-Digest': 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
    'Content-Length': '18',
  }),
};

async function ed25519TestSigner(label: string, keyid = 'test-key-ed25519') {
  const key = await crypto.subtle.importKey('jwk', ED25519_TEST_KEY, { name: 'Ed25519' }, false, ['sign']);
  return signerFromCryptoKey(key, { label, keyid });
}

async function hmacTestSigner(label: string) {
  const key = await crypto.subtle.importKey('raw', fromBase64(SHARED_SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return signerFromCryptoKey(key, { label, keyid: 'test-shared-secret' });
}

describe('RFC 9421 Appendix B vectors, reproduced byte for byte', () => {
  test('B.2.6: ed25519 over date, @method, @path, @authority, content-type, content-length', async () => {
    const signer = await ed25519TestSigner('sig-b26');
    const signed = await signMessage(B2_REQUEST, signer, {
      components: ['date', '@method', '@path', '@authority', 'content-type', 'content-length'],
      params: { created: 1618884473, keyid: 'test-key-ed25519' },
    });
    assert.equal(signed.signatureBase, [
      '"date": Tue, 20 Apr 2021 02:07:55 GMT',
      '"@method": POST',
      '"@path": /foo',
      '"@authority": example.com',
      '"content-type": application/json',
      '"content-length": 18',
      '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
    ].join('\n'));
    assert.equal(signed.signatureInput, 'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"');
    assert.equal(signed.signatureHeader, 'sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:');
  });

  test('B.2.5: hmac-sha256 over date, @authority, content-type', async () => {
    const signer = await hmacTestSigner('sig-b25');
    const signed = await signMessage(B2_REQUEST, signer, {
      components: ['date', '@authority', 'content-type'],
      params: { created: 1618884473, keyid: 'test-shared-secret' },
    });
    assert.equal(signed.signatureBase, [
      '"date": Tue, 20 Apr 2021 02:07:55 GMT',
      '"@authority": example.com',
      '"content-type": application/json',
      '"@signature-params": ("date" "@authority" "content-type");created=1618884473;keyid="test-shared-secret"',
    ].join('\n'));
    assert.equal(signed.signatureHeader, 'sig-b25=:pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8=:');
  });

  test('B.1.4: the ed25519 test key\'s JWK thumbprint (RFC 7638)', async () => {
    assert.equal(await jwkThumbprint(ED25519_TEST_KEY), 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U');
    await assert.rejects(jwkThumbprint({ kty: 'EC', crv: 'P-256', x: 'a' }), TypeError);
  });
});

describe('RFC 9530 and RFC 9421 §2.1.2', () => {
  test('Content-Digest of {"hello": "world"} (RFC 9530 example)', async () => {
    const body = new TextEncoder().encode('{"hello": "world"}');
    assert.equal(body.length, 18);
    assert.equal(await contentDigest(body), 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:');
  });

  test('keyed dictionary members: the member value, not the whole field (§2.1.2 example)', () => {
    const message = { method: 'GET', url: 'https://example.com/', headers: new Headers({ 'Example-Dict': '  a=1, b=2;x=1;y=2, c=(a   b    c), d' }) };
    const { base } = buildSignatureBase(message, ['a', 'd', 'b', 'c'].map((key) => ({ name: 'example-dict', key })), {});
    assert.deepEqual(base.split('\n'), [
      '"example-dict";key="a": 1',
      '"example-dict";key="d": ?1',
      '"example-dict";key="b": 2;x=1;y=2',
      '"example-dict";key="c": (a b c)',
      '"@signature-params": ("example-dict";key="a" "example-dict";key="d" "example-dict";key="b" "example-dict";key="c")',
    ]);
    assert.throws(() => buildSignatureBase(message, [{ name: 'example-dict', key: 'e' }], {}), /no such member/);
  });

  test('derived components: @authority drops the default port and lower-cases, @query keeps its ?', () => {
    const message = { method: 'POST', url: 'HTTPS://Shop.Example:443/agent/submit?x=1#frag', headers: new Headers() };
    const { base } = buildSignatureBase(message, ['@authority', '@path', '@query', '@target-uri', '@method'], {});
    assert.deepEqual(base.split('\n').slice(0, 5), [
      '"@authority": shop.example',
      '"@path": /agent/submit',
      '"@query": ?x=1',
      '"@target-uri": https://shop.example/agent/submit?x=1',
      '"@method": POST',
    ]);
    const empty = buildSignatureBase({ ...message, url: 'http://127.0.0.1:5173/' }, ['@authority', '@query'], {});
    assert.deepEqual(empty.base.split('\n').slice(0, 2), ['"@authority": 127.0.0.1:5173', '"@query": ?']);
  });
});

describe('signRequest (the beforeSend hook)', () => {
  const body = '{"id":"order-7f3a-0001","message":"hello"}';
  const makeRequest = () => new Request('https://shop.example/agent/submit', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

  test('web-bot-auth: Content-Digest, Signature-Agent dictionary, the keyed member, created/expires/keyid/nonce/tag', async () => {
    const key = await crypto.subtle.importKey('jwk', ED25519_TEST_KEY, { name: 'Ed25519' }, false, ['sign']);
    const signer = signerFromCryptoKey(key, { label: 'sig1', keyid: await jwkThumbprint(ED25519_TEST_KEY), signatureAgent: 'https://agent.example' });
    const original = makeRequest();
    const signed = await signRequest(original, signer, { components: ['@authority', '@method', '@path', 'content-digest'], now: 1_700_000_000_000, expiresInMs: 120_000 });
    assert.equal(await signed.text(), body);
    assert.equal(await original.text(), body, 'the original request stays readable');
    assert.equal(signed.method, 'POST');
    assert.equal(signed.headers.get('content-type'), 'application/json');
    assert.equal(signed.headers.get('content-digest'), await contentDigest(new TextEncoder().encode(body)));
    assert.equal(signed.headers.get('signature-agent'), 'sig1="https://agent.example"');
    const input = parseDictionary(signed.headers.get('signature-input') ?? '').get('sig1');
    assert.ok(input);
    const [items, params] = input as [[string, Map<string, unknown>][], Map<string, unknown>];
    assert.deepEqual(items.map(([name, p]) => [name, Object.fromEntries(p)]), [
      ['@authority', {}], ['@method', {}], ['@path', {}], ['content-digest', {}], ['signature-agent', { key: 'sig1' }],
    ]);
    assert.deepEqual([...params.keys()], ['created', 'expires', 'keyid', 'nonce', 'tag']);
    assert.equal(params.get('created'), 1_700_000_000);
    assert.equal(params.get('expires'), 1_700_000_120);
    assert.equal(params.get('keyid'), 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U');
    assert.match(String(params.get('nonce')), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(params.get('tag'), 'web-bot-auth');
    // The signature verifies over the base a verifier rebuilds from the sent request.
    const { base } = buildSignatureBase(signed, items.map(([name, p]) => (p.has('key') ? { name, key: String(p.get('key')) } : name)), Object.fromEntries(params));
    const signature = parseDictionary(signed.headers.get('signature') ?? '').get('sig1')?.[0] as ArrayBuffer;
    const publicKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: ED25519_TEST_KEY.x }, { name: 'Ed25519' }, false, ['verify']);
    assert.ok(await crypto.subtle.verify('Ed25519', publicKey, signature, new TextEncoder().encode(base)));
    const again = await signRequest(makeRequest(), signer, { components: ['@authority'] });
    assert.notEqual(parseDictionary(again.headers.get('signature-input') ?? '').get('sig1')?.[1].get('nonce'), params.get('nonce'), 'a fresh nonce each time');
  });

  test('shared-key: hmac-sha256 is never tagged web-bot-auth, and has no Signature-Agent', async () => {
    const signer = await hmacTestSigner('sig1');
    const signed = await signRequest(makeRequest(), signer, { components: ['@authority', '@method', '@path', 'content-digest'] });
    const params = parseDictionary(signed.headers.get('signature-input') ?? '').get('sig1')?.[1];
    assert.equal(params?.has('tag'), false);
    assert.equal(signed.headers.has('signature-agent'), false);
    await assert.rejects(signRequest(makeRequest(), signer, { components: ['@authority'], tag: 'web-bot-auth' }), /must not carry the web-bot-auth tag/);
  });

  test('a covered header missing from the request fails the signing', async () => {
    const signer = await ed25519TestSigner('sig1');
    await assert.rejects(signRequest(makeRequest(), signer, { components: ['@authority', 'date'] }), /"date" is not a header/);
  });

  test('GET without body: no Content-Digest unless covered', async () => {
    const signer = await ed25519TestSigner('sig1');
    const signed = await signRequest(new Request('https://shop.example/x'), signer, { components: ['@authority'] });
    assert.equal(signed.headers.has('content-digest'), false);
    assert.equal(signed.body, null);
  });
});
