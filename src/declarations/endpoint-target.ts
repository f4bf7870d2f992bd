/**
 * The endpoint target rule on its own (Capell Agent Schema, "Tool declarations": endpoint targets
 * are same-origin paths): the binding policy checks targets with it, and the options check
 * `apiBase` with it at start-up (config.ts), without loading the rest of the binding policy.
 */
import type { Reason } from './reason.js';

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
