/**
 * A URL as the write path shows and sends it, parsed with the realm's URL as it was at start and
 * split from its `href` string: a page that later replaces `URL` or one of its getters
 * (`origin`, `pathname`) cannot make the panel show one place while the request goes to another.
 */
import { primitives } from '../start/primitives.js';

/**
 * `text` (resolved against `base`) as `href` (the whole URL), `origin` (`scheme://host[:port]`
 * for an http(s) URL, else `'null'`) and `rest` (what follows the origin: path, query and
 * fragment; the whole `href` for other schemes).
 */
export interface URLParts {
  href: string;
  origin: string;
  rest: string;
}

/**
 * Parses `text` against `base` (URL Standard, "URL parsing") and splits the result.
 * The origin is read from the `href` string (the scheme and authority, up to the path): a URL
 * with user info (`https://user@host/`) gets an origin that no page origin equals, so it is never
 * taken as same-origin.
 * @throws TypeError for text that is not a URL, as `new URL` does.
 * @example parseURL('/contact?x=1', 'https://shop.example') // { origin: 'https://shop.example', rest: '/contact?x=1', … }
 */
export function parseURL(text: string, base?: string): URLParts {
  const href = primitives.href(base === undefined ? new primitives.URL(text) : new primitives.URL(text, base));
  const match = /^(https?:\/\/[^/?#]*)(.*)$/s.exec(href);
  if (!match) return { href, origin: 'null', rest: href };
  return { href, origin: match[1]!.includes('@') ? 'null' : match[1]!, rest: match[2]! };
}
