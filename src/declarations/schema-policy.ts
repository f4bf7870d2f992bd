/**
 * The schema policy: which JSON Schema a declaration may carry. Core's normaliser accepts a
 * keyword allow-list; everything it accepts the runtime's validator checks at call time, and
 * everything else is rejected here, before registration, so no tool registers and then fails on
 * every call.
 */
import { isPlainObject } from '../is-plain-object.js';
import { compileLinear, LinearRegex } from '../validation/linear-regex.js';
import { FAILING_UNITS, MAX_VALIDATION_WORK, PAIR_UNITS } from '../validation/work-units.js';
import type { Reason } from './reason.js';
import type { JSONSchema } from './tool-spec.js';

/** What a keyword's value must be; sub-schema kinds are walked, the others checked. */
export type KeywordKind =
  | 'schema' | 'schemas' | 'schemaMap' | 'items'
  | 'count' | 'number' | 'string' | 'format' | 'array' | 'strings' | 'type' | 'pattern' | 'dialect' | 'ref' | 'any';

/** Capell Agent Schema normaliser: the JSON Schema keywords a declaration may use, by kind. */
const KEYWORD_KINDS: Readonly<Record<string, KeywordKind>> = {
  $schema: 'dialect', $ref: 'ref', type: 'type', title: 'string', description: 'string', default: 'any',
  enum: 'array', const: 'any', examples: 'array', properties: 'schemaMap', required: 'strings',
  additionalProperties: 'schema', items: 'items', minItems: 'count', maxItems: 'count',
  minProperties: 'count', maxProperties: 'count', minLength: 'count', maxLength: 'count',
  minimum: 'number', maximum: 'number', exclusiveMinimum: 'number', exclusiveMaximum: 'number',
  pattern: 'pattern', format: 'format', anyOf: 'schemas', oneOf: 'schemas', allOf: 'schemas', not: 'schema',
  definitions: 'schemaMap', $defs: 'schemaMap',
};

/** Capell Agent Schema normaliser: the JSON Schema keywords a declaration may use. */
export const ALLOWED_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(Object.keys(KEYWORD_KINDS));

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

/**
 * Most subschema evaluations one value may cost, counting every `$ref` expansion: a schema that
 * fans out (each level `anyOf` two `$ref`s to the next) is small to write but exponential to
 * check, and would stall or overflow the validator.
 */
export const MAX_SCHEMA_EVALUATIONS = 10_000;

const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

/** Resolves a local JSON Pointer fragment (`#/$defs/Q`, `%`-escapes decoded) in `root`; `undefined` when absent or malformed. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined; // a malformed %-escape is a reason, never a throw
    }
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    if (!Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/**
 * Checks a schema against the policy: allowed keywords only (recursively, in schema positions),
 * keyword values of the right JSON type, `pattern`s the linear-time matcher compiles (valid with
 * flag `u`, no lookaround or backreference, at most MAX_PATTERN_STATES states),
 * only local `$ref`s that resolve, a known `$schema` dialect, depth ≤ MAX_SCHEMA_DEPTH and size
 * ≤ MAX_SCHEMA_SIZE.
 * @param schema the parsed schema (object or boolean).
 * @param field label for reasons, e.g. `inputSchema`.
 * @returns reasons, each naming the JSON Pointer of the offending keyword; empty when allowed.
 */
export function checkSchemaPolicy(schema: unknown, field: string): Reason[] {
  let size: number;
  try {
    size = JSON.stringify(schema)?.length ?? 0;
  } catch {
    return [[field, 'notSerialisable']];
  }
  if (size > MAX_SCHEMA_SIZE) return [[field, 'schemaSize', size]];
  const state: WalkState = { root: schema, reasons: [], schemas: new Set(), refs: [] };
  walk(schema, `${field}`, 0, state);
  const { reasons } = state;
  for (const [at, ref] of state.refs) {
    const target = resolveLocalRef(schema, ref);
    if (target === undefined) reasons.push([at, 'unresolvedRef', ref]);
    else if (typeof target !== 'boolean' && !state.schemas.has(target as object)) reasons.push([at, 'refNotSchema', ref]);
  }
  // Without a $ref a schema is a finite tree of at most MAX_SCHEMA_SIZE characters: it can
  // neither loop nor fan out, so the two whole-schema passes below are skipped.
  if (reasons.length === 0 && state.refs.length > 0) {
    const loop = findEndlessRef(schema);
    if (loop) reasons.push([field, 'refLoop', loop]);
    else if (countEvaluations(schema) > MAX_SCHEMA_EVALUATIONS) reasons.push([field, 'tooManyEvaluations']);
  }
  if (reasons.length === 0 && valueWork(schema) > MAX_VALIDATION_WORK) reasons.push([field, 'schemaWork']);
  return reasons;
}

