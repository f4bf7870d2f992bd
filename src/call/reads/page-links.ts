/**
 * Paging by the links Core hands out. Core's lists answer with Laravel's paginator links
 * (`…/agent/v1/pages?set=product&page%5Bnumber%5D=2`, `…/agent/v1/navigation?page=2`), which carry
 * query parameters a tool's `inputSchema` may not have: `site.search` declares only `q`, and its
 * links, built by a paginator without a path, point at the site's root (`/?q=boots&page=2`;
 * capell-app/frontend @ 83fd9244, test/fixtures/capell/SOURCES.md). So every Core API read
 * accepts the runtime's optional `cursor` input (shared/declarations/paging.ts): a link an earlier
 * answer of the same tool handed out. The call reads the link's query, byte for byte, on the
 * tool's own route (its target's origin and path), never the link's path: a link names the page
 * of the list, the declaration names where the list is. A link this runtime did not hand out for
 * that tool is refused, so `cursor` never becomes a way to send the site a query of the agent's.
 */
import type { RuntimeConfig } from '../../start/config.js';
import { CURSOR_INPUT } from '../../shared/declarations/paging.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { toQueryPairs } from './query-string.js';

/** Links kept per tool; the oldest go first past it (an agent follows the newest). */
export const MAX_LINKS_PER_TOOL = 512;

/** Links handed out per runtime (its config) and tool name, as absolute URLs, oldest first. */
const handedOut = new WeakMap<RuntimeConfig, Map<string, Set<string>>>();

/** `link` resolved against `request`, when it is on `request`'s origin and has no fragment; else undefined. */
function sameOrigin(link: string, request: URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(link, request);
  } catch {
    return undefined;
  }
  return url.origin === request.origin && url.hash === '' && url.search !== '' ? url : undefined;
}

/**
 * Remembers the `links.next` and `links.previous` of one answer of `tool`, so that a later call
 * may pass either as `cursor`. Only links on the request's own origin, with a query and no
 * fragment, are kept (another stays in the answer, but no call follows it). Bounded by
 * MAX_LINKS_PER_TOOL.
 * @param envelope the checked envelope (`links` is an object of URL strings or null).
 * @param request the URL the answer came from.
 */
export function rememberPageLinks(config: RuntimeConfig, tool: string, envelope: unknown, request: URL): void {
  if (!isPlainObject(envelope) || !isPlainObject(envelope.links)) return;
  let tools = handedOut.get(config);
  if (!tools) handedOut.set(config, tools = new Map());
  let links = tools.get(tool);
  for (const key of ['next', 'previous'] as const) {
    const link = envelope.links[key];
    const href = typeof link === 'string' ? sameOrigin(link, request)?.href : undefined;
    if (href === undefined) continue;
    if (!links) tools.set(tool, links = new Set());
    links.delete(href); // kept as the newest
    links.add(href);
    if (links.size > MAX_LINKS_PER_TOOL) links.delete(links.values().next().value!);
  }
}

/**
 * The URL a call with `cursor` reads: the link's query on `route`'s origin and path, when the link
 * is one an answer of `tool` handed out in this runtime. A parameter `route` itself carries (the
 * search binding's `scope`) keeps the route's value. The other inputs, if any, may only repeat
 * what the link's query already says (an agent that calls again with its first input and the
 * cursor); an input the link does not carry (another query, another page number) is refused, so
 * the answer is never a page of a query the agent did not ask for.
 * @param input the validated input, with `cursor` (a string: the schema says so).
 * @param route the URL the tool reads without a cursor (its target), e.g. `…/agent/v1/search`.
 * @returns `{ url }`, or `{ reason }`, one line naming the rule, e.g. `cursor … was not handed out
 *   by an earlier answer of site.search on this page: call site.search without cursor first`.
 */
export function resolveCursor(
  config: RuntimeConfig, tool: string, input: Record<string, unknown>, route: URL,
): { url: URL } | { reason: string } {
  const cursor = String(input[CURSOR_INPUT]);
  const shown = JSON.stringify(cursor.length > 120 ? `${cursor.slice(0, 117)}...` : cursor);
  // Only links on the route's origin are ever kept: one elsewhere was not handed out either.
  const link = sameOrigin(cursor, route);
  if (!link || !handedOut.get(config)?.get(tool)?.has(link.href)) {
    return { reason: `invalid input for ${tool}: cursor ${shown} was not handed out by an earlier answer of ${tool} on this page: call ${tool} without cursor first` };
  }
  const { [CURSOR_INPUT]: _cursor, ...others } = input;
  const carried = new URLSearchParams(link.search);
  for (const [key, value] of toQueryPairs(others)) {
    if (!carried.getAll(key).includes(value)) {
      return { reason: `invalid input for ${tool}: ${key}=${value} is not in the query of cursor ${shown}: give cursor alone, or with the input of the call that handed it out` };
    }
  }
  const url = new URL(route);
  url.search = link.search;
  for (const [key, value] of route.searchParams) url.searchParams.set(key, value);
  return { url };
}
