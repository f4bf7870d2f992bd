/**
 * The input schema an engine that accepts only a subset of JSON Schema is given. WebMCP
 * (webmachinelearning/webmcp PR #289, proposed) lets `registerTool` throw `TypeError` for
 * `inputSchema` keywords outside a small allowlist; such an engine gets the tool with its schema
 * reduced to that allowlist, while the runtime keeps validating every input against the full
 * schema (tool-execute.ts), so nothing the site declared is loosened for the call itself.
 */
import { isPlainObject } from '../shared/is-plain-object.js';
import type { JSONSchema } from '../shared/declarations/tool-spec.js';

/** PR #289's allowlist, except `additionalProperties` (kept only when `false`) and the subschema keywords. */
const KEPT = new Set([
  'type', 'required', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'default', 'description',
]);

/** Deepest nesting reduced; deeper subschemas become `{}` (the policy already caps depth at 32). */
const MAX_DEPTH = 32;

function reduce(node: unknown, depth: number): JSONSchema {
  if (!isPlainObject(node) || depth > MAX_DEPTH) return {};
  const reduced: JSONSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (KEPT.has(keyword)) reduced[keyword] = value;
    else if (keyword === 'additionalProperties' && value === false) reduced[keyword] = false;
    else if (keyword === 'properties' && isPlainObject(value)) {
      reduced.properties = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, reduce(schema, depth + 1)]));
    } else if (keyword === 'items') {
      // A draft-07 tuple (`items: [...]`) is 2020-12's `prefixItems`.
      if (Array.isArray(value)) reduced.prefixItems = value.map((schema) => reduce(schema, depth + 1));
      else reduced.items = reduce(value, depth + 1);
    } else if (keyword === 'prefixItems' && Array.isArray(value)) {
      reduced.prefixItems = value.map((schema) => reduce(schema, depth + 1));
    }
    // Everything else ($ref, $defs, anyOf, oneOf, allOf, not, format, const, …) is left out: the
    // engine shows a looser schema, and the runtime still refuses an input the full one refuses.
  }
  return reduced;
}

/**
 * Reduces an `inputSchema` to the keywords PR #289 allows: `type, properties, required, enum,
 * minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, items,
 * prefixItems, additionalProperties: false, default, description`, recursively through
 * `properties`, `items` and `prefixItems`. The root stays `type: "object"`.
 * @param schema a normalised `inputSchema` (object root).
 * @returns the reduced copy, or `undefined` when reducing changes nothing (a retry would not help).
 * @example reduceInputSchema({ type: 'object', properties: { at: { type: 'string', format: 'date' } } })
 * // → { type: 'object', properties: { at: { type: 'string' } } }
 */
export function reduceInputSchema(schema: JSONSchema): JSONSchema | undefined {
  const reduced = { ...reduce(schema, 0), type: 'object' };
  return JSON.stringify(reduced) === JSON.stringify(schema) ? undefined : reduced;
}
