/**
 * The JSON Schema keywords a declaration may use, by kind: the one table the schema policy
 * (schema-policy.ts: what a declaration may write, and PHP's `[]` read as `{}`) and the call-time
 * schema preparation (call/validation/prepare-schema.ts: which values are subschemas to rewrite)
 * both read, so a keyword allowed is also a keyword walked.
 * Capell Agent Schema normaliser: Core's allow-list; `uniqueItems` is written by Capell's admin
 * (BEYOND_CORE_KEYWORDS in schema-policy.ts).
 */
import type { KeywordKind } from './rules.js';

/** Every allowed keyword and the kind of value it takes. */
export const KEYWORD_KINDS: Readonly<Record<string, KeywordKind>> = {
  $schema: 'dialect', $ref: 'ref', type: 'type', title: 'string', description: 'string', default: 'any',
  enum: 'array', const: 'any', examples: 'array', properties: 'schemaMap', required: 'strings',
  additionalProperties: 'schema', items: 'items', minItems: 'count', maxItems: 'count',
  minProperties: 'count', maxProperties: 'count', minLength: 'count', maxLength: 'count',
  minimum: 'number', maximum: 'number', exclusiveMinimum: 'number', exclusiveMaximum: 'number',
  pattern: 'pattern', format: 'format', anyOf: 'schemas', oneOf: 'schemas', allOf: 'schemas', not: 'schema',
  definitions: 'schemaMap', $defs: 'schemaMap', uniqueItems: 'boolean',
};

const keywordsOf = (...kinds: KeywordKind[]): readonly string[] =>
  Object.keys(KEYWORD_KINDS).filter((keyword) => kinds.includes(KEYWORD_KINDS[keyword]!));

/** Keywords whose value is one schema (`items` too: a schema, or draft-07's list of schemas). */
export const SCHEMA_VALUED: readonly string[] = keywordsOf('schema', 'items');
/** Keywords whose value maps names to schemas. */
export const SCHEMA_MAPS: readonly string[] = keywordsOf('schemaMap');
/** Keywords whose value lists schemas (`items` in its draft-07 tuple form is read with SCHEMA_VALUED). */
export const SCHEMA_LISTS: readonly string[] = keywordsOf('schemas');
