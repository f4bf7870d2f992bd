import { PROPERTY_SETS, SITE, TAXONOMIES } from './catalogue.js';
import { findSiteTerm, hasPropertySet, toPublicUrl } from './public-pages.js';

/** @typedef {import('./catalogue.js').Page} Page */
/** @typedef {import('./catalogue.js').Language} Language */
/** @typedef {import('./catalogue.js').PropertyDefinition} PropertyDefinition */
/** @typedef {import('./catalogue.js').PropertySet} PropertySet */

/**
 * A property set by key.
 * @param {string} key
 * @returns {PropertySet | undefined}
 */
export function findPropertySet(key) {
  return PROPERTY_SETS.find((set) => set.key === key);
}

/**
 * The stored value of one property for a page, following Core's precedence: a value stored on
 * the page wins; otherwise the value of the first assigned term that has one, ordered by
 * taxonomy position, then term assignment position. Only terms of the page's own site count.
 * Source: Capell Agent Schema, "Property data".
 *
 * @param {Page} page
 * @param {string} setKey
 * @param {string} propertyKey
 * @returns {unknown} the raw stored value, or undefined
 */
export function resolvePropertyValue(page, setKey, propertyKey) {
  const own = page.properties[setKey]?.[propertyKey];
  if (own !== undefined) return own;
  const assignments = page.terms
    .map((assignment, index) => ({
      index,
      taxonomy: TAXONOMIES.find((taxonomy) => taxonomy.key === assignment.taxonomy && taxonomy.site === page.site),
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
 * A stored value as the public API shows it: money keeps its currency (`{amount, currency}`),
 * quantities and durations keep their unit (`{value, unit}`), localised values select the
 * language (falling back to the site's default language), references become public URLs (or are
 * dropped when the target is not public). Never contains a storage id.
 *
 * @param {PropertyDefinition} definition
 * @param {unknown} raw
 * @param {Language} lang
 * @param {Date} now
 * @returns {unknown} the projected value, or undefined when nothing public remains
 */
export function toPublicValue(definition, raw, lang, now) {
  if (raw === undefined || raw === null) return undefined;
  switch (definition.type) {
    case 'localised': {
      const values = /** @type {Record<string, string>} */ (raw);
      return values[lang] ?? values[SITE.defaultLanguage];
    }
    case 'money': {
      const { amount, currency } = /** @type {{ amount: number, currency: string }} */ (raw);
      return { amount, currency };
    }
    case 'quantity':
    case 'duration': {
      const { value, unit } = /** @type {{ value: number, unit: string }} */ (raw);
      return { value, unit };
    }
    case 'term-reference': {
      const { taxonomy, term } = /** @type {{ taxonomy: string, term: string }} */ (raw);
      const found = findSiteTerm(taxonomy, term);
      return found ? (toPublicUrl(found.landingPage, lang, now) ?? undefined) : undefined;
    }
    case 'page-reference': {
      const urls = /** @type {string[]} */ (raw).map((key) => toPublicUrl(key, lang, now)).filter((url) => url !== null);
      return urls.length > 0 ? urls : undefined;
    }
    default:
      return raw;
  }
}

/**
 * The agent-visible properties of one set for a page, projected for the public API.
 * @param {Page} page
 * @param {PropertySet} set
 * @param {Language} lang
 * @param {Date} now
 * @param {string[]} [only] property keys to include (default: every agent-visible one)
 * @returns {Record<string, unknown>}
 */
export function readPublicProperties(page, set, lang, now, only) {
  /** @type {Record<string, unknown>} */
  const result = {};
  if (!hasPropertySet(set.key, page)) return result;
  for (const [key, definition] of Object.entries(set.properties)) {
    if (!definition.agentVisible || (only && !only.includes(key))) continue;
    const value = toPublicValue(definition, resolvePropertyValue(page, set.key, key), lang, now);
    if (value !== undefined) result[key] = value;
  }
  return result;
}
