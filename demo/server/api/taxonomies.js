import { notFound } from '../api-error.js';
import { listSiteTaxonomies } from '../public-pages.js';
import { readTermProperties } from '../properties.js';
import { paginate } from './paginator.js';
import { validateRequest } from './validate-request.js';

/** Items per page of taxonomies and of terms (capell-app/core `BrowseAgentTaxonomiesAction`: `paginate(50)`). */
export const TAXONOMY_PAGE_SIZE = 50;

/** TaxonomiesController's rules (test/fixtures/capell/SOURCES.md §4.3). */
const RULES = /** @type {import('./validate-request.js').Rule[]} */ ([
  ['page', ['sometimes', 'integer', 'min:1', 'max:1000']],
  ['key', ['sometimes', 'string', 'max:100', 'regex:/\\A[A-Za-z0-9_.-]+\\z/']],
]);

/** What Laravel's `firstOrFail()` says when the site has no taxonomy with the key. */
export const MISSING_TAXONOMY_MESSAGE = 'No query results for model [Capell\\Core\\Models\\Taxonomy].';

/**
 * `GET /agent/v1/taxonomies[?key=K][&page=N]` and `GET /agent/v1/taxonomies/{key}/terms[?page=N]`,
 * as Core's TaxonomiesController answers them (capell-app/frontend `TaxonomiesController`,
 * capell-app/core `BrowseAgentTaxonomiesAction`; test/fixtures/capell/SOURCES.md §4.3). Without a
 * key: the site's taxonomies by position as `{key, name, hierarchical}`. With one (the route's,
 * else the query's): that taxonomy's terms in order as `{slug, name, parent, properties}`,
 * `parent` the parent's slug in a hierarchical taxonomy (else null), `properties` the term's
 * agent-visible values of the taxonomy's property set (`{}` when none). 50 a page; the links keep
 * the query's `key` (`…/taxonomies?key=categories&page=2`). Only the delivered site's taxonomies
 * exist here (another site's is a 404).
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 naming `page` or `key`; 404 with Laravel's
 *   model message for a key the site has no taxonomy for
 */
export function browseTaxonomies({ lang, origin, url, input, route, now }) {
  const validated = validateRequest(input, RULES);
  const page = Number(validated.page ?? 1);
  const key = route.key ?? /** @type {string | undefined} */ (validated.key);
  const appends = Object.hasOwn(input, 'key') ? { key: input.key } : {};
  const taxonomies = listSiteTaxonomies();
  if (key === undefined) {
    const items = taxonomies.map((taxonomy) => ({ key: taxonomy.key, name: taxonomy.name[lang], hierarchical: taxonomy.hierarchical }));
    return paginate(items, { perPage: TAXONOMY_PAGE_SIZE, page, pageName: 'page', path: url, appends });
  }
  const taxonomy = taxonomies.find((candidate) => candidate.key === key);
  if (!taxonomy) throw notFound(MISSING_TAXONOMY_MESSAGE);
  const slugs = new Set(taxonomy.terms.map((term) => term.slug));
  const items = taxonomy.terms.map((term) => ({
    slug: term.slug,
    name: term.name[lang],
    parent: taxonomy.hierarchical && term.parent !== undefined && slugs.has(term.parent) ? term.parent : null,
    properties: readTermProperties(taxonomy, term, { lang, now, origin }),
  }));
  return paginate(items, { perPage: TAXONOMY_PAGE_SIZE, page, pageName: 'page', path: url, appends });
}
