import qs from 'qs';

/** Deepest bracket nesting accepted, e.g. `filter[price][max]` is depth 2. */
const MAX_QUERY_DEPTH = 5;

/** Most parameters read from one query string. */
const MAX_QUERY_PARAMETERS = 100;

/** Highest array index kept as an array (`ids[0]`); larger indices become object keys. */
const MAX_ARRAY_INDEX = 50;

/** qs options both parsers share: bracket notation, bounded, objects without a prototype. */
const BOUNDED = Object.freeze({
  ignoreQueryPrefix: true,
  depth: MAX_QUERY_DEPTH,
  parameterLimit: MAX_QUERY_PARAMETERS,
  arrayLimit: MAX_ARRAY_INDEX,
  plainObjects: true,
});

/**
 * Parse a query string in PHP/Laravel bracket notation (`filter[colour]=red`, `ids[0]=1`) into
 * nested plain objects and arrays of strings, as Core's request layer sees it.
 * Keys like `__proto__` are dropped (objects have no prototype).
 *
 * @param {string} search the raw query string, with or without the leading `?`
 * @returns {Record<string, unknown>}
 * @example parseQuery('?filter[price][max]=100') // { filter: { price: { max: '100' } } }
 */
export function parseQuery(search) {
  return qs.parse(search, BOUNDED);
}

/**
 * Parse an agent API query as PHP does (`parse_str`): like parseQuery, but of a key given twice
 * the last counts, so the `previous` link Core writes for `/agent/v1/pages`
 * (`page[number]=2&page[number]=1`) reads page 1 (test/fixtures/capell/SOURCES.md §4.1).
 * @param {string} search the raw query string, with or without the leading `?`
 * @returns {Record<string, unknown>}
 * @example parseAgentQuery('?page[number]=2&page[number]=1') // { page: { number: '1' } }
 */
export function parseAgentQuery(search) {
  return qs.parse(search, { ...BOUNDED, duplicates: 'last' });
}
