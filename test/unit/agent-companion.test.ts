/**
 * The agent companion's pure parts (src/agent): its signed requests checked by two verifiers we
 * did not write (`http-message-sig` 0.3, `http-message-signatures` 1.0) and by the demo site's;
 * what it drops of the page's headers; JSON equality of intents; the sends an intent allows;
 * prices, cap and budget in integer micro-units; the options' refusals; manifest URLs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { component, verifySignature, webcrypto, type Verifier } from 'http-message-sig';
import { httpbis } from 'http-message-signatures';
import { parseDictionary, type InnerList } from 'structured-headers';
import { createVerifier, DIRECTORY_MEDIA_TYPE } from '../../demo/server/agentgate/verifier.js';
import { jwkThumbprint } from '../../src/agent/jwk-thumbprint.ts';
import { normaliseAgentOptions, type AgentOptions } from '../../src/agent/agent-options.ts';
import { createAgentSigners } from '../../src/agent/agent-signers.ts';
import { claimSend, createIntentBook, nextSendOf, releaseSend } from '../../src/agent/intents.ts';
import { jsonEqual } from '../../src/agent/json-equal.ts';
import { createPurse, formatMoney, parseMoney } from '../../src/agent/money.ts';
import { acceptSignatureComponents, handoffIdOf } from '../../src/agent/network-layer.ts';
import { signOutgoingRequest, type OutgoingRequest } from '../../src/agent/sign-request.ts';
import { manifestURLOf, type SiteTool } from '../../src/agent/site-tools.ts';

/** RFC 9421 Appendix B.1.4 `test-key-ed25519`. */
const TEST_KEY = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' };
const PUBLIC_KEY = { kty: 'OKP', crv: 'Ed25519', x: TEST_KEY.x };
const KEY_SET = 'https://agent.example/.well-known/http-message-signatures-directory';
const SHARED_SECRET = 'sJueuAPrQP+FV5WsiWYy1r1gn1U6n5eKZjf99q7HpdA=';
const COMPONENTS = ['@authority', '@method', '@path', 'content-digest'];
const BODY = '{"id":"order-7f3a-0001","message":"hello"}';

function options(extra: Partial<AgentOptions> = {}): AgentOptions {
  return { privateJwk: TEST_KEY, signatureAgent: KEY_SET, sharedKeys: { 'https://shop.example': { keyid: 'k1', secret: SHARED_SECRET } }, ...extra };
}

/** A request as the page made it, with a signature, digest, agent and price of the page's own. */
function pageRequest(): OutgoingRequest {
  return {
    method: 'POST',
    url: 'https://shop.example/agent/submit',
    headers: {
      'Content-Type': 'application/json', Accept: 'application/json',
      Signature: 'sig1=:AAAA:', 'Signature-Input': 'sig1=("@authority");keyid="page"', 'Signature-Agent': 'sig1="https://page.example"',
      'Content-Digest': 'sha-256=:AAAA:', 'crawler-exact-price': 'USD 9.99', 'crawler-max-price': 'USD 9.99',
    },
    body: new TextEncoder().encode(BODY),
  };
}

/** The signed request as a fetch Request (what the verifiers read). */
function asRequest(request: OutgoingRequest, headers: { name: string; value: string }[]): Request {
  return new Request(request.url, { method: request.method, headers: headers.map(({ name, value }) => [name, value]), body: new Uint8Array(request.body) });
}

async function signed(plan: Partial<Parameters<typeof signOutgoingRequest>[2]> = {}, kind: 'ed25519' | 'hmac' = 'ed25519') {
  const signers = createAgentSigners(normaliseAgentOptions(options()));
  const signer = kind === 'ed25519' ? await signers.webBotAuth() : (await signers.sharedKey('https://shop.example'))!;
  const request = pageRequest();
  const result = await signOutgoingRequest(request, signer, { components: COMPONENTS, contentType: 'application/json', ...plan });
  return { result, request: asRequest(request, result.headers), signer };
}

