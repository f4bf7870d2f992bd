/**
 * JSON as PHP's `json_encode` writes it, for the answers and islands of a Capell site: the demo
 * plays Capell, so its bytes are Capell's (test/fixtures/capell/SOURCES.md §3 and §4.5).
 *
 * PHP's defaults differ from `JSON.stringify` in two ways, both kept here: `/` is written `\/`
 * (unless JSON_UNESCAPED_SLASHES) and every character outside ASCII as a `\uXXXX` escape with
 * lower-case hex (no JSON_UNESCAPED_UNICODE; a character beyond U+FFFF as its surrogate pair).
 * The HEX flags Blade's islands add write `<`, `>`, `&`, `'` and `"` inside strings as `\u003C`,
 * `\u003E`, `\u0026`, `\u0027` and `\u0022`. JSON_PRETTY_PRINT indents by four spaces.
 */

/**
 * @typedef {object} JSONEncodeFlags the `json_encode` flags the demo uses
 * @property {boolean} [hex] JSON_HEX_TAG | JSON_HEX_AMP | JSON_HEX_APOS | JSON_HEX_QUOT (Blade's islands)
 * @property {boolean} [unescapedSlashes] JSON_UNESCAPED_SLASHES (Laravel's error pages)
 * @property {boolean} [pretty] JSON_PRETTY_PRINT (Laravel's error pages)
 */

/** What the HEX flags write for each character they cover. */
const HEX = /** @type {Record<string, string>} */ ({ '<': '\\u003C', '>': '\\u003E', '&': '\\u0026', "'": '\\u0027', '"': '\\u0022' });

/** The escapes JSON has a short form for, as PHP writes them. */
const SHORT = /** @type {Record<string, string>} */ ({ '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' });

/**
 * One string as a JSON string literal, with PHP's escapes.
 * @param {string} text
 * @param {JSONEncodeFlags} flags
 * @returns {string}
 */
function encodeString(text, flags) {
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const char = /** @type {string} */ (text[i]);
    const code = char.charCodeAt(0);
    if (flags.hex && HEX[char]) out += HEX[char];
    else if (SHORT[char]) out += SHORT[char];
    else if (char === '/') out += flags.unescapedSlashes ? '/' : '\\/';
    else if (code < 0x20 || code > 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * A value as `json_encode($value, $flags)` writes it. Objects keep their key order (PHP arrays
 * are ordered); an empty object is `{}`, an empty array `[]`. Numbers are written as JavaScript
 * writes them, which for the values here is PHP's `serialize_precision = -1` (`129.0` → `129`).
 *
 * @param {unknown} value a JSON-compatible value (no cycles); `undefined` members are left out
 * @param {JSONEncodeFlags} [flags]
 * @returns {string}
 * @throws {TypeError} for a value JSON cannot hold (a bigint, a symbol, a function, a non-finite number)
 * @example encodePHPJSON({ url: '/a', name: 'Füße' }) // '{"url":"\\/a","name":"F\\u00fc\\u00dfe"}'
 */
export function encodePHPJSON(value, flags = {}) {
  return encode(value, flags, '');
}

/**
 * @param {unknown} value
 * @param {JSONEncodeFlags} flags
 * @param {string} indent the current indentation (pretty print only)
 * @returns {string}
 */
function encode(value, flags, indent) {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('encodePHPJSON: a non-finite number cannot be written as JSON');
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return encodeString(value, flags);
  if (typeof value !== 'object') throw new TypeError(`encodePHPJSON: a ${typeof value} cannot be written as JSON`);
  const inner = flags.pretty ? `${indent}    ` : '';
  const open = flags.pretty ? `\n${inner}` : '';
  const close = flags.pretty ? `\n${indent}` : '';
  const comma = flags.pretty ? `,\n${inner}` : ',';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${open}${value.map((item) => encode(item, flags, inner)).join(comma)}${close}]`;
  }
  const members = Object.entries(value).filter(([, member]) => member !== undefined);
  if (members.length === 0) return '{}';
  const colon = flags.pretty ? ': ' : ':';
  return `{${open}${members.map(([key, member]) => `${encodeString(key, flags)}${colon}${encode(member, flags, inner)}`).join(comma)}${close}}`;
}
