/**
 * JSON Schema validation of tool inputs and outputs. Loaded as its own chunk on the first call
 * (DESIGN section 6), never at start-up. Uses @cfworker/json-schema, an interpreter: no
 * `new Function`, so it works under `Content-Security-Policy: script-src 'self'`. Its regular
 * expressions never run: `pattern` and `format` are decided by the linear matcher
 * (validation/linear-regex.ts) under a step budget per call.
 */
import { format, Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { schemaDialect } from './declarations/schema-policy.js';
import type { JSONSchema } from './declarations/tool-spec.js';
import { LINEAR_FORMATS, useBudget } from './validation/formats.js';
import { compileLinear, LinearRegex, StepBudgetExceeded, VALIDATION_STEP_BUDGET } from './validation/linear-regex.js';
import { PATTERN_FORMAT, prepareSchema } from './validation/prepare-schema.js';

/**
 * One validation failure: where (`q`, `filter.price.max`, or `(root)`) and what. `schemaError`
 * marks a schema the validator could not evaluate: the site's fault, not the value's.
 */
export interface ValidationIssue {
  path: string;
  message: string;
  schemaError?: true;
}

// Schemas are normalised once and never mutated, so a compiled validator per object is reused.
const validators = new WeakMap<JSONSchema, Validator>();

// The validator looks formats up in its own exported, mutable table: ours replace its regular
// expressions, and each pattern is registered there under its synthetic name.
const formats = format as unknown as Record<string, (input: string) => boolean>;
let installed = false;

function registerPattern(source: string): void {
  const name = PATTERN_FORMAT + source;
  if (Object.hasOwn(formats, name)) return;
  const compiled = compileLinear(source);
  formats[name] = compiled instanceof LinearRegex
    ? (input) => compiled.test(input, budget)
    : () => { throw new Error(`pattern ${JSON.stringify(source)} is not supported by the linear-time matcher (${compiled.reason})`); };
}

function validatorFor(schema: JSONSchema): Validator {
  if (!installed) {
    Object.assign(formats, LINEAR_FORMATS);
    installed = true;
  }
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(prepareSchema(schema, registerPattern) as Schema, schemaDialect(schema), false);
    validators.set(schema, validator);
  }
  return validator;
}

let budget = { left: VALIDATION_STEP_BUDGET };

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
    return { path: joinPath(path, property), message: 'not an allowed property (additionalProperties)' };
  }
  if (unit.keyword === 'type') {
    const got = typeName(valueAt(instance, unit.instanceLocation));
    const expected = /Expected (.*)\.$/.exec(unit.error)?.[1]?.replace(/"/g, '') ?? 'another type';
    return { path, message: `expected ${expected}, got ${got}` };
  }
  const synthetic = unit.keyword === 'format' ? /format "\u0000pattern\u0000([\s\S]*)"\.$/.exec(unit.error) : null;
  if (synthetic) return { path, message: `value does not match pattern ${JSON.stringify(synthetic[1])} (pattern)` };
  const message = unit.error.replace(/^Instance /, 'value ').replace(/^String /, 'string ').replace(/\.$/, '');
  return { path, message: `${message} (${unit.keyword})` };
}

/**
 * Validates a JSON value against a schema (JSON Schema 2020-12, or draft-07 when `$schema` says
 * so). String lengths count code points. `format` is asserted for date, time, date-time,
 * duration, email, hostname, ipv4, ipv6, uri, uri-reference, uri-template, url, uuid, regex,
 * json-pointer, json-pointer-uri-fragment and relative-json-pointer (validation/formats.ts);
 * unknown formats pass. `pattern` and `format` run in linear time and share one budget of
 * VALIDATION_STEP_BUDGET steps per call. Defaults are not applied (the server applies its own).
 * @returns issues (empty when valid): a step budget that ran out is one issue at `(root)`;
 *   never throws.
 */
export function validateValue(schema: JSONSchema, value: unknown): ValidationIssue[] {
  let units: OutputUnit[];
  budget = { left: VALIDATION_STEP_BUDGET };
  useBudget(budget);
  try {
    const result = validatorFor(schema).validate(value);
    if (result.valid) return [];
    units = result.errors;
  } catch (error) {
    if (error instanceof StepBudgetExceeded) {
      return [{ path: '(root)', message: `checking the value against its patterns and formats needs more than ${VALIDATION_STEP_BUDGET} steps (the bound that keeps the page responsive)` }];
    }
    // Keep the validator's message short: it can quote the page URL it resolved against.
    const message = String((error as Error)?.message ?? error).split('.')[0];
    return [{ path: '(root)', message: `the schema could not be evaluated (${message})`, schemaError: true }];
  }
  // Inside anyOf/oneOf/not the alternatives' own failures are noise: the composition says it.
  const compositions = units.filter((unit) => COMPOSITION_KEYWORDS.has(unit.keyword));
  const leaves = units.filter((unit) =>
    !WRAPPER_KEYWORDS.has(unit.keyword)
    && unit.keyword !== 'false'
    && !compositions.some((outer) => unit.keywordLocation.startsWith(`${outer.keywordLocation}/`)));
  const chosen = leaves.length > 0 ? leaves : units;
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const unit of chosen) {
    const issue = toIssue(unit, value);
    const key = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(key)) {
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
