import { invalidFields } from '../api-error.js';

/**
 * Request validation as Laravel does it for Core's agent controllers (`$request->validate()` and
 * Core's `PageQueryRequest`; test/fixtures/capell/SOURCES.md §4): the rules Core writes, Laravel's
 * English messages (`lang/en/validation.php`), attributes named by their dot path with `_` as a
 * space, and the 422 message `<first message> (and N more errors)`. Only the rules Core's routes
 * use are here: `required`, `sometimes`, `string`, `integer`, `array`, `array:<keys>`, `min:<n>`,
 * `max:<n>` and `regex:<pattern>`; one level of `*` (`filter.*`). Keys without a rule are
 * ignored, never refused.
 */

/** @typedef {[attribute: string, rules: string[]]} Rule */

/** Rules after whose failure Laravel checks nothing more of the attribute. */
const IMPLICIT_RULES = ['required'];

/** Rules that make `min` and `max` compare a number. */
const NUMERIC_RULES = ['integer', 'numeric'];

/** PHP's `is_numeric` for a string (leading or trailing whitespace allowed). */
const PHP_NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** PHP's `filter_var($value, FILTER_VALIDATE_INT)` for a string: no leading zeros, 64-bit range. */
const PHP_INTEGER = /^\s*[+-]?(?:0|[1-9][0-9]*)\s*$/;

/** What Laravel calls missing (a key absent from the input). */
const MISSING = Symbol('missing');

/**
 * The request's query as Laravel's global middleware leaves it: strings trimmed (TrimStrings),
 * then empty strings made null (ConvertEmptyStringsToNull), at every depth.
 * @param {unknown} value the parsed query (query.js parseQuery)
 * @returns {unknown}
 */
export function toLaravelInput(value) {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  }
  if (Array.isArray(value)) return value.map(toLaravelInput);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, toLaravelInput(member)]));
  }
  return value;
}

/**
 * Laravel's `data_get` for a dot path.
 * @param {unknown} data
 * @param {string} path
 * @returns {unknown} the value, or MISSING
 */
function readPath(data, path) {
  let value = data;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return MISSING;
    value = /** @type {Record<string, unknown>} */ (value)[segment];
  }
  return value;
}

/**
 * Laravel's `Arr::set` for a dot path.
 * @param {Record<string, unknown>} target
 * @param {string} path
 * @param {unknown} value
 */
function writePath(target, path, value) {
  const segments = path.split('.');
  let at = target;
  for (const segment of segments.slice(0, -1)) {
    if (at[segment] === null || typeof at[segment] !== 'object') at[segment] = {};
    at = /** @type {Record<string, unknown>} */ (at[segment]);
  }
  at[/** @type {string} */ (segments.at(-1))] = value;
}

/**
 * @param {unknown} value
 * @returns {boolean} whether PHP counts it as an array (a list or a map)
 */
function isArray(value) {
  return value !== null && typeof value === 'object';
}

/**
 * The size `min` and `max` compare (Laravel `getSize`): the number for a numeric attribute, the
 * count of an array, else the string's length in code points (`mb_strlen`).
 * @param {unknown} value
 * @param {boolean} numeric
 * @returns {number}
 */
function sizeOf(value, numeric) {
  if (numeric && (typeof value === 'number' || (typeof value === 'string' && PHP_NUMERIC.test(value)))) return Number(value);
  if (isArray(value)) return Object.keys(/** @type {object} */ (value)).length;
  return [...String(value ?? '')].length;
}

/**
 * The rules with `*` expanded into the keys the input has, appended after the others (Laravel's
 * ValidationRuleParser).
 * @param {Rule[]} rules
 * @param {Record<string, unknown>} input
 * @returns {Rule[]}
 */
function expandRules(rules, input) {
  /** @type {Rule[]} */
  const explicit = [];
  /** @type {Rule[]} */
  const expanded = [];
  for (const [attribute, list] of rules) {
    if (!attribute.endsWith('.*')) {
      explicit.push([attribute, list]);
      continue;
    }
    const parent = readPath(input, attribute.slice(0, -2));
    if (isArray(parent)) {
      for (const key of Object.keys(/** @type {object} */ (parent))) expanded.push([`${attribute.slice(0, -2)}.${key}`, list]);
    }
  }
  return [...explicit, ...expanded];
}

/**
 * Why one rule fails for a value, as Laravel's English message, or undefined when it passes.
 * @param {string} rule e.g. `max:100`
 * @param {unknown} value
 * @param {string} name the attribute as shown (`page.size`, `filter.in stock`)
 * @param {string[]} list every rule of the attribute (decides how `min`/`max` count)
 * @returns {string | undefined}
 */
