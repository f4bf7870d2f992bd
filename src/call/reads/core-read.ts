import { findBracketKey, withQuery } from './query-string.js';
import type { BindingOutcome, CallContext } from '../../shared/bindings/binding-executor.js';
import type { ToolSpec } from '../../shared/declarations/tool-spec.js';
import { CURSOR_INPUT } from '../../shared/declarations/paging.js';
import { fetchEnvelope } from './fetch-envelope.js';
import { rememberPageLinks, resolveCursor } from './page-links.js';

/**
 * GETs a Core read API URL with the input as its query and answers with the whole envelope, so
 * the agent sees `links.next`; `outputSchema` is checked against that whole envelope (by the call:
 * call/check-output.ts, which leaves out what only an `additionalProperties: false` forbids). Shared by
 * the endpoint, search and property-query bindings, which differ only in the URL.
 * With the runtime's `cursor` input (`spec.pagesByLinks`), the call reads that link instead: one
 * an earlier answer of the same tool handed out (page-links.ts), or a one-line reason.
 * Anonymous (`credentials: 'omit'`: public reads are anonymous by contract), except for an admin
 * registry tool (`spec.session`), whose read goes with the editor's session.
 * @param route the URL the tool reads (its target), before the input is added.
 * @param skip input keys the binding sets itself (e.g. `scope` for search).
 * @returns the envelope as `answer` and `data`, or `{ ok: false, reason }`; never throws.
 */
export async function readFromCore(
  spec: ToolSpec, route: URL, input: Record<string, unknown>, { config, signal }: CallContext, skip: readonly string[] = [],
): Promise<BindingOutcome> {
  let url: URL;
  if (spec.pagesByLinks && Object.hasOwn(input, CURSOR_INPUT)) {
    const link = resolveCursor(config, spec.name, input, route);
    if ('reason' in link) return { ok: false, reason: link.reason };
    url = link.url;
  } else {
    const bracketKey = findBracketKey(input);
    if (bracketKey !== undefined) {
      return { ok: false, reason: `invalid input: key ${JSON.stringify(bracketKey)} contains "[" or "]", which the query string reserves for nesting` };
    }
    url = withQuery(route, input, skip);
  }
  const outcome = await fetchEnvelope(url, signal, config.timeoutMs, spec.session ? 'same-origin' : 'omit');
  if (!outcome.ok) return outcome;
  if (spec.pagesByLinks) rememberPageLinks(config, spec.name, outcome.envelope, url);
  // Capell Agent Schema, "What is public": the answer is the versioned envelope, and Core declares
  // `outputSchema: {"type": "object"}` for it (BuildAgentToolManifestAction): the schema describes
  // the whole envelope, not its `data` (a list for Core's paginated reads).
  return { ok: true, answer: outcome.envelope as never, data: outcome.envelope as never };
}
