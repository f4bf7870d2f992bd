import { invalidField, notFound } from '../api-error.js';
import { TERM_SLUG_PATTERN } from '../limits.js';
import { paginate, readPageWindow } from '../pagination.js';
import { listPublicPages, listSiteTaxonomies, toPublicUrl } from '../public-pages.js';

/**
 * `GET /agent/v1/taxonomy[?taxonomy=key][&term=slug]`.
 *
 * Without `term`: the site's taxonomies (or the one named) as `{key, name, terms: [{slug, name,
 * url}]}`, names in the language, `url` the term's public page or null. With `taxonomy` and
 * `term`: the public pages assigned to that term as `{url, title, type}`. Both are paginated.
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 for an unknown `taxonomy`, a malformed `term`,
 *   or `term` without `taxonomy`; 404 for an unknown term
 */
export function browseTaxonomy({ lang, path, params, now }) {
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
  const window = readPageWindow(params);

  if (slug === undefined) {
    const items = taxonomies
      .filter((taxonomy) => taxonomyKey === undefined || taxonomy.key === taxonomyKey)
      .map((taxonomy) => ({
        key: taxonomy.key,
        name: taxonomy.name[lang],
        terms: taxonomy.terms.map((term) => ({ slug: term.slug, name: term.name[lang], url: toPublicUrl(term.landingPage, lang, now) })),
      }));
    return paginate(items, window, path, params);
  }

  const taxonomy = /** @type {import('../catalogue.js').Taxonomy} */ (taxonomies.find((candidate) => candidate.key === taxonomyKey));
  if (!taxonomy.terms.some((term) => term.slug === slug)) throw notFound(`The ${taxonomy.key} taxonomy has no term ${slug}.`);
  const items = listPublicPages(lang, now)
    .filter((page) => page.terms.some((assignment) => assignment.taxonomy === taxonomy.key && assignment.term === slug))
    .map((page) => ({
      url: /** @type {string} */ (page.translations[lang]?.url),
      title: /** @type {string} */ (page.translations[lang]?.title),
      type: page.blueprint,
    }));
  return paginate(items, window, path, params);
}