/** Subschemas of a schema node: those applied to the same value and those applied to its parts. */
function subschemas(node: Record<string, unknown>): unknown[] {
  const list: unknown[] = [node.not, node.additionalProperties, ...(Array.isArray(node.items) ? node.items : [node.items])];
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(node[keyword])) list.push(...node[keyword]);
  if (isPlainObject(node.properties)) list.push(...Object.values(node.properties));
  return list;
}

/**
 * Counts the subschema evaluations of one pass over a value, expanding every `$ref` (a schema
 * referenced twice is counted twice). Recursion through a `$ref` back into a schema being counted
 * counts once: each such step consumes part of the value. Stops counting past the limit.
 */
function countEvaluations(root: unknown): number {
  const counted = new Map<object, number>();
  const counting = new Set<object>();
  const count = (node: unknown): number => {
    if (!isPlainObject(node)) return 0;
    const known = counted.get(node);
    if (known !== undefined) return known;
    if (counting.has(node)) return 1;
    counting.add(node);
    let total = 1;
    if (typeof node.$ref === 'string') total += count(resolveLocalRef(root, node.$ref));
    for (const sub of subschemas(node)) {
      total += count(sub);
      if (total > MAX_SCHEMA_EVALUATIONS) break;
    }
    counting.delete(node);
    counted.set(node, total);
    return total;
  };
  return count(root);
}

/**
 * The validation work (validation/work-units.ts) of one value that has every property the schema
 * names and one item per array, each application failing where it may (inside `anyOf`, `oneOf`,
 * `not`) and every `enum` compared in full, `$ref` expanded. Over MAX_VALIDATION_WORK no value of
 * the declared shape could ever be checked: the tool would fail every call, so it is refused.
 * Recursion through a `$ref` counts once, as in countEvaluations. Stops counting past the bound.
 */
function valueWork(root: unknown): number {
  const counted = [new Map<object, number>(), new Map<object, number>()];
  const counting = new Set<object>();
  const count = (node: unknown, speculative: boolean): number => {
    const price = speculative ? FAILING_UNITS : PAIR_UNITS;
    if (!isPlainObject(node)) return price;
    const memo = counted[speculative ? 1 : 0]!;
    const known = memo.get(node);
    if (known !== undefined) return known;
    if (counting.has(node)) return price;
    counting.add(node);
    let total = price + (Array.isArray(node.enum) ? node.enum.length : 0);
    if (typeof node.$ref === 'string') total += count(resolveLocalRef(root, node.$ref), speculative);
    const parts: unknown[] = [node.additionalProperties, ...(Array.isArray(node.items) ? node.items : [node.items])];
    if (isPlainObject(node.properties)) parts.push(...Object.values(node.properties));
    for (const part of parts) if (part !== undefined) total += count(part, speculative);
    if (node.not !== undefined) total += count(node.not, true);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = node[keyword];
      if (!Array.isArray(branches)) continue;
      for (const branch of branches) {
        total += count(branch, speculative || keyword !== 'allOf');
        if (total > MAX_VALIDATION_WORK) break;
      }
    }
    counting.delete(node);
    memo.set(node, total);
    return total;
  };
  return count(root, false);
}

/**
 * Finds a `$ref` that leads back to a schema already being applied to the same value (through
 * `$ref`, `allOf`, `anyOf`, `oneOf`, `not` only), which no validator can finish. Recursion that
 * goes through `properties`, `items` or `additionalProperties` is fine: each step consumes part of
 * the value. Call only on a schema that passed `walk` (every local `$ref` resolves).
 * @returns the `$ref` that closes the loop, or `undefined`.
 */
function findEndlessRef(root: unknown): string | undefined {
  const finished = new Set<object>(); // explored: no endless chain starts here
  const exploring = new Set<object>(); // on the current path: met again through a part, it is fine
  const visit = (node: unknown, chain: Set<object>, ref?: string): string | undefined => {
    if (!isPlainObject(node) || finished.has(node)) return undefined;
    if (chain.has(node)) return ref ?? '#';
    if (exploring.has(node)) return undefined;
    chain.add(node);
    exploring.add(node);
    let loop: string | undefined;
    if (typeof node.$ref === 'string') loop = visit(resolveLocalRef(root, node.$ref), chain, node.$ref);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      const members = node[keyword];
      if (Array.isArray(members)) for (const member of members) loop ??= visit(member, chain, ref);
    }
    loop ??= visit(node.not, chain, ref);
    chain.delete(node);
    // Sub-schemas applied to parts of the value start chains of their own.
    const parts: unknown[] = [node.additionalProperties, ...(Array.isArray(node.items) ? node.items : [node.items])];
    if (isPlainObject(node.properties)) parts.push(...Object.values(node.properties));
    for (const part of parts) loop ??= visit(part, new Set());
    exploring.delete(node);
    if (!loop) finished.add(node);
    return loop;
  };
  return visit(root, new Set());
}

