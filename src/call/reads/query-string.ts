/**
 * Tool input → query string, in the PHP/Laravel bracket notation Capell Core's request validators
 * read: scalars as they are, `null` left out, booleans as `1` / `0` (what
 * Laravel's `boolean` rule accepts), nested objects as `filter[tag]=a`, arrays as `ids[0]=1`.
 */

/**
 * Flattens a JSON value into `[key, value]` pairs.
 * @example toQueryPairs({ q: 'boots', filter: { price: { max: 100 } }, ids: [1, 2] })
 * // → [['q','boots'], ['filter[price][max]','100'], ['ids[0]','1'], ['ids[1]','2']]
 */
export function toQueryPairs(input: Record<string, unknown>): [string, string][] {
  const pairs: [string, string][] = [];
  const visit = (key: string, value: unknown): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) value.forEach((item, index) => visit(`${key}[${index}]`, item));
    else if (typeof value === 'object') {
      for (const [child, item] of Object.entries(value)) visit(`${key}[${child}]`, item);
    } else if (typeof value === 'boolean') pairs.push([key, value ? '1' : '0']);
    else pairs.push([key, String(value)]);
  };
  for (const [key, value] of Object.entries(input)) visit(key, value);
  return pairs;
}

/**
 * The first input key, at any depth, that contains `[` or `]`. Such a key would pass validation
 * as one opaque name and then reach the server as nested parameters (`{"filter[price]": 500}`
 * reads as `filter[price]=500`), around what the schema says of `filter`.
 */
export function findBracketKey(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  for (const [key, value] of Object.entries(input)) {
    if (/[[\]]/.test(key)) return key;
    const nested = findBracketKey(value);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/**
 * The name PHP (and so Laravel, Capell Core) files a query parameter under
 * (`php_register_variable_ex`): the part before the first `[`, leading spaces dropped, cut at a
 * NUL, spaces and dots made `_`. `" scope"`, `"scope\u0000x"` are all `scope` there.
 */
export function serverParameterName(key: string): string {
  return key.replace(/\[.*$/s, '').replace(/^ +/, '').split('\u0000')[0]!.replace(/[ .]/g, '_');
}

/**
 * Appends a tool input to a URL's query. The target's own parameters win: an input key the URL
 * already carries (or one listed in `skip`, set by the binding itself) is left out, so a
 * parameter is never sent twice; keys are compared as the server files them
 * (`serverParameterName`), so `" scope"` cannot override the binding's `scope` on PHP.
 * @returns a new URL; the input is encoded as `application/x-www-form-urlencoded`.
 */
export function withQuery(url: URL, input: Record<string, unknown>, skip: readonly string[] = []): URL {
  const result = new URL(url);
  const fixed = new Set([...skip, ...url.searchParams.keys()].map(serverParameterName));
  // One serialisation at the end: `result.searchParams.append` re-serialises the whole query on
  // every call, quadratic in the input (6000 array values held Chromium's main thread 2.8 s).
  const params = new URLSearchParams(url.search);
  let appended = false;
  for (const [key, value] of toQueryPairs(input)) {
    if (!fixed.has(serverParameterName(key))) {
      params.append(key, value);
      appended = true;
    }
  }
  if (appended) result.search = params.toString();
  return result;
}
