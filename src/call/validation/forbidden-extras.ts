/**
 * The properties of a site's answer that an `additionalProperties: false` of its `outputSchema`
 * forbids, and the answer without them. Capell's admin answers more than two of its own
 * outputSchemas describe while they say `additionalProperties: false` (capell-app/capell
 * `packages/admin/src/Support/Agent/AgentTermPropertiesReadTool.php` @cdb7004 answers `taxonomy`,
 * `AgentPagePublicationTool.php` @3affada `before_state`, `after_state`, `visible_from`,
 * `visible_until`, `blocking_checks`, `missing_publish_required`; test/fixtures/capell/admin/
 * SOURCES.md §2): the runtime leaves those out (call/check-output.ts) instead of refusing the
 * answer. The walk follows only where the schema says for certain what applies to a part of the
 * value: `properties`, `additionalProperties` (as a schema), `items` (one schema, or draft-07's
 * list), local `$ref` and `allOf`; never into `anyOf`, `oneOf` or `not`, whose branch is not
 * known, so an extra there is not left out (and the answer stays refused). Values are never
 * changed, only properties left out; the walk is iterative and bounded like the validator's work
 * (work-bound.ts).
 */
import { resolveLocalRef } from '../../shared/declarations/local-ref.js';
import { schemaDialect } from '../../shared/declarations/schema-policy.js';
import type { JSONSchema, JSONValue } from '../../shared/declarations/tool-spec.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { MAX_VALIDATION_DEPTH, MAX_VALIDATION_WORK, PAIR_UNITS } from '../../shared/validation/work-units.js';

/**
 * Most (subschema, value) pairs one walk visits: the validator's whole work bound in passing
 * pairs. An answer that passed the work bound visits fewer (the walk follows a subset of the
 * pairs the validator applies).
 */
const MAX_WALK_PAIRS = Math.ceil(MAX_VALIDATION_WORK / PAIR_UNITS);

/** Where a part of the value is: its key (a number for an array item) under its parent's place. */
interface Place {
  parent: Place | undefined;
  key: string | number;
}

/** One property to leave out: `key` of the object at `place` (undefined: the root). */
interface Extra {
  place: Place | undefined;
  key: string;
}

/**
 * The answer without the properties an `additionalProperties: false` forbids.
 * `value`: a copy in which only the objects that lost a property, and their ancestors, are new
 * (everything else is the answer's own); `leftOut`: each property's path, deduplicated, in the
 * order met: `taxonomy`, `property.extra`, `properties[].semantic` (`[]` for any array item).
 */
export interface StrippedAnswer {
  value: JSONValue;
  leftOut: string[];
}

/** The keys from the root to `place`. */
function keysTo(place: Place | undefined): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let at = place; at; at = at.parent) keys.push(at.key);
  return keys.reverse();
}

/** `properties[].semantic` for the keys `properties`, 3, and the left-out `semantic`. */
function pathOf(keys: readonly (string | number)[], key: string): string {
  let path = '';
  for (const step of keys) path += typeof step === 'number' ? '[]' : `${path === '' ? '' : '.'}${step}`;
  return path === '' ? key : `${path}.${key}`;
}

/** A shallow copy of an array or object. */
function shallowCopy(node: object): Record<string | number, unknown> {
  return (Array.isArray(node) ? node.slice() : { ...node }) as Record<string | number, unknown>;
}

/**
 * Finds the properties of `value` that `schema` forbids by an `additionalProperties: false` (see
 * the module comment for where it looks) and leaves them out of a copy. A draft-07 schema's
 * `$ref` hides its siblings, as the validator reads it.
 * @param schema an `outputSchema` that passed the schema policy (object or boolean).
 * @param value the site's answer, as parsed (JSON values only).
 * @returns the copy and the paths left out (`leftOut` empty, `value` the answer itself, when
 *   there were none); undefined when the walk would pass MAX_WALK_PAIRS pairs or
 *   MAX_VALIDATION_DEPTH levels (then nothing is left out: the answer is refused as it is).
 *   Never throws.
 */
export function stripForbiddenExtras(schema: JSONSchema, value: JSONValue): StrippedAnswer | undefined {
  const draft7 = schemaDialect(schema) === '7';
  const refs = new Map<string, unknown>();
  const extras: Extra[] = [];
  const stack: [unknown, unknown, number, Place | undefined][] = [[schema, value, 0, undefined]];
  let pairs = 0;
  while (stack.length > 0) {
    const [node, instance, depth, place] = stack.pop()!;
    if (++pairs > MAX_WALK_PAIRS || depth > MAX_VALIDATION_DEPTH) return undefined;
    if (!isPlainObject(node)) continue;
    const next = depth + 1;
    if (typeof node.$ref === 'string') {
      if (!refs.has(node.$ref)) refs.set(node.$ref, resolveLocalRef(schema, node.$ref));
      const target = refs.get(node.$ref);
      if (target !== undefined) stack.push([target, instance, next, place]);
      if (draft7) continue;
    }
    if (Array.isArray(node.allOf)) for (const branch of node.allOf) stack.push([branch, instance, next, place]);
    if (Array.isArray(instance)) {
      const { items } = node;
      for (let index = 0; index < instance.length; index++) {
        const itemSchema = Array.isArray(items) ? items[index] : items;
        if (itemSchema !== undefined) stack.push([itemSchema, instance[index], next, { parent: place, key: index }]);
      }
    } else if (isPlainObject(instance)) {
      const properties = isPlainObject(node.properties) ? node.properties : undefined;
      const additional = node.additionalProperties;
      for (const key of Object.keys(instance)) {
        if (properties && Object.hasOwn(properties, key)) stack.push([properties[key], instance[key], next, { parent: place, key }]);
        else if (additional === false) extras.push({ place, key });
        else if (isPlainObject(additional)) stack.push([additional, instance[key], next, { parent: place, key }]);
      }
    }
  }
  if (extras.length === 0) return { value, leftOut: [] };
  // Copy on write along each extra's path: an object is copied once, however many extras it holds.
  const copies = new Map<object, Record<string | number, unknown>>();
  const copyOf = (node: object) => {
    let copy = copies.get(node);
    if (!copy) copies.set(node, copy = shallowCopy(node));
    return copy;
  };
  const root = copyOf(value as object);
  const leftOut = new Set<string>();
  for (const { place, key } of extras) {
    const keys = keysTo(place);
    let original = value as Record<string | number, unknown>;
    let copy = root;
    for (const step of keys) {
      original = original[step] as Record<string | number, unknown>;
      copy = copy[step] = copyOf(original);
    }
    delete copy[key];
    leftOut.add(pathOf(keys, key));
  }
  return { value: root as JSONValue, leftOut: [...leftOut] };
}