/** What one policy walk collects: reasons, every schema node seen, and `$ref`s to check after. */
interface WalkState {
  root: unknown;
  reasons: Reason[];
  schemas: Set<object>;
  refs: [at: string, ref: string][];
}

function walk(node: unknown, at: string, depth: number, state: WalkState): void {
  const { reasons } = state;
  if (depth > MAX_SCHEMA_DEPTH) return void reasons.push([at, 'tooDeep']);
  if (typeof node === 'boolean') return;
  if (!isPlainObject(node)) return void reasons.push([at, 'schemaShape']);
  state.schemas.add(node);
  for (const [keyword, value] of Object.entries(node)) {
    const here = `${at}/${keyword}`;
    const kind = Object.hasOwn(KEYWORD_KINDS, keyword) ? KEYWORD_KINDS[keyword] : undefined;
    if (!kind) reasons.push([here, 'keyword', keyword]);
    else if (!checkKeyword(kind, value, here, depth + 1, state, node === state.root)) reasons.push([here, 'mustBe', kind]);
  }
}

/** Checks one keyword's value, walking sub-schemas; false means "not what EXPECTED[kind] says". */
function checkKeyword(
  kind: KeywordKind, value: unknown, here: string, depth: number, state: WalkState, atRoot: boolean,
): boolean {
  const { reasons } = state;
  const sub = (schema: unknown, key: string | number) => walk(schema, `${here}/${key}`, depth, state);
  switch (kind) {
    case 'schema':
      walk(value, here, depth, state);
      return true;
    case 'items':
      if (Array.isArray(value)) value.forEach(sub); // draft-07 tuple form
      else walk(value, here, depth, state);
      return true;
    case 'schemas':
      if (!Array.isArray(value) || value.length === 0) return false;
      value.forEach(sub);
      return true;
    case 'schemaMap':
      if (!isPlainObject(value)) return false;
      for (const [key, schema] of Object.entries(value)) sub(schema, key);
      return true;
    case 'count':
      return Number.isInteger(value) && (value as number) >= 0;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'format':
      // The validator looks formats up in a plain object: `constructor`, `__proto__`… would match.
      if (typeof value === 'string' && value in Object.prototype) reasons.push([here, 'formatName', value]);
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
    case 'type': {
      const types: unknown[] = Array.isArray(value) ? value : [value];
      return types.length > 0 && types.every((type) => typeof type === 'string' && JSON_TYPES.has(type));
    }
    case 'pattern': {
      // Validation runs patterns only through the linear-time matcher: what it cannot compile
      // would fail every call, so it is refused here.
      const compiled = typeof value === 'string' ? compileLinear(value) : { reason: 'syntax' as const };
      if (compiled instanceof LinearRegex) return true;
      if (compiled.reason === 'feature') reasons.push([here, 'patternFeature', value as string, compiled.feature]);
      else if (compiled.reason === 'size') reasons.push([here, 'patternSize', value as string]);
      else reasons.push([here, 'pattern', value]);
      return true;
    }
    case 'dialect':
      if (!atRoot) reasons.push([here, 'dialectPlacement']);
      else if (typeof value !== 'string' || !Object.hasOwn(SCHEMA_DIALECTS, value)) {
        reasons.push([here, 'dialect', value]);
      }
      return true;
    case 'ref':
      if (typeof value !== 'string' || !value.startsWith('#')) reasons.push([here, 'remoteRef', value]);
      else state.refs.push([here, value]); // checked once every schema node is known
      return true;
    default: // default, const: any JSON value
      return true;
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
export function normaliseInputSchema(schema: unknown): { schema: JSONSchema; reasons: Reason[] } {
  if (schema === undefined) return { schema: { type: 'object', additionalProperties: false }, reasons: [] };
  if (!isPlainObject(schema)) return { schema: {}, reasons: [['inputSchema', 'schemaObject']] };
  const reasons = checkSchemaPolicy(schema, 'inputSchema');
  if (schema.type !== undefined && schema.type !== 'object') {
    reasons.push(['inputSchema/type', 'rootObject']);
  } else if (reasons.length === 0 && typeof schema.$ref === 'string') {
    // A root that refers to a non-object schema would refuse every input.
    const target = resolveLocalRef(schema, schema.$ref);
    const types = isPlainObject(target) ? target.type : undefined;
    if (types !== undefined && !(Array.isArray(types) ? types : [types]).includes('object')) reasons.push(['inputSchema/$ref', 'rootObject']);
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
export function checkOutputSchema(schema: unknown): Reason[] {
  if (schema === undefined) return [];
  if (!isPlainObject(schema) && typeof schema !== 'boolean') return [['outputSchema', 'schemaObject']];
  return checkSchemaPolicy(schema, 'outputSchema');
}
