/**
 * An upper bound of the validator's work for one (schema, value) pair, counted before the
 * validator runs (issue 7, item 4: "a call's validation ... ha[s] a time bound"). The step budget
 * (linear-regex.ts) bounds `pattern` and `format`; everything else the validator does is counted
 * here: every subschema applied to every part of the value it reaches (`$ref` expanded, every
 * `anyOf`/`oneOf`/`allOf`/`not` branch, every array item, every property), and what each
 * application costs beyond that: `enum` comparisons, `const`/`enum` deep comparisons of arrays and
 * objects, the loops over an object's keys and a string's code units. The walk follows exactly the
 * pairs @cfworker/json-schema visits with `shortCircuit` off (it never stops early on failure), so
 * the count is that work, not a product of sizes; it is iterative (no recursion, nothing to
 * overflow) and stops as soon as the count passes the limit.
 */
import { resolveLocalRef } from '../declarations/schema-policy.js';
import { isPlainObject } from '../is-plain-object.js';

/**
 * Most work one validator call may cost, in units of about one `enum` comparison. Over it the
 * call is refused before the validator runs. Measured in Chromium (bench/validation-bench.js):
 * a whole budget, in the costliest shapes (every item failing an `anyOf`, every item compared
 * with a large `enum`), costs well under 50 ms (see the README for the figures).
 */
export const MAX_VALIDATION_WORK = 2_000_000;

/**
 * Units charged for one application of a subschema to one value: the validator's own call,
 * error objects and location strings (measured: one application costs about as much as
 * PAIR_UNITS enum comparisons).
 */
export const PAIR_UNITS = 20;

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
 * @returns the work, exact up to the per-keyword weights; any number over `limit` means "over".
 */
export function validationWork(schema: unknown, value: unknown, limit: number): number {
  const nodes = nodeCounter();
  const stack: [unknown, unknown][] = [[schema, value]];
  let work = 0;
  while (stack.length > 0) {
    const [node, instance] = stack.pop()!;
    work += PAIR_UNITS;
    if (work > limit) return work;
    if (!isPlainObject(node)) continue; // a boolean schema
    const container = instance !== null && typeof instance === 'object';
    if (typeof node.$ref === 'string') {
      const target = resolveLocalRef(schema, node.$ref);
      if (target !== undefined) stack.push([target, instance]);
    }
    if (Array.isArray(node.enum)) {
      work += node.enum.length;
      if (container) work += Math.min(node.enum.length * nodes(instance), nodesOfEnum(node.enum));
    }
    if (node.const !== undefined && container) work += Math.min(nodes(instance), nodes(node.const));
    if (node.not !== undefined) stack.push([node.not, instance]);
    for (const keyword of ['anyOf', 'allOf', 'oneOf'] as const) {
      const branches = node[keyword];
      if (Array.isArray(branches)) for (const branch of branches) stack.push([branch, instance]);
    }
    if (typeof instance === 'string') {
      if (node.minLength !== undefined || node.maxLength !== undefined) work += instance.length;
    } else if (Array.isArray(instance)) {
      work += instance.length;
      const { items } = node;
      if (Array.isArray(items)) {
        for (let i = 0; i < Math.min(items.length, instance.length); i++) stack.push([items[i], instance[i]]);
      } else if (items !== undefined) {
        for (const item of instance) stack.push([items, item]);
      }
    } else if (container) {
      const object = instance as Record<string, unknown>;
      const keys = Object.keys(object);
      const properties = isPlainObject(node.properties) ? node.properties : undefined;
      work += keys.length + (Array.isArray(node.required) ? node.required.length : 0);
      if (properties) {
        const names = Object.keys(properties);
        work += names.length;
        for (const name of names) if (Object.hasOwn(object, name)) stack.push([properties[name], object[name]]);
      }
      if (node.additionalProperties !== undefined) {
        for (const key of keys) if (!properties || !Object.hasOwn(properties, key)) stack.push([node.additionalProperties, object[key]]);
      }
    }
    if (work > limit) return work;
  }
  return work;
}
