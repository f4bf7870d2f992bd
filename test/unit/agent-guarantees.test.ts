/**
 * The companion's guarantees that hold without a browser (src/agent), beyond its pure guards
 * (agent-guards.test.ts): what a page can make it read (manifest notes, bounded, own origin only,
 * never fetched), the tool a call is bound to, which paid sends give the money back, and the
 * answer's account of what was paid. What needs a browser is in test/e2e/agent-guarantees.on.spec.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createIntentBook } from '../../src/agent/intents.ts';
import { isUncharged } from '../../src/agent/network-layer.ts';
import { withAgentsPayment } from '../../src/agent/paid-answer.ts';
import { createSiteDirectory, MAX_MANIFESTS_PER_ORIGIN } from '../../src/agent/site-directory.ts';
import type { ManifestRead, SiteTool } from '../../src/agent/site-tools.ts';

/** A SiteTool at `target` (the fields the agent's matching reads). */
function siteTool(name: string, target: string, components = ['@authority', '@method', '@path', 'content-digest']): SiteTool {
  return { name, binding: { type: 'agentgate', target, method: 'POST', contentType: 'application/json', auth: { type: 'web-bot-auth', components, tag: 'web-bot-auth' } } } as unknown as SiteTool;
}

describe('what a page can make the agent read', () => {
  test('a page\'s manifest request only notes a manifest of its own origin, bounded, and fetches nothing; the agent reads it when it refreshes that origin', async () => {
    const reads: string[] = [];
    const sites = createSiteDirectory(() => undefined, async (url) => {
      reads.push(url.href);
      return { url: url.href, tools: new Map(), problems: [], readAt: Date.now() } satisfies ManifestRead;
    });
    assert.equal(sites.note('http://127.0.0.1:9/.well-known/agentgate-tools.json', 'https://shop.example'), true, 'it names a manifest');
    assert.equal(sites.note('https://shop.example/agent/submit', 'https://shop.example'), false);
    for (let key = 0; key < 10; key += 1) sites.note(`https://shop.example/v1/agent-tools/key_${key}`, 'https://shop.example');
    sites.note('https://shop.example/v1/agent-tools/from_elsewhere', 'https://evil.example');
    assert.deepEqual(reads, [], 'nothing is fetched when a page asks');
    await sites.refresh('https://shop.example');
    assert.equal(reads.length, MAX_MANIFESTS_PER_ORIGIN);
    assert.deepEqual(reads, [
      'https://shop.example/.well-known/agentgate-tools.json',
      'https://shop.example/v1/agent-tools/key_0', 'https://shop.example/v1/agent-tools/key_1', 'https://shop.example/v1/agent-tools/key_2',
    ]);
  });

  test('a call is bound to the endpoint of the agent\'s reading; two manifests that name the tool at two endpoints bind it to neither', async () => {
    const manifests: Record<string, SiteTool[]> = {
      'https://shop.example/.well-known/agentgate-tools.json': [siteTool('send_message', 'https://shop.example/agent/submit')],
      'https://shop.example/v1/agent-tools/same': [siteTool('send_message', 'https://shop.example/agent/submit')],
      'https://shop.example/v1/agent-tools/other': [siteTool('send_message', 'https://shop.example/agent/elsewhere')],
    };
    const sites = createSiteDirectory(() => undefined, async (url) => ({ url: url.href, tools: new Map((manifests[url.href] ?? []).map((tool) => [tool.name, tool])), problems: [], readAt: Date.now() }));
    sites.note('https://shop.example/v1/agent-tools/same', 'https://shop.example');
    await sites.refresh('https://shop.example');
    assert.equal(sites.resolve('https://shop.example', 'send_message')?.tool?.binding.target, 'https://shop.example/agent/submit');
    assert.equal(sites.resolve('https://shop.example', 'nothing'), undefined);
    sites.note('https://shop.example/v1/agent-tools/other', 'https://shop.example');
    await sites.refresh('https://shop.example');
    assert.match(sites.resolve('https://shop.example', 'send_message')?.problem ?? '', /declare send_message differently \(POST https:\/\/shop\.example\/agent\/submit and POST https:\/\/shop\.example\/agent\/elsewhere\); the agent signs neither/);
  });
});

describe('a paid send the site did not charge', () => {
  test('is one answered 402, 429 or 5xx; what the site answered 2xx or another 4xx to stays spent', () => {
    for (const status of [402, 429, 500, 502, 503]) assert.equal(isUncharged(status), true, String(status));
    for (const status of [200, 202, 400, 403, 409, 422]) assert.equal(isUncharged(status), false, String(status));
  });
});

describe('the agent\'s answer says what the agent paid, not what the page says', () => {
  const book = createIntentBook();
  const intentWith = (payment?: { price: string; answered: boolean; charged: string | null; refunded: boolean }, refusal?: string) => {
    const intent = book.open({ origin: 'https://shop.example', tool: 'stock_report', input: {}, session: {} });
    if (payment) intent.payment = payment;
    if (refusal) intent.refusal = refusal;
    return intent;
  };
  const ok = (value: unknown) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
  const failed = (text: string) => ({ content: [{ type: 'text', text }], isError: true });
  const textOf = (result: { content: { text?: string }[] }) => result.content[0]!.text ?? '';

  test('paid: the agent\'s price and crawler-charged replace the page\'s', () => {
    const paid = intentWith({ price: 'USD 0.02', answered: true, charged: 'USD 0.02', refunded: false });
    assert.equal(textOf(withAgentsPayment(ok({ answer: { inStock: 17 }, payment: { price: 'USD 0.00', charged: null } }), paid)), '{"answer":{"inStock":17},"payment":{"price":"USD 0.02","charged":"USD 0.02"}}');
    assert.equal(textOf(withAgentsPayment(ok({ inStock: 17 }), paid)), '{"answer":{"inStock":17},"payment":{"price":"USD 0.02","charged":"USD 0.02"}}');
  });

  test('a failed call the agent paid for says so; a refused one gives the agent\'s reason', () => {
    const paid = intentWith({ price: 'USD 0.02', answered: true, charged: 'USD 0.02', refunded: false });
    assert.equal(textOf(withAgentsPayment(failed('the site refused the call as not signed'), paid)), 'the site refused the call as not signed (the agent paid USD 0.02 for this call; crawler-charged USD 0.02)');
    const refunded = intentWith({ price: 'USD 0.02', answered: true, charged: null, refunded: true });
    assert.match(textOf(withAgentsPayment(failed('the site answered 503'), refunded)), /which the site did not charge; the budget has it back\)$/);
    const unanswered = intentWith({ price: 'USD 0.02', answered: false, charged: null, refunded: false });
    assert.match(textOf(withAgentsPayment(failed('aborted'), unanswered)), /\(the agent paid USD 0\.02 for this call; the site's answer to that send had not come when the call ended\)$/);
    const refused = intentWith(undefined, 'not paid: the site asks 0.50 USD; the agent\'s cap is 0.05 USD a call');
    assert.equal(textOf(withAgentsPayment(failed('the page says it paid'), refused)), 'not paid: the site asks 0.50 USD; the agent\'s cap is 0.05 USD a call');
  });

  test('a page that claims a payment the agent never made: payment null; any other answer as it is', () => {
    const unpaid = intentWith();
    assert.equal(textOf(withAgentsPayment(ok({ answer: { inStock: 17 }, payment: { price: 'USD 0.02', charged: 'USD 0.02' } }), unpaid)), '{"answer":{"inStock":17},"payment":null}');
    assert.equal(textOf(withAgentsPayment(ok({ status: 'accepted' }), unpaid)), '{"status":"accepted"}');
  });
});
