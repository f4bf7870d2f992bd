import { invalidPayload } from './admin-error.js';

/**
 * The fields admin tools take, each a string with bounds: the one place both the registry's
 * input schemas (admin-tools.js) and the server's payload check (validatePayload) read them, so
 * what the registry declares is exactly what the server accepts.
 */

/** A key or slug: lower-case words joined by `-` or `_`. */
const KEY_PATTERN = '^[a-z0-9]+(?:[-_][a-z0-9]+)*$';

/**
 * @typedef {object} FieldSpec
 * @property {string} description
 * @property {number} [minLength] in code points
 * @property {number} maxLength in code points
 * @property {string} [pattern] ECMAScript regex the value must match
 */

/** @type {Record<string, FieldSpec>} */
export const ADMIN_FIELDS = Object.freeze({
  site: { description: 'The site to work on (its key).', minLength: 1, maxLength: 16 },
  page: { description: 'The page key, as admin.content.read lists it (e.g. "about").', minLength: 1, maxLength: 80, pattern: KEY_PATTERN },
  property: { description: 'The value to write: "title", "description", or "capell:<set>.<property>" (e.g. "capell:commerce.product.price").', minLength: 1, maxLength: 100, pattern: '^(?:title|description|capell:[a-z0-9_]+(?:\\.[a-z0-9_]+)+)$' },
  value: { description: 'The new value as text (numbers as decimals such as 129.00, booleans as true or false).', maxLength: 2000 },
  taxonomy: { description: 'The taxonomy key (e.g. "categories").', minLength: 1, maxLength: 64, pattern: KEY_PATTERN },
  term: { description: 'The term slug to assign (e.g. "shoes").', minLength: 1, maxLength: 64, pattern: KEY_PATTERN },
  title: { description: 'The new page\'s title.', minLength: 1, maxLength: 200 },
  path: { description: 'The new page\'s URL path, e.g. "/spring-repairs".', minLength: 2, maxLength: 200, pattern: '^(?:/[a-z0-9]+(?:-[a-z0-9]+)*)+$' },
  set: { description: 'The global property set (e.g. "brand").', minLength: 1, maxLength: 64, pattern: KEY_PATTERN },
  globalProperty: { description: 'The property of the set (e.g. "tagline").', minLength: 1, maxLength: 64, pattern: KEY_PATTERN },
});

/**
 * The JSON Schema of one field.
 * @param {FieldSpec} spec
 * @param {string[]} [values] an enum, when the values are known (e.g. the actor's sites)
 * @returns {Record<string, unknown>}
 */
export function toFieldSchema(spec, values) {
  if (values) return { type: 'string', enum: values, description: spec.description };
  /** @type {Record<string, unknown>} */
  const schema = { type: 'string', description: spec.description };
  if (spec.minLength !== undefined) schema.minLength = spec.minLength;
  schema.maxLength = spec.maxLength;
  if (spec.pattern !== undefined) schema.pattern = spec.pattern;
  return schema;
}

/**
 * Check a payload against an action's fields: a plain object, every required field a string
 * within its bounds, no other field.
 * @param {unknown} payload the POSTed JSON
 * @param {Record<string, FieldSpec>} fields input name → spec
 * @param {string[]} required
 * @returns {Record<string, string>} the payload, typed
 * @throws {import('./admin-error.js').AdminError} 422 `invalid_payload` naming the field
 */
export function validatePayload(payload, fields, required) {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw invalidPayload('The payload must be a JSON object.');
  const record = /** @type {Record<string, unknown>} */ (payload);
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(fields, key)) throw invalidPayload(`The field ${key} is not accepted here.`);
  }
  for (const [key, spec] of Object.entries(fields)) {
    const value = record[key];
    if (value === undefined) {
      if (required.includes(key)) throw invalidPayload(`The field ${key} is required.`);
      continue;
    }
    if (typeof value !== 'string') throw invalidPayload(`The field ${key} must be a string.`);
    const length = [...value].length;
    if (spec.minLength !== undefined && length < spec.minLength) throw invalidPayload(`The field ${key} must not be empty.`);
    if (length > spec.maxLength) throw invalidPayload(`The field ${key} must be at most ${spec.maxLength} characters.`);
    if (spec.pattern !== undefined && !new RegExp(spec.pattern, 'u').test(value)) throw invalidPayload(`The field ${key} has the wrong shape (${spec.pattern}).`);
  }
  return /** @type {Record<string, string>} */ (record);
}
