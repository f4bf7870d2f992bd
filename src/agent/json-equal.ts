/**
 * Equality of JSON values, the test that binds a request's body to the input of a call the agent
 * started: objects are equal with their members in any order, arrays in order, numbers by value
 * (`1` and `1.0` parse to the same number), strings by code units.
 */

/**
 * Whether two parsed JSON values are equal as JSON (RFC 8259: an object is an unordered set of
 * members; an array is ordered).
 * @param a a value of `JSON.parse` (or one that survives `JSON.stringify` unchanged)
 * @param b another such value
 * @returns true when equal; false for any difference, including `undefined`, functions or other
 *   non-JSON values on either side. Never throws.
 * @example jsonEqual({ id: 'a', n: 1 }, JSON.parse('{"n":1.0,"id":"a"}')) // → true
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof a === 'boolean') return a === b;
  if (typeof a === 'number') return typeof b === 'number' && Number.isFinite(a) && a === b;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (!isPlainRecord(a) || !isPlainRecord(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
}

function isPlainRecord(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
