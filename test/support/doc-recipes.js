/**
 * The recipes of docs/recipes.md, read the way the suite runs them: each block follows a marker
 * `<!-- recipe: <id> [<label>] -->` (a label such as `file=playwright-mcp.json` or `mcp-servers`
 * says what the block is), and is run as written except for the two substitutions the doc names
 * (localise). Plain JavaScript: the e2e spec (Node 20, tsx) and test/clients/mcp/recipes.js
 * (Node 22) both import it.
 */
import { readFileSync } from 'node:fs';

/** docs/recipes.md in this clone. */
export const RECIPES_DOC = new URL('../../docs/recipes.md', import.meta.url);

/** Where the doc's recipes find Chromium (Debian's package). */
export const DOC_CHROMIUM = '/usr/bin/chromium';

/** The addresses the doc's recipes use, as `npm start` serves the demo. */
export const DOC_SITE = 'http://127.0.0.1:5173';
export const DOC_AGENT_KEYS = 'http://127.0.0.1:5174';

/**
 * Every recipe block of the doc, in order.
 * @param {string} [markdown] the doc's text (read from RECIPES_DOC when left out)
 * @returns {{ id: string, label: string, lang: string, code: string }[]}
 * @throws {Error} when a marker is not followed by a fenced block
 */
export function readRecipes(markdown = readFileSync(RECIPES_DOC, 'utf8')) {
  const blocks = [];
  const marker = /<!-- recipe: (\S+)(?: ([^>]*?))? -->\n```(\w*)\n([\s\S]*?)\n```/g;
  for (const match of markdown.matchAll(marker)) blocks.push({ id: match[1], label: match[2] ?? '', lang: match[3], code: match[4] });
  const markers = markdown.match(/<!-- recipe: /g)?.length ?? 0;
  if (markers !== blocks.length) throw new Error(`docs/recipes.md: ${markers - blocks.length} recipe marker(s) without a fenced block right after`);
  return blocks;
}

/**
 * The one block of recipe `id` with `label` ('' for an unlabelled block).
 * @throws {Error} naming the recipe when there is not exactly one
 */
export function recipeBlock(id, label = '') {
  const found = readRecipes().filter((block) => block.id === id && block.label === label);
  if (found.length !== 1) throw new Error(`docs/recipes.md: ${found.length} block(s) for recipe ${id} ${label}`.trim());
  return found[0].code;
}

/**
 * A recipe's code with the doc's substitutions: the demo's `npm start` addresses become the test
 * demo's, the unpublished `capell-webmcp/agent` becomes the clone's built file, and a machine
 * whose Chromium is elsewhere (CHROMIUM_PATH) gets that path for `/usr/bin/chromium`.
 * @param {string} code
 * @param {{ site: string, agentKeys: string, agentModule?: string, chromium?: string }} to
 *   origins (no trailing slash), the `file:` URL of dist/agent/index.js, Chromium's path
 */
export function localise(code, { site, agentKeys, agentModule, chromium = DOC_CHROMIUM }) {
  let out = code.replaceAll(DOC_SITE, site).replaceAll(DOC_AGENT_KEYS, agentKeys).replaceAll(DOC_CHROMIUM, chromium);
  if (agentModule) out = out.replaceAll("'capell-webmcp/agent'", JSON.stringify(agentModule));
  return out;
}
