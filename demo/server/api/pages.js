import { invalidField } from '../api-error.js';
import { SITE } from '../catalogue.js';
import { listPublicPages } from '../public-pages.js';
import { findPropertySet, hasPropertySet, listPropertyEntries, readAgentProperties, resolvePropertyValue, toFullUrl } from '../properties.js';
import { paginate } from './paginator.js';
import { validateRequest } from './validate-request.js';

/** @typedef {import('../catalogue.js').Page} Page */
/** @typedef {import('../catalogue.js').PropertyDefinition} PropertyDefinition */

/** Items per page when `page[size]` is not given (capell-app/frontend `PageQueryRequest::queryData`). */
export const DEFAULT_PAGE_SIZE = 20;

/** Core's message for a query it cannot run (capell-core::agent.invalid_query). */
export const INVALID_QUERY_MESSAGE = 'The property query is invalid. Include explicit currency or units when comparing money or dimensions.';

/** PageQueryRequest's rules, in Core's order (test/fixtures/capell/SOURCES.md §4.1). */
const RULES = /** @type {import('./validate-request.js').Rule[]} */ ([
  ['set', ['required', 'string', 'max:100', 'regex:/^[a-zA-Z0-9._-]+$/']],
  ['filter', ['sometimes', 'array', 'max:10']],
  ['filter.*', ['array', 'max:8']],
  ['sort', ['sometimes', 'string', 'max:100', 'regex:/^-?[a-zA-Z0-9_-]+$/']],
  ['page', ['sometimes', 'array:size,number']],
  ['page.size', ['sometimes', 'integer', 'min:1', 'max:50']],
  ['page.number', ['sometimes', 'integer', 'min:1', 'max:1000']],
]);

/** The operators a filter may use (QueryPagesByPropertiesAction). */
const OPERATORS = ['eq', 'lt', 'lte', 'gt', 'gte', 'in', 'currency', 'unit'];

/** Property types compared as numbers, and the member of their stored value that is the number. */
const NUMERIC_TYPES = /** @type {Record<string, string>} */ ({ money: 'amount', dimension: 'value', duration: 'value' });

/** Property types compared as text. */
const TEXT_TYPES = ['string', 'localised'];

/** Property types whose filters must name a unit. */
const UNIT_TYPES = ['dimension', 'duration'];

/** PHP's `is_numeric`. */
const PHP_NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * Core's answer to a query it cannot run: a 422 on `filter` with its one message.
 * @returns {never}
 */
function invalidQuery() {
  throw invalidField('filter', INVALID_QUERY_MESSAGE);
}

/**
 * @param {PropertyDefinition} definition
 * @returns {'number' | 'boolean' | 'text' | undefined} the column Core compares, none for a reference
 */
function columnOf(definition) {
  if (NUMERIC_TYPES[definition.type]) return 'number';
  if (definition.type === 'boolean') return 'boolean';
  if (TEXT_TYPES.includes(definition.type)) return 'text';
  return undefined;
}

/**
 * Whether one filter value fits the property's type (QueryPagesByPropertiesAction::valueMatchesType).
 * @param {PropertyDefinition} definition
 * @param {unknown} value
 */
function matchesType(definition, value) {
  const column = columnOf(definition);
  if (column === 'number') return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && PHP_NUMERIC.test(value));
  if (column === 'boolean') return typeof value === 'boolean' || ['0', '1', 'true', 'false'].includes(String(value).toLowerCase());
  return column === 'text';
}

/**
 * Checks one property's constraints as Core does (QueryPagesByPropertiesAction::validateConstraints):
 * known operators, a currency for money, an allowed unit for dimensions and durations, scalar
 * values of the property's type (at most 20 for `in`, each at most 500 characters).
 * @param {PropertyDefinition} definition
 * @param {Record<string, unknown>} constraints
 * @throws {import('../api-error.js').ApiError} 422 INVALID_QUERY_MESSAGE
 */
