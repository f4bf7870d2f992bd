import { PROPERTY_SETS, SITE, TAXONOMIES } from './catalogue.js';
import { readPages } from './page-store.js';
import { isPublic } from './is-public.js';

/**
 * Property values as Capell Core resolves and projects them for agents
 * (test/fixtures/capell/SOURCES.md §3 and §4.1): a page's values follow Core's precedence (its
 * own value, else the first assigned term's), and every public value is projected by Core's rules
 * (capell-app/core `ProjectAgentSchemaValueAction`): money as a schema.org PriceSpecification, a
 * dimension as a QuantitativeValue with its UN/CEFACT unit code, a duration as ISO 8601, a page
 * reference as `{@id, url, name}` of a public page, a term reference as `{name}`. Storage ids
 * never appear.
 */

/** @typedef {import('./catalogue.js').Page} Page */
/** @typedef {import('./catalogue.js').Language} Language */
/** @typedef {import('./catalogue.js').PropertyDefinition} PropertyDefinition */
/** @typedef {import('./catalogue.js').PropertySet} PropertySet */
/** @typedef {import('./catalogue.js').Term} Term */

/**
 * @typedef {object} PropertyEntry one agent-visible value of a page (Core's AgentPropertyEntryData)
 * @property {PropertySet} set
 * @property {string} key the property's key in its set
 * @property {PropertyDefinition} definition
 * @property {unknown} value the stored value
 */

/** Core's dimension units and their UN/CEFACT codes; another unit is written as it is. */
const UNIT_CODES = /** @type {Record<string, string>} */ ({ kg: 'KGM', g: 'GRM', lb: 'LBR', oz: 'ONZ', m: 'MTR', cm: 'CMT', mm: 'MMT' });

/** Core's duration units and the ISO 8601 form each is written in: prefix, divisor, designator. */
const DURATION_FORMS = /** @type {Record<string, [string, number, string]>} */ ({
  ms: ['PT', 1000, 'S'], millisecond: ['PT', 1000, 'S'], milliseconds: ['PT', 1000, 'S'],
  s: ['PT', 1, 'S'], sec: ['PT', 1, 'S'], second: ['PT', 1, 'S'], seconds: ['PT', 1, 'S'],
  m: ['PT', 1, 'M'], min: ['PT', 1, 'M'], minute: ['PT', 1, 'M'], minutes: ['PT', 1, 'M'],
  h: ['PT', 1, 'H'], hr: ['PT', 1, 'H'], hour: ['PT', 1, 'H'], hours: ['PT', 1, 'H'],
  d: ['P', 1, 'D'], day: ['P', 1, 'D'], days: ['P', 1, 'D'],
  w: ['P', 1, 'W'], week: ['P', 1, 'W'], weeks: ['P', 1, 'W'],
});

/** A `schema:<term>` semantic, as Core matches it. */
const SCHEMA_SEMANTIC = /^schema:([A-Za-z][A-Za-z0-9]*)$/;

/**
 * A property set by key.
 * @param {string} key e.g. `commerce.product`
 * @returns {PropertySet | undefined}
 */
export function findPropertySet(key) {
  return PROPERTY_SETS.find((set) => set.key === key);
}

/**
 * The key a value has in an agent answer: the schema.org term of a `schema:` semantic, else
 * `capell:<set>.<property>` (capell-app/core `AgentPropertyBagData::toSchemaOrgProperties`).
 * @param {PropertySet} set
 * @param {string} key
 * @param {PropertyDefinition} definition
 * @returns {string}
 */
export function toAgentKey(set, key, definition) {
  const match = definition.semantic ? SCHEMA_SEMANTIC.exec(definition.semantic) : null;
  return match ? /** @type {string} */ (match[1]) : `capell:${set.key}.${key}`;
}

/**
 * The delivered site's taxonomy with a key.
 * @param {string} key
 */
function findSiteTaxonomy(key) {
  return TAXONOMIES.find((taxonomy) => taxonomy.key === key && taxonomy.site === SITE.key);
}

/**
 * The property sets whose values a page carries: those its blueprint has, and those of the
 * taxonomies its terms belong to (Core's eligibility: blueprint attachment or a term of a
 * taxonomy of the set, on the page's own site).
 * @param {Page} page
 * @returns {PropertySet[]} in PROPERTY_SETS order
 */
export function listPageSets(page) {
  const inherited = new Set(page.terms
    .map((assignment) => TAXONOMIES.find((taxonomy) => taxonomy.key === assignment.taxonomy && taxonomy.site === page.site)?.propertySet)
    .filter(Boolean));
  return PROPERTY_SETS.filter((set) => set.blueprints.includes(page.blueprint) || inherited.has(set.key));
}

/**
 * Whether a property set applies to a page (listPageSets).
 * @param {string} setKey
 * @param {Page} page
 * @returns {boolean}
 */
export function hasPropertySet(setKey, page) {
  return listPageSets(page).some((set) => set.key === setKey);
}

