/**
 * Where a page's `<script>` elements are in its HTML file: linkedom parses the page for the CLI but
 * keeps no source positions, and a site owner needs the line of an island in the file they edit.
 * A small scan of the HTML text (HTML Living Standard, "Tokenization", for the parts that matter
 * here): comments are skipped, and so is the content of the elements whose content is text,
 * where a `<script` is not a tag (`script` itself, `style`, `textarea`, `title`, `noscript`,
 * `xmp`, `iframe`, `noembed`, `noframes`). Node only (the CLI).
 */

/** One `<script>` start tag of the file. */
export interface ScriptTag {
  /** Attribute names, lower-cased as HTML parsers do, in source order. */
  attributes: string[];
  /** Offset of the tag's `<` in the file, in UTF-16 code units. */
  start: number;
  /** Offset of the first character of the script's content (just after the tag's `>`). */
  contentStart: number;
}

/** A start tag: its name, then attributes (a quoted value may hold `>`), then `>`. */
const START_TAG = /<([a-zA-Z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;
/** One attribute of a start tag's attribute text: its name, then an optional value. */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?/g;
/** Elements whose content is text up to their own end tag (no tags, no comments inside). */
const TEXT_CONTENT = new Set(['script', 'style', 'textarea', 'title', 'noscript', 'xmp', 'iframe', 'noembed', 'noframes']);

/**
 * Every `<script>` start tag of `html`, in document order, with its attribute names and where its
 * content starts. Never throws; a tag the scan cannot read is skipped.
 * @example readScriptTags('<p>a</p>\n<script type="application/json" data-capell-agent-tools>{}</script>')
 * // [{ attributes: ['type', 'data-capell-agent-tools'], start: 9, contentStart: 66 }]
 */
export function readScriptTags(html: string): ScriptTag[] {
  const tags: ScriptTag[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) break;
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      at = close === -1 ? html.length : close + 3;
      continue;
    }
    START_TAG.lastIndex = open;
    const match = START_TAG.exec(html);
    if (!match) {
      at = open + 1;
      continue;
    }
    const name = match[1]!.toLowerCase();
    at = START_TAG.lastIndex;
    if (name === 'script') {
      const attributes = [...match[2]!.matchAll(ATTRIBUTE)].map((attribute) => attribute[1]!.toLowerCase());
      tags.push({ attributes, start: open, contentStart: at });
    }
    if (TEXT_CONTENT.has(name)) {
      // Case-blind (`</SCRIPT>`), in place: lower-casing the text could change its length (`İ`).
      const endTag = new RegExp(`</${name}`, 'gi');
      endTag.lastIndex = at;
      const end = endTag.exec(html);
      at = end ? end.index : html.length;
    }
  }
  return tags;
}
