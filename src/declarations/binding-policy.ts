/**
 * Binding rules: a binding is data (`{ type, target }`), never a callback, URL to another origin,
 * selector or handler. Capell Agent Schema, "Tool declarations".
 */
import type { Reason } from './reason.js';
import type { Binding, BindingType, Effect } from './tool-spec.js';
import { isPlainObject } from '../is-plain-object.js';

/** The binding types the Capell Agent Schema defines. */
export const BINDING_TYPES: readonly BindingType[] = ['inline', 'endpoint', 'search', 'property-query', 'form'];

/** Core's normaliser: form, search and property-query targets are stable identifiers. */
export const IDENTIFIER_TARGET_PATTERN = /^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*$/;

// Control characters (C0, DEL, C1) never belong in a target.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Checks an endpoint target: an origin-relative path (`/` not followed by `/` or `\`), no
 * whitespace, no fragment, and after URL parsing against `origin` still on `origin`.
 * Capell Agent Schema: "Endpoint targets are same-origin paths"; the normaliser rejects foreign
 * URLs and fragments.
 * @param origin the page's origin, e.g. `https://shop.example` (never `document.baseURI`: a
 *   `<base>` element must not move targets).
 * @returns reasons; empty when the target is a same-origin path.
 */
export function validateEndpointTarget(target: string, origin: string): Reason[] {
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return [['binding.target', 'notOriginRelative', target]];
  }
  if (/\s/u.test(target)) return [['binding.target', 'whitespace', target]];
  if (target.includes('#')) return [['binding.target', 'fragment', target]];
  if (target.includes('\\')) return [['binding.target', 'backslash', target]];
  // `.` and `..` segments (also %2e-encoded) are resolved away by URL parsing: what is shown and
  // checked would not be what is requested.
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(target.split('?')[0]!)) return [['binding.target', 'dotSegments', target]];
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return [['binding.target', 'badPath', target]];
  }
  if (url.origin !== origin) return [['binding.target', 'otherOrigin', target, url.origin]];
  if (url.pathname.startsWith('//')) return [['binding.target', 'notOriginRelative', target]];
  return [];
}

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
