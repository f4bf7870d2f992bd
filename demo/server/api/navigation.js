import { paginate, readPageWindow } from '../pagination.js';
import { listPublicPages, toPublicUrl } from '../public-pages.js';

/**
 * `GET /agent/v1/navigation?cursor&limit`: the site map, every public page of the language as
 * `{url, title, type, parent, position}` (`parent` is the parent's URL or null), in tree order:
 * each page followed by its children by position.
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 naming `limit` or `cursor`
 */
export function listNavigation(context) {
  const { lang, now } = context;
  const window = readPageWindow(context);
  const pages = listPublicPages(lang, now);
  const keys = new Set(pages.map((page) => page.key));
  /** @type {typeof pages} */
  const ordered = [];
  /** @param {string | null} parent */
  const visit = (parent) => {
    const children = pages
      .filter((page) => (page.parent !== null && keys.has(page.parent) ? page.parent : null) === parent)
      .sort((a, b) => a.position - b.position);
    for (const child of children) {
      ordered.push(child);
      visit(child.key);
    }
  };
  visit(null);
  const items = ordered.map((page) => ({
    url: /** @type {string} */ (page.translations[lang]?.url),
    title: /** @type {string} */ (page.translations[lang]?.title),
    type: page.blueprint,
    parent: toPublicUrl(page.parent, lang, now),
    position: page.position,
  }));
  return paginate(items, window, context);
}
