import { PROPERTY_SETS } from './catalogue.js';
import { hasPropertySet } from './public-pages.js';
import { resolvePropertyValue, toPublicValue } from './properties.js';

/** @typedef {import('./catalogue.js').Page} Page */
/** @typedef {import('./catalogue.js').Language} Language */

/** The JSON-LD context of every page graph: schema.org by default, `capell:` for unmapped keys. */
export const PAGE_GRAPH_CONTEXT = Object.freeze({ '@vocab': 'https://schema.org/', capell: 'https://capell.app/ns/' });

/**
 * A mapped value in its schema.org shape: money becomes an `Offer`, a quantity a
 * `QuantitativeValue`; everything else is used as projected.
 * @param {string} schemaKey
 * @param {unknown} value projected public value
 * @returns {unknown}
 */
function toSchemaValue(schemaKey, value) {
  if (schemaKey === 'offers') {
    const { amount, currency } = /** @type {{ amount: number, currency: string }} */ (value);
    return { '@type': 'Offer', price: amount, priceCurrency: currency };
  }
  if (schemaKey === 'weight') {
    const { value: amount, unit } = /** @type {{ value: number, unit: string }} */ (value);
    return { '@type': 'QuantitativeValue', value: amount, unitText: unit };
  }
  return value;
}

/**
 * The page graph of a public page: the JSON-LD Core writes into the page's
 * `data-capell-agent-schema` island and returns from `GET /agent/v1/pages?url=`.
 *
 * Keys: `@context`, `@type`, `url` (root-relative), `name`, `description`, `inLanguage`, then for
 * every agent-visible property of the page's sets either its schema.org key or
 * `capell:<set>.<property>`. Only the published copy is projected (never a draft revision);
 * references are public URLs; storage ids never appear. Source: Capell Agent Schema, "What is
 * public" and "Property data".
 *
 * The caller must have checked `isPublic(page, lang, now)`.
 *
 * @param {Page} page
 * @param {Language} lang
 * @param {Date} now
 * @returns {Record<string, unknown>}
 */
export function toPageGraph(page, lang, now) {
  const translation = /** @type {import('./catalogue.js').Translation} */ (page.translations[lang]);
  /** @type {Record<string, unknown>} */
  const graph = {
    '@context': PAGE_GRAPH_CONTEXT,
    '@type': page.schemaType,
    url: translation.url,
    name: translation.title,
    description: translation.description ?? '',
    inLanguage: lang,
  };
  if (page.schemaType === 'Article' && page.publishAt) graph.datePublished = page.publishAt;
  for (const set of PROPERTY_SETS) {
    if (!hasPropertySet(set.key, page)) continue;
    for (const [key, definition] of Object.entries(set.properties)) {
      if (!definition.agentVisible) continue;
      const value = toPublicValue(definition, resolvePropertyValue(page, set.key, key), lang, now);
      if (value === undefined) continue;
      if (definition.schemaKey) graph[definition.schemaKey] = toSchemaValue(definition.schemaKey, value);
      else graph[`capell:${set.key}.${key}`] = value;
    }
  }
  return graph;
}