describe('the companion\'s signed requests', () => {
  const policy = {
    algorithms: ['ed25519'],
    requiredComponents: [...COMPONENTS, component('signature-agent', { key: 'sig1' })],
    requiredParameters: ['created', 'expires', 'keyid', 'nonce', 'tag'],
    maxAge: 300,
    clockSkew: 5,
  };

  test('verify with http-message-sig 0.3 (the signature-agent member covered, tag web-bot-auth, keyid the JWK thumbprint)', async () => {
    const { request } = await signed();
    const publicKey = await crypto.subtle.importKey('jwk', PUBLIC_KEY, { name: 'Ed25519' }, false, ['verify']);
    const tampered = new Request(request.clone(), { headers: new Headers(request.headers) });
    const verified = await verifySignature(request, { policy, resolveVerifier: () => webcrypto.verifier(publicKey) });
    assert.equal(verified.label, 'sig1');
    assert.equal(verified.parameters.tag, 'web-bot-auth');
    assert.equal(verified.parameters.keyid, await jwkThumbprint(TEST_KEY));
    tampered.headers.set('signature-agent', 'sig1="https://other.example/keys"');
    await assert.rejects(verifySignature(tampered, { policy, resolveVerifier: () => webcrypto.verifier(publicKey) }));
  });

  test('verify with http-message-signatures 1.0 (Ed25519 and shared-key HMAC)', async () => {
    const toMessage = (request: Request) => {
      const headers: Record<string, string> = { host: new URL(request.url).host };
      request.headers.forEach((value, name) => { headers[name] = value; });
      return { method: request.method, url: request.url, headers };
    };
    const ed = await signed();
    const edVerify = async (data: Buffer, signature: Buffer) => crypto.subtle.verify('Ed25519', await crypto.subtle.importKey('jwk', PUBLIC_KEY, { name: 'Ed25519' }, false, ['verify']), new Uint8Array(signature), new Uint8Array(data));
    let seen: Record<string, unknown> = {};
    const ok = await httpbis.verifyMessage({
      keyLookup: async (params) => {
        seen = params as Record<string, unknown>;
        return { verify: edVerify };
      },
      // Names only: the library checks coverage by name; the member (;key="sig1") is in the base it verifies.
      requiredFields: [...COMPONENTS, 'signature-agent'],
      requiredParams: ['created', 'expires', 'keyid', 'nonce', 'tag'],
    }, toMessage(ed.request));
    assert.equal(ok, true);
    assert.equal(seen.tag, 'web-bot-auth');
    const bad = toMessage(ed.request);
    bad.headers['content-digest'] = 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:';
    assert.equal(await httpbis.verifyMessage({ keyLookup: async () => ({ verify: edVerify }) }, bad), false);

    const hmac = await signed({}, 'hmac');
    const hmacKey = await crypto.subtle.importKey('raw', new Uint8Array(Buffer.from(SHARED_SECRET, 'base64')), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    let hmacParams: Record<string, unknown> = {};
    const hmacOk = await httpbis.verifyMessage({
      keyLookup: async (params) => {
        hmacParams = params as Record<string, unknown>;
        return { verify: async (data: Buffer, signature: Buffer) => crypto.subtle.verify('HMAC', hmacKey, new Uint8Array(signature), new Uint8Array(data)) };
      },
      requiredFields: COMPONENTS,
    }, toMessage(hmac.request));
    assert.equal(hmacOk, true);
    assert.equal(hmacParams.keyid, 'k1');
    assert.equal(hmacParams.tag, undefined, 'a shared-key signature carries no web-bot-auth tag');
    assert.equal(hmac.request.headers.has('signature-agent'), false);
  });

  test('verify with the demo site\'s verifier, which reads the key set at the Signature-Agent URL itself', async () => {
    const { request } = await signed();
    const fetched: string[] = [];
    const verifier = createVerifier({
      fetch: (async (url: string) => {
        fetched.push(url);
        return new Response(JSON.stringify({ keys: [PUBLIC_KEY] }), { headers: { 'Content-Type': DIRECTORY_MEDIA_TYPE } });
      }) as typeof fetch,
    });
    const local = new Request(request.url, { method: 'POST', headers: new Headers(request.headers), body: BODY });
    local.headers.set('signature-agent', 'sig1="http://127.0.0.1:9/keys"');
    // Re-sign over the loopback key set (the demo fetches only there).
    const signers = createAgentSigners(normaliseAgentOptions(options({ signatureAgent: 'http://127.0.0.1:9/keys' })));
    const page = pageRequest();
    const again = await signOutgoingRequest(page, await signers.webBotAuth(), { components: COMPONENTS });
    const headers: Record<string, string> = { host: 'shop.example' };
    for (const { name, value } of again.headers) headers[name] = value;
    const verdict = await verifier.verify({ method: 'POST', url: page.url, headers, body: page.body }, { type: 'web-bot-auth', components: COMPONENTS, tag: 'web-bot-auth' }, ['shop.example']);
    assert.equal(verdict.ok, true, (verdict as { reason?: string }).reason);
    assert.deepEqual(fetched, ['http://127.0.0.1:9/keys']);
  });

  test('drops every signature and payment header the page set, and writes its own Content-Digest of the exact body', async () => {
    const { result, request } = await signed();
    const names = result.headers.map(({ name }) => name);
    assert.equal(names.filter((name) => name === 'signature').length, 1);
    assert.equal(request.headers.has('crawler-exact-price'), false);
    assert.equal(request.headers.has('crawler-max-price'), false);
    assert.equal(request.headers.get('content-digest'), 'sha-256=:' + Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(BODY))).toString('base64') + ':');
    assert.equal(request.headers.get('signature-agent'), `sig1="${KEY_SET}"`);
    const input = parseDictionary(request.headers.get('signature-input')!);
    assert.deepEqual([...input.keys()], ['sig1'], 'the page\'s own signature label is gone');
    const [items] = input.get('sig1') as InnerList;
    assert.deepEqual(items.map(([name]) => name), ['@authority', '@method', '@path', 'content-digest', 'signature-agent']);
    assert.equal(result.nonce.length, 43, '32 random bytes, base64url');
    assert.equal(request.headers.get('accept'), 'application/json', 'other headers go on as the page set them');
  });

  test('a paid send carries the price the agent decided on, covered by the signature', async () => {
    const { request } = await signed({ price: 'USD 0.01' });
    assert.equal(request.headers.get('crawler-exact-price'), 'USD 0.01');
    const [items] = parseDictionary(request.headers.get('signature-input')!).get('sig1') as InnerList;
    assert.ok(items.some(([name]) => name === 'crawler-exact-price'));
    const publicKey = await crypto.subtle.importKey('jwk', PUBLIC_KEY, { name: 'Ed25519' }, false, ['verify']);
    const verifier: Verifier = webcrypto.verifier(publicKey);
    await verifySignature(request, { policy: { algorithms: ['ed25519'], requiredComponents: ['crawler-exact-price'], requiredParameters: ['nonce'] }, resolveVerifier: () => verifier });
  });
});

