/**
 * Everything the Capell allow-list permits is enforced at call time (issue: no tool registers
 * and then fails on every call, or lets through what its schema forbids). One row per keyword,
 * each with an input it accepts and one it rejects; annotation-only keywords accept both.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALLOWED_SCHEMA_KEYWORDS } from '../../src/shared/declarations/schema-policy.ts';
import { validateValue } from '../../src/call/validation.ts';

type Row = { schema: Record<string, unknown>; accepts: unknown; rejects?: unknown };

const wrap = (property: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties: { v: property }, ...extra });

const ROWS: Record<string, Row> = {
  $schema: { schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { v: { type: 'string' } } }, accepts: { v: 'a' }, rejects: { v: 1 } },
  $ref: { schema: wrap({ $ref: '#/$defs/S' }, { $defs: { S: { type: 'string' } } }), accepts: { v: 'a' }, rejects: { v: 1 } },
  type: { schema: wrap({ type: ['integer', 'null'] }), accepts: { v: null }, rejects: { v: 1.5 } },
  title: { schema: wrap({ title: 'Only a label' }), accepts: { v: 'anything' } },
  description: { schema: wrap({ description: 'Only a label' }), accepts: { v: 1 } },
  default: { schema: wrap({ type: 'integer', default: 1 }), accepts: {}, rejects: { v: 'x' } },
  enum: { schema: wrap({ enum: ['a', 2, null, [1], { k: 1 }] }), accepts: { v: [1] }, rejects: { v: 'b' } },
  const: { schema: wrap({ const: { k: [1, 2] } }), accepts: { v: { k: [1, 2] } }, rejects: { v: { k: [2, 1] } } },
  examples: { schema: wrap({ type: 'string', examples: ['x'] }), accepts: { v: 'y' }, rejects: { v: 0 } },
  properties: { schema: wrap({ type: 'object', properties: { n: { type: 'number' } } }), accepts: { v: { n: 1 } }, rejects: { v: { n: '1' } } },
  required: { schema: wrap({ type: 'object', required: ['n'] }), accepts: { v: { n: 1 } }, rejects: { v: {} } },
  additionalProperties: { schema: wrap({ type: 'object', additionalProperties: { type: 'boolean' } }), accepts: { v: { a: true } }, rejects: { v: { a: 1 } } },
  items: { schema: wrap({ type: 'array', items: { type: 'integer' } }), accepts: { v: [1, 2] }, rejects: { v: [1, 'x'] } },
  minItems: { schema: wrap({ type: 'array', minItems: 2 }), accepts: { v: [1, 2] }, rejects: { v: [1] } },
  maxItems: { schema: wrap({ type: 'array', maxItems: 1 }), accepts: { v: [1] }, rejects: { v: [1, 2] } },
  uniqueItems: { schema: wrap({ type: 'array', uniqueItems: true }), accepts: { v: [{ a: 1 }, { a: 2 }] }, rejects: { v: [{ a: 1 }, { a: 1 }] } },
  minProperties: { schema: wrap({ type: 'object', minProperties: 1 }), accepts: { v: { a: 1 } }, rejects: { v: {} } },
  maxProperties: { schema: wrap({ type: 'object', maxProperties: 1 }), accepts: { v: { a: 1 } }, rejects: { v: { a: 1, b: 2 } } },
  minLength: { schema: wrap({ type: 'string', minLength: 2 }), accepts: { v: '😀😀' }, rejects: { v: '😀' } },
  maxLength: { schema: wrap({ type: 'string', maxLength: 1 }), accepts: { v: '😀' }, rejects: { v: 'e\u0301' } },
  minimum: { schema: wrap({ type: 'number', minimum: 1 }), accepts: { v: 1 }, rejects: { v: 0.5 } },
  maximum: { schema: wrap({ type: 'number', maximum: 1 }), accepts: { v: 1 }, rejects: { v: 1.5 } },
  exclusiveMinimum: { schema: wrap({ type: 'number', exclusiveMinimum: 1 }), accepts: { v: 1.1 }, rejects: { v: 1 } },
  exclusiveMaximum: { schema: wrap({ type: 'number', exclusiveMaximum: 1 }), accepts: { v: 0.9 }, rejects: { v: 1 } },
  pattern: { schema: wrap({ type: 'string', pattern: '^\\p{Lu}{2}-\\d{4}$' }), accepts: { v: 'CW-1001' }, rejects: { v: 'cw-1001' } },
  format: { schema: wrap({ type: 'string', format: 'date' }), accepts: { v: '2026-11-30' }, rejects: { v: '2026-02-30' } },
  anyOf: { schema: wrap({ anyOf: [{ type: 'string' }, { type: 'integer' }] }), accepts: { v: 3 }, rejects: { v: 1.5 } },
  oneOf: { schema: wrap({ oneOf: [{ type: 'number' }, { type: 'integer' }] }), accepts: { v: 1.5 }, rejects: { v: 1 } },
  allOf: { schema: wrap({ allOf: [{ type: 'string' }, { minLength: 2 }] }), accepts: { v: 'ab' }, rejects: { v: 'a' } },
  not: { schema: wrap({ not: { type: 'null' } }), accepts: { v: 0 }, rejects: { v: null } },
  definitions: { schema: wrap({ $ref: '#/definitions/S' }, { definitions: { S: { type: 'boolean' } } }), accepts: { v: false }, rejects: { v: 'false' } },
  $defs: { schema: wrap({ $ref: '#/$defs/S' }, { $defs: { S: { type: 'boolean' } } }), accepts: { v: true }, rejects: { v: 1 } },
};

describe('call-time validation of every allow-listed keyword', () => {
  it('has a row for every keyword the allow-list permits', () => {
    assert.deepEqual(Object.keys(ROWS).sort(), [...ALLOWED_SCHEMA_KEYWORDS].sort());
  });

  for (const [keyword, row] of Object.entries(ROWS)) {
    it(`${keyword}: accepts ${JSON.stringify(row.accepts)}${row.rejects === undefined ? '' : ` and rejects ${JSON.stringify(row.rejects)}`}`, () => {
      assert.deepEqual(validateValue(row.schema, row.accepts), []);
      if (row.rejects !== undefined) assert.notDeepEqual(validateValue(row.schema, row.rejects), []);
    });
  }
});

describe('formats the runtime enforces', () => {
  const rows: [string, string, string][] = [
    ['email', 'someone@example.org', 'someone'],
    ['date-time', '2026-11-30T10:00:00Z', '2026-11-30 25:00'],
    ['date', '2026-11-30', '30.11.2026'],
    ['time', '10:00:00Z', '25:00:00Z'],
    ['uri', 'https://example.org/a', 'not a uri'],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123'],
    ['ipv4', '192.0.2.1', '999.0.0.1'],
    ['hostname', 'shop.example', '-bad-.example'],
  ];
  for (const [format, good, bad] of rows) {
    it(`${format}: accepts ${JSON.stringify(good)} and rejects ${JSON.stringify(bad)}`, () => {
      const schema = wrap({ type: 'string', format });
      assert.deepEqual(validateValue(schema, { v: good }), []);
      assert.notDeepEqual(validateValue(schema, { v: bad }), []);
    });
  }

  it('lets an unknown format pass (annotation only, JSON Schema 2020-12 §7.2)', () => {
    assert.deepEqual(validateValue(wrap({ type: 'string', format: 'postcode' }), { v: 'anything' }), []);
  });
});
