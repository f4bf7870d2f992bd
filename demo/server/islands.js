/**
 * JSON islands: the page graph and the tools manifest written inside `<script>` elements exactly
 * as Capell's frontend writes them (capell-app/frontend `resources/views/partials/agent-data.blade.php`,
 * test/fixtures/capell/SOURCES.md §3): `json_encode` with JSON_HEX_TAG | JSON_HEX_AMP |
 * JSON_HEX_APOS | JSON_HEX_QUOT and PHP's defaults (`/` as `\/`, non-ASCII as `\uXXXX`), each
 * `<script>` with its attributes spread over lines as the partial writes them, the graph island
 * first. No data can close the script element (`</script>`) or open a comment (`<!--`), and the
 * text still parses with `JSON.parse` to exactly the original value.
 */
import { encodePHPJSON } from './php-json.js';

/**
 * Serialise a JSON value for a script island, as Blade's partial does:
 * `json_encode($value, JSON_HEX_TAG | JSON_HEX_AMP | JSON_HEX_APOS | JSON_HEX_QUOT)`.
 *
 * @param {unknown} value a JSON-compatible value (no cycles)
 * @returns {string} JSON text safe to place between `<script …>` and `</script>`
 * @throws {TypeError} for a value JSON cannot hold (encodePHPJSON)
 * @example toIslandJSON({ name: "</script>" }) // '{"name":"\\u003C\\/script\\u003E"}'
 */
export function toIslandJSON(value) {
  return encodePHPJSON(value, { hex: true });
}

/**
 * One island as the Blade partial prints it: four spaces, `<script`, each attribute on a line of
 * its own indented by eight, `>` on a line indented by four, the JSON, `</script>` and a newline.
 * @param {string} type
 * @param {string} marker
 * @param {unknown} value
 * @returns {string} HTML
 */
function renderIsland(type, marker, value) {
  return `    <script\n        type="${type}"\n        ${marker}\n    >${toIslandJSON(value)}</script>\n`;
}

/**
 * The page graph island: `<script type="application/ld+json" data-capell-agent-schema>`.
 * @param {Record<string, unknown>} graph
 * @returns {string} HTML
 */
export function renderPageGraphIsland(graph) {
  return renderIsland('application/ld+json', 'data-capell-agent-schema', graph);
}

/**
 * The tools manifest island: `<script type="application/json" data-capell-agent-tools>`.
 * @param {Record<string, unknown>} manifest `{ capellAgentSchema: 1, tools, messages }`
 * @returns {string} HTML
 */
export function renderToolsIsland(manifest) {
  return renderIsland('application/json', 'data-capell-agent-tools', manifest);
}

/**
 * What the partial prints at the end of `<body>`: the graph island when there is a graph, then
 * the tools island when the manifest is not empty (it never is on a page Core renders).
 * @param {Record<string, unknown> | null} graph
 * @param {Record<string, unknown> | null} manifest
 * @returns {string} HTML, empty when there is neither
 */
export function renderAgentData(graph, manifest) {
  return `${graph ? renderPageGraphIsland(graph) : ''}${manifest ? renderToolsIsland(manifest) : ''}`;
}
