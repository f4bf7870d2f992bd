/**
 * Binding rules: a binding is data (`{ type, target }`), never a callback, URL to another origin,
 * selector or handler. Capell Agent Schema, "Tool declarations".
 */
import type { Reason } from './reason.js';
import type { Binding, BindingType, Effect } from './tool-spec.js';
import { isPlainObject } from '../is-plain-object.js';
import { validateEndpointTarget } from './endpoint-target.js';

// Kept importable from here: the endpoint target rule is one of the binding rules.
export { validateEndpointTarget };

/** The binding types the Capell Agent Schema defines. */
export const BINDING_TYPES: readonly BindingType[] = ['inline', 'endpoint', 'search', 'property-query', 'form'];

/** Core's normaliser: form, search and property-query targets are stable identifiers. */
export const IDENTIFIER_TARGET_PATTERN = /^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*$/;

// Control characters (C0, DEL, C1) never belong in a target.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Normalises a declaration's `binding` for its `effect`.
 * - keys: only `type` and `target`;
 * - `target`: a string free of control characters and `::`;
 * - `inline`: target `page`, effect read; `endpoint`: a same-origin path;
 *   `search` / `property-query`: identifiers, effect read; `form`: an identifier (a DOM id, never
 *   a selector), effect write.
 * @returns `{ binding }` or `{ reasons }` (each naming `binding.*` and the rule).
 */
export function normaliseBinding(
  raw: unknown, effect: Effect | undefined, origin: string,
): { binding: Binding; reasons?: undefined } | { binding?: undefined; reasons: Reason[] } {
  if (!isPlainObject(raw)) return { reasons: [['binding', 'bindingObject']] };
  const reasons: Reason[] = [];
  for (const key of Object.keys(raw)) {
    if (key !== 'type' && key !== 'target') reasons.push([`binding.${key}`, 'bindingKey']);
  }
  const { type, target } = raw;
  if (typeof type !== 'string' || !(BINDING_TYPES as readonly string[]).includes(type)) {
    reasons.push(['binding.type', 'bindingType', type]);
  }
  if (typeof target !== 'string' || target === '') {
    reasons.push(['binding.target', 'targetRequired']);
  } else if (CONTROL_CHARACTERS.test(target)) {
    reasons.push(['binding.target', 'controlCharacters']);
  } else if (target.includes('::')) {
    reasons.push(['binding.target', 'handler', target]);
  }
  if (reasons.length > 0) return { reasons };
  const bindingType = type as BindingType;
  const bindingTarget = target as string;
  switch (bindingType) {
    case 'inline':
      if (bindingTarget !== 'page') reasons.push(['binding.target', 'inlineTarget']);
      break;
    case 'endpoint':
      reasons.push(...validateEndpointTarget(bindingTarget, origin));
      break;
    default:
      if (!IDENTIFIER_TARGET_PATTERN.test(bindingTarget)) {
        reasons.push(['binding.target', 'identifier', bindingTarget]);
      }
  }
  if (bindingType === 'form' && effect === 'read') reasons.push(['effect', 'formRead']);
  if (effect === 'write' && (bindingType === 'inline' || bindingType === 'search' || bindingType === 'property-query')) {
    reasons.push(['effect', 'readOnlyBinding', bindingType]);
  }
  if (reasons.length > 0) return { reasons };
  return { binding: { type: bindingType, target: bindingTarget } as Binding };
}
