import { invalidField, notFound } from '../api-error.js';
import { SKU_PATTERN } from '../limits.js';
import { resolvePropertyValue } from '../properties.js';
import { listPublicPages } from '../public-pages.js';

/**
 * `GET /agent/v1/catalogue/lookup?sku=CW-1001`: the catalogue extension's endpoint, bound to the
 * `catalogue.lookup` declaration. Answers `{sku, url, name, price: {amount, currency}, inStock}`
 * for a public product of the language.
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 naming `sku` when it is missing or does not
 *   match the SKU pattern; 404 when no public product has it
 */
export function lookupCatalogueItem({ lang, params, now }) {
  const { sku } = params;
  if (sku === undefined || sku === '') throw invalidField('sku', 'The sku field is required.');
  if (typeof sku !== 'string' || !new RegExp(SKU_PATTERN).test(sku)) {
    throw invalidField('sku', 'The sku field must look like CW-1001 (two capital letters, a hyphen, four digits).');
  }
  const page = listPublicPages(lang, now).find((candidate) => resolvePropertyValue(candidate, 'product', 'sku') === sku);
  if (!page) throw notFound(`No public product has the SKU ${sku}.`);
  const translation = /** @type {import('../catalogue.js').Translation} */ (page.translations[lang]);
  const price = /** @type {{ amount: number, currency: string }} */ (resolvePropertyValue(page, 'product', 'price'));
  return {
    data: {
      sku,
      url: translation.url,
      name: translation.title,
      price: { amount: price.amount, currency: price.currency },
      inStock: resolvePropertyValue(page, 'product', 'in_stock') === true,
    },
    links: { next: null, previous: null },
  };
}