function checkRule(rule, value, name, list) {
  const colon = rule.indexOf(':');
  const kind = colon === -1 ? rule : rule.slice(0, colon);
  const argument = colon === -1 ? '' : rule.slice(colon + 1);
  const numeric = list.some((other) => NUMERIC_RULES.includes(other));
  const sizeKind = numeric ? 'numeric' : list.some((other) => other === 'array' || other.startsWith('array:')) ? 'array' : 'string';
  switch (kind) {
    case 'required': {
      const empty = value === null || value === MISSING || (isArray(value) && Object.keys(/** @type {object} */ (value)).length === 0);
      return empty ? `The ${name} field is required.` : undefined;
    }
    case 'string':
      return typeof value === 'string' ? undefined : `The ${name} field must be a string.`;
    case 'integer':
      return (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && PHP_INTEGER.test(value) && Number.isSafeInteger(Number(value)))
        ? undefined : `The ${name} field must be an integer.`;
    case 'array': {
      const keys = argument === '' ? undefined : argument.split(',');
      const fits = isArray(value) && (!keys || Object.keys(/** @type {object} */ (value)).every((key) => keys.includes(key)));
      return fits ? undefined : `The ${name} field must be an array.`;
    }
    case 'min': {
      if (sizeOf(value, numeric) >= Number(argument)) return undefined;
      return { numeric: `The ${name} field must be at least ${argument}.`, array: `The ${name} field must have at least ${argument} items.`, string: `The ${name} field must be at least ${argument} characters.` }[sizeKind];
    }
    case 'max': {
      if (sizeOf(value, numeric) <= Number(argument)) return undefined;
      return { numeric: `The ${name} field must not be greater than ${argument}.`, array: `The ${name} field must not have more than ${argument} items.`, string: `The ${name} field must not be greater than ${argument} characters.` }[sizeKind];
    }
    case 'regex': {
      const match = /^\/(.*)\/([a-z]*)$/s.exec(argument);
      // PHP's \A and \z are JavaScript's ^ and $ without the m flag.
      const pattern = new RegExp(String(match?.[1]).replaceAll('\\A', '^').replaceAll('\\z', '$'), match?.[2]);
      const text = typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
      return text !== undefined && pattern.test(text) ? undefined : `The ${name} field format is invalid.`;
    }
    default:
      throw new TypeError(`validateRequest: no rule ${kind}`);
  }
}

/**
 * Validate a request's input against Core's rules, as `$request->validate($rules)` does.
 * @param {Record<string, unknown>} input toLaravelInput's output
 * @param {Rule[]} rules in the order Core writes them
 * @returns {Record<string, unknown>} the validated input (`validated()`): every ruled key the
 *   input has, a bare `array` key with child rules left out (its children carry it), in rule order
 * @throws {import('../api-error.js').ApiError} 422 `{message, errors}` as Laravel answers a
 *   ValidationException: every failing attribute, each with its messages
 * @example validateRequest({ page: '0' }, [['page', ['sometimes', 'integer', 'min:1', 'max:1000']]])
 *   // throws 422 "The page field must be at least 1."
 */
export function validateRequest(input, rules) {
  const expanded = expandRules(rules, input);
  /** @type {Record<string, string[]>} */
  const errors = {};
  for (const [attribute, list] of expanded) {
    const value = readPath(input, attribute);
    if (list.includes('sometimes') && value === MISSING) continue;
    const name = attribute.replaceAll('_', ' ');
    for (const rule of list) {
      if (rule === 'sometimes') continue;
      if (!IMPLICIT_RULES.includes(rule) && value === MISSING) continue;
      const reason = checkRule(rule, value, name, list);
      if (reason === undefined) continue;
      (errors[attribute] ??= []).push(reason);
      if (IMPLICIT_RULES.includes(rule)) break;
    }
  }
  if (Object.keys(errors).length > 0) throw invalidFields(errors);

  /** @type {Record<string, unknown>} */
  const validated = {};
  const attributes = expanded.map(([attribute]) => attribute);
  for (const [attribute, list] of expanded) {
    const value = readPath(input, attribute);
    if (value === MISSING) continue;
    const bareArray = list.includes('array') && value !== null && attributes.some((other) => other.startsWith(`${attribute}.`));
    if (!bareArray) writePath(validated, attribute, value);
  }
  return validated;
}
