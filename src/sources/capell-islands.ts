/**
 * Reads the JSON islands Capell's frontend writes into a page (DESIGN section 2):
 * the tools manifest `<script type="application/json" data-capell-agent-tools>` (one or more).
 * The page graph island is read by the inline binding, at call time (bindings/inline.ts).
 */
import type { Messages } from '../declarations/i18n.js';
import type { PendingRejection, Reason } from '../declarations/reason.js';
import { MANIFEST_REJECTION_NAME } from '../report.js';
import { isPlainObject } from '../is-plain-object.js';

/** Capell Agent Schema version marker this runtime reads. */
export const CAPELL_AGENT_SCHEMA_VERSION = 1;

/** Selector of the tools manifest islands. */
export const TOOLS_ISLAND_SELECTOR = 'script[data-capell-agent-tools]';

/** One raw declaration with where it came from and the translations of its island. */
export interface RawDeclaration {
  declaration: unknown;
  source: string;
  messages: Messages;
}

/** What the islands of a page hold: declarations to normalise and islands that were unreadable. */
export interface IslandReading {
  declarations: RawDeclaration[];
  rejected: PendingRejection[];
  /** The first island's `messages` merged with later ones (UI text such as `confirmForm`). */
  messages: Messages;
}

/**
 * Reads every tools manifest island in document order. An island that is not valid JSON, has no
 * `capellAgentSchema: 1`, or no `tools` array is reported whole as a Rejection named
 * `(manifest)`; the other islands are still read.
 * @param root the document (or a fragment) to read.
 * @returns declarations labelled `capell-island[i]` (0-based), rejections; never throws.
 */
export function readCapellIslands(root: ParentNode): IslandReading {
  const reading: IslandReading = { declarations: [], rejected: [], messages: {} };
  const islands = root.querySelectorAll(TOOLS_ISLAND_SELECTOR);
  islands.forEach((island, index) => {
    const source = `capell-island[${index}]`;
    const reject = (reason: Reason) => reading.rejected.push({ name: MANIFEST_REJECTION_NAME, source, reasons: [reason] });
    let manifest: unknown;
    try {
      manifest = JSON.parse(island.textContent ?? '');
    } catch (error) {
      return reject(['manifest', 'manifestJSON', (error as Error).message]);
    }
    if (!isPlainObject(manifest)) return reject(['manifest', 'manifestObject']);
    if (manifest.capellAgentSchema !== CAPELL_AGENT_SCHEMA_VERSION) {
      return reject(['manifest.capellAgentSchema', 'manifestVersion', manifest.capellAgentSchema, CAPELL_AGENT_SCHEMA_VERSION]);
    }
    if (!Array.isArray(manifest.tools)) return reject(['manifest.tools', 'manifestTools']);
    const messages = isPlainObject(manifest.messages) ? manifest.messages : {};
    reading.messages = { ...messages, ...reading.messages };
    for (const declaration of manifest.tools) reading.declarations.push({ declaration, source, messages });
  });
  return reading;
}