function checkConstraints(definition, constraints) {
  for (const [operator, value] of Object.entries(constraints)) {
    if (!OPERATORS.includes(operator)) invalidQuery();
    if (operator === 'currency') {
      if (definition.type !== 'money' || typeof value !== 'string' || !/^[A-Z]{3}$/.test(value)) invalidQuery();
      continue;
    }
    if (operator === 'unit') {
      if (!UNIT_TYPES.includes(definition.type) || typeof value !== 'string' || !(definition.units ?? []).includes(value)) invalidQuery();
      continue;
    }
    const items = operator === 'in' ? value : [value];
    if (items === null || typeof items !== 'object' || Object.keys(items).length === 0 || Object.keys(items).length > 20) invalidQuery();
    for (const item of Object.values(/** @type {object} */ (items))) {
      const scalar = typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean';
      if (!scalar || [...String(item)].length > 500 || !matchesType(definition, item)) invalidQuery();
    }
  }
  const operators = Object.keys(constraints);
  if (definition.type === 'money' && operators.length > 0 && !operators.includes('currency')) invalidQuery();
  if (UNIT_TYPES.includes(definition.type) && operators.length > 0 && !operators.includes('unit')) invalidQuery();
}

/**
 * The value Core compares for a page: the number, the boolean, or the text in the language.
 * @param {PropertyDefinition} definition
 * @param {unknown} raw the resolved stored value
 * @param {string} lang
 * @returns {{ compared: number | boolean | string, currency?: string, unit?: string } | undefined}
 */
function toComparable(definition, raw, lang) {
  if (raw === undefined || raw === null) return undefined;
  const member = NUMERIC_TYPES[definition.type];
  if (member) {
    const record = /** @type {Record<string, unknown>} */ (raw);
    return { compared: Number(record[member]), currency: /** @type {string} */ (record.currency), unit: /** @type {string} */ (record.unit) };
  }
  if (definition.type === 'boolean') return { compared: raw === true };
  if (definition.type === 'localised') {
    const texts = /** @type {Record<string, string | undefined>} */ (raw);
    const text = texts[lang] ?? texts[SITE.defaultLanguage];
    return text === undefined ? undefined : { compared: text.toLowerCase() };
  }
  return { compared: String(raw).toLowerCase() };
}

/**
 * A filter value as Core compares it with the stored one.
 * @param {PropertyDefinition} definition
 * @param {unknown} value
 * @returns {number | boolean | string}
 */
function normalise(definition, value) {
  const column = columnOf(definition);
  if (column === 'number') return Number(value);
  if (column === 'boolean') return ['1', 'true'].includes(String(value).toLowerCase());
  return String(value).toLowerCase();
}

/**
 * Whether a page's value meets every constraint (applyConstraints).
 * @param {PropertyDefinition} definition
 * @param {ReturnType<typeof toComparable>} value
 * @param {Record<string, unknown>} constraints
 */
function meets(definition, value, constraints) {
  if (value === undefined) return false;
  return Object.entries(constraints).every(([operator, wanted]) => {
    if (operator === 'currency') return value.currency === wanted;
    if (operator === 'unit') return value.unit === wanted;
    if (operator === 'in') return Object.values(/** @type {object} */ (wanted)).some((item) => normalise(definition, item) === value.compared);
    const other = normalise(definition, wanted);
    switch (operator) {
      case 'eq': return value.compared === other;
      case 'lt': return value.compared < other;
      case 'lte': return value.compared <= other;
      case 'gt': return value.compared > other;
      default: return value.compared >= other;
    }
  });
}

/**
 * The pages Core's QueryPagesByPropertiesAction finds: public pages of the language that carry the
 * set (by their blueprint or a term of a taxonomy of the set), whose values meet every filter,
 * ordered by the sort key's value (`-` for descending; pages without one first when ascending)
 * and then by storage id. A filter or sort on a property agents do not see matches no page.
 * @param {{ set: string, filter: Record<string, Record<string, unknown>>, sort: string | undefined }} query
 * @param {{ lang: import('../catalogue.js').Language, now: Date }} context
 * @returns {Page[]}
 * @throws {import('../api-error.js').ApiError} 422 INVALID_QUERY_MESSAGE on `filter`: an unknown
 *   set, property or operator, a reference compared, money without `currency`, a dimension or
 *   duration without an allowed `unit`
 */
