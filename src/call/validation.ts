/**
 * JSON Schema validation of tool inputs and outputs. Loaded as its own chunk on the first call,
 * never at start-up. Uses @cfworker/json-schema, an interpreter: no
 * `new Function`, so it works under `Content-Security-Policy: script-src 'self'`. Its regular
 * expressions never run: `pattern` and `format` are decided by the linear matcher
 * (shared/validation/linear-regex.ts) under a step budget per call; the rest of the validator's work is
 * counted before it runs (call/validation/work-bound.ts) and refused over MAX_VALIDATION_WORK.
 */
import { dereference, format, validate, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { schemaDialect } from '../shared/declarations/schema-policy.js';
import type { JSONSchema } from '../shared/declarations/tool-spec.js';
import { LINEAR_FORMATS, useBudget } from './validation/formats.js';
import { compileLinear, LinearRegex, StepBudgetExceeded, VALIDATION_STEP_BUDGET } from '../shared/validation/linear-regex.js';
import { MAX_QUOTED_CHARS, PATTERN_FORMAT, prepareSchema, QUOTED, type Quoted } from './validation/prepare-schema.js';
import { MAX_VALIDATION_DEPTH, MAX_VALIDATION_WORK, validationWork } from './validation/work-bound.js';
import { errorMessage } from '../shared/error-message.js';

/** Most issues listed for one value; past it one more issue says that more were not listed. */
export const MAX_ISSUES = 20;

/** An issue's message for a property that `additionalProperties` does not allow (call/check-output.ts may leave it out). */
export const EXTRA_PROPERTY = 'not an allowed property (additionalProperties)';

/** The message of the issue that ends a list cut at MAX_ISSUES. */
export const MORE_ISSUES = `more issues, not listed (at most ${MAX_ISSUES} are)`;

/** Longest message of one issue, in UTF-16 units (then `…`): no message quotes a whole value. */
const MAX_MESSAGE_CHARS = 2 * MAX_QUOTED_CHARS + 100;

/**
 * One validation failure: where (`q`, `filter.price.max`, or `(root)`) and what. `schemaError`
 * marks a schema the validator could not evaluate: the site's fault, not the value's.
 */
export interface ValidationIssue {
  path: string;
  message: string;
  schemaError?: true;
}

/** What the validator's `validate` needs for one declared schema: the prepared copy, its dialect and `$ref` table. */
interface Compiled {
  schema: Schema;
  draft: '2020-12' | '7';
  lookup: ReturnType<typeof dereference>;
}

// Schemas are normalised once and never mutated, so a compiled validator per object is reused.
const validators = new WeakMap<JSONSchema, Compiled>();

// The validator looks formats up in its own exported, mutable table: ours replace its regular
// expressions, and each pattern is registered there under its synthetic name.
const formats = format as unknown as Record<string, (input: string) => boolean>;
let installed = false;

function registerPattern(source: string): void {
  const name = PATTERN_FORMAT + source;
  if (Object.hasOwn(formats, name)) return;
  // Compiled on its first test, not when the validator is built: a pattern with large counted
  // repetitions takes tens of ms to compile, and the idle prefetch builds validators ahead of any
  // call (tool-execute.ts); a pattern no value reaches then costs nothing.
  let compiled: ReturnType<typeof compileLinear> | undefined;
  formats[name] = (input) => {
    compiled ??= compileLinear(source);
    if (compiled instanceof LinearRegex) return compiled.test(input, budget);
    throw new Error(`pattern ${JSON.stringify(source)} is not supported by the linear-time matcher (${compiled.reason})`);
  };
}

function validatorFor(schema: JSONSchema): Compiled {
  if (!installed) {
    Object.assign(formats, LINEAR_FORMATS);
    installed = true;
  }
  let validator = validators.get(schema);
  if (!validator) {
    const prepared = prepareSchema(schema, registerPattern) as Schema;
    validator = { schema: prepared, draft: schemaDialect(schema), lookup: dereference(prepared) };
    validators.set(schema, validator);
  }
  return validator;
}

let budget = { left: VALIDATION_STEP_BUDGET };

/**
 * Builds and keeps the validator for `schema` (its `$ref`s resolved; its patterns are compiled on
 * their first test) ahead of the first `validateValue` with it, which then finds it ready. For schemas of registered
 * tools (already through the schema policy); at idle (tool-execute.ts). Never throws: a schema
 * that cannot be built is reported by `validateValue` when a call uses it.
 */
export function prepareValidator(schema: JSONSchema): void {
  try {
    validatorFor(schema);
  } catch {
    // validateValue meets the same error and reports it on the call.
  }
}

function toPath(instanceLocation: string): string {
  const tokens = instanceLocation.replace(/^#\/?/, '').split('/').filter((token) => token !== '');
  if (tokens.length === 0) return '(root)';
  return tokens.map((token) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function valueAt(root: unknown, instanceLocation: string): unknown {
  let node = root;
  for (const token of instanceLocation.replace(/^#\/?/, '').split('/').filter((t) => t !== '')) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

// cfworker reports the failing keyword and every wrapping one (properties, allOf…); the leaf
// keywords say what is actually wrong, the wrappers only where.
const WRAPPER_KEYWORDS = new Set(['properties', 'items', 'allOf', '$ref', 'definitions', '$defs']);

const COMPOSITION_KEYWORDS = new Set(['anyOf', 'oneOf', 'not']);

function joinPath(parent: string, key: string): string {
  return parent === '(root)' ? key : `${parent}.${key}`;
}

function toIssue(unit: OutputUnit, instance: unknown): ValidationIssue {
  const path = toPath(unit.instanceLocation);
  const property = /property "(.*)"/i.exec(unit.error)?.[1];
  if (unit.keyword === 'required' && property !== undefined) return { path: joinPath(path, property), message: 'required' };
  if (unit.keyword === 'additionalProperties' && property !== undefined) {
    return { path: joinPath(path, property), message: EXTRA_PROPERTY };
  }
  if (unit.keyword === 'type') {
    const got = typeName(valueAt(instance, unit.instanceLocation));
    const expected = /Expected (.*)\.$/.exec(unit.error)?.[1]?.replace(/"/g, '') ?? 'another type';
    return { path, message: `expected ${expected}, got ${got}` };
  }
  const quoted = unit.keyword === 'enum' ? quotedFrom(unit.error) : undefined;
  if (quoted) {
    const text = quoted[QUOTED] === 'enum' ? `value does not match any of ${quoted.text}` : `value does not match ${quoted.text}`;
    return { path, message: `${text} (${quoted[QUOTED]})` };
  }
  const synthetic = unit.keyword === 'format' ? /format "\u0000pattern\u0000([\s\S]*)"\.$/.exec(unit.error) : null;
  if (synthetic) return { path, message: `value does not match pattern ${JSON.stringify(synthetic[1])} (pattern)` };
  let message = unit.error.replace(/^Instance /, 'value ').replace(/^String /, 'string ').replace(/\.$/, '');
  if (message.length > MAX_MESSAGE_CHARS) message = `${message.slice(0, MAX_MESSAGE_CHARS)}…`;
  return { path, message: `${message} (${unit.keyword})` };
}

/** The capped quotation an enum's `toJSON` gave the validator (prepare-schema.ts), if the message holds one. */
function quotedFrom(error: string): Quoted | undefined {
  const json = /^Instance does not match any of (\{[\s\S]*\})\.$/.exec(error)?.[1];
  if (json === undefined) return undefined;
  try {
    const parsed = JSON.parse(json) as Partial<Quoted>;
    return (parsed[QUOTED] === 'enum' || parsed[QUOTED] === 'const') && typeof parsed.text === 'string' ? parsed as Quoted : undefined;
  } catch {
    return undefined;
  }
}

/** True when `location` lies inside one of `outer` (a keyword location followed by `/`). */
function insideAny(location: string, outer: ReadonlySet<string>): boolean {
  for (let at = location.indexOf('/'); at !== -1; at = location.indexOf('/', at + 1)) {
    if (outer.has(location.slice(0, at))) return true;
  }
  return false;
}

/**
 * Validates a JSON value against a schema (JSON Schema 2020-12, or draft-07 when `$schema` says
 * so). String lengths count code points. `format` is asserted for date, time, date-time,
 * duration, email, hostname, ipv4, ipv6, uri, uri-reference, uri-template, url, uuid, regex,
 * json-pointer, json-pointer-uri-fragment and relative-json-pointer (call/validation/formats.ts);
 * unknown formats pass. `pattern` and `format` run in linear time and share one budget of
 * VALIDATION_STEP_BUDGET steps per call. Everything else is counted first (validationWork): a
 * value whose check would cost more than MAX_VALIDATION_WORK units is refused without running the
 * validator, and a value whose every failure could not be listed within it is checked up to the
 * first failure of each `items`/`properties` loop; a check nesting more than MAX_VALIDATION_DEPTH
 * subschemas deep is refused too. Defaults are not applied (the server applies its own).
 * @returns issues (empty when valid), at most MAX_ISSUES plus one saying more were not listed;
 *   a step budget that ran out, or work over the bound, is one issue at `(root)`; never throws.
 */
export function validateValue(schema: JSONSchema, value: unknown): ValidationIssue[] {
  let units: OutputUnit[];
  const cost = validationWork(schema, value, MAX_VALIDATION_WORK);
  if (cost.work > MAX_VALIDATION_WORK) {
    return [{ path: '(root)', message: `checking the value against its schema needs more than ${MAX_VALIDATION_WORK} units of work (the bound that keeps the page responsive; a smaller value, e.g. fewer items, fits)` }];
  }
  if (cost.tooDeep) {
    return [{ path: '(root)', message: `checking the value against its schema goes more than ${MAX_VALIDATION_DEPTH} subschemas deep (the value is nested too deeply)` }];
  }
  budget = { left: VALIDATION_STEP_BUDGET };
  useBudget(budget);
  try {
    // Every failure is listed only when listing them all fits the bound; otherwise each items or
    // properties loop stops at its first failure (the same verdict, fewer issues).
    const validator = validatorFor(schema);
    const result = validate(value, validator.schema, validator.draft, validator.lookup, cost.exhaustive > MAX_VALIDATION_WORK);
    if (result.valid) return [];
    units = result.errors;
  } catch (error) {
    if (error instanceof StepBudgetExceeded) {
      return [{ path: '(root)', message: `checking the value against its patterns and formats needs more than ${VALIDATION_STEP_BUDGET} steps (the bound that keeps the page responsive)` }];
    }
    // Keep the validator's message short: it can quote the page URL it resolved against.
    const message = errorMessage(error).split('.')[0];
    return [{ path: '(root)', message: `the schema could not be evaluated (${message})`, schemaError: true }];
  }
  // Inside anyOf/oneOf/not the alternatives' own failures are noise: the composition says it.
  // (A set of their locations: comparing every unit with every composition was quadratic.)
  const compositions = new Set(units.filter((unit) => COMPOSITION_KEYWORDS.has(unit.keyword)).map((unit) => unit.keywordLocation));
  const leaves = units.filter((unit) =>
    !WRAPPER_KEYWORDS.has(unit.keyword)
    && unit.keyword !== 'false'
    && !insideAny(unit.keywordLocation, compositions));
  const chosen = leaves.length > 0 ? leaves : units;
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const unit of chosen) {
    const issue = toIssue(unit, value);
    const key = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(key)) {
      if (issues.length === MAX_ISSUES) {
        issues.push({ path: '(root)', message: MORE_ISSUES });
        break;
      }
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}

/** Joins issues into one line: `q: expected string, got integer; limit: …`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
}
