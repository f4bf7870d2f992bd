/**
 * String length as JSON Schema counts it. `maxLength`/`minLength` count characters as RFC 8259
 * defines them, i.e. Unicode code points (JSON Schema Validation 2020-12, 6.3.1), while
 * `String.prototype.length` counts UTF-16 code units: an emoji outside the BMP is one code point
 * but two units. The demo's server-side checks count code points so that every value the
 * runtime's validator accepts for a declared `maxLength` is accepted here too.
 */

/**
 * Whether `value` has more than `max` code points. Stops counting at `max + 1`, so a long value
 * costs no more than the limit.
 * @param {string} value
 * @param {number} max code points
 * @returns {boolean}
 * @example isLongerThan('😀'.repeat(200), 200) // false, although '😀'.repeat(200).length is 400
 */
export function isLongerThan(value, max) {
  let count = 0;
  for (const _codePoint of value) {
    count += 1;
    if (count > max) return true;
  }
  return false;
}
