import { createHash } from 'node:crypto';

/**
 * Digests that bind a confirmation to what was previewed: the canonical JSON of a value (object
 * keys sorted, no whitespace, as RFC 8785 orders them for the ASCII keys used here) hashed with
 * SHA-256 and written as an RFC 9530 structured byte sequence `sha-256=:<base64>:`.
 */

/**
 * A value as canonical JSON: object keys in code-unit order at every depth, arrays in order.
 * @param {unknown} value JSON data
 * @returns {string}
 * @example toCanonicalJSON({ b: 1, a: [2, { d: 3, c: 4 }] }) // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function toCanonicalJSON(value) {
  if (Array.isArray(value)) return `[${value.map(toCanonicalJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${toCanonicalJSON(/** @type {Record<string, unknown>} */ (value)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The digest of a value's canonical JSON.
 * @param {unknown} value
 * @returns {string} `sha-256=:<base64 of 32 bytes>:`
 */
export function toDigest(value) {
  return `sha-256=:${createHash('sha256').update(toCanonicalJSON(value)).digest('base64')}:`;
}
