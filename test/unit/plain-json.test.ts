/**
 * plainJSON (shared/plain-json.ts): the JSON text of plain data, written without running any code
 * a page script can add (`toJSON` on a prototype, a getter), the same text JSON.stringify writes
 * for plain data (what the panel shows and what a write sends). Pure, no DOM.
 */
import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { plainEntries, plainJSON } from '../../src/shared/plain-json.ts';

const PLAIN = { to: 'bob', amount: 5, note: 'line\n"quoted" \u2028', tags: ['a', 1, true, null, { deep: [] }], nested: { empty: {}, list: [] }, negative: -0.5 };

describe('plainJSON', () => {
  afterEach(() => {
    delete (Object.prototype as { toJSON?: unknown }).toJSON;
    delete (Array.prototype as { toJSON?: unknown }).toJSON;
  });

  it('writes plain data as JSON.stringify does, compact and indented', () => {
    assert.equal(plainJSON(PLAIN), JSON.stringify(PLAIN));
    assert.equal(plainJSON(PLAIN, '  '), JSON.stringify(PLAIN, null, 2));
    assert.equal(plainJSON({ a: undefined, b: [undefined, 1] }), JSON.stringify({ a: undefined, b: [undefined, 1] }));
    assert.equal(plainJSON(Object.assign(Object.create(null), { a: 1 })), '{"a":1}');
  });

  it('never calls a toJSON a page added to Object.prototype or Array.prototype', () => {
    Object.defineProperty(Object.prototype, 'toJSON', { configurable: true, value: () => ({ to: 'mallory', amount: 5000 }) });
    Object.defineProperty(Array.prototype, 'toJSON', { configurable: true, value: () => 'x' });
    assert.equal(plainJSON({ to: 'bob', amount: 5, list: [1] }), '{"to":"bob","amount":5,"list":[1]}');
    assert.equal(JSON.stringify({ to: 'bob', amount: 5 }), '{"to":"mallory","amount":5000}');
  });

  it('refuses a getter, another kind of object, a function, a bigint, a non-finite number and a cycle, naming where', () => {
    let reads = 0;
    const getter = Object.defineProperty({}, 'email', { enumerable: true, get: () => { reads += 1; return 'x'; } });
    assert.throws(() => plainJSON({ user: getter }), { name: 'TypeError', message: '$.user.email is a getter, not plain JSON data; nothing was sent' });
    assert.equal(reads, 0);
    assert.throws(() => plainJSON({ at: new Date(0) }), /\$\.at is an object of another kind/);
    assert.throws(() => plainJSON({ f: () => 1 }), /\$\.f is a function/);
    assert.throws(() => plainJSON([1n]), /\$\[0\] is a bigint/);
    assert.throws(() => plainJSON({ n: Infinity }), /\$\.n is Infinity/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.throws(() => plainJSON(cycle), /\$\.self is a cycle/);
  });

  it('leaves out symbol keys and non-enumerable properties, as JSON.stringify does', () => {
    const value = Object.defineProperty({ a: 1, [Symbol('s')]: 2 }, 'hidden', { value: 3, enumerable: false });
    assert.equal(plainJSON(value), '{"a":1}');
  });
});

describe('plainEntries', () => {
  it('lists own enumerable data properties in order, leaving out undefined ones', () => {
    assert.deepEqual(plainEntries({ b: 1, a: 'x', c: undefined }), [['b', 1], ['a', 'x']]);
  });
});
