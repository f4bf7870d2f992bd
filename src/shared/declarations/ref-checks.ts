/**
 * The `$ref` graph checks of the schema policy: every local `$ref` resolves to a schema, none
 * loops back to a schema already applied to the same value, and one value costs at most
 * MAX_SCHEMA_EVALUATIONS subschema evaluations. Only a schema with a `$ref` needs them, so they
 * are a module of their own: the CLI, the library and the tests import `REF_CHECKS` statically
 * (normalise.ts), the runtime loads it on demand (check-declaration.ts, `loadRefChecks`).
 */
import { isPlainObject } from '../is-plain-object.js';
import { resolveLocalRef } from './local-ref.js';
import type { Reason } from './reason.js';
import { MAX_SCHEMA_EVALUATIONS, type RefChecks } from './schema-policy.js';

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

/** The `$ref` graph checks, to pass to the schema policy (see RefChecks). */
export const REF_CHECKS: RefChecks = {
  checkRefs(root, field, refs, schemas, clean) {
    const reasons: Reason[] = [];
    for (const [at, ref] of refs) {
      const target = resolveLocalRef(root, ref);
      if (target === undefined) reasons.push([at, 'unresolvedRef', ref]);
      else if (typeof target !== 'boolean' && !schemas.has(target as object)) reasons.push([at, 'refNotSchema', ref]);
    }
    // Loops and fan-out are followed only through references that all resolve.
    if (clean && reasons.length === 0) {
      const loop = findEndlessRef(root);
      if (loop) reasons.push([field, 'refLoop', loop]);
      else if (countEvaluations(root) > MAX_SCHEMA_EVALUATIONS) reasons.push([field, 'tooManyEvaluations']);
    }
    return reasons;
  },
  resolve: resolveLocalRef,
};