/**
 * The stored value of one property for a page, following Core's precedence: a value stored on
 * the page wins; otherwise the value of the first assigned term that has one, of a taxonomy of the
 * page's own site whose terms carry that set, ordered by taxonomy position, then assignment
 * position. A property read from the page's translation (`fromTranslation`) is that field in
 * every language. Source: Capell Agent Schema, "Property data".
 *
 * @param {Page} page
 * @param {string} setKey
 * @param {string} propertyKey
 * @returns {unknown} the raw stored value, or undefined
 */
export function resolvePropertyValue(page, setKey, propertyKey) {
  const definition = findPropertySet(setKey)?.properties[propertyKey];
  if (definition?.fromTranslation) {
    const field = definition.fromTranslation;
    const values = Object.fromEntries(Object.entries(page.translations).map(([lang, translation]) => [lang, translation?.[field]]));
    return Object.values(values).some((value) => typeof value === 'string' && value !== '') ? values : undefined;
  }
  const own = page.properties[setKey]?.[propertyKey];
  if (own !== undefined) return own;
  const assignments = page.terms
    .map((assignment, index) => ({
      index,
      taxonomy: TAXONOMIES.find((taxonomy) => taxonomy.key === assignment.taxonomy && taxonomy.site === page.site && taxonomy.propertySet === setKey),
      slug: assignment.term,
    }))
    .filter((entry) => entry.taxonomy !== undefined)
    .sort((a, b) => /** @type {number} */ (a.taxonomy?.position) - /** @type {number} */ (b.taxonomy?.position) || a.index - b.index);
  for (const entry of assignments) {
    const term = entry.taxonomy?.terms.find((candidate) => candidate.slug === entry.slug);
    const inherited = term?.properties?.[setKey]?.[propertyKey];
    if (inherited !== undefined) return inherited;
  }
  return undefined;
}

/**
 * The agent-visible entries of a page (Core's AgentPropertyBagData): one per property with a
 * value, in set and then definition order.
 * @param {Page} page
 * @returns {PropertyEntry[]}
 */
export function listPropertyEntries(page) {
  /** @type {PropertyEntry[]} */
  const entries = [];
  for (const set of listPageSets(page)) {
    for (const [key, definition] of Object.entries(set.properties)) {
      if (!definition.agentVisible) continue;
      const value = resolvePropertyValue(page, set.key, key);
      if (value !== undefined && value !== null) entries.push({ set, key, definition, value });
    }
  }
  return entries;
}

/**
 * The public URL of a page as Core's `PageUrl::fullUrl()` writes it: the site's origin and the
 * page's path, without a trailing slash (the home page is the bare origin).
 * @param {string} origin e.g. `http://127.0.0.1:5173`
 * @param {string} path root-relative, e.g. `/products`
 * @returns {string}
 */
export function toFullUrl(origin, path) {
  return `${origin}${path}`.replace(/\/+$/, '');
}

/**
 * A duration in ISO 8601, as Core writes it (up to six decimals, trailing zeros dropped), or null
 * for a negative value or a unit Core does not know.
 * @param {unknown} value
 * @param {unknown} unit
 * @returns {string | null}
 */
function toISODuration(value, unit) {
  const form = typeof unit === 'string' ? DURATION_FORMS[unit.trim().toLowerCase()] : undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || !form) return null;
  const [prefix, divisor, designator] = form;
  return `${prefix}${(value / divisor).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}${designator}`;
}

/**
 * Each stored value of an entry (a page reference holds several) projected as Core projects it
 * for agents, nulls dropped.
 * @param {PropertyDefinition} definition
 * @param {unknown} raw
 * @param {{ lang: Language, now: Date, origin: string }} context
 * @returns {unknown[]}
 */
export function projectValues(definition, raw, { lang, now, origin }) {
  /** @type {unknown[]} */
  let values;
  switch (definition.type) {
    case 'localised': {
      const texts = /** @type {Record<string, unknown>} */ (raw);
      values = [texts[lang] ?? texts[SITE.defaultLanguage]];
      break;
    }
    case 'money': {
      const { amount, currency } = /** @type {{ amount: number, currency: string }} */ (raw);
      values = [{ '@type': 'PriceSpecification', price: amount, priceCurrency: currency }];
      break;
    }
    case 'dimension': {
      const { value, unit } = /** @type {{ value: number, unit: string }} */ (raw);
      values = [{ '@type': 'QuantitativeValue', value, unitCode: UNIT_CODES[unit] ?? unit }];
      break;
    }
    case 'duration': {
      const { value, unit } = /** @type {{ value: number, unit: string }} */ (raw);
      values = [toISODuration(value, unit)];
      break;
    }
    case 'term-reference': {
      const { taxonomy, term } = /** @type {{ taxonomy: string, term: string }} */ (raw);
      const found = findSiteTaxonomy(taxonomy)?.terms.find((candidate) => candidate.slug === term);
      const name = found?.name[lang] ?? '';
      values = [name.trim() === '' ? null : { name }];
      break;
    }
    case 'page-reference':
      values = /** @type {string[]} */ (raw).map((key) => {
        const target = readPages().find((candidate) => candidate.key === key);
        if (!target || !isPublic(target, lang, now)) return null;
        const translation = /** @type {import('./catalogue.js').Translation} */ (target.translations[lang]);
        const url = toFullUrl(origin, translation.url);
        return translation.title ? { '@id': url, url, name: translation.title } : { '@id': url, url };
      });
      break;
    default:
      values = [raw];
  }
  // Core drops empty strings and anything that is not a scalar or a projected object.
  return values.filter((value) => value !== null && value !== undefined && value !== '');
}

