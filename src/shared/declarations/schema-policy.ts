/**
 * The schema policy: which JSON Schema a declaration may carry. Core's normaliser accepts a
 * keyword allow-list; everything it accepts the runtime's validator checks at call time, and
 * everything else is rejected here, before registration, so no tool registers and then fails on
 * every call.
 *
 * The checks of the `$ref` graph (resolution, loops, fan-out) are a module of their own
 * (ref-checks.ts), passed in as `RefChecks`: most schemas have no `$ref`, and the runtime loads
 * that module only for one that has (check-declaration.ts, `loadRefChecks`).
 */
import { isPlainObject } from '../is-plain-object.js';
import { compileLinear, LinearRegex, MAX_PATTERN_STATES, MAX_SCHEMA_PATTERN_STATES, type CompileFailure } from '../validation/linear-regex.js';
import { FAILING_UNITS, MAX_VALIDATION_WORK, PAIR_UNITS } from '../validation/work-units.js';
import type { Reason } from './reason.js';
import type { KeywordKind } from './rules.js';
import type { JSONSchema } from './tool-spec.js';
import { KEYWORD_KINDS, SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUED } from './schema-keywords.js';

export type { KeywordKind } from './rules.js';

/**
 * The `$ref` graph checks, implemented by ref-checks.ts (`REF_CHECKS`) and injected so that the
 * policy itself never loads them. Needed only for a schema with a local `$ref`.
 */
export interface RefChecks {
  /**
   * Checks the local `$ref`s a policy walk found: each resolves to a schema; and, when `clean`
   * (no reason so far), that no `$ref` loops back without consuming part of the value and that
   * one value costs at most MAX_SCHEMA_EVALUATIONS subschema evaluations.
   * @param refs `[JSON Pointer of the keyword, its value]`, e.g. `['inputSchema/properties/a/$ref', '#/$defs/a']`.
   * @param schemas every schema node the walk saw (a `$ref` must land on one of them).
   * @returns reasons (codes unresolvedRef, refNotSchema, refLoop, tooManyEvaluations); empty when fine.
   */
  checkRefs(root: unknown, field: string, refs: readonly (readonly [at: string, ref: string])[], schemas: ReadonlySet<object>, clean: boolean): Reason[];
  /** Resolves a local `$ref` (`#/$defs/Q`) in `root`; `undefined` when absent or malformed. */
  resolve(root: unknown, ref: string): unknown;
}

/**
 * Thrown when a schema with a local `$ref` is checked without RefChecks. The runtime catches it to
 * load the `$ref` checks only for a schema that needs them (check-declaration.ts,
 * `checkWithRefChecksLoaded`); elsewhere it is a caller's mistake.
 */
export class RefChecksNeeded extends TypeError {
  constructor() {
    super('capell-webmcp: a schema with a $ref needs the $ref checks (REF_CHECKS of ref-checks.ts, or loadRefChecks())');
  }
}

function missingRefChecks(): TypeError {
  return new RefChecksNeeded();
}

/** A policy verdict kept by schema text: whether the schema has a `$ref`, its reasons and its warnings. */
interface PolicyVerdict {
  refs: boolean;
  reasons: readonly Reason[];
  warnings: readonly Reason[];
}

/** What a policy check finds: `reasons` refuse the schema; `warnings` do not (rules.ts, "Warnings"). */
export interface PolicyFindings {
  reasons: Reason[];
  warnings: Reason[];
}

/**
 * Verdicts by `field` and schema text: pages repeat schemas (hundreds of tools sharing one shape),
 * and a verdict depends only on the schema's value. Bounded by the characters of text kept.
 */
const verdicts = new Map<string, PolicyVerdict>();
let keptCharacters = 0;
const MAX_KEPT_CHARACTERS = 1 << 20;


/**
 * Keywords beyond Core's allow-list that Capell's own packages write (the admin's `uniqueItems`):
 * allowed, validated at call time within the work bound, and reported as a warning.
 */
const BEYOND_CORE_KEYWORDS: ReadonlySet<string> = new Set(['uniqueItems']);

/** The JSON Schema keywords a declaration may use: Core's allow-list and BEYOND_CORE_KEYWORDS. */
export const ALLOWED_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(Object.keys(KEYWORD_KINDS));

