/**
 * Binding rules: a binding is data (`{ type, target }`), never a callback, URL to another origin,
 * selector or handler. Capell Agent Schema, "Tool declarations". The rules every binding shares
 * are here; each type's own rules are its row's policy in shared/bindings/registry.ts.
 */
import type { Reason } from './reason.js';
import type { Binding, Effect } from './tool-spec.js';
import { isPlainObject } from '../is-plain-object.js';
import { bindingRow } from '../bindings/registry.js';

export { BINDING_TYPES } from '../bindings/registry.js';
export { IDENTIFIER_TARGET_PATTERN, validateEndpointTarget } from '../bindings/targets.js';

// Control characters (C0, DEL, C1) never belong in a target.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Normalises a declaration's `binding` for its `effect`.
 * - keys: only `type` and `target`;
 * - `type`: one of BINDING_TYPES (the registry's keys), or, in the admin registry only
 *   (`adminRegistry`), an admin binding (`admin-invoke`, which the admin registry's normaliser sets); anywhere else that one is rejected with
 *   `adminOnlyBinding`;
 * - `target`: a string free of control characters and `::`;
 * - then the type's own policy (shared/bindings/registry.ts): e.g. `inline`: target `page`, effect read;
 *   `endpoint`: a same-origin path; `search` / `property-query`: identifiers, effect read; `form`:
 *   an identifier (a DOM id, never a selector), effect write.
 * @param adminRegistry true for a declaration of the admin registry (registry/sources/admin-registry.ts).
 * @returns `{ binding }` or `{ reasons }` (each naming `binding.*` or `effect` and the rule).
 */
export function normaliseBinding(
  raw: unknown, effect: Effect | undefined, origin: string, adminRegistry = false,
): { binding: Binding; reasons?: undefined } | { binding?: undefined; reasons: Reason[] } {
  if (!isPlainObject(raw)) return { reasons: [['binding', 'bindingObject']] };
  const reasons: Reason[] = [];
  for (const key of Object.keys(raw)) {
    if (key !== 'type' && key !== 'target') reasons.push([`binding.${key}`, 'bindingKey']);
  }
  const { type, target } = raw;
  // AgentGate bindings come only from an AgentGate manifest, never from a Capell declaration;
  // admin bindings only from the admin registry (fetched with the editor's session).
  const known = bindingRow(type);
  const row = known && (known.capell || (known.adminOnly && adminRegistry)) ? known : undefined;
  if (!row) reasons.push(known?.adminOnly ? ['binding.type', 'adminOnlyBinding', type as string] : ['binding.type', 'bindingType', type]);
  if (typeof target !== 'string' || target === '') {
    reasons.push(['binding.target', 'targetRequired']);
  } else if (CONTROL_CHARACTERS.test(target)) {
    reasons.push(['binding.target', 'controlCharacters']);
  } else if (target.includes('::')) {
    reasons.push(['binding.target', 'handler', target]);
  }
  if (reasons.length > 0 || !row) return { reasons };
  reasons.push(...row.policy.check(target as string, effect, origin));
  if (reasons.length > 0) return { reasons };
  return { binding: { type, target } as Binding };
}

