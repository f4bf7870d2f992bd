/**
 * No call can freeze the tab: the validator's work other than patterns and formats is counted
 * before it runs and bounded by MAX_VALIDATION_WORK (a 37000-item array against a 7000-member
 * `enum`, or 20000 answer items against an `outputSchema` `enum`, froze the tab for seconds
 * before); what listing an issue can cost is capped.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ISSUES, validateValue } from '../../src/call/validation.ts';
import { MAX_VALIDATION_DEPTH, MAX_VALIDATION_WORK, validationWork } from '../../src/call/validation/work-bound.ts';
import { FAILING_DEPTH_UNITS, FAILING_UNITS, PAIR_UNITS } from '../../src/shared/validation/work-units.ts';

const ENUM = Array.from({ length: 7000 }, (_, i) => `v${i}`);
const arrayOf = (items: unknown) => ({ type: 'object', properties: { q: { type: 'array', items } } });
const WORK_REASON = `checking the value against its schema needs more than ${MAX_VALIDATION_WORK} units of work (the bound that keeps the page responsive; a smaller value, e.g. fewer items, fits)`;

describe('validationWork: the validator\'s work, counted before it runs', () => {
  it('counts each application of a subschema, each enum member compared, each item and key', () => {
    // root object: 1 pair + 1 key + 1 property name; q: 1 pair + n items; each item: 1 pair + 7000 members.
    for (const n of [0, 1, 10, 100]) {
      const { work } = validationWork(arrayOf({ type: 'string', enum: ENUM }), { q: Array(n).fill('zzzz') }, Infinity);
      assert.equal(work, PAIR_UNITS + 2 + PAIR_UNITS + n + n * (PAIR_UNITS + 7000));
    }
  });

  it('charges every anyOf branch as failing (branches fail even when the value is valid)', () => {
    const schema = arrayOf({ anyOf: ENUM.slice(0, 2500).map((c) => ({ const: c })) });
    const one = validationWork(schema, { q: ['v1'] }, Infinity).work;
    const two = validationWork(schema, { q: ['v1', 'v2'] }, Infinity).work;
    assert.equal(two - one, 1 + PAIR_UNITS + 2500 * (FAILING_UNITS + 3 * FAILING_DEPTH_UNITS));
  });

  it('counts a deep comparison of an array value with an enum of arrays by the nodes compared', () => {
    const schema = { type: 'object', properties: { q: { enum: [Array(6000).fill(0), Array(6000).fill(1)] } } };
    const { work } = validationWork(schema, { q: Array(6000).fill(0) }, Infinity);
    assert.equal(work, PAIR_UNITS + 2 + PAIR_UNITS + 2 + 6000 + 12002);
  });

  it('stops counting as soon as the limit is passed (37000 items against a 7000-member enum)', () => {
    // The whole count would be 37000 × 7000 comparisons; it stops one item past the limit.
    const { work } = validationWork(arrayOf({ type: 'string', enum: ENUM }), { q: Array(37000).fill('zzzz') }, MAX_VALIDATION_WORK);
    assert.ok(work > MAX_VALIDATION_WORK);
    assert.ok(work < MAX_VALIDATION_WORK + 10_000);
  });
});

describe('validateValue: the work bound and capped issues', () => {
  it('items: {enum: [7000 strings]} with a 259 KB input is refused with the work bound, without running the validator', () => {
    const started = performance.now();
    assert.deepEqual(validateValue(arrayOf({ type: 'string', enum: ENUM }), { q: Array(37000).fill('zzzz') }), [{ path: '(root)', message: WORK_REASON }]);
    assert.ok(performance.now() - started < 2000); // the freeze was 20 s; a loaded shared machine is slow
  });

  it('items: {anyOf: [2500 const]} over 2000 items is refused with the work bound', () => {
    const schema = arrayOf({ anyOf: ENUM.slice(0, 2500).map((c) => ({ const: c })) });
    assert.deepEqual(validateValue(schema, { q: Array(2000).fill('zzzz') }), [{ path: '(root)', message: WORK_REASON }]);
    assert.deepEqual(validateValue(schema, { q: ['v0', 'v2499'] }), []);
  });

  it('a small enum is quoted as today; a large one is capped, never the whole enum per failing item', () => {
    assert.deepEqual(validateValue(arrayOf({ enum: ['a', 'b'] }), { q: ['c'] }), [{ path: 'q.0', message: 'value does not match any of ["a","b"] (enum)' }]);
    const [issue] = validateValue(arrayOf({ type: 'string', enum: ENUM }), { q: ['nope'] });
    assert.match(issue!.message, /^value does not match any of \["v0","v1",.*,…\] \(7000 values\) \(enum\)$/);
    assert.ok(issue!.message.length < 260);
  });

  it('a const is quoted as today when short, capped when long, and keeps its meaning', () => {
    assert.deepEqual(validateValue(arrayOf({ const: { k: [1, 2] } }), { q: [{ k: [2, 1] }] }), [{ path: 'q.0', message: 'value does not match {"k":[1,2]} (const)' }]);
    const long = { k: Array(500).fill(7) };
    const [issue] = validateValue(arrayOf({ const: long }), { q: [{ k: Array(500).fill(8) }] });
    assert.equal(issue!.message, `value does not match ${JSON.stringify(long).slice(0, 200)}… (const)`);
    assert.deepEqual(validateValue(arrayOf({ const: long }), { q: [{ k: Array(500).fill(7) }] }), []);
    assert.deepEqual(validateValue(arrayOf({ const: 'x'.repeat(300), type: 'string' }), { q: ['x'.repeat(300)] }), []);
  });

  it(`lists at most ${MAX_ISSUES} issues, then says more were not listed`, () => {
    const issues = validateValue(arrayOf({ type: 'string' }), { q: Array.from({ length: 100 }, (_, i) => i) });
    assert.equal(issues.length, MAX_ISSUES + 1);
    assert.deepEqual(issues[0], { path: 'q.0', message: 'expected string, got integer' });
    assert.deepEqual(issues[MAX_ISSUES], { path: '(root)', message: `more issues, not listed (at most ${MAX_ISSUES} are)` });
  });

  it('a value whose every failure could not be listed within the bound is still refused, by its first failure', () => {
    // 40000 failing items: checking is within the bound, listing all 40000 failures is not.
    const issues = validateValue(arrayOf({ type: 'string' }), { q: Array(40000).fill(1) });
    assert.deepEqual(issues, [{ path: 'q.0', message: 'expected string, got integer' }]);
    assert.deepEqual(validateValue(arrayOf({ type: 'string' }), { q: Array(40000).fill('a') }), []);
  });

  it(`a recursive $ref over a value nested deeper than ${MAX_VALIDATION_DEPTH} subschemas is refused, not a stack overflow blamed on the site`, () => {
    const schema = { type: 'object', properties: { c: { $ref: '#' } } };
    let value: Record<string, unknown> = {};
    for (let level = 0; level < 10_000; level++) value = { c: value };
    const issues = validateValue(schema, value);
    assert.deepEqual(issues, [{ path: '(root)', message: `checking the value against its schema goes more than ${MAX_VALIDATION_DEPTH} subschemas deep (the value is nested too deeply)` }]);
    let shallow: Record<string, unknown> = {};
    for (let level = 0; level < 100; level++) shallow = { c: shallow };
    assert.deepEqual(validateValue(schema, shallow), []);
  });
});
