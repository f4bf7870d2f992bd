import { invalidField, notFound } from '../api-error.js';
import { TERM_SLUG_PATTERN } from '../limits.js';
import { paginate, readPageWindow } from '../pagination.js';
import { listPublicPages, listSiteTaxonomies, toPublicUrl } from '../public-pages.js';

/** @typedef {import('../catalogue.js').Taxonomy} Taxonomy */

/**
 * A taxonomy's terms as the API shows them: `{slug, name, url}`, the name in the language, `url`
 * the term's public landing page or null.
 * @param {Taxonomy} taxonomy
 * @param {import('../catalogue.js').Language} lang
 * @param {Date} now
 */
function toPublicTerms(taxonomy, lang, now) {
  return taxonomy.terms.map((term) => ({ slug: term.slug, name: term.name[lang], url: toPublicUrl(term.landingPage, lang, now) }));
}

/**
 * `GET /agent/v1/taxonomies[?taxonomy=key][&term=slug]`: the `taxonomy.browse` tool's endpoint.
 *
 * Without `term`: the site's taxonomies (or the one named) as `{key, name, terms: [{slug, name,
 * url}]}`, names in the language, `url` the term's public page or null. With `taxonomy` and
 * `term`: the public pages assigned to that term as `{url, title, type}`. Both are paginated.
 * Only the delivered site's taxonomies exist here (Capell Agent Schema, "Property data":
 * another site's terms never enter a result).
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 for an unknown `taxonomy`, a malformed `term`,
 *   `term` without `taxonomy`, or naming `limit` / `cursor`; 404 for an unknown term
 */
export function browseTaxonomies(context) {
  const { lang, params, now } = context;
  const { taxonomy: taxonomyKey, term: slug } = params;
  const taxonomies = listSiteTaxonomies();
  const keys = taxonomies.map((taxonomy) => taxonomy.key);
  if (taxonomyKey !== undefined && (typeof taxonomyKey !== 'string' || !keys.includes(taxonomyKey))) {
    throw invalidField('taxonomy', `The selected taxonomy is invalid; use one of: ${keys.join(', ')}.`);
  }
  if (slug !== undefined) {
    if (typeof slug !== 'string' || !new RegExp(TERM_SLUG_PATTERN).test(slug)) {
      throw invalidField('term', 'The term field must be a term slug (lower-case letters, digits and hyphens).');
    }
    if (taxonomyKey === undefined) throw invalidField('taxonomy', 'The taxonomy field is required when term is present.');
  }
  const window = readPageWindow(context);

  if (slug === undefined) {
    const items = taxonomies
      .filter((taxonomy) => taxonomyKey === undefined || taxonomy.key === taxonomyKey)
      .map((taxonomy) => ({ key: taxonomy.key, name: taxonomy.name[lang], terms: toPublicTerms(taxonomy, lang, now) }));
    return paginate(items, window, context);
  }

  const taxonomy = /** @type {Taxonomy} */ (taxonomies.find((candidate) => candidate.key === taxonomyKey));
  if (!taxonomy.terms.some((term) => term.slug === slug)) throw notFound(`The ${taxonomy.key} taxonomy has no term ${slug}.`);
  const items = listPublicPages(lang, now)
    .filter((page) => page.terms.some((assignment) => assignment.taxonomy === taxonomy.key && assignment.term === slug))
    .map((page) => ({
      url: /** @type {string} */ (page.translations[lang]?.url),
      title: /** @type {string} */ (page.translations[lang]?.title),
      type: page.blueprint,
    }));
  return paginate(items, window, context);
}

/**
 * `GET /agent/v1/taxonomies/{key}/terms?cursor&limit`: the terms of one of the site's taxonomies,
 * by position, as `{slug, name, url}` (name in the language, `url` the term's public landing page
 * or null).
 * @param {import('./context.js').ApiContext & { taxonomyKey: string }} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 404 when the site has no taxonomy `key` (another
 *   site's taxonomy included); 422 naming `limit` or `cursor`
 */
export function listTaxonomyTerms(context) {
  const { lang, now, taxonomyKey } = context;
  const taxonomy = listSiteTaxonomies().find((candidate) => candidate.key === taxonomyKey);
  if (!taxonomy) throw notFound(`There is no taxonomy ${taxonomyKey}.`);
  const window = readPageWindow(context);
  return paginate(toPublicTerms(taxonomy, lang, now), window, context);
}
