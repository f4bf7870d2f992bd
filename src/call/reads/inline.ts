import type { JSONValue } from '../../shared/declarations/tool-spec.js';
import type { BindingExecutor } from '../../shared/bindings/binding-executor.js';
import { parseBoundedJSON } from '../../registry/bounded-json.js';

/** Selector of the page graph island: `<script type="application/ld+json" data-capell-agent-schema>`. */
const PAGE_GRAPH_SELECTOR = 'script[data-capell-agent-schema]';

/**
 * Reads the page graph (the published page as JSON-LD) from its island, within the answer bounds
 * (MAX_ANSWER_BYTES, MAX_ANSWER_DEPTH in bounded-json.ts).
 * @returns `{ ok: true, graph }` or `{ ok: false, reason }` when the island is missing, invalid,
 *   too large or too deep.
 */
function readPageGraph(root: ParentNode): { ok: true; graph: JSONValue } | { ok: false; reason: string } {
  const island = root.querySelector(PAGE_GRAPH_SELECTOR);
  if (!island) return { ok: false, reason: `this page has no page payload (${PAGE_GRAPH_SELECTOR})` };
  const parsing = parseBoundedJSON(island.textContent ?? '', 'the page payload');
  if (parsing.ok) return { ok: true, graph: parsing.value as JSONValue };
  return { ok: false, reason: parsing.notJSON ? `the page payload is not valid JSON (${parsing.notJSON})` : parsing.reason };
}

/**
 * `inline` binding, target `page`: answers with the page graph from the page's
 * `[data-capell-agent-schema]` island, read at call time. No request.
 * Capell Agent Schema: "The inline binding is reserved for Core's page payload."
 */
export const executeInline: BindingExecutor = async (_spec, _input, { config }) => {
  const reading = readPageGraph(config.document);
  return reading.ok ? { ok: true, answer: reading.graph, data: reading.graph } : reading;
};
