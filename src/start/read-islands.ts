/**
 * The Capell source: the JSON islands Capell's frontend writes into a page,
 * `<script type="application/json" data-capell-agent-tools>` (one or more). The page graph island
 * is read by the inline binding, at call time (call/reads/inline.ts).
 */
import type { Reason } from '../shared/declarations/reason.js';
import { callBuiltIn } from './dom-builtin.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import type { SourceUnit } from '../registry/sources/source.js';

/** Capell Agent Schema version marker this runtime reads. */
const CAPELL_AGENT_SCHEMA_VERSION = 1;

/** Selector of the tools manifest islands. */
export const TOOLS_ISLAND_SELECTOR = 'script[data-capell-agent-tools]';

/**
 * One island's reading: its unit, plus the value of its top-level `agentgate` member when it has
 * one (read by agentgate/discover/agentgate-naming.ts; the Capell contract itself has no such field).
 */
interface IslandReading extends SourceUnit {
  agentgate?: unknown;
}

/**
 * Reads one tools island. An island that is not valid JSON, has no `capellAgentSchema: 1`, or no
 * `tools` array yields no declarations and its reason (the Report names it `(manifest)`).
 * Capell Agent Schema, "Tool declarations": the manifest island carries `capellAgentSchema`,
 * `tools` and `messages`; any other member is ignored here (`agentgate` is kept on the reading).
 * Never throws. An island whose text did not change since its last reading gives that reading
 * again (the same object), without parsing.
 */
export function readIsland(island: Element): IslandReading {
  const text = island.textContent ?? '';
  // Every update reads every island: parse only the ones that are new or whose text changed.
  const known = lastReading.get(island);
  if (known?.fingerprint === text) return known;
  const reading = parseIsland(island, text);
  lastReading.set(island, reading);
  return reading;
}

/** Each island's last reading, kept while the island lives. */
const lastReading = new WeakMap<Element, IslandReading>();

function parseIsland(island: Element, text: string): IslandReading {
  const unit = (problem: Reason): SourceUnit => ({ owner: island, fingerprint: text, declarations: [], messages: {}, problem });
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    return unit(['manifest', 'manifestJSON', (error as Error).message]);
  }
  if (!isPlainObject(manifest)) return unit(['manifest', 'manifestObject']);
  if (manifest.capellAgentSchema !== CAPELL_AGENT_SCHEMA_VERSION) {
    return unit(['manifest.capellAgentSchema', 'manifestVersion', manifest.capellAgentSchema, CAPELL_AGENT_SCHEMA_VERSION]);
  }
  if (!Array.isArray(manifest.tools)) return unit(['manifest.tools', 'manifestTools']);
  const messages = isPlainObject(manifest.messages) ? manifest.messages : {};
  const reading: IslandReading = { owner: island, fingerprint: text, declarations: manifest.tools, messages };
  if (manifest.agentgate !== undefined) reading.agentgate = manifest.agentgate;
  return reading;
}

/** Every tools island's reading, in document order (past DOM clobbering: an <img name="querySelectorAll"> shadows the document's method). */
export function readIslands(root: ParentNode): IslandReading[] {
  return [...callBuiltIn<NodeListOf<Element>>(root, 'querySelectorAll', TOOLS_ISLAND_SELECTOR)].map(readIsland);
}
