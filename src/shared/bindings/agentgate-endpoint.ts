/**
 * The AgentGate endpoint rule the `agentgate` binding row and the manifest rules share. A module
 * of its own: config.ts imports targets.ts at start-up, and this check is needed only where a
 * page names AgentGate.
 */
import type { Reason } from '../declarations/reason.js';

/**
 * Checks an AgentGate tool's `endpoint.url` (AgentGate declared tools, "For site operators": the
 * site's exact route; calls stay on the page's origin): an absolute http(s) URL
 * on `origin`, without user info, query, fragment, `.`/`..` segments, wildcard (`*`) or template
 * (`{…}`, `:param`), as written (the URL parser must not change it).
 * @param origin the page's origin, e.g. `https://shop.example`.
 * @returns reasons on the field `endpoint.url`; empty when the URL is an exact same-origin route.
 */
export function validateAgentGateEndpoint(url: string, origin: string): Reason[] {
  const field = 'endpoint.url';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [[field, 'endpointUrl', url]];
  }
  if (!/^https?:$/.test(parsed.protocol) || !/^https?:\/\//i.test(url) || /\s|\\/.test(url)) return [[field, 'endpointUrl', url]];
  if (parsed.origin !== origin) return [[field, 'endpointOrigin', url, origin]];
  const route = (what: string): Reason[] => [[field, 'endpointRoute', url, what]];
  if (parsed.username || parsed.password || url.slice(url.indexOf('//') + 2).split('/')[0]!.includes('@')) return route('user info');
  if (url.includes('?')) return route('a query');
  if (url.includes('#')) return route('a fragment');
  if (/[*]/.test(url) || /%2a/i.test(url)) return route('a wildcard');
  if (/[{}]|%7b|%7d/i.test(url) || /\/:[A-Za-z_]/.test(parsed.pathname)) return route('a template');
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(url.slice(parsed.origin.length))) return route('"." or ".." segments');
  // What is checked must be what is requested: the parser may not rewrite the path.
  if (`${parsed.origin}${parsed.pathname}`.toLowerCase() !== url.toLowerCase()) return route('a form the URL parser rewrites');
  return [];
}
