import { invalidField, notFound } from '../api-error.js';
import { findPropertySet, hasPropertySet, readAgentProperties, resolvePropertyValue, toFullUrl } from '../properties.js';
import { listPublicPages } from '../public-pages.js';
import { paginate } from './paginator.js';
import { validateRequest } from './validate-request.js';

/** @typedef {import('../catalogue.js').PropertyDefinition} PropertyDefinition */
/** @typedef {(value: unknown) => boolean} Constraint */

/** Items per page of the extension's property query. */
export const PROPERTY_QUERY_PAGE_SIZE = 10;

/** The query's rules. */
const RULES = /** @type {import('./validate-request.js').Rule[]} */ ([
  ['filter', ['sometimes', 'array']],
  ['page', ['sometimes', 'integer', 'min:1', 'max:1000']],
]);

/** Property types filtered by a `{min, max}` range, and the member of their value compared. */
const RANGE_MEMBERS = /** @type {Record<string, 'amount' | 'value'>} */ ({ money: 'amount', dimension: 'value', duration: 'value' });

/**
 * A decimal number written in a query string.
 * @param {unknown} raw
 * @returns {number | undefined}
 */
function parseDecimal(raw) {
  return typeof raw === 'string' && /^-?[0-9]{1,12}(\.[0-9]{1,6})?$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Turn one filter entry into a constraint on a page's stored value. Only declarative
 * comparisons exist (equality, ranges); nothing in a request is executed.
 * @param {string} field e.g. `filter.price`
 * @param {PropertyDefinition} definition
 * @param {unknown} raw the parsed query value
 * @param {import('../catalogue.js').Language} lang
 * @returns {Constraint}
 * @throws {import('../api-error.js').ApiError} 422 naming the field when the value does not fit the property's type
 */
function toConstraint(field, definition, raw, lang) {
  const member = RANGE_MEMBERS[definition.type];
  if (member) {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw invalidField(field, `The ${field} field must be a range such as ${field}[min]=10&${field}[max]=100.`);
    }
    const bounds = /** @type {Record<string, unknown>} */ (raw);
    for (const key of Object.keys(bounds)) {
      if (key !== 'min' && key !== 'max') throw invalidField(`${field}.${key}`, `The ${field} range accepts only min and max.`);
    }
    const min = bounds.min === undefined ? -Infinity : parseDecimal(bounds.min);
    const max = bounds.max === undefined ? Infinity : parseDecimal(bounds.max);
    if (min === undefined) throw invalidField(`${field}.min`, `The ${field}.min field must be a number.`);
    if (max === undefined) throw invalidField(`${field}.max`, `The ${field}.max field must be a number.`);
    return (value) => {
      const number = /** @type {Record<string, unknown> | undefined} */ (value)?.[member];
      return typeof number === 'number' && number >= min && number <= max;
    };
  }
  if (typeof raw !== 'string') throw invalidField(field, `The ${field} field must be a string.`);
  switch (definition.type) {
    case 'string':
    case 'localised': {
      const wanted = raw.toLocaleLowerCase(lang);
      return (value) => {
        const text = definition.type === 'localised' ? /** @type {Record<string, string> | undefined} */ (value)?.[lang] : value;
        return typeof text === 'string' && text.toLocaleLowerCase(lang) === wanted;
      };
    }
    case 'boolean': {
      if (!['true', 'false', '1', '0'].includes(raw)) throw invalidField(field, `The ${field} field must be true or false.`);
      const wanted = raw === 'true' || raw === '1';
      return (value) => value === wanted;
    }
    default:
      throw invalidField(field, `The ${field} property cannot be filtered.`);
  }
}

/**
 * `GET /agent/v1/properties/{set}?filter[prop]=…[&page=N]`: the catalogue extension's property
 * query (no Capell package declares the `property-query` binding; the demo keeps this endpoint so
 * the runtime's executor for it stays tested). Public pages carrying the set whose stored values
 * match every filter (`filter[colour]=red`, a range `filter[price][max]=150`), as Core's page
 * items `{url, title, properties}`, 10 a page, with Laravel's paginator links keeping the filter.
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 404 for an unknown set; 422 naming `filter`,
 *   `filter.<property>` (unknown, not agent-visible or mistyped) or `page`
 */
export function queryProperties({ lang, origin, url, input, route, now }) {
  const set = findPropertySet(/** @type {string} */ (route.set));
  if (!set) throw notFound(`There is no property set ${route.set}.`);
  const validated = validateRequest(input, RULES);
  /** @type {[string, Constraint][]} */
  const constraints = [];
  for (const [key, raw] of Object.entries(/** @type {Record<string, unknown>} */ (validated.filter ?? {}))) {
    const definition = Object.hasOwn(set.properties, key) ? set.properties[key] : undefined;
    if (!definition || !definition.agentVisible) {
      throw invalidField(`filter.${key}`, `${key} is not an agent-visible property of the ${set.key} set.`);
    }
    constraints.push([key, toConstraint(`filter.${key}`, definition, raw, lang)]);
  }
  const pages = listPublicPages(lang, now)
    .filter((page) => hasPropertySet(set.key, page))
    .filter((page) => constraints.every(([key, matches]) => matches(resolvePropertyValue(page, set.key, key))));
  const { data, links } = paginate(pages, {
    perPage: PROPERTY_QUERY_PAGE_SIZE,
    page: Number(validated.page ?? 1),
    pageName: 'page',
    path: url,
    appends: validated.filter === undefined ? {} : { filter: validated.filter },
  });
  return {
    data: data.map((page) => {
      const translation = /** @type {import('../catalogue.js').Translation} */ (page.translations[lang]);
      return { url: toFullUrl(origin, translation.url), title: translation.title, properties: readAgentProperties(page, { lang, now, origin }) };
    }),
    links,
  };
}
