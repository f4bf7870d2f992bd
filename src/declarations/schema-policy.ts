/**
 * The schema policy: which JSON Schema a declaration may carry. Core's normaliser accepts a
 * keyword allow-list; everything it accepts the runtime's validator checks at call time, and
 * everything else is rejected here, before registration, so no tool registers and then fails on
 * every call.
 */
import type { JSONSchema } from './tool-spec.js';

/** Capell Agent Schema normaliser: the JSON Schema keywords a declaration may use. */
export const ALLOWED_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema', '$ref', 'type', 'title', 'description', 'default', 'enum', 'const', 'examples',
  'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'minimum', 'maximum',
  'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'format', 'anyOf', 'oneOf', 'allOf', 'not',
  'definitions', '$defs',
]);

/** The `$schema` values accepted, and the validator dialect each selects. */
export const SCHEMA_DIALECTS: Readonly<Record<string, '2020-12' | '7'>> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2020-12/schema#': '2020-12',
  'http://json-schema.org/draft-07/schema#': '7',
  'http://json-schema.org/draft-07/schema': '7',
  'https://json-schema.org/draft-07/schema#': '7',
  'https://json-schema.org/draft-07/schema': '7',
};

/** Deepest nesting of subschemas allowed; deeper schemas are rejected, never walked. */
export const MAX_SCHEMA_DEPTH = 32;

/** Largest schema allowed, in UTF-16 units of its JSON serialisation (about bytes for ASCII). */
export const MAX_SCHEMA_SIZE = 64 * 1024;

