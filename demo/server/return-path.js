import { MAX_URL_LENGTH } from './limits.js';

/**
 * The `return` parameter of a form (where to send the visitor afterwards), read so that the
 * redirect can never leave the site and never fail to be written: a `Location` header takes
 * Latin-1 only (Node throws on anything else, which was a 500), so a path must already be
 * percent-encoded ASCII.
 */

/** A root-relative path that does not name another host (`//host`, `/\host`). */
const ROOT_RELATIVE = /^\/(?![/\\])/;

/**
 * RFC 3986 characters of a path, query and fragment, `%` only as part of an `%XX` escape.
 * Everything else (non-ASCII, spaces, controls, `"<>\^`{|}`) must be percent-encoded.
 */
const URI_REFERENCE_CHARACTERS = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/;

/**
 * @typedef {{ ok: true, path: string } | { ok: false, reason: string }} ReturnPath
 */

/**
 * Read a `return` value into the path to redirect to.
 * - missing, empty, or naming another origin (`https://x`, `//x`, `/\x`, `x`): the fallback
 *   (never followed: an open redirect is what this guards against);
 * - a root-relative path on this site: that path, query and fragment dropped;
 * - a root-relative path that is not percent-encoded ASCII (e.g. `/☃`), or longer than
 *   MAX_URL_LENGTH (2048) characters: `{ ok: false, reason }`, which the caller answers with 422.
 * @param {unknown} value the form field (qs gives a string, an array or an object)
 * @param {string} fallback root-relative path used when the value is missing or off-site
 * @returns {ReturnPath}
 * @example readReturnPath('/products?x=1', '/') // { ok: true, path: '/products' }
 * @example readReturnPath('//evil.example', '/') // { ok: true, path: '/' }
 * @example readReturnPath('/☃', '/') // { ok: false, reason: 'The return field must be …' }
 */
export function readReturnPath(value, fallback) {
  if (value === undefined || value === '') return { ok: true, path: fallback };
  if (typeof value !== 'string') return { ok: false, reason: 'The return field must be a single path.' };
  if (!ROOT_RELATIVE.test(value)) return { ok: true, path: fallback };
  if (!URI_REFERENCE_CHARACTERS.test(value)) {
    return { ok: false, reason: 'The return field must be a path on this site in percent-encoded ASCII (e.g. /products/rolltop-backpack).' };
  }
  // ASCII from here on, so UTF-16 units are code points.
  if (value.length > MAX_URL_LENGTH) return { ok: false, reason: `The return field must not be longer than ${MAX_URL_LENGTH} characters.` };
  return { ok: true, path: value.replace(/[?#].*$/, '') };
}