function queryPagesByProperties({ set: setKey, filter, sort }, { lang, now }) {
  const set = findPropertySet(setKey);
  if (!set) invalidQuery();
  const sortKey = sort?.replace(/^-/, '');
  const keys = [...new Set([...Object.keys(filter), ...(sortKey === undefined ? [] : [sortKey])])];
  let pages = listPublicPages(lang, now).filter((page) => hasPropertySet(set.key, page));
  for (const key of keys) {
    const definition = Object.hasOwn(set.properties, key) ? set.properties[key] : undefined;
    if (!definition || !/^[a-zA-Z0-9_-]+$/.test(key)) invalidQuery();
    const constraints = filter[key] ?? {};
    checkConstraints(definition, constraints);
    if ((Object.keys(constraints).length > 0 || key === sortKey) && columnOf(definition) === undefined) invalidQuery();
    if (!definition.agentVisible) pages = [];
    if (Object.keys(constraints).length > 0) {
      pages = pages.filter((page) => meets(definition, toComparable(definition, resolvePropertyValue(page, set.key, key), lang), constraints));
    }
  }
  pages.sort((a, b) => a.id - b.id);
  if (sortKey !== undefined) {
    const definition = /** @type {PropertyDefinition} */ (set.properties[sortKey]);
    const direction = sort?.startsWith('-') ? -1 : 1;
    /** @param {Page} page */
    const valueOf = (page) => toComparable(definition, resolvePropertyValue(page, set.key, sortKey), lang)?.compared;
    pages.sort((a, b) => {
      const [x, y] = [valueOf(a), valueOf(b)];
      // SQL puts a missing value first in ascending order, last in descending.
      if (x === undefined || y === undefined) return x === y ? 0 : (x === undefined ? -1 : 1) * direction;
      return x < y ? -direction : x > y ? direction : 0;
    });
  }
  return pages;
}

/**
 * `GET /agent/v1/pages?set=…[&filter[key][op]=…][&sort=…][&page[size]=N&page[number]=N]`, as Core's
 * PagesController answers it (capell-app/frontend `PagesController` and `PageQueryRequest`,
 * capell-app/core `QueryPagesByPropertiesAction` and `BuildAgentPageReadDataAction`;
 * test/fixtures/capell/SOURCES.md §4.1): the pages of a property set as `{url, title, properties}`
 * (`url` the page's full URL; `properties` every agent-visible value, `x` for a `schema:x`
 * semantic, else `capell:<set>.<property>`), 20 a page by default, at most 50. Its paginator's
 * page key is `page[number]`, and the links keep the validated query as Laravel writes it, the
 * whole `page` array included, so a request that named `page[number]` gets it twice in a link
 * (PHP reads the last).
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 with Laravel's messages for the rules, or Core's
 *   INVALID_QUERY_MESSAGE on `filter` for a query it cannot run
 */
export function queryPages({ lang, origin, url, input, now }) {
  const validated = validateRequest(input, RULES);
  const page = /** @type {{ size?: string, number?: string } | undefined} */ (validated.page);
  const found = queryPagesByProperties({
    set: /** @type {string} */ (validated.set),
    filter: /** @type {Record<string, Record<string, unknown>>} */ (validated.filter ?? {}),
    sort: /** @type {string | undefined} */ (validated.sort),
  }, { lang, now });
  const { data, links } = paginate(found, {
    perPage: Number(page?.size ?? DEFAULT_PAGE_SIZE),
    page: Number(page?.number ?? 1),
    pageName: 'page[number]',
    path: url,
    appends: validated,
  });
  // A page that builds no item (no agent-visible value) is left out: data can be shorter than a page.
  const items = data.filter((candidate) => listPropertyEntries(candidate).length > 0).map((candidate) => {
    const translation = /** @type {import('../catalogue.js').Translation} */ (candidate.translations[lang]);
    return { url: toFullUrl(origin, translation.url), title: translation.title, properties: readAgentProperties(candidate, { lang, now, origin }) };
  });
  return { data: items, links };
}
