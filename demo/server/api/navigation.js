import { listPublicPages } from '../public-pages.js';
import { paginate } from './paginator.js';
import { validateRequest } from './validate-request.js';

/** Items per page of the site map (capell-app/core `BrowsePublicSiteMapAction`: `paginate(50)`). */
export const NAVIGATION_PAGE_SIZE = 50;

/** NavigationController's rules (test/fixtures/capell/SOURCES.md §4.2). */
const RULES = /** @type {import('./validate-request.js').Rule[]} */ ([['page', ['sometimes', 'integer', 'min:1', 'max:1000']]]);

/**
 * `GET /agent/v1/navigation?page=N`: the site map as Core's NavigationController answers it
 * (capell-app/frontend `NavigationController`, capell-app/core `BrowsePublicSiteMapAction`;
 * test/fixtures/capell/SOURCES.md §4.2): every public page URL of the language as
 * `{url, title}`, `url` the stored root-relative path, ordered by `url`, 50 a page. The links keep
 * only the page number (`…/navigation?page=2`): Core appends nothing else.
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 naming `page` (not an integer from 1 to 1000)
 */
export function listNavigation({ lang, url, input, now }) {
  const validated = validateRequest(input, RULES);
  const items = listPublicPages(lang, now)
    .map((page) => {
      const translation = /** @type {import('../catalogue.js').Translation} */ (page.translations[lang]);
      return { url: translation.url, title: translation.title };
    })
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return paginate(items, { perPage: NAVIGATION_PAGE_SIZE, page: Number(validated.page ?? 1), pageName: 'page', path: url });
}