describe('JSON equality of an intent\'s input and a request\'s body', () => {
  const rows: [string, unknown, unknown, boolean][] = [
    ['member order is free', { id: 'a', message: 'b' }, JSON.parse('{"message":"b","id":"a"}'), true],
    ['1 and 1.0 are one number', { n: 1 }, JSON.parse('{"n":1.0}'), true],
    ['nested objects and arrays', { a: [1, { b: null }] }, JSON.parse('{"a":[1,{"b":null}]}'), true],
    ['array order matters', { a: [1, 2] }, { a: [2, 1] }, false],
    ['an extra member', { id: 'a' }, { id: 'a', extra: true }, false],
    ['a string is not a number', { n: '1' }, { n: 1 }, false],
    ['null is not an empty object', null, {}, false],
    ['another message', { id: 'a', message: 'b' }, { id: 'a', message: 'B' }, false],
    ['undefined is no JSON', { a: undefined }, { a: undefined }, false],
  ];
  for (const [name, a, b, equal] of rows) test(name, () => assert.equal(jsonEqual(a, b), equal));
});

describe('what an intent allows', () => {
  const declared = [...COMPONENTS];
  const page = {};
  const site = {
    name: 'send_message',
    binding: { type: 'agentgate', target: 'https://shop.example/agent/submit', method: 'POST', contentType: 'application/json', auth: { type: 'web-bot-auth', components: COMPONENTS, tag: 'web-bot-auth' } },
  } as unknown as SiteTool;

  test('one call; nothing more until an answer grants it', () => {
    const book = createIntentBook();
    const intent = book.open({ origin: 'https://shop.example', tool: 'send_message', input: { id: 'a' }, session: page });
    assert.deepEqual(nextSendOf(intent, declared, true), { kind: 'call', components: declared });
    intent.sends.push({ kind: 'call', components: declared, nonce: 'n', contentDigest: 'd', state: 'open' });
    assert.equal(nextSendOf(intent, declared, true), undefined, 'not while the first is in flight');
    intent.sends[0]!.state = 'answered';
    assert.equal(nextSendOf(intent, declared, true), undefined, 'not after its answer, unless the answer granted one');
  });

  test('a send is claimed in the step that decides it: a second request finds it taken; a failed signing gives it back', () => {
    const book = createIntentBook();
    const intent = book.open({ origin: 'https://shop.example', tool: 'send_message', input: { id: 'a' }, session: page });
    const first = nextSendOf(intent, declared, true)!;
    const claimed = claimSend(intent, first);
    assert.equal(claimed.state, 'claimed');
    assert.equal(nextSendOf(intent, declared, true), undefined, 'taken while it is being signed');
    releaseSend(intent, claimed, first);
    assert.deepEqual(nextSendOf(intent, declared, true), first, 'given back');
    // A granted send (the paid one) is given back as the grant.
    intent.sends.push({ kind: 'call', components: declared, nonce: 'n', contentDigest: 'd', state: 'answered' });
    const paid = { kind: 'paid' as const, components: declared, price: { money: { currency: 'USD', micros: 10_000 }, text: 'USD 0.01' } };
    intent.next = paid;
    const claim = claimSend(intent, nextSendOf(intent, declared, true)!);
    assert.equal(intent.next, undefined);
    assert.equal(nextSendOf(intent, declared, true), undefined, 'one paid send');
    releaseSend(intent, claim, paid);
    assert.equal(nextSendOf(intent, declared, true), paid);
  });

  test('one network retry, only for a retryable tool and never after a paid send', () => {
    const book = createIntentBook();
    const intent = book.open({ origin: 'https://shop.example', tool: 't', input: {}, session: page });
    intent.sends.push({ kind: 'call', components: declared, nonce: 'n', contentDigest: 'd', state: 'failed' });
    assert.equal(nextSendOf(intent, declared, false), undefined);
    assert.equal(nextSendOf(intent, declared, true)?.kind, 'network-retry');
    intent.sends.push({ kind: 'network-retry', components: declared, nonce: 'n2', contentDigest: 'd', state: 'failed' });
    assert.equal(nextSendOf(intent, declared, true), undefined, 'once');
    const paid = book.open({ origin: 'https://shop.example', tool: 't', input: {}, session: page });
    paid.sends.push({ kind: 'paid', components: declared, nonce: 'n', contentDigest: 'd', state: 'failed' });
    assert.equal(nextSendOf(paid, declared, true), undefined);
  });

  test('a closed intent allows nothing; matching needs the endpoint of the agent\'s reading, the same JSON and page', () => {
    const book = createIntentBook();
    const intent = book.open({ origin: 'https://shop.example', tool: 'send_message', site, input: { id: 'a', message: 'b' }, session: page });
    const url = 'https://shop.example/agent/submit';
    assert.deepEqual(book.matching('https://shop.example', 'POST', url, { message: 'b', id: 'a' }, page), [intent]);
    assert.deepEqual(book.matching('https://shop.example', 'POST', url, { message: 'b', id: 'a' }, {}), [], 'another page');
    assert.deepEqual(book.matching('https://other.example', 'POST', url, { message: 'b', id: 'a' }, page), []);
    assert.deepEqual(book.matching('https://shop.example', 'POST', 'https://shop.example/agent/other', { message: 'b', id: 'a' }, page), [], 'another endpoint');
    assert.deepEqual(book.matching('https://shop.example', 'PUT', url, { message: 'b', id: 'a' }, page), [], 'another method');
    const bare = book.open({ origin: 'https://shop.example', tool: 'send_message', input: { id: 'a', message: 'b' }, session: page });
    assert.deepEqual(book.matching('https://shop.example', 'POST', url, { message: 'b', id: 'a' }, page), [intent], 'an intent with no tool of the agent\'s reading matches nothing');
    book.close(intent);
    book.close(bare);
    assert.deepEqual(book.matching('https://shop.example', 'POST', url, { message: 'b', id: 'a' }, page), []);
    assert.equal(nextSendOf(intent, declared, true), undefined);
  });

  test('an implicit intent of \'origins\' mode closes by itself', () => {
    let now = 1_000;
    const book = createIntentBook(() => now);
    book.open({ origin: 'https://shop.example', tool: 't', input: {}, session: page, implicit: true });
    assert.equal(book.all().length, 1);
    now += 60_001;
    assert.equal(book.all().length, 0);
  });

  test('Accept-Signature components and handoff ids', () => {
    assert.deepEqual(acceptSignatureComponents('sig1=("@authority" "@query" "signature-agent";key="sig1");tag="web-bot-auth"'), ['@authority', '@query', { name: 'signature-agent', key: 'sig1' }]);
    assert.deepEqual(acceptSignatureComponents('not a dictionary ('), []);
    assert.equal(handoffIdOf('{"handoffId":"h_abc-1"}'), 'h_abc-1');
    for (const id of ['..', '.', '%2e%2e', 'a/b', '', 'a b']) assert.equal(handoffIdOf(JSON.stringify({ handoffId: id })), undefined, id);
  });
});

