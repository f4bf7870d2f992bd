import { findBracketKey, withQuery } from './query-string.js';
import type { BindingOutcome, CallContext } from '../../shared/bindings/binding-executor.js';
import { fetchEnvelope } from './fetch-envelope.js';

/**
 * GETs a Core read API URL with the input as its query and answers with the whole envelope, so
 * the agent sees `links.next`. Shared by the endpoint, search and
 * property-query bindings, which differ only in the URL.
 * @param skip input keys the binding sets itself (e.g. `scope` for search).
 * @param credentials `'omit'` (public reads, anonymous by contract) or `'same-origin'` (an admin
 *   registry tool's read, with the editor's session). @default 'omit'
 */
export async function readFromCore(
  url: URL, input: Record<string, unknown>, { config, signal }: CallContext, skip: readonly string[] = [],
  credentials: 'omit' | 'same-origin' = 'omit',
): Promise<BindingOutcome> {
  const bracketKey = findBracketKey(input);
  if (bracketKey !== undefined) {
    return { ok: false, reason: `invalid input: key ${JSON.stringify(bracketKey)} contains "[" or "]", which the query string reserves for nesting` };
  }
  const outcome = await fetchEnvelope(withQuery(url, input, skip), signal, config.timeoutMs, credentials);
  return outcome.ok ? { ok: true, answer: outcome.envelope as never, data: outcome.envelope.data } : outcome;
}
