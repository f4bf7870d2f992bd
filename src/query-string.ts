/**
 * Tool input → query string, in the PHP/Laravel bracket notation Capell Core's request validators
 * read (DESIGN section 2): scalars as they are, `null` left out, booleans as `1` / `0` (what
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
 * Appends a tool input to a URL's query (keeping what the target already carries).
 * @returns a new URL; the input is encoded as `application/x-www-form-urlencoded`.
 */
export function withQuery(url: URL, input: Record<string, unknown>, skip: readonly string[] = []): URL {
  const result = new URL(url);
  for (const [key, value] of toQueryPairs(input)) {
    if (!skip.includes(key.replace(/\[.*$/, ''))) result.searchParams.append(key, value);
  }
  return result;
}
