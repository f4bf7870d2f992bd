import { toPageGraph } from '../page-graph.js';
import { findPublicPage, findRedirect } from '../public-pages.js';
import { languageOfPath, text } from '../localisation.js';
import { sendHTML, sendRedirect } from '../responses.js';
import { toToolsManifest } from '../tools-manifest.js';
import { escapeHTML } from './escape-html.js';
import { renderDocument, writeWaitFrom } from './render-document.js';
import { renderPageMain } from './page-main.js';
import { CONTACT_PAGES, plainContactLanguage } from './contact-form.js';
import { ENQUIRY_PAGE_KEY } from '../form-builder/forms.js';
import { LIVEWIRE_STYLE_CSS } from '../form-builder/render-form.js';
import { CONTENT_SECURITY_POLICY } from '../responses.js';
import { createHash } from 'node:crypto';

/** The CSP source that lets Livewire's injected style apply (its hash, as a site with a strict policy allows it). */
const LIVEWIRE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(LIVEWIRE_STYLE_CSS).digest('base64')}'`;

/**
 * A Content-Security-Policy that also allows Livewire's injected style (by its hash).
 * @param {string} policy
 * @returns {string}
 */
export function allowLivewireStyle(policy) {
  return policy.replace("style-src 'self'", `style-src 'self' ${LIVEWIRE_STYLE_SOURCE}`);
}

/**
 * @typedef {object} PageRequest
 * @property {string} path the request path
 * @property {URLSearchParams} searchParams
 * @property {Date} now
 * @property {string} origin the site's origin as the request reached it (the page graph's URLs start with it)
 * @property {string} csrfToken the CSRF token of the visitor's session (session.js)
 * @property {Record<string, string>} headers extra response headers (e.g. a session cookie)
 * @property {ReturnType<typeof import('../form-builder/livewire-component.js').createLivewireComponents>} livewire
 *   the site's Livewire components (form-builder's forms are mounted with it)
 */

/**
 * Answer an HTML route: 301 for a redirect URL, the page with its islands for a public page,
 * and a 404 page (no islands; the theme and the runtime, as on every page) for anything else, including drafts, scheduled pages,
 * private page types and missing translations.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {PageRequest} request
 */
export function servePage(req, res, { path, searchParams, now, origin, csrfToken, headers, livewire }) {
  const lang = languageOfPath(path);
  // The contact page with a plain HTML form instead of form-builder's: the same Capell page
  // (its page graph names /contact), at its own address.
  const plainLang = plainContactLanguage(path);
  const pagePath = plainLang ? CONTACT_PAGES[plainLang] : path;
  if (path === '/de') {
    sendRedirect(req, res, 301, '/de/');
    return;
  }
  const redirectTo = findRedirect(path);
  if (redirectTo) {
    sendRedirect(req, res, 301, redirectTo);
    return;
  }
  const page = findPublicPage(pagePath, lang, now);
  if (!page) {
    const title = text(lang, 'notFound.title');
    const main = `<h1>${escapeHTML(title)}</h1>\n<p>${escapeHTML(text(lang, 'notFound.body'))}</p>`;
    const html = renderDocument({ lang, now, title, description: text(lang, 'notFound.body'), main, currentKey: null, graph: null, manifest: null, csrfToken });
    sendHTML(req, res, 404, html, headers);
    return;
  }
  const translation = /** @type {import('../catalogue.js').Translation} */ (page.translations[lang]);
  const plain = plainLang !== undefined;
  const main = renderPageMain(page, { lang, now, csrfToken, sent: searchParams.get('sent') === '1', plain, path: pagePath, livewire });
  // form-builder's forms: the contact page's (not its plain twin) and the enquiry form's product page.
  const usesLivewire = !plain && (page.view === 'contact' || page.key === ENQUIRY_PAGE_KEY);
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
    manifest: toToolsManifest(lang, { hasInlineData: graph !== null, catalogue: page.key === 'products', contact: page.key === 'contact', plainContactForm: plain }),
    csrfToken,
    writeWaitMs: writeWaitFrom(searchParams),
    livewire: usesLivewire,
  });
  sendHTML(req, res, 200, html, usesLivewire ? { ...headers, 'Content-Security-Policy': allowLivewireStyle(headers['Content-Security-Policy'] ?? CONTENT_SECURITY_POLICY) } : headers);
}
