import { BLUEPRINTS, SITE } from './catalogue.js';

/** @typedef {import('./catalogue.js').Page} Page */
/** @typedef {import('./catalogue.js').Language} Language */

/**
 * Whether a page is a public result in a language at an instant: the one filter every HTML route,
 * API result and reference projection goes through.
 *
 * A page is public when it belongs to the delivered site and that site's domain is enabled, the
 * site offers the language, the page has a translation in it whose URL status is `active` (not a
 * redirect), the page is published (not a draft) with a publish time at or before `now`, and its
 * blueprint is enabled and publicly accessible. Source: Capell Agent Schema, "What is public".
 *
 * @param {Page} page
 * @param {Language} lang
 * @param {Date} now
 * @returns {boolean}
 * @example isPublic(page, 'de', new Date()) // false for a page without a German translation
 */
export function isPublic(page, lang, now) {
  if (page.site !== SITE.key || !SITE.domainEnabled) return false;
  if (!SITE.languages.includes(lang)) return false;
  const translation = page.translations[lang];
  if (!translation || translation.urlStatus !== 'active') return false;
  if (page.visibility !== 'published') return false;
  if (page.publishAt === null || Date.parse(page.publishAt) > now.getTime()) return false;
  const blueprint = BLUEPRINTS.find((candidate) => candidate.key === page.blueprint);
  return blueprint !== undefined && blueprint.enabled && blueprint.access === 'public';
}
