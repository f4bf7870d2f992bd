/**
 * Scripts that look meant as a Capell tools island but are not read as one: their attribute is a
 * near miss of `data-capell-agent-tools` (`data-capell-agent-tool`, `data-capell-tools`,
 * `data-capel-agent-tools`). The runtime reads only `script[data-capell-agent-tools]`, so such an
 * island registers nothing, silently; `capell-webmcp check` names the attribute it expected.
 * Capell's own pages carry other `data-capell-*` attributes (`data-capell-agent-schema`,
 * `data-capell-widget-…`, `data-capell-stylesheet-…`), which are not near misses. Node only (the CLI).
 */
import { SCRIPT_MARKER } from '../start/config.js';
import { TOOLS_ISLAND_SELECTOR } from '../start/read-islands.js';
import { lineColumnAt } from './json-error.js';
import type { ScriptTag } from './script-tags.js';

/** The attribute that marks a tools island (Capell Agent Schema, "Tool declarations"). */
export const TOOLS_ISLAND_ATTRIBUTE = 'data-capell-agent-tools';

/** The other attributes a script on a Capell page carries by right: the page graph island, the runtime's own tag. */
const KNOWN_ATTRIBUTES = new Set([TOOLS_ISLAND_ATTRIBUTE, 'data-capell-agent-schema', SCRIPT_MARKER]);

/** Edits (a letter added, dropped, changed, or two swapped) within which an attribute is a misspelling. */
const MAX_EDITS = 3;

/** Words a `data-capell-…` attribute meant for the tools island is made of; one of them must be `tool` or `tools`. */
const ISLAND_WORDS = new Set(['agent', 'agents', 'tool', 'tools', 'manifest', 'island', 'json', 'mcp', 'webmcp']);

/** A script whose attribute is a near miss of the tools island's. */
export interface NearMiss {
  /** The attribute the script carries, e.g. `data-capell-agent-tool`. */
  attribute: string;
  /** Its 1-based line in the page's file, when the file's text shows where (script-tags.ts). */
  line?: number;
}

/**
 * Edit distance between `a` and `b`, counting a swap of two neighbours as one edit (optimal string
 * alignment), stopping early once it passes `limit`.
 * @returns the distance, or `limit + 1` when it is more than `limit`
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Whether `attribute` (lower case) is a near miss of `data-capell-agent-tools`: within MAX_EDITS
 * of it, or a `data-capell-` attribute made only of ISLAND_WORDS with `tool` or `tools` among them
 * (`data-capell-tools`, `data-capell-agent-tool-manifest`). The known attributes are not.
 */
export function isNearMissOfToolsIsland(attribute: string): boolean {
  if (KNOWN_ATTRIBUTES.has(attribute)) return false;
  if (editDistance(attribute, TOOLS_ISLAND_ATTRIBUTE, MAX_EDITS) <= MAX_EDITS) return true;
  if (!attribute.startsWith('data-capell-')) return false;
  const words = attribute.slice('data-capell-'.length).split(/[-_.]+/).filter(Boolean);
  return words.length > 0 && words.every((word) => ISLAND_WORDS.has(word)) && words.some((word) => word === 'tool' || word === 'tools');
}

/**
 * The scripts of a page whose attributes are near misses of the tools island's, in document order,
 * each with its line in the file where the file's script tags (`tags`, from the same text the
 * page was parsed from) show it: the n-th script carrying an attribute is the n-th tag carrying it.
 * A script that is also a real island (it carries `data-capell-agent-tools` too) is not one.
 * @param root the parsed page (linkedom)
 * @param html the page's text
 * @param tags `readScriptTags(html)`
 */
export function findNearMissIslands(root: ParentNode, html: string, tags: readonly ScriptTag[]): NearMiss[] {
  const misses: NearMiss[] = [];
  const seen = new Map<string, number>();
  for (const script of root.querySelectorAll('script')) {
    if (script.matches(TOOLS_ISLAND_SELECTOR)) continue;
    for (const attribute of script.getAttributeNames().map((name) => name.toLowerCase())) {
      if (!isNearMissOfToolsIsland(attribute)) continue;
      const index = seen.get(attribute) ?? 0;
      seen.set(attribute, index + 1);
      const tag = tags.filter((candidate) => candidate.attributes.includes(attribute))[index];
      misses.push(tag ? { attribute, line: lineColumnAt(html, tag.start).line } : { attribute });
    }
  }
  return misses;
}
