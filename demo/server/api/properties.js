import { invalidField, notFound } from '../api-error.js';
import { paginate, readPageWindow } from '../pagination.js';
import { findPropertySet, readPublicProperties, resolvePropertyValue, toPublicValue } from '../properties.js';
import { findSiteTerm, hasPropertySet, listPublicPages } from '../public-pages.js';

/** @typedef {import('../catalogue.js').PropertyDefinition} PropertyDefinition */
/** @typedef {(value: unknown, page: import('../catalogue.js').Page) => boolean} Constraint */

/** Property types filtered by a `{min, max}` range, and the member of their value compared. */
const RANGE_MEMBERS = /** @type {Record<string, 'amount' | 'value'>} */ ({ money: 'amount', quantity: 'value', duration: 'value' });

/**
 * A decimal number written in a query string.
 * @param {unknown} raw
 * @returns {number | undefined}
 */
function parseDecimal(raw) {
  return typeof raw === 'string' && /^-?[0-9]{1,12}(\.[0-9]{1,6})?$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Turn one filter entry into a constraint on projected public values. Only declarative
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
      const number = /** @type {Record<string, number> | undefined} */ (value)?.[member];
      return typeof number === 'number' && number >= min && number <= max;
    };
  }
  if (typeof raw !== 'string') throw invalidField(field, `The ${field} field must be a string.`);
  switch (definition.type) {
    case 'string':
    case 'localised': {
      const wanted = raw.toLocaleLowerCase(lang);
      return (value) => typeof value === 'string' && value.toLocaleLowerCase(lang) === wanted;
    }
    case 'boolean': {
      if (!['true', 'false', '1', '0'].includes(raw)) throw invalidField(field, `The ${field} field must be true or false.`);
      const wanted = raw === 'true' || raw === '1';
      return (value) => value === wanted;
    }
    case 'term-reference': {
      const term = findSiteTerm(/** @type {string} */ (definition.taxonomy), raw);
      if (!term) throw invalidField(field, `The ${field} field must be a term slug of the ${definition.taxonomy} taxonomy.`);
      return (_value, page) => page.terms.some((assignment) => assignment.taxonomy === definition.taxonomy && assignment.term === raw);
    }
    default:
      throw invalidField(field, `The ${field} property cannot be filtered.`);
  }
}

/**
 * `GET /agent/v1/properties/{set}?filter[prop]=…&cursor&limit`: public pages carrying the set
 * whose agent-visible property values match every filter, as `{url, title, properties}`;
 * `properties` holds the filtered properties (all agent-visible ones of the set when there is no
 * filter). Source: Capell Agent Schema, "Property data" and "What is public".
 * @param {import('./context.js').ApiContext & { setKey: string }} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 404 for an unknown set; 422 naming `filter` or `filter.<property>` for an
 *   unknown, hidden or mistyped property, or naming `limit` / `cursor`
 */
export function queryProperties(context) {
  const { lang, params, now, setKey } = context;
  const set = findPropertySet(setKey);
  if (!set) throw notFound(`There is no property set ${setKey}.`);
  const filter = params.filter ?? {};
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) {
    throw invalidField('filter', 'The filter field must be an object such as filter[colour]=red.');
  }
  /** @type {[string, Constraint][]} */
  const constraints = [];
  for (const [key, raw] of Object.entries(filter)) {
    const definition = Object.hasOwn(set.properties, key) ? set.properties[key] : undefined;
    if (!definition || !definition.agentVisible) {
      throw invalidField(`filter.${key}`, `${key} is not an agent-visible property of the ${set.key} set.`);
    }
    constraints.push([key, toConstraint(`filter.${key}`, definition, raw, lang)]);
  }
  const window = readPageWindow(context);
  const shown = constraints.length > 0 ? constraints.map(([key]) => key) : undefined;

  const items = listPublicPages(lang, now)
    .filter((page) => hasPropertySet(set.key, page))
    .filter((page) =>
      constraints.every(([key, matches]) => {
        const definition = /** @type {PropertyDefinition} */ (set.properties[key]);
        return matches(toPublicValue(definition, resolvePropertyValue(page, set.key, key), lang, now), page);
      }),
    )
    .map((page) => ({
      url: /** @type {string} */ (page.translations[lang]?.url),
      title: /** @type {string} */ (page.translations[lang]?.title),
      properties: readPublicProperties(page, set, lang, now, shown),
    }));
  return paginate(items, window, context);
}
