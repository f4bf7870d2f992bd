/**
 * The calls' side of the manifest cache's revalidation (manifest-fetch.ts). A repeat visit
 * registers a manifest's tools from the copy kept in IndexedDB at once (issue 9: without waiting
 * for the network); any script that ever ran on the origin can write that copy. So a call of an
 * AgentGate tool first waits until every manifest of its document registered from such a copy
 * has been read from the site again, and is refused, before anything is signed or sent, when the
 * site no longer declares the tool as it was registered. Kept apart from manifest-fetch.ts so the
 * call chunk imports only this: the checks themselves are written where the manifests are read.
 */
import type { ToolSpec } from '../declarations/tool-spec.js';

/** One revalidation's check: undefined when `spec` may be called, else the one-line reason; a rejection refuses the call. */
export type RevalidationCheck = (spec: ToolSpec) => Promise<string | undefined>;

const checks = new WeakMap<Document, Set<RevalidationCheck>>();

/** Adds the check of one manifest registered from its cached copy in `doc` (for the document's life). */
export function addRevalidationCheck(doc: Document, check: RevalidationCheck): void {
  let set = checks.get(doc);
  if (!set) checks.set(doc, set = new Set());
  set.add(check);
}

/**
 * Why `spec` may not be called in `doc` now that the site's manifests were read again, or
 * undefined (also when no manifest of `doc` came from a cached copy: no wait at all).
 * Resolves once every revalidation of `doc` has answered or failed (each bounded by the manifest
 * request's own timeout; a revalidation that failed leaves the cached copy standing; a check that
 * failed refuses, with its error). Never rejects.
 */
export async function revalidationRefusal(doc: Document, spec: ToolSpec): Promise<string | undefined> {
  const set = checks.get(doc);
  if (!set) return undefined;
  // A check that fails refuses: what the tool would send could not be compared with the site's.
  const failed = (error: unknown) => `${spec.name}: the site's AgentGate manifest could not be compared with the copy this tool was registered from (${(error as Error)?.message ?? String(error)}); nothing was sent`;
  for (const reason of await Promise.all([...set].map((check) => check(spec).catch(failed)))) {
    if (reason) return reason;
  }
  return undefined;
}
