/**
 * JSON islands: JSON written inside `<script>` elements the way Capell's frontend writes them.
 *
 * Inside a string, `<`, `>`, `&`, `'` and `"` are written as `\u003C`, `\u003E`, `\u0026`,
 * `\u0027` and `\u0022` (PHP's JSON_HEX_TAG | JSON_HEX_AMP | JSON_HEX_APOS | JSON_HEX_QUOT), so
 * no data can close the script element (`</script>`) or open a comment (`<!--`), and the text
 * still parses with `JSON.parse` to exactly the original value.
 */

const HEX_ESCAPES = /** @type {Record<string, string>} */ ({
  '<': '\\u003C',
  '>': '\\u003E',
  '&': '\\u0026',
  "'": '\\u0027',
  '\\"': '\\u0022',
});

/**
 * One JSON string literal with the island escapes. JSON.stringify does the JSON escaping; the
 * regular expression then walks its output escape by escape (`\\` is consumed as one token, so the
 * backslash of an escaped backslash is never mistaken for the start of `\"`).
 * @param {string} text
 * @returns {string}
 */
function toIslandString(text) {
  return JSON.stringify(text).replace(/\\(?:u[0-9a-fA-F]{4}|.)|[<>&']/g, (token) => HEX_ESCAPES[token] ?? token);
}

/**
 * Serialise a JSON value for a script island. Same result as `JSON.stringify(value)` when parsed
 * back, but every string (keys included) carries the island escapes. Like JSON.stringify,
 * `undefined` and function members of objects are left out, and non-finite numbers become null.
 *
 * @param {unknown} value a JSON-compatible value (no cycles)
 * @returns {string} JSON text safe to place between `<script …>` and `</script>`
 * @throws {TypeError} for a bigint or a symbol, which JSON cannot represent
 * @example toIslandJSON({ name: "</script>" }) // '{"name":"\\u003C/script\\u003E"}'
 */
export function toIslandJSON(value) {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string') return toIslandString(value);
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined || typeof item === 'function' ? 'null' : toIslandJSON(item))).join(',')}]`;
  }
  if (typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined && typeof member !== 'function')
      .map(([key, member]) => `${toIslandString(key)}:${toIslandJSON(member)}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`toIslandJSON: a ${typeof value} cannot be written as JSON`);
}

/**
 * The page graph island: `<script type="application/ld+json" data-capell-agent-schema>`.
 * @param {Record<string, unknown>} graph
 * @returns {string} HTML
 */
export function renderPageGraphIsland(graph) {
  return `<script type="application/ld+json" data-capell-agent-schema>${toIslandJSON(graph)}</script>`;
}

/**
 * The tools manifest island: `<script type="application/json" data-capell-agent-tools>`.
 * @param {Record<string, unknown>} manifest `{ capellAgentSchema: 1, tools, messages }`
 * @returns {string} HTML
 */
export function renderToolsIsland(manifest) {
  return `<script type="application/json" data-capell-agent-tools>${toIslandJSON(manifest)}</script>`;
}
