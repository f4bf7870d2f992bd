/**
 * An upper bound of the validator's work for one (schema, value) pair, counted before the
 * validator runs, so that a call's validation has a time bound. The step budget
 * (linear-regex.ts) bounds `pattern` and `format`; everything else the validator does is counted
 * here: every subschema applied to every part of the value it reaches (`$ref` expanded, every
 * `anyOf`/`oneOf`/`allOf`/`not` branch, every array item, every property), and what each
 * application costs beyond that: `enum` comparisons, `const`/`enum` deep comparisons of arrays and
 * objects, `uniqueItems`' comparisons of every pair of items, the loops over an object's keys and a string's code units. The walk follows exactly the
 * pairs @cfworker/json-schema visits with `shortCircuit` off (it never stops early on failure), so
 * the count is that work, not a product of sizes; it is iterative (no recursion, nothing to
 * overflow) and stops as soon as the count passes the limit.
 */
import { resolveLocalRef } from '../../shared/declarations/local-ref.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { ERROR_UNITS, FAILING_DEPTH_UNITS, FAILING_UNITS, MAX_VALIDATION_DEPTH, PAIR_UNITS } from '../../shared/validation/work-units.js';

export { MAX_VALIDATION_DEPTH, MAX_VALIDATION_WORK } from '../../shared/validation/work-units.js';

/**
 * What validating one value costs: `work` when the validator stops at the first failure of each
 * `items`/`properties` loop (a valid value costs the same either way), `exhaustive` when it lists
 * every failure (every application charged as failing).
 */
interface ValidationWork {
  work: number;
  exhaustive: number;
  /** Set when a chain of applications went deeper than MAX_VALIDATION_DEPTH (counting stopped there). */
  tooDeep?: true;
}

/** Nodes (values) in a JSON array or object, itself included; memoised per call for containers. */
function nodeCounter(): (value: unknown) => number {
  const memo = new Map<object, number>();
  return (root) => {
    if (root === null || typeof root !== 'object') return 1;
    const known = memo.get(root);
    if (known !== undefined) return known;
    // Iterative post-order: children first, then the container itself.
    const stack: [object, boolean][] = [[root, false]];
    while (stack.length > 0) {
      const [node, expanded] = stack.pop()!;
      if (memo.has(node)) continue;
      const children = Object.values(node);
      if (!expanded) {
        stack.push([node, true]);
        for (const child of children) if (child !== null && typeof child === 'object' && !memo.has(child)) stack.push([child, false]);
        continue;
      }
      let total = 1;
      for (const child of children) total += child !== null && typeof child === 'object' ? memo.get(child) ?? 1 : 1;
      memo.set(node, total);
    }
    return memo.get(root)!;
  };
}

// Schemas are normalised once and never mutated: their enum sizes are counted once.
const enumNodes = new WeakMap<unknown[], number>();

function nodesOfEnum(members: unknown[]): number {
  let total = enumNodes.get(members);
  if (total === undefined) {
    const count = nodeCounter();
    total = 0;
    for (const member of members) total += count(member);
    enumNodes.set(members, total);
  }
  return total;
}

/**
 * Counts the validator's work for `value` against `schema` (a schema that passed the schema
 * policy, so every local `$ref` resolves), in the units of MAX_VALIDATION_WORK.
 * @param limit the count stops as soon as it passes this.
 * @returns both counts (ValidationWork), exact up to the per-keyword weights; a `work` over
 *   `limit` means "over", `tooDeep` a chain deeper than MAX_VALIDATION_DEPTH (counting stopped).
 */
export function validationWork(schema: unknown, value: unknown, limit: number): ValidationWork {
  const nodes = nodeCounter();
  const refs = new Map<string, unknown>();
  // [schema, value, depth of the application, inside anyOf/oneOf/not]
  const stack: [unknown, unknown, number, boolean][] = [[schema, value, 0, false]];
  let work = 0;
  let exhaustive = 0;
  while (stack.length > 0) {
    const [node, instance, depth, speculative] = stack.pop()!;
    const required = isPlainObject(node) && Array.isArray(node.required) ? node.required.length : 0;
    const failing = FAILING_UNITS + depth * FAILING_DEPTH_UNITS + required * ERROR_UNITS;
    let extra = 0;
    work += speculative ? failing : PAIR_UNITS;
    exhaustive += failing;
    if (work > limit) return { work, exhaustive };
    if (depth > MAX_VALIDATION_DEPTH) return { work, exhaustive, tooDeep: true };
    if (!isPlainObject(node)) continue; // a boolean schema
    const container = instance !== null && typeof instance === 'object';
    const next = depth + 1;
    if (typeof node.$ref === 'string') {
      if (!refs.has(node.$ref)) refs.set(node.$ref, resolveLocalRef(schema, node.$ref));
      const target = refs.get(node.$ref);
      if (target !== undefined) stack.push([target, instance, next, speculative]);
    }
    if (Array.isArray(node.enum)) {
      extra += node.enum.length;
      if (container) extra += Math.min(node.enum.length * nodes(instance), nodesOfEnum(node.enum));
    }
    if (node.const !== undefined && container) extra += Math.min(nodes(instance), nodes(node.const));
    if (node.not !== undefined) stack.push([node.not, instance, next, true]);
    for (const keyword of ['anyOf', 'allOf', 'oneOf'] as const) {
      const branches = node[keyword];
      if (Array.isArray(branches)) for (const branch of branches) stack.push([branch, instance, next, speculative || keyword !== 'allOf']);
    }
    if (typeof instance === 'string') {
      if (node.minLength !== undefined || node.maxLength !== undefined) extra += instance.length;
    } else if (Array.isArray(instance)) {
      extra += instance.length;
      // uniqueItems: the validator compares every ordered pair (each comparison as deep as the
      // smaller item, so all of them together at most twice (length - 1) × the array's nodes) and
      // writes an error for each equal pair.
      if (node.uniqueItems === true && instance.length > 1) {
        extra += instance.length * (instance.length - 1) * (1 + ERROR_UNITS) + 2 * (instance.length - 1) * nodes(instance);
      }
      const { items } = node;
      if (Array.isArray(items)) {
        for (let i = 0; i < Math.min(items.length, instance.length); i++) stack.push([items[i], instance[i], next, speculative]);
      } else if (items !== undefined) {
        for (const item of instance) stack.push([items, item, next, speculative]);
      }
    } else if (container) {
      const object = instance as Record<string, unknown>;
      const keys = Object.keys(object);
      const properties = isPlainObject(node.properties) ? node.properties : undefined;
      extra += keys.length + required;
      if (properties) {
        const names = Object.keys(properties);
        extra += names.length;
        for (const name of names) if (Object.hasOwn(object, name)) stack.push([properties[name], object[name], next, speculative]);
      }
      if (node.additionalProperties !== undefined) {
        for (const key of keys) if (!properties || !Object.hasOwn(properties, key)) stack.push([node.additionalProperties, object[key], next, speculative]);
      }
    }
    work += extra;
    exhaustive += extra;
    if (work > limit) return { work, exhaustive };
  }
  return { work, exhaustive };
}