const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
const NON_NEGATIVE_INTEGER_KEYWORDS = ['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
const SCHEMA_MAP_KEYWORDS = ['properties', '$defs', 'definitions'];
const SCHEMA_ARRAY_KEYWORDS = ['anyOf', 'oneOf', 'allOf'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves a local JSON Pointer fragment (`#/$defs/Q`) in `root`; `undefined` when absent. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    if (!Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/**
 * Checks a schema against the policy: allowed keywords only (recursively, in schema positions),
 * keyword values of the right JSON type, `pattern`s that compile as Unicode regular expressions,
 * only local `$ref`s that resolve, a known `$schema` dialect, depth ≤ MAX_SCHEMA_DEPTH and size
 * ≤ MAX_SCHEMA_SIZE.
 * @param schema the parsed schema (object or boolean).
 * @param field label for reasons, e.g. `inputSchema`.
 * @returns reasons, each naming the JSON Pointer of the offending keyword; empty when allowed.
 */
export function checkSchemaPolicy(schema: unknown, field: string): string[] {
  let size: number;
  try {
    size = JSON.stringify(schema)?.length ?? 0;
  } catch {
    return [`${field}: not serialisable as JSON`];
  }
  if (size > MAX_SCHEMA_SIZE) return [`${field}: ${size} characters of JSON, at most ${MAX_SCHEMA_SIZE} allowed`];
  const reasons: string[] = [];
  walk(schema, `${field}`, 0, schema, reasons);
  return reasons;
}

function walk(node: unknown, at: string, depth: number, root: unknown, reasons: string[]): void {
  if (depth > MAX_SCHEMA_DEPTH) {
    reasons.push(`${at}: schema nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    return;
  }
  if (typeof node === 'boolean') return;
  if (!isPlainObject(node)) {
    reasons.push(`${at}: a schema must be an object or a boolean`);
    return;
  }
  for (const [keyword, value] of Object.entries(node)) {
    const here = `${at}/${keyword}`;
    if (!ALLOWED_SCHEMA_KEYWORDS.has(keyword)) {
      reasons.push(`${here}: unsupported schema keyword ${JSON.stringify(keyword)} (Capell Agent Schema allow-list)`);
      continue;
    }
    checkKeyword(keyword, value, here, depth, root, reasons, node === root);
  }
}

function checkKeyword(
  keyword: string, value: unknown, here: string, depth: number, root: unknown, reasons: string[], atRoot: boolean,
): void {
  if (SCHEMA_MAP_KEYWORDS.includes(keyword)) {
    if (!isPlainObject(value)) return void reasons.push(`${here}: must be an object of schemas`);
    for (const [key, sub] of Object.entries(value)) walk(sub, `${here}/${key}`, depth + 1, root, reasons);
    return;
  }
  if (SCHEMA_ARRAY_KEYWORDS.includes(keyword)) {
    if (!Array.isArray(value) || value.length === 0) return void reasons.push(`${here}: must be a non-empty array of schemas`);
    value.forEach((sub, index) => walk(sub, `${here}/${index}`, depth + 1, root, reasons));
    return;
  }
  if (NON_NEGATIVE_INTEGER_KEYWORDS.includes(keyword)) {
    if (!Number.isInteger(value) || (value as number) < 0) reasons.push(`${here}: must be a non-negative integer`);
    return;
  }
  if (NUMBER_KEYWORDS.includes(keyword)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) reasons.push(`${here}: must be a number`);
    return;
  }
  switch (keyword) {
    case 'not':
    case 'additionalProperties':
      return walk(value, here, depth + 1, root, reasons);
    case 'items':
      if (Array.isArray(value)) value.forEach((sub, index) => walk(sub, `${here}/${index}`, depth + 1, root, reasons));
      else walk(value, here, depth + 1, root, reasons);
      return;
    case 'type': {
      const types = Array.isArray(value) ? value : [value];
      if (types.length === 0 || !types.every((type) => typeof type === 'string' && JSON_TYPES.has(type))) {
        reasons.push(`${here}: must be a JSON type name or an array of them`);
      }
      return;
    }
    case 'required':
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) reasons.push(`${here}: must be an array of strings`);
      return;
    case 'enum':
    case 'examples':
      if (!Array.isArray(value)) reasons.push(`${here}: must be an array`);
      return;
    case 'title':
    case 'description':
    case 'format':
      if (typeof value !== 'string') reasons.push(`${here}: must be a string`);
      return;
    case 'pattern':
      if (typeof value !== 'string') return void reasons.push(`${here}: must be a string`);
      try {
        new RegExp(value, 'u');
      } catch {
        reasons.push(`${here}: ${JSON.stringify(value)} is not a valid regular expression`);
      }
      return;
    case '$schema':
      if (!atRoot) reasons.push(`${here}: only allowed at the schema root`);
      else if (typeof value !== 'string' || !Object.hasOwn(SCHEMA_DIALECTS, value)) {
        reasons.push(`${here}: ${JSON.stringify(value)} is not JSON Schema 2020-12 or draft-07`);
      }
      return;
    case '$ref':
      if (typeof value !== 'string') return void reasons.push(`${here}: must be a string`);
      if (!value.startsWith('#')) return void reasons.push(`${here}: ${JSON.stringify(value)} is not a local reference (remote $ref is never fetched)`);
      if (resolveLocalRef(root, value) === undefined) reasons.push(`${here}: ${JSON.stringify(value)} does not resolve in this schema`);
      return;
    default:
      // default, const: any JSON value.
      return;
  }
}

/**
 * The validator dialect a schema's `$schema` selects; JSON Schema 2020-12 when absent
 * (MCP Tool: the dialect defaults to 2020-12).
 */
export function schemaDialect(schema: JSONSchema): '2020-12' | '7' {
  const declared = schema.$schema;
  return (typeof declared === 'string' && SCHEMA_DIALECTS[declared]) || '2020-12';
}

const COMPOSITION_KEYWORDS = ['properties', 'additionalProperties', '$ref', 'anyOf', 'oneOf', 'allOf', 'not'];

/**
 * Normalises a tool's `inputSchema` to what WebMCP and MCP expect: a root `type: "object"`.
 * A missing schema, or one that constrains no arguments at all (e.g. only `$schema`), means "no
 * arguments" and becomes `additionalProperties: false`, so any non-empty input is rejected.
 * @returns the normalised copy, or reasons (policy violations, or a root that is not an object).
 */
export function normaliseInputSchema(schema: unknown): { schema: JSONSchema; reasons: string[] } {
  if (schema === undefined) return { schema: { type: 'object', additionalProperties: false }, reasons: [] };
  if (!isPlainObject(schema)) return { schema: {}, reasons: ['inputSchema: must be a JSON Schema object'] };
  const reasons = checkSchemaPolicy(schema, 'inputSchema');
  if (schema.type !== undefined && schema.type !== 'object') {
    reasons.push('inputSchema/type: the root must be "object" (MCP Tool inputSchema)');
  }
  if (reasons.length > 0) return { schema: {}, reasons };
  const normalised: JSONSchema = { ...schema, type: 'object' };
  if (!COMPOSITION_KEYWORDS.some((keyword) => keyword in schema)) normalised.additionalProperties = false;
  return { schema: normalised, reasons };
}

/**
 * Checks an `outputSchema` against the policy (any root type is allowed).
 * @returns reasons; empty when allowed or absent.
 */
export function checkOutputSchema(schema: unknown): string[] {
  if (schema === undefined) return [];
  if (!isPlainObject(schema) && typeof schema !== 'boolean') return ['outputSchema: must be a JSON Schema object'];
  return checkSchemaPolicy(schema, 'outputSchema');
}
