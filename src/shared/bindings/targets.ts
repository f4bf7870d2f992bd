/**
 * The target checks binding policies share (shared/bindings/registry.ts rows use them): pure, no DOM and
 * no network, so the normaliser runs them at start-up and in Node. Capell Agent Schema, "Tool
 * declarations": endpoint targets are same-origin paths; form, search and property-query targets
 * are stable identifiers; the inline binding is reserved for Core's page payload.
 */
import type { Reason } from '../declarations/reason.js';

/** Core's normaliser: form, search and property-query targets are stable identifiers. */
export const IDENTIFIER_TARGET_PATTERN = /^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*$/;

/**
 * Checks a stable-identifier target (a DOM id for forms, a scope or property name): it matches
 * IDENTIFIER_TARGET_PATTERN, so it is never a selector, path or URL.
 * @returns `[['binding.target', 'identifier', target]]`, or `[]` when it is an identifier.
 */
export function checkIdentifierTarget(target: string): Reason[] {
  return IDENTIFIER_TARGET_PATTERN.test(target) ? [] : [['binding.target', 'identifier', target]];
}

/**
 * Checks the inline binding's target: only `page` (Core's page payload).
 * @returns `[['binding.target', 'inlineTarget']]`, or `[]` for `page`.
 */
export function checkInlineTarget(target: string): Reason[] {
  return target === 'page' ? [] : [['binding.target', 'inlineTarget']];
}

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
  // Pages repeat targets (one endpoint, many tools): each target is judged once per origin.
  const key = `${origin}\u0000${target}`;
  let verdict = endpointVerdicts.get(key);
  if (!verdict) {
    if (endpointVerdicts.size >= MAX_KEPT_ENDPOINT_VERDICTS) endpointVerdicts.clear();
    verdict = judgeEndpointTarget(target, origin);
    endpointVerdicts.set(key, verdict);
  }
  return [...verdict];
}

/** Endpoint target verdicts by origin and target; cleared when it holds this many. */
const MAX_KEPT_ENDPOINT_VERDICTS = 1000;
const endpointVerdicts = new Map<string, readonly Reason[]>();

function judgeEndpointTarget(target: string, origin: string): Reason[] {
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return [['binding.target', 'notOriginRelative', target]];
  }
  if (/\s/u.test(target)) return [['binding.target', 'whitespace', target]];
  if (target.includes('#')) return [['binding.target', 'fragment', target]];
  if (target.includes('\\')) return [['binding.target', 'backslash', target]];
  // `.` and `..` segments (also %2e-encoded) are resolved away by URL parsing: what is shown and
  // checked would not be what is requested.
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(target.split('?')[0]!)) return [['binding.target', 'dotSegments', target]];
  // An encoded slash or backslash in the path is one segment here, but a proxy that decodes it
  // (nginx merging and normalising) reads `%2f..%2f` as a dot segment into another path.
  if (/%(2f|5c)/i.test(target.split('?')[0]!)) return [['binding.target', 'encodedSlash', target]];
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

