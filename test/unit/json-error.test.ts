/**
 * src/cli/json-error.ts: the first JSON syntax error of a text, at its own offset (what
 * `capell-webmcp check` and `validate` turn into a line and column in the site owner's file). One
 * row per kind of error, then agreement with `JSON.parse` on generated texts: the scanner finds
 * an error exactly when `JSON.parse` throws.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findJSONError, lineColumnAt } from '../../src/cli/json-error.ts';

describe('findJSONError', () => {
  for (const { text, at, message } of [
    { text: '{"a": 1,}', at: [1, 8], message: 'trailing comma before "}"' },
    { text: '{"tools": [\n  1,\n]}', at: [2, 4], message: 'trailing comma before "]"' },
    { text: '{"a": 1\n "b": 2}', at: [2, 2], message: 'expected "," or "}" after a property value, found "b" (a comma missing at the end of the line before?)' },
    { text: '{"a": 1 "b": 2}', at: [1, 9], message: 'expected "," or "}" after a property value, found "b" (a comma missing?)' },
    { text: '[1 2]', at: [1, 4], message: 'expected "," or "]" after an array item, found "2" (a comma missing?)' },
    { text: '{"a": [1, 2}', at: [1, 12], message: 'expected "," or "]" after an array item, found "}"' },
    { text: '{\n  tools: []\n}', at: [2, 3], message: 'expected a property name in double quotes, found "tools"' },
    { text: "{'a': 1}", at: [1, 2], message: 'a property name in single quotes (JSON needs double quotes)' },
    { text: '{"a" 1}', at: [1, 6], message: 'expected ":" after a property name, found "1"' },
    { text: '{"a": tru}', at: [1, 7], message: 'expected a value, found "tru"' },
    { text: '{"a": 01}', at: [1, 7], message: 'a number with a leading zero' },
    { text: '{"a": "x\ny"}', at: [1, 9], message: 'a line break or control character inside a string (write it as \\n, \\t or \\u00XX)' },
    { text: '{"a": "\\q"}', at: [1, 8], message: '"\\\\q" is not a JSON escape' },
    { text: '"\\u12"', at: [1, 2], message: 'a \\u escape needs four hex digits' },
    { text: '{"a": "open', at: [1, 12], message: 'a string is not closed' },
    { text: '{"a": 1', at: [1, 1], message: 'an object is not closed (no "}" for this "{")' },
    { text: '[1, 2', at: [1, 1], message: 'an array is not closed (no "]" for this "[")' },
    { text: '{"a": 1} x', at: [1, 10], message: 'text after the JSON value: "x"' },
    { text: '  \n ', at: [1, 1], message: 'empty: no JSON value' },
    { text: '{"日本": 1,}', at: [1, 9], message: 'trailing comma before "}"' },
  ] as const) {
    it(`${JSON.stringify(text)}: ${message} at line ${at[0]}, column ${at[1]}`, () => {
      assert.throws(() => JSON.parse(text));
      const error = findJSONError(text);
      assert.ok(error);
      assert.equal(error.message, message);
      const { line, column } = lineColumnAt(text, error.offset);
      assert.deepEqual([line, column], at);
    });
  }

  it('valid JSON has no error, however it is laid out', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, '\t'), (value, space) => {
      assert.equal(findJSONError(JSON.stringify(value, null, space)), undefined);
    }), { numRuns: 300, seed: 35 });
  });

  it('finds an error exactly where JSON.parse throws, on JSON with one character changed, added or removed', () => {
    const edit = fc.tuple(fc.jsonValue(), fc.nat(), fc.constantFrom('delete', 'insert', 'replace'), fc.constantFrom(',', '"', ':', '}', ']', '{', '[', ' ', '\n', '0', 'x', '\\'));
    fc.assert(fc.property(edit, ([value, position, kind, char]) => {
      const json = JSON.stringify(value, null, 1);
      const at = position % (json.length + 1);
      const text = kind === 'delete' ? json.slice(0, at) + json.slice(at + 1) : json.slice(0, at) + char + json.slice(kind === 'insert' ? at : at + 1);
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      const error = findJSONError(text);
      assert.equal(error === undefined, parses, `${JSON.stringify(text)}: ${error?.message ?? 'no error'}`);
      if (error) assert.ok(error.offset >= 0 && error.offset <= text.length);
    }), { numRuns: 1000, seed: 35 });
  });
});

describe('lineColumnAt', () => {
  it('counts lines at \\n (a \\r\\n file the same) and columns in characters', () => {
    assert.deepEqual(lineColumnAt('ab\ncd', 4), { line: 2, column: 2 });
    assert.deepEqual(lineColumnAt('ab\r\ncd', 5), { line: 2, column: 2 });
    assert.deepEqual(lineColumnAt('😀x', 2), { line: 1, column: 2 });
    assert.deepEqual(lineColumnAt('', 0), { line: 1, column: 1 });
  });
});
