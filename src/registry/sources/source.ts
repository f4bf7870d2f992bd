/**
 * What a source of tool declarations is (sources → normalise → ToolSpec[]):
 * the seam a second contract (the AgentGate manifest) plugs into as one more row of the table in
 * registry/sources/index.ts. Nothing after normalisation knows which source a tool came from.
 */
import type { RuntimeConfig } from '../../start/config.js';
import type { CheckResult, NormaliseContext } from '../../shared/declarations/check-declaration.js';
import type { Messages } from '../../shared/declarations/i18n.js';
import type { Reason } from '../../shared/declarations/reason.js';

/**
 * One unit of a source: the declarations one source node holds (a Capell tools island; later an
 * AgentGate manifest). Every tool registered from a unit is owned by its `owner` (the island
 * element; for a fetched manifest, one object kept per manifest URL): when the owner is gone or
 * its content changed, exactly its tools are removed.
 * - `fingerprint`: changes whenever the unit's content does (an island's text), so an unchanged
 *   unit is neither normalised nor registered again.
 * - `problem`: set when the unit as a whole is unreadable; the Report names it `(manifest)`.
 */
export interface SourceUnit {
  owner: object;
  fingerprint: string;
  declarations: readonly unknown[];
  messages: Messages;
  problem?: Reason;
}

/**
 * A contract's rules for one declaration: a ToolSpec or coded reasons. Never throws. May answer
 * asynchronously when a declaration needs rules loaded on demand (Capell: the `$ref` graph checks,
 * only for a schema with a `$ref`); it then rejects only when those cannot load.
 */
export type Normalise = (declaration: unknown, context: NormaliseContext) => CheckResult | Promise<CheckResult>;

/**
 * Fired on the document by a fetching source when what it read changed outside the page (an
 * AgentGate manifest revalidated with a new version): the runtime then updates, as for a change
 * of the page.
 */
export const SOURCE_CHANGE_EVENT = 'capell-webmcp:source-change';

/** A unit's raw declaration's `name` when it is a string, else `''` (before any rule has run). */
export function declarationName(declaration: unknown): string {
  const name = (declaration as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}

/**
 * A source of declarations.
 * - `kind`: the label prefix of its units in the Report, e.g. `capell-island` → `capell-island[0]`.
 * - `selector`: the elements that are its units, so the page observer knows which changes matter.
 * - `read(root, config)`: its units in document order, or a promise of them for a source that
 *   fetches (AgentGate: the manifests named by the options or by a tools island's member). Without `config` (the audit of a page
 *   without WebMCP, the CLI) a source reads only the page itself and answers synchronously: it
 *   fetches nothing. Never throws or rejects.
 * - `normaliser()`: loads the contract's rules (`normalise`). A function, not the rules
 *   themselves, so the script tag's first load carries no rules: they load only where WebMCP
 *   exists and a unit has declarations to check. Rejects only when the chunk cannot load.
 */
export interface ToolSource {
  kind: string;
  selector: string;
  read(root: ParentNode, config?: RuntimeConfig): SourceUnit[] | Promise<SourceUnit[]>;
  normaliser(): Promise<Normalise>;
}
