/**
 * Call-time JSON Schema validation (src/call/validation.ts), for what the issue's bad input lists and
 * the schema shapes public bug reports name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

// Every request of this file's code is counted (and refused). Installed before the runtime's
// modules are imported: the runtime takes `fetch` once, when they are first evaluated
// (src/start/primitives.ts), so a wrapper put on `globalThis` later would never see its requests.
let fetched = 0;
globalThis.fetch = (async () => { fetched++; throw new Error('no request in these tests'); }) as typeof fetch;
const { formatIssues, prepareValidator, validateValue } = await import('../../src/call/validation.ts');
const { warmUp } = await import('../../src/call/call-tool.ts');

const objectOf = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

const rows: { case: string; schema: Record<string, unknown>; input: unknown; issue?: RegExp }[] = [
  { case: 'a number where q is a string names the field', schema: objectOf({ q: { type: 'string' } }), input: { q: 5 }, issue: /^q: expected string, got integer$/ },
  { case: 'an extra property under additionalProperties false names it', schema: objectOf({ q: { type: 'string' } }, { additionalProperties: false }), input: { q: 'a', extra: 1 }, issue: /^extra: not an allowed property/ },
  { case: 'a "no arguments" schema rejects any non-empty input', schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false }, input: { a: 1 }, issue: /^a: not an allowed property/ },
  { case: 'a "no arguments" schema accepts {}', schema: { type: 'object', additionalProperties: false }, input: {} },
  { case: 'a missing required property names it', schema: objectOf({ q: { type: 'string' } }, { required: ['q'] }), input: {}, issue: /^q: required$/ },
  { case: 'the string "5" for an integer names the field', schema: objectOf({ page: { type: 'integer' } }), input: { page: '5' }, issue: /^page: expected integer, got string$/ },
  { case: 'a local $ref into $defs validates', schema: objectOf({ query: { $ref: '#/$defs/Q' } }, { $defs: { Q: { type: 'object', properties: { text: { type: 'string' } } } } }), input: { query: { text: 'x' } } },
  { case: 'a local $ref into $defs rejects a wrong nested type', schema: objectOf({ query: { $ref: '#/$defs/Q' } }, { $defs: { Q: { type: 'object', properties: { text: { type: 'string' } } } } }), input: { query: { text: 1 } }, issue: /^query\.text: expected string/ },
  { case: 'oneOf string|integer accepts "a"', schema: objectOf({ id: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }), input: { id: 'a' } },
  { case: 'oneOf string|integer accepts 3', schema: objectOf({ id: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }), input: { id: 3 } },
  { case: 'oneOf string|integer rejects {}', schema: objectOf({ id: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }), input: { id: {} }, issue: /^id: .*oneOf/ },
  { case: 'a type array accepts null', schema: objectOf({ note: { type: ['string', 'null'] } }), input: { note: null } },
  { case: 'a type array accepts a string', schema: objectOf({ note: { type: ['string', 'null'] } }), input: { note: 'x' } },
  { case: 'maxLength counts an emoji as one code point', schema: objectOf({ name: { type: 'string', maxLength: 1 } }), input: { name: '😀' } },
  { case: 'maxLength counts e + combining accent as two code points', schema: objectOf({ name: { type: 'string', maxLength: 1 } }), input: { name: 'e\u0301' }, issue: /^name: .*maxLength/ },
  { case: 'a default is not required in the input', schema: objectOf({ page: { type: 'integer', default: 1 } }), input: {} },
  { case: 'pattern is enforced', schema: objectOf({ sku: { type: 'string', pattern: '^[A-Z]{2}-\\d+$' } }), input: { sku: 'x' }, issue: /^sku: .*pattern/ },
  { case: 'format email is enforced', schema: objectOf({ email: { type: 'string', format: 'email' } }), input: { email: 'nope' }, issue: /^email: .*format/ },
  { case: 'exclusiveMaximum is enforced', schema: objectOf({ n: { type: 'number', exclusiveMaximum: 5 } }), input: { n: 5 }, issue: /^n: / },
  { case: 'enum of mixed JSON types accepts a member', schema: objectOf({ v: { enum: [1, 'a', null, { k: true }] } }), input: { v: { k: true } } },
];

describe('validateValue', () => {
  for (const row of rows) {
    it(row.case, () => {
      const issues = validateValue(row.schema, row.input);
      if (row.issue) assert.match(formatIssues(issues), row.issue);
      else assert.deepEqual(issues, []);
    });
  }

  it('does not apply defaults to the input', () => {
    const input = {};
    validateValue(objectOf({ page: { type: 'integer', default: 1 } }), input);
    assert.deepEqual(input, {});
  });
});

// The call module's prefetch builds validators at idle (tool-execute.ts prefetchCallModule).
describe('prepareValidator and the call module\'s warmUp', () => {
  const schema = () => ({ type: 'object', properties: { q: { type: 'string', pattern: '^[a-z]+$' } }, required: ['q'] });

  it('a validator built ahead gives the verdicts a fresh one gives', () => {
    const prepared = schema();
    prepareValidator(prepared);
    for (const value of [{ q: 'trail' }, { q: 'Trail' }, {}, { q: 3 }]) {
      assert.deepEqual(validateValue(prepared, value), validateValue(schema(), value));
    }
    assert.equal(formatIssues(validateValue(prepared, { q: 'Trail' })), 'q: value does not match pattern "^[a-z]+$" (pattern)');
  });

  it('never throws: a schema that breaks while its validator is built is left to the call', () => {
    const broken = { type: 'object', get properties(): never { throw new Error('hostile getter'); } };
    assert.doesNotThrow(() => prepareValidator(broken));
  });

  it('warmUp resolves, requests nothing, and leaves verdicts unchanged', async () => {
    const before = validateValue(schema(), { q: 'Trail' });
    const requests = fetched;
    assert.equal(await warmUp(), undefined);
    assert.equal(fetched - requests, 0);
    assert.deepEqual(validateValue(schema(), { q: 'Trail' }), before);
  });
});