/** The `$schema` values accepted, and the validator dialect each selects. */
const SCHEMA_DIALECTS: Readonly<Record<string, '2020-12' | '7'>> = {
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

/** The check of a schema without `$ref`: nothing to resolve. */
const NO_REFS = (): undefined => undefined;

const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

/**
 * Checks a schema against the policy: allowed keywords only (recursively, in schema positions),
 * keyword values of the right JSON type, `pattern`s the linear-time matcher compiles (valid with
 * flag `u`, no lookaround or backreference, at most MAX_PATTERN_STATES states, and all of one
 * schema's patterns at most MAX_SCHEMA_PATTERN_STATES),
 * only local `$ref`s that resolve, a known `$schema` dialect, depth ≤ MAX_SCHEMA_DEPTH and size
 * ≤ MAX_SCHEMA_SIZE, and no more than MAX_VALIDATION_WORK units of work for one value.
 * @param schema the parsed schema (object or boolean).
 * @param field label for reasons, e.g. `inputSchema`.
 * @param refChecks the `$ref` graph checks; required when the schema has a local `$ref`.
 * @returns reasons, each naming the JSON Pointer of the offending keyword; empty when allowed.
 * @throws TypeError when the schema has a local `$ref` and `refChecks` is missing (see RefChecks).
 */
function checkSchemaPolicy(schema: unknown, field: string, refChecks?: RefChecks): PolicyFindings {
  let text: string;
  try {
    text = JSON.stringify(schema) ?? '';
  } catch {
    return { reasons: [[field, 'notSerialisable']], warnings: [] };
  }
  if (text.length > MAX_SCHEMA_SIZE) return { reasons: [[field, 'schemaSize', text.length]], warnings: [] };
  const key = `${field}\u0000${text}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    const found = judge(schema, field, refChecks);
    if (found === undefined) throw missingRefChecks();
    verdict = found;
    if (keptCharacters + key.length > MAX_KEPT_CHARACTERS) {
      verdicts.clear();
      keptCharacters = 0;
    }
    verdicts.set(key, verdict);
    keptCharacters += key.length;
  } else if (verdict.refs && !refChecks) {
    throw missingRefChecks();
  }
  return { reasons: [...verdict.reasons], warnings: [...verdict.warnings] };
}

/** The policy walk and work count of one schema; undefined when it has a `$ref` and `refChecks` is missing. */
function judge(schema: unknown, field: string, refChecks: RefChecks | undefined): PolicyVerdict | undefined {
  const state: WalkState = { root: schema, reasons: [], warnings: [], schemas: new Set(), refs: [], patterns: new Map(), patternStatesLeft: MAX_SCHEMA_PATTERN_STATES };
  walk(schema, `${field}`, 0, state);
  const { reasons } = state;
  // Without a $ref a schema is a finite tree of at most MAX_SCHEMA_SIZE characters: nothing to
  // resolve, and it can neither loop nor fan out.
  let resolve: RefChecks['resolve'] = NO_REFS;
  if (state.refs.length > 0) {
    if (!refChecks) return undefined;
    reasons.push(...refChecks.checkRefs(schema, field, state.refs, state.schemas, reasons.length === 0));
    resolve = refChecks.resolve;
  }
  if (reasons.length === 0 && valueWork(schema, resolve) > MAX_VALIDATION_WORK) reasons.push([field, 'schemaWork']);
  return { refs: state.refs.length > 0, reasons, warnings: state.warnings };
}

/**
 * The validation work (shared/validation/work-units.ts) of one value that has every property the schema
 * names and one item per array, each application failing where it may (inside `anyOf`, `oneOf`,
 * `not`) and every `enum` compared in full, `$ref` expanded. Over MAX_VALIDATION_WORK no value of
 * the declared shape could ever be checked: the tool would fail every call, so it is refused.
 * Recursion through a `$ref` counts once (each such step consumes part of the value). Stops
 * counting past the bound. `resolve` finds a `$ref`'s target (RefChecks).
 */
function valueWork(root: unknown, resolve: RefChecks['resolve']): number {
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
    if (typeof node.$ref === 'string') total += count(resolve(root, node.$ref), speculative);
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

/** What one policy walk collects: reasons, every schema node seen, and `$ref`s to check after. */
interface WalkState {
  root: unknown;
  reasons: Reason[];
  warnings: Reason[];
  schemas: Set<object>;
  refs: [at: string, ref: string][];
  /** Each distinct pattern's compile outcome (undefined: it compiled), so a repeated one is compiled and charged once. */
  patterns: Map<string, PatternFailure | undefined>;
  /** States left of MAX_SCHEMA_PATTERN_STATES for this schema's patterns. */
  patternStatesLeft: number;
}

/** Why the policy refuses a pattern: the matcher's CompileFailure, or the schema's pattern budget spent. */
type PatternFailure = CompileFailure | { reason: 'budget' };

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
    else if (BEYOND_CORE_KEYWORDS.has(keyword)) state.warnings.push([here, 'beyondCoreKeyword', keyword]);
    if (!kind) continue;
    if (!checkKeyword(kind, value, here, depth + 1, state, node === state.root)) reasons.push([here, 'mustBe', kind]);
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
    case 'boolean':
      return typeof value === 'boolean';
    case 'format':
      // The validator looks formats up in a plain object: `constructor`, `__proto__`… would match.
      if (typeof value === 'string' && value in Object.prototype) reasons.push([here, 'formatName', value]);
      return typeof value === 'string';
    case 'array':
      if (Array.isArray(value) && nestsDeeper(value, MAX_SCHEMA_DEPTH - depth)) reasons.push([here, 'tooDeep']);
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
      const failure = typeof value === 'string' ? compilePattern(value, state) : { reason: 'syntax' as const };
      if (!failure) return true;
      if (failure.reason === 'feature') reasons.push([here, 'patternFeature', value as string, failure.feature]);
      else if (failure.reason === 'size') reasons.push([here, 'patternSize', value as string]);
      else if (failure.reason === 'budget') reasons.push([here, 'patternBudget', value as string]);
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
      if (nestsDeeper(value, MAX_SCHEMA_DEPTH - depth)) reasons.push([here, 'tooDeep']);
      return true;
  }
}

/**
 * Compiles one pattern of a policy walk within what is left of the schema's
 * MAX_SCHEMA_PATTERN_STATES, and charges its states. A compile is bounded by its state limit, so
 * the whole walk's compiling is bounded by the budget.
 * @returns undefined when it compiled; else why not (`budget`: it needs more states than this
 *   schema's other patterns left; it is not compiled again to tell whether it alone is too big).
 */
function compilePattern(source: string, state: WalkState): PatternFailure | undefined {
  if (state.patterns.has(source)) return state.patterns.get(source);
  const limit = Math.min(MAX_PATTERN_STATES, state.patternStatesLeft);
  const compiled = compileLinear(source, { maxStates: limit });
  let failure: PatternFailure | undefined;
  if (compiled instanceof LinearRegex) state.patternStatesLeft -= compiled.size;
  else if (compiled.reason === 'size' && limit < MAX_PATTERN_STATES) {
    failure = { reason: 'budget' };
    // Spent: the schema's further patterns fail at their first state instead of each compiling
    // up to what was left (forty of them made a 100 ms task).
    state.patternStatesLeft = 0;
  } else failure = compiled;
  state.patterns.set(source, failure);
  return failure;
}

/**
 * Whether a JSON value (`default`, `const`, `enum`, `examples`) nests arrays or objects more than
 * `levels` deep. The value is part of the schema `registerTool` receives: Chromium refuses a schema
 * whose values nest some thousands of levels with a RangeError, and the validator would recurse
 * as deep, so values count toward MAX_SCHEMA_DEPTH like subschemas (found by the fuzzer).
 * Iterative: a value too deep for the stack is still judged.
 */
function nestsDeeper(value: unknown, levels: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (level > levels) return true;
    for (const child of Object.values(node)) stack.push([child, level + 1]);
  }
  return false;
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
 * @param refChecks the `$ref` graph checks; required when the schema has a local `$ref`.
 * @returns the normalised copy, or reasons (policy violations, or a root that is not an object).
 * @throws TypeError when the schema has a local `$ref` and `refChecks` is missing.
 */
export function normaliseInputSchema(schema: unknown, refChecks?: RefChecks): { schema: JSONSchema } & PolicyFindings {
  if (schema === undefined) return { schema: { type: 'object', additionalProperties: false }, reasons: [], warnings: [] };
  if (!isPlainObject(schema)) return { schema: {}, reasons: [['inputSchema', 'schemaObject']], warnings: [] };
  const { reasons, warnings } = checkSchemaPolicy(schema, 'inputSchema', refChecks);
  if (schema.type !== undefined && schema.type !== 'object') {
    reasons.push(['inputSchema/type', 'rootObject']);
  } else if (reasons.length === 0 && typeof schema.$ref === 'string') {
    // A root that refers to a non-object schema would refuse every input. A $ref that passed the
    // policy is local, so checkSchemaPolicy had refChecks.
    if (!refChecks) throw missingRefChecks();
    const target = refChecks.resolve(schema, schema.$ref);
    const types = isPlainObject(target) ? target.type : undefined;
    if (types !== undefined && !(Array.isArray(types) ? types : [types]).includes('object')) reasons.push(['inputSchema/$ref', 'rootObject']);
  }
  if (reasons.length > 0) return { schema: {}, reasons, warnings };
  const normalised: JSONSchema = { ...schema, type: 'object' };
  if (!COMPOSITION_KEYWORDS.some((keyword) => keyword in schema)) normalised.additionalProperties = false;
  return { schema: normalised, reasons, warnings };
}

/**
 * Checks an `outputSchema` against the policy (any root type is allowed).
 * @param refChecks the `$ref` graph checks; required when the schema has a local `$ref`.
 * @returns reasons (empty when allowed or absent) and warnings.
 * @throws TypeError when the schema has a local `$ref` and `refChecks` is missing.
 */
export function checkOutputSchema(schema: unknown, refChecks?: RefChecks): PolicyFindings {
  if (schema === undefined) return { reasons: [], warnings: [] };
  if (!isPlainObject(schema) && typeof schema !== 'boolean') return { reasons: [['outputSchema', 'schemaObject']], warnings: [] };
  return checkSchemaPolicy(schema, 'outputSchema', refChecks);
}


/**
 * Reads PHP's empty array as the empty object it stands for: `json_encode([])` is `[]`, so a
 * Capell package that builds a schema, or its `properties`, from an empty PHP array writes `[]`
 * where JSON Schema expects an object. Such a `[]` (the schema itself, the value of a keyword in
 * SCHEMA_VALUED or SCHEMA_MAPS, an entry of a schema map or list) becomes `{}`, with a warning
 * (`emptyArraySchema`) naming where. Copies only what it changes; depth-bounded like the policy walk.
 * @param field the schema's field, e.g. `inputSchema`, for the warnings' JSON Pointers.
 * @returns the schema to check (`schema` itself when nothing changed) and the warnings.
 */
export function readEmptyArrays(schema: unknown, field: string): { schema: unknown; warnings: Reason[] } {
  const warnings: Reason[] = [];
  // `map`: the node is a schema map, whose values are schemas (and which may itself be `[]`).
  const visit = (node: unknown, at: string, depth: number, map?: boolean): unknown => {
    if (Array.isArray(node) && node.length === 0) {
      warnings.push([at, 'emptyArraySchema']);
      return {};
    }
    if (!isPlainObject(node) || depth > MAX_SCHEMA_DEPTH) return node;
    let copy: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${key}`;
      let read = value;
      if (map || (SCHEMA_VALUED.includes(key) && !(key === 'items' && Array.isArray(value) && value.length > 0))) read = visit(value, here, depth + 1);
      else if (SCHEMA_MAPS.includes(key)) read = visit(value, here, depth + 1, true);
      else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) {
        const list = value.map((branch, index) => visit(branch, `${here}/${index}`, depth + 1));
        if (list.some((branch, index) => branch !== value[index])) read = list;
      }
      if (read !== value) (copy ??= { ...node })[key] = read;
    }
    return copy ?? node;
  };
  return { schema: visit(schema, field, 0), warnings };
}