describe('the agent\'s money, in integer micro-units', () => {
  test('prices as sites write them', () => {
    assert.deepEqual(parseMoney('0.05 USD'), { currency: 'USD', micros: 50_000 });
    assert.deepEqual(parseMoney('USD 0.01'), { currency: 'USD', micros: 10_000 });
    assert.deepEqual(parseMoney('EUR 12.000001'), { currency: 'EUR', micros: 12_000_001 });
    for (const bad of ['-1 USD', '1e2 USD', '0.0000001 USD', '0.05 usd', '0.05', 'USD', 5]) assert.equal(parseMoney(bad), undefined, String(bad));
    assert.equal(formatMoney({ currency: 'USD', micros: 500_000 }), '0.50 USD');
    assert.equal(formatMoney({ currency: 'USD', micros: 1_000_001 }), '1.000001 USD');
    assert.equal(formatMoney({ currency: 'USD', micros: 0 }), '0.00 USD');
  });

  test('ten payments of 0.01 spend exactly 0.10 (no float drift)', () => {
    const purse = createPurse(parseMoney('0.05 USD'), parseMoney('0.10 USD'));
    for (let i = 0; i < 10; i += 1) {
      const decision = purse.decide('USD 0.01');
      assert.ok(decision.pay, decision.reason);
      assert.equal(purse.spend(decision.pay), true);
    }
    assert.deepEqual(purse.left(), { currency: 'USD', micros: 0 });
    assert.equal(purse.decide('USD 0.01').reason, 'not paid: the site asks 0.01 USD; the agent\'s budget has 0.00 USD left');
    assert.equal(purse.spend(parseMoney('USD 0.01')!), false, 'nothing is spent past the budget');
    assert.equal(formatMoney(purse.spent()), '0.10 USD');
  });

  test('each refusal names the price and the agent\'s limit', () => {
    const purse = createPurse(parseMoney('0.05 USD'), parseMoney('0.02 USD'));
    assert.equal(purse.decide('USD 0.50').reason, 'not paid: the site asks 0.50 USD; the agent\'s cap is 0.05 USD a call');
    assert.equal(purse.decide('EUR 0.01').reason, 'not paid: the site asks 0.01 in EUR, the agent pays in USD');
    assert.equal(purse.decide('USD 0.03').reason, 'not paid: the site asks 0.03 USD; the agent\'s cap is 0.05 USD a call'.replace('cap is 0.05 USD a call', 'budget has 0.02 USD left'));
    assert.equal(purse.decide('free').reason, 'not paid: the site\'s crawler-price "free" is not a price');
    assert.equal(createPurse(undefined, undefined).decide('USD 0.01').reason, 'not paid: the site asks 0.01 USD; the agent pays nothing (it has no maxPrice)');
    assert.deepEqual(purse.decide('USD 0.02').pay, { currency: 'USD', micros: 20_000 }, 'the cap and the budget are inclusive');
  });
});

