/**
 * The shape memo of the Capell rules (ShapeMemo, src/shared/declarations/check-declaration.ts):
 * a page's declarations that share a shape (effect, binding, inputSchema, outputSchema) are
 * checked once, and every verdict is the one checkCapellDeclaration gives without a memo. The
 * declarations come from JSON text, as every source reads them (an island's text, a manifest).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCapellDeclaration, ShapeMemo, type NormaliseContext } from '../../src/shared/declarations/check-declaration.ts';
import { REF_CHECKS } from '../../src/shared/declarations/normalise.ts';
import { DECLARATION_ROWS, ORIGIN, declarationFor } from '../support/declaration-rows.ts';

const context = (messages: Record<string, string> = {}): NormaliseContext => ({ source: 'capell-island[0]', origin: ORIGIN, messages });
/** As a source reads it: parsed from JSON text. */
const fromText = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;
const parsed = (value: unknown): Record<string, unknown> => fromText(JSON.stringify(value));

/** Checks each [declaration, context] through one memo; the results in order. */
function throughMemo(cases: [Record<string, unknown>, NormaliseContext][]) {
  const memo = new ShapeMemo();
  return cases.map(([raw, at]) => checkCapellDeclaration(raw, at, REF_CHECKS, memo));
}

describe('ShapeMemo', () => {
  it('gives every declaration row the verdict it gets without a memo, in table order and reversed', () => {
    // Most rows change one member of one base declaration: the others share its shape.
    const cases = DECLARATION_ROWS.map((row) => [parsed(declarationFor(row.change)), context(row.messages)] as [Record<string, unknown>, NormaliseContext]);
    const expected = cases.map(([raw, at]) => checkCapellDeclaration(raw, at, REF_CHECKS));
    assert.deepEqual(throughMemo(cases), expected);
    assert.deepEqual(throughMemo([...cases].reverse()), [...expected].reverse());
  });

  it('hands tools that share a shape one normalised inputSchema, and a tool of another shape its own', () => {
    const tool = (name: string, limit = 50) => parsed({
      name, description: `Search ${name}.`, effect: 'read', binding: { type: 'search', target: 'pages' },
      inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer', maximum: limit } }, required: ['q'] },
    });
    const [first, second, other] = throughMemo([[tool('site.one'), context()], [tool('site.two'), context()], [tool('site.three', 20), context()]]);
    if (!first?.ok || !second?.ok || !other?.ok) return assert.fail('each tool is accepted');
    assert.equal(second.spec.inputSchema, first.spec.inputSchema);
    assert.notEqual(other.spec.inputSchema, first.spec.inputSchema);
    assert.deepEqual([first.spec.name, second.spec.name], ['site.one', 'site.two']);
    assert.match(second.spec.description, /^Search site\.two\. To read another page, call again with cursor/);
    // Search tools get the pagination inputs (Capell Agent Schema: paginated lists); `limit` is the site's own.
    assert.deepEqual(Object.keys(first.spec.inputSchema.properties as object), ['q', 'limit', 'cursor']);
  });

  it('tells apart what JSON text alone would not: an absent and a null outputSchema, a `const` of Infinity and of null', () => {
    const base = '"name":"site.tool","description":"A tool.","effect":"read","binding":{"type":"search","target":"pages"}';
    const pairs = [
      [`{${base}}`, `{${base},"outputSchema":null}`],
      // JSON.parse reads 1e400 as Infinity, which JSON.stringify writes as null.
      [`{${base},"inputSchema":{"type":"object","properties":{"n":{"const":1e400}}}}`, `{${base},"inputSchema":{"type":"object","properties":{"n":{"const":null}}}}`],
    ];
    for (const pair of pairs) {
      for (const texts of [pair, [...pair].reverse()]) {
        const raws = texts.map(fromText);
        assert.deepEqual(throughMemo(raws.map((raw) => [raw, context()])), raws.map((raw) => checkCapellDeclaration(raw, context(), REF_CHECKS)), texts.join(' then '));
      }
    }
    assert.equal(checkCapellDeclaration(fromText(pairs[0]![1]!), context(), REF_CHECKS).ok, false, 'a null outputSchema is rejected');
  });

  it('checks a shape again under another origin or in the admin registry', () => {
    const raw = parsed({ name: 'site.tool', description: 'A tool.', effect: 'read', binding: { type: 'endpoint', target: '/agent/v1/x' } });
    const cases: [Record<string, unknown>, NormaliseContext][] = [
      [raw, context()],
      [raw, { ...context(), origin: 'https://other.example' }],
      [parsed({ ...raw, effect: 'write', binding: { type: 'admin-invoke', target: 'site.tool' } }), context()],
      [parsed({ ...raw, effect: 'write', binding: { type: 'admin-invoke', target: 'site.tool' } }), { ...context(), adminRegistry: true }],
    ];
    const expected = cases.map(([declaration, at]) => checkCapellDeclaration(declaration, at, REF_CHECKS));
    assert.deepEqual(expected.map((result) => result.ok), [true, true, false, true], 'the admin binding is the admin registry\'s alone');
    assert.deepEqual(throughMemo(cases), expected);
    assert.deepEqual(throughMemo([...cases].reverse()), [...expected].reverse());
  });

  it('freezes what tools of one shape share: a script that changes one tool\'s inputSchema or binding (a wrapped registerTool sees it) changes no other tool\'s', () => {
    const tool = (name: string) => parsed({ name, description: 'A tool.', effect: 'read', binding: { type: 'search', target: 'pages' }, inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^a' } } } });
    const [first, second] = throughMemo([[tool('site.one'), context()], [tool('site.two'), context()]]);
    if (!first?.ok || !second?.ok) return assert.fail('each tool is accepted');
    const schema = first.spec.inputSchema as { properties: Record<string, { pattern?: string }> };
    assert.throws(() => { schema.properties.q!.pattern = '(a)\\1'; }, TypeError);
    assert.throws(() => { (schema.properties as Record<string, unknown>).extra = {}; }, TypeError);
    assert.throws(() => { (first.spec.binding as { target: string }).target = 'https://evil.example/'; }, TypeError);
    const alone = checkCapellDeclaration(tool('site.two'), context(), REF_CHECKS);
    assert.ok(alone.ok);
    assert.deepEqual(second.spec.inputSchema, alone.spec.inputSchema);
  });

  it('leaves the caller\'s declaration unfrozen and unshared, and a deeply nested value is still one reason', () => {
    const raw = parsed({ name: 'site.tool', description: 'A tool.', effect: 'read', binding: { type: 'search', target: 'pages' }, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });
    const result = checkCapellDeclaration(raw, context(), REF_CHECKS, new ShapeMemo());
    if (!result.ok) return assert.fail('accepted');
    assert.equal(Object.isFrozen((raw.inputSchema as { properties: object }).properties), false);
    assert.notEqual(result.spec.inputSchema.properties, (raw.inputSchema as { properties: object }).properties);
    let deep: unknown = 'x';
    for (let level = 0; level < 10_000; level++) deep = { deep };
    const nested = checkCapellDeclaration({ ...raw, effect: deep }, context(), REF_CHECKS, new ShapeMemo());
    assert.equal(nested.ok, false);
    assert.deepEqual(!nested.ok && nested.reasons.map((reason) => reason[1]), ['effect']);
  });

  it('is not used while a script gives objects a toJSON: each shape is checked for itself', () => {
    const good = parsed({ name: 'site.good', description: 'A tool.', effect: 'read', binding: { type: 'search', target: 'pages' } });
    const bad = parsed({ name: 'site.bad', description: 'A tool.', effect: 'read', binding: { type: 'search', target: 'https://evil.example/' } });
    const memo = new ShapeMemo();
    Object.defineProperty(Object.prototype, 'toJSON', { value: () => 'same', configurable: true, writable: true });
    try {
      const [first, second] = [good, bad].map((raw) => checkCapellDeclaration(raw, context(), REF_CHECKS, memo));
      assert.equal(first!.ok, true);
      assert.equal(second!.ok, false);
    } finally {
      delete (Object.prototype as { toJSON?: unknown }).toJSON;
    }
  });
});
