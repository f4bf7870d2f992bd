/**
 * The sources table: every contract the runtime reads tools from, in order of precedence. The
 * runtime and the CLI iterate it; a tool name declared by two sources is registered from the
 * first row that declares it (registration-rules.ts). Adding a source is one module and one row.
 */
import { adminRegistry } from './admin-registry.js';
import { agentGateManifests } from './agentgate.js';
import { capellIslands } from './capell-islands.js';
import type { ToolSource } from './source.js';

export type { Normalise, SourceUnit, ToolSource } from './source.js';

/**
 * The sources, first row first: the page's Capell tools islands, the AgentGate manifests a page
 * names, and the signed-in editor's admin registry (only with the `adminRegistry` option).
 */
export const SOURCES: readonly ToolSource[] = [capellIslands, agentGateManifests, adminRegistry];

export { readPageDeclarations } from '../../start/page-declarations.js';
