import { toPageGraph } from '../page-graph.js';
import { findPublicPage, findRedirect } from '../public-pages.js';
import { languageOfPath, text } from '../localisation.js';
import { sendHTML, sendRedirect } from '../responses.js';
import { toToolsManifest } from '../tools-manifest.js';
import { escapeHTML } from './escape-html.js';
import { renderDocument, writeWaitFrom } from './render-document.js';
import { renderPageMain } from './page-main.js';

/**
 * @typedef {object} PageRequest
 * @property {string} path the request path
 * @property {URLSearchParams} searchParams
 * @property {Date} now
 * @property {string} origin the site's origin as the request reached it (the page graph's URLs start with it)
 * @property {string} csrfToken the CSRF token of the visitor's session (session.js)
 * @property {Record<string, string>} headers extra response headers (e.g. a session cookie)
 */

/**
 * Answer an HTML route: 301 for a redirect URL, the page with its islands for a public page,
 * and a 404 page (no islands; the theme and the runtime, as on every page) for anything else, including drafts, scheduled pages,
 * private page types and missing translations.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {PageRequest} request
 */
export function servePage(req, res, { path, searchParams, now, origin, csrfToken, headers }) {
  const lang = languageOfPath(path);
  if (path === '/de') {
    sendRedirect(req, res, 301, '/de/');
    return;
  }
  const redirectTo = findRedirect(path);
  if (redirectTo) {
    sendRedirect(req, res, 301, redirectTo);
    return;
  }
  const page = findPublicPage(path, lang, now);
  if (!page) {
    const title = text(lang, 'notFound.title');
    const main = `<h1>${escapeHTML(title)}</h1>\n<p>${escapeHTML(text(lang, 'notFound.body'))}</p>`;
    const html = renderDocument({ lang, now, title, description: text(lang, 'notFound.body'), main, currentKey: null, graph: null, manifest: null, csrfToken });
    sendHTML(req, res, 404, html, headers);
    return;
  }
  const translation = /** @type {import('../catalogue.js').Translation} */ (page.translations[lang]);
  const main = renderPageMain(page, { lang, now, csrfToken, sent: searchParams.get('sent') === '1' });
  const graph = toPageGraph(page, { lang, now, origin });
  const html = renderDocument({
    lang,
    now,
    title: translation.title,
    description: translation.description ?? '',
    main,
    currentKey: page.key,
    path,
    graph,
    manifest: toToolsManifest(lang, { hasInlineData: graph !== null, catalogue: page.key === 'products', contact: page.key === 'contact' }),
    csrfToken,
    writeWaitMs: writeWaitFrom(searchParams),
  });
  sendHTML(req, res, 200, html, headers);
}
