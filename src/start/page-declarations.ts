/**
 * The declarations a page itself holds, without fetching anything: what the audit compares the
 * page's interactive surfaces with, in the browser without WebMCP and in the CLI.
 */
import { readIslands } from './read-islands.js';

/**
 * The declarations of the page's Capell tools islands (Capell Agent Schema, "Tool declarations"),
 * in document order, as written (not yet checked).
 *
 * Only the islands: the other sources (registry/sources/index.ts: AgentGate manifests, the admin registry)
 * fetch their declarations and read nothing without the runtime's options, so reading them here
 * would add nothing but their code to the start-up file every browser loads.
 * @returns the raw declarations; never throws for a page's content (an island that is not JSON
 *   gives none).
 */
export function readPageDeclarations(root: ParentNode): unknown[] {
  return readIslands(root).flatMap((unit) => unit.declarations);
}
