import { SITE, TAXONOMIES } from './catalogue.js';
import { isPublic } from './is-public.js';
import { readPages } from './page-store.js';

/** @typedef {import('./catalogue.js').Page} Page */
/** @typedef {import('./catalogue.js').Language} Language */
/** @typedef {import('./catalogue.js').Taxonomy} Taxonomy */

/**
 * Public pages of the site in a language, in catalogue order.
 * @param {Language} lang
 * @param {Date} now
 * @returns {Page[]}
 */
export function listPublicPages(lang, now) {
  return readPages().filter((page) => isPublic(page, lang, now));
}

/**
 * The public page whose URL in `lang` is exactly `url`, or undefined.
 * @param {string} url root-relative
 * @param {Language} lang
 * @param {Date} now
 * @returns {Page | undefined}
 */
export function findPublicPage(url, lang, now) {
  return readPages().find((page) => page.translations[lang]?.url === url && isPublic(page, lang, now));
}

/**
 * The target of a redirect URL of this site, or undefined when `url` is no redirect.
 * @param {string} url root-relative
 * @returns {string | undefined}
 */
export function findRedirect(url) {
  for (const page of readPages()) {
    if (page.site !== SITE.key) continue;
    for (const translation of Object.values(page.translations)) {
      if (translation?.url === url && translation.urlStatus === 'redirect') return translation.redirectTo;
    }
  }
  return undefined;
}

/**
 * The public URL of the page with `key` in `lang`, or null when that page is not public: a
 * reference passes the same public checks as the page itself.
 * @param {string | null} key
 * @param {Language} lang
 * @param {Date} now
 * @returns {string | null}
 */
export function toPublicUrl(key, lang, now) {
  if (key === null) return null;
  const page = readPages().find((candidate) => candidate.key === key);
  if (!page || !isPublic(page, lang, now)) return null;
  return /** @type {string} */ (page.translations[lang]?.url);
}

/**
 * Taxonomies of the delivered site, by position.
 * @returns {Taxonomy[]}
 */
export function listSiteTaxonomies() {
  return TAXONOMIES.filter((taxonomy) => taxonomy.site === SITE.key).sort((a, b) => a.position - b.position);
}
