import { notFound } from '../api-error.js';
import { SKU_PATTERN } from '../limits.js';
import { findPropertySet, projectValues, resolvePropertyValue, toFullUrl } from '../properties.js';
import { listPublicPages } from '../public-pages.js';
import { validateRequest } from './validate-request.js';

/** The lookup's rules, written as a Laravel controller of the extension would write them. */
const RULES = /** @type {import('./validate-request.js').Rule[]} */ ([['sku', ['required', 'string', `regex:/${SKU_PATTERN}/`]]]);

/**
 * `GET /agent/v1/catalogue/lookup?sku=CW-1001`: the catalogue extension's endpoint (the seed's
 * `catalogue.lookup` example), under Core's agent routes and so answered as they are. Answers
 * `{sku, url, name, price, inStock}` for a public product of the language: `url` its full URL,
 * `price` a schema.org PriceSpecification, as Core projects money.
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 naming `sku` (missing, or not like CW-1001);
 *   404 when no public product has it
 */
export function lookupCatalogueItem({ lang, origin, input, now }) {
  const { sku } = validateRequest(input, RULES);
  const page = listPublicPages(lang, now).find((candidate) => resolvePropertyValue(candidate, 'commerce.product', 'sku') === sku);
  if (!page) throw notFound(`No public product has the SKU ${sku}.`);
  const translation = /** @type {import('../catalogue.js').Translation} */ (page.translations[lang]);
  const set = /** @type {import('../catalogue.js').PropertySet} */ (findPropertySet('commerce.product'));
  const [price] = projectValues(/** @type {import('../catalogue.js').PropertyDefinition} */ (set.properties.price), resolvePropertyValue(page, set.key, 'price'), { lang, now, origin });
  return {
    data: {
      sku,
      url: toFullUrl(origin, translation.url),
      name: translation.title,
      price,
      inStock: resolvePropertyValue(page, set.key, 'in_stock') === true,
    },
    links: { next: null, previous: null },
  };
}