describe('the agent\'s options', () => {
  const rows: [string, Partial<AgentOptions>, RegExp][] = [
    ['a public key only', { privateJwk: { kty: 'OKP', crv: 'Ed25519', x: TEST_KEY.x } as never }, /privateJwk must be an Ed25519 private JWK/],
    ['an http key set off loopback', { signatureAgent: 'http://agent.example/keys' }, /signatureAgent must be the https URL/],
    ['a price that is not one', { maxPrice: 'five dollars' }, /maxPrice must be a price such as '0\.05 USD'/],
    ['a budget in another currency', { maxPrice: '0.05 USD', budget: '1 EUR' }, /budget is in EUR, the cap \(maxPrice\) in USD/],
    ['a short shared secret', { sharedKeys: { 'https://shop.example': { keyid: 'k', secret: 'AAAA' } } }, /secret must be at least 16 bytes/],
    ['a shared key under a URL, not an origin', { sharedKeys: { 'https://shop.example/path': { keyid: 'k', secret: SHARED_SECRET } } }, /must be a site origin/],
    ['an unknown mode', { mode: 'all' as never }, /mode must be 'intent' or 'origins'/],
    ['origins mode without origins', { mode: 'origins' }, /origins must list the site origins/],
    ['origins in intent mode', { origins: ['https://shop.example'] }, /origins is read only in mode 'origins'/],
  ];
  for (const [name, extra, reason] of rows) {
    test(`refuses ${name} with a TypeError naming the option`, () => {
      assert.throws(() => normaliseAgentOptions(options(extra)), (error: Error) => error.name === 'TypeError' && reason.test(error.message));
    });
  }

  test('accepts the demo\'s loopback key set over http and normalises origins', () => {
    const normalized = normaliseAgentOptions(options({ signatureAgent: 'http://127.0.0.1:5174/.well-known/http-message-signatures-directory', mode: 'origins', origins: ['https://shop.example/'] }));
    assert.deepEqual([...normalized.origins], ['https://shop.example']);
    assert.equal(normalized.maxPrice, undefined);
  });
});

describe('which manifest a page\'s request names', () => {
  const rows: [string, string | undefined][] = [
    ['https://shop.example/.well-known/agentgate-tools.json', 'https://shop.example/.well-known/agentgate-tools.json'],
    ['https://shop.example/.well-known/agentgate-tools.json?siteKey=site_demo&x=1', 'https://shop.example/.well-known/agentgate-tools.json?siteKey=site_demo'],
    ['https://shop.example/v1/agent-tools/site_demo', 'https://shop.example/v1/agent-tools/site_demo'],
    ['https://shop.example/v1/agent-tools/a/b', undefined],
    ['https://shop.example/v1/agent-tools/', undefined],
    ['https://shop.example/agent/submit', undefined],
  ];
  for (const [url, manifest] of rows) test(url, () => assert.equal(manifestURLOf(url)?.href, manifest));
});