/**
 * One value or a list, as Core writes a key that holds several.
 * @param {unknown[]} values non-empty
 * @returns {unknown}
 */
function oneOrList(values) {
  return values.length === 1 ? values[0] : values;
}

/**
 * The `properties` of a page in `/agent/v1/pages` items (capell-app/core
 * `BuildAgentPageReadDataAction`): every agent-visible value of the page, keyed as toAgentKey
 * says, projected. When nothing projects, Core's PHP array is empty and encodes as `[]`.
 * @param {Page} page
 * @param {{ lang: Language, now: Date, origin: string }} context
 * @returns {Record<string, unknown> | []}
 */
export function readAgentProperties(page, context) {
  /** @type {Record<string, unknown[]>} */
  const collected = {};
  for (const { set, key, definition, value } of listPropertyEntries(page)) {
    const projected = projectValues(definition, value, context);
    if (projected.length > 0) (collected[toAgentKey(set, key, definition)] ??= []).push(...projected);
  }
  const keys = Object.keys(collected);
  return keys.length === 0 ? [] : Object.fromEntries(keys.map((key) => [key, oneOrList(/** @type {unknown[]} */ (collected[key]))]));
}

/**
 * The `properties` of a term in `/agent/v1/taxonomies?key=` items (capell-app/core
 * `BrowseAgentTaxonomiesAction`): the term's values of its taxonomy's property set, agent-visible
 * definitions only, projected; an object even when empty (`{}`).
 * @param {import('./catalogue.js').Taxonomy} taxonomy
 * @param {Term} term
 * @param {{ lang: Language, now: Date, origin: string }} context
 * @returns {Record<string, unknown>}
 */
export function readTermProperties(taxonomy, term, context) {
  const set = taxonomy.propertySet ? findPropertySet(taxonomy.propertySet) : undefined;
  /** @type {Record<string, unknown>} */
  const properties = {};
  if (!set) return properties;
  for (const [key, value] of Object.entries(term.properties?.[set.key] ?? {})) {
    const definition = set.properties[key];
    if (!definition?.agentVisible) continue;
    const projected = projectValues(definition, value, context);
    if (projected.length > 0) properties[toAgentKey(set, key, definition)] = oneOrList(projected);
  }
  return properties;
}

/**
 * A stored value for people (the HTML pages): money keeps its currency (`{amount, currency}`),
 * dimensions and durations their unit (`{value, unit}`), a localised text is the language's, a
 * reference is the public URL of its page (dropped when that page is not public).
 *
 * @param {PropertyDefinition} definition
 * @param {unknown} raw
 * @param {Language} lang
 * @param {Date} now
 * @returns {unknown} the value, or undefined when nothing public remains
 */
export function toDisplayValue(definition, raw, lang, now) {
  if (raw === undefined || raw === null) return undefined;
  /** @param {string | undefined} key */
  const publicUrl = (key) => {
    const target = key === undefined ? undefined : readPages().find((candidate) => candidate.key === key);
    return target && isPublic(target, lang, now) ? target.translations[lang]?.url : undefined;
  };
  switch (definition.type) {
    case 'localised': {
      const values = /** @type {Record<string, string>} */ (raw);
      return values[lang] ?? values[SITE.defaultLanguage];
    }
    case 'term-reference': {
      const { taxonomy, term } = /** @type {{ taxonomy: string, term: string }} */ (raw);
      return publicUrl(findSiteTaxonomy(taxonomy)?.terms.find((candidate) => candidate.slug === term)?.landingPage);
    }
    case 'page-reference': {
      const urls = /** @type {string[]} */ (raw).map(publicUrl).filter((url) => url !== undefined);
      return urls.length > 0 ? urls : undefined;
    }
    default:
      return raw;
  }
}

/**
 * The agent-visible values of one set of a page, for people (toDisplayValue).
 * @param {Page} page
 * @param {PropertySet} set
 * @param {Language} lang
 * @param {Date} now
 * @param {string[]} [only] property keys to include (default: every agent-visible one)
 * @returns {Record<string, unknown>}
 */
export function readDisplayProperties(page, set, lang, now, only) {
  /** @type {Record<string, unknown>} */
  const result = {};
  if (!hasPropertySet(set.key, page)) return result;
  for (const [key, definition] of Object.entries(set.properties)) {
    if (!definition.agentVisible || definition.fromTranslation || (only && !only.includes(key))) continue;
    const value = toDisplayValue(definition, resolvePropertyValue(page, set.key, key), lang, now);
    if (value !== undefined) result[key] = value;
  }
  return result;
}
