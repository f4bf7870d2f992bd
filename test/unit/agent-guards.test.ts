/**
 * The companion's guards that are pure functions (src/agent): the bytes it signs are the bytes it
 * meant (canonical-json.ts), the covered headers it vouches for (agent-set-headers.ts), which
 * requests it takes as sent by the tool's own origin (request-initiator.ts), the site keys a page
 * may name (site-tools.ts) and money given back (money.ts). One table row per rule.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { headersNotSetByAgent, notSetReason } from '../../src/agent/agent-set-headers.ts';
import { parseCanonicalJSON } from '../../src/agent/canonical-json.ts';
import { createPurse, parseMoney } from '../../src/agent/money.ts';
import { requestInitiatorProblem } from '../../src/agent/request-initiator.ts';
import { manifestURLOf } from '../../src/agent/site-tools.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the bytes signed are the bytes meant: a body must be its own JSON.stringify', () => {
  const rows: [string, string, RegExp | undefined][] = [
    ['the runtime\'s body', '{"id":"order-0001","message":"hello"}', undefined],
    ['nested values', '{"a":[1,{"b":null,"c":true}],"d":-0.5}', undefined],
    ['a duplicate member', '{"id":"order-0001","message":"evil","message":"hello"}', /duplicate member "message"/],
    ['a duplicate member in a nested object', '{"a":{"x":1,"x":2}}', /duplicate member "x"/],
    ['one name in two objects is no duplicate', '{"a":{"x":1},"b":{"x":1}}', undefined],
    ['an integer past 2^53', '{"n":9007199254740993}', /integer 9007199254740993, past 2\^53/],
    ['1.0 for 1', '{"n":1.0}', /number 1\.0 otherwise than JSON\.stringify does \(1\)/],
    ['an exponent', '{"n":1e2}', /number 1e2/],
    ['whitespace', '{ "n":1}', /not written as JSON\.stringify writes it/],
    ['an escape JSON.stringify would not write', '{"s":"\\u0041"}', /not written as JSON\.stringify writes it/],
    ['a lone surrogate', '{"s":"\\ud800"}', /lone surrogate/],
    ['not JSON', '{"s":', /not JSON/],
  ];
  for (const [name, text, reason] of rows) {
    test(reason ? `refuses ${name}` : `takes ${name}`, () => {
      if (!reason) assert.deepEqual(parseCanonicalJSON(bytes(text)), JSON.parse(text));
      else assert.throws(() => parseCanonicalJSON(bytes(text)), (error: Error) => error.name === 'SyntaxError' && reason.test(error.message));
    });
  }
  test('refuses bytes that are not UTF-8', () => {
    assert.throws(() => parseCanonicalJSON(new Uint8Array([0x22, 0xff, 0x22])), /not UTF-8/);
  });
});


describe('covered headers the agent did not set itself', () => {
  test('derived components, content-digest, signature-agent, crawler-exact-price and content-type are the agent\'s; any other header is not', () => {
    assert.deepEqual(headersNotSetByAgent(['@authority', '@method', '@path', '@query', 'content-digest', { name: 'signature-agent', key: 'sig1' }, 'crawler-exact-price', 'content-type']), []);
    assert.deepEqual(headersNotSetByAgent(['@authority', 'x-amount', 'accept', 'x-amount']), ['x-amount', 'accept']);
    assert.equal(notSetReason('send_message', ['x-amount']), 'send_message is not signed: its manifest covers the header x-amount, which the agent does not set itself (it would sign the page\'s value)');
  });
});


describe('which requests the agent takes as sent by the tool\'s own origin', () => {
  const origin = 'https://shop.example';
  const json = { 'Content-Type': 'application/json', Origin: origin };
  const rows: [string, { method: string; headers: Record<string, string>; resourceType?: string }, string | undefined, RegExp | undefined][] = [
    ['the runtime\'s fetch', { method: 'POST', headers: json, resourceType: 'Fetch' }, 'application/json', undefined],
    ['an XHR', { method: 'POST', headers: json, resourceType: 'XHR' }, 'application/json', undefined],
    ['a page of another origin', { method: 'POST', headers: { ...json, Origin: 'https://evil.example' }, resourceType: 'Fetch' }, 'application/json', /sent from https:\/\/evil\.example, not https:\/\/shop\.example/],
    ['an opaque origin', { method: 'POST', headers: { ...json, Origin: 'null' }, resourceType: 'Fetch' }, 'application/json', /sent from null/],
    ['a POST without Origin', { method: 'POST', headers: { 'Content-Type': 'application/json' }, resourceType: 'Fetch' }, 'application/json', /no Origin header/],
    ['a no-cors fetch (text/plain)', { method: 'POST', headers: { ...json, 'Content-Type': 'text/plain;charset=UTF-8' }, resourceType: 'Fetch' }, 'application/json', /Content-Type is "text\/plain;charset=UTF-8", not the manifest's application\/json \(the agent does not rewrite it\)/],
    ['a form post', { method: 'POST', headers: { ...json, 'Content-Type': 'text/plain' }, resourceType: 'Document' }, 'application/json', /a Document request/],
    ['a beacon', { method: 'POST', headers: json, resourceType: 'Ping' }, 'application/json', /a Ping request/],
    ['Sec-Fetch-Site cross-site, where shown', { method: 'POST', headers: { ...json, 'Sec-Fetch-Site': 'cross-site' }, resourceType: 'Fetch' }, 'application/json', /cross-site \(Sec-Fetch-Site\)/],
    ['Sec-Fetch-Mode no-cors, where shown', { method: 'POST', headers: { ...json, 'Sec-Fetch-Mode': 'no-cors' }, resourceType: 'Fetch' }, 'application/json', /no-cors mode/],
    ['a same-origin poll (a GET carries no Origin)', { method: 'GET', headers: { Accept: 'application/json' }, resourceType: 'Fetch' }, undefined, undefined],
    ['a cross-origin poll', { method: 'GET', headers: { Origin: 'https://evil.example' }, resourceType: 'Fetch' }, undefined, /sent from https:\/\/evil\.example/],
    ['an image poll', { method: 'GET', headers: {}, resourceType: 'Image' }, undefined, /an? Image request/],
  ];
  for (const [name, request, contentType, reason] of rows) {
    test(`${reason ? 'refuses' : 'takes'} ${name}`, () => {
      const problem = requestInitiatorProblem(request, origin, contentType);
      if (!reason) assert.equal(problem, undefined);
      else assert.match(problem ?? '', reason);
    });
  }
});



describe('which site keys a page may name', () => {
  test('site keys are one segment of A-Za-z0-9_- (no ..%2F)', () => {
    assert.equal(manifestURLOf('https://shop.example/v1/agent-tools/..%2Fadmin'), undefined);
    assert.equal(manifestURLOf('https://shop.example/.well-known/agentgate-tools.json?siteKey=..%2Fx'), undefined);
    assert.equal(manifestURLOf('http://0.0.0.0:80/v1/agent-tools/site_demo')?.href, 'http://0.0.0.0/v1/agent-tools/site_demo');
  });
});

describe('money given back', () => {
  test('refund gives back what spend took', () => {
    const purse = createPurse(parseMoney('0.05 USD'), parseMoney('0.03 USD'));
    const price = parseMoney('USD 0.02')!;
    assert.equal(purse.spend(price), true);
    assert.equal(purse.spend(price), false);
    purse.refund(price);
    assert.deepEqual(purse.left(), { currency: 'USD', micros: 30_000 });
  });
});
