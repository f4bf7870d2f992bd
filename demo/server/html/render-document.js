import { API_BASES, text } from '../localisation.js';
import { renderAgentData } from '../islands.js';
import { readPages } from '../page-store.js';
import { toPublicUrl } from '../public-pages.js';
import { escapeHTML } from './escape-html.js';
import { renderNewsletterForm } from './signup-forms.js';
import { LIVEWIRE_STYLE } from '../form-builder/render-form.js';
import { LIVEWIRE_UPDATE_PATH } from '../form-builder/livewire-component.js';

/** The demo's stand-in for Livewire's client script (demo/site/livewire-stand-in.js). */
export const LIVEWIRE_STAND_IN_SRC = '/site/livewire-stand-in.js';

/** @typedef {import('../catalogue.js').Language} Language */

/** Pages linked from the main navigation, in order. */
const NAVIGATION_KEYS = ['home', 'products', 'journal', 'stockists', 'about', 'contact'];

/** The runtime bundle the theme loads. */
export const RUNTIME_SRC = '/dist/capell-webmcp.js';

/** Where the page that explains the site to agents (and their people) lives, per language (agents-page.js). */
export const AGENTS_PATHS = Object.freeze(/** @type {Record<Language, string>} */ ({ en: '/agents', de: '/de/agents' }));

/**
 * The query that gives a page's runtime another write wait (`?write-wait-ms=2000`: its tag's
 * `data-write-wait-ms`, an integer from 1 to 600000): for agent clients whose browser the tests do
 * not drive, so they cannot edit the page, and whose write call would otherwise wait the default 10 s.
 */
export const WRITE_WAIT_QUERY = 'write-wait-ms';

/**
 * `?write-wait-ms=` as a `data-write-wait-ms` value.
 * @param {URLSearchParams} searchParams the page request's query
 * @returns {number | undefined} ms, or undefined when absent or not an integer from 1 to 600000
 */
export function writeWaitFrom(searchParams) {
  const given = searchParams.get(WRITE_WAIT_QUERY);
  const ms = given !== null && /^\d{1,6}$/.test(given) ? Number(given) : NaN;
  return ms >= 1 && ms <= 600_000 ? ms : undefined;
}

/** The query that opens capell-webmcp's inspector on any page (`?capell-webmcp=inspect`). */
export const INSPECT_QUERY = '?capell-webmcp=inspect';

/**
 * @typedef {object} DocumentParts
 * @property {Language} lang
 * @property {Date} now
 * @property {string} title
 * @property {string} description
 * @property {string} main the content of `<main>`
 * @property {string | null} currentKey key of the page shown, or null (404)
 * @property {Record<string, unknown> | null} graph the page graph island, or null
 * @property {Record<string, unknown> | null} manifest the tools island, or null
 * @property {string} [path] the page's path (the newsletter form comes back to it)
 * @property {string} [csrfToken] the session's CSRF token, written as `<meta name="csrf-token">`
 *   (Laravel's convention; write tools send it in `X-CSRF-TOKEN`) and as the newsletter form's
 *   `_token` (without it that form's post is refused with 419)
 * @property {string[]} [scripts] the page's own module scripts, loaded after the runtime's
 * @property {number} [writeWaitMs] the runtime's `data-write-wait-ms`, when not its default (WRITE_WAIT_QUERY)
 * @property {boolean} [livewire] the page holds form-builder's Livewire forms: Livewire's injected
 *   style ends `<head>` and the Livewire client (the demo's stand-in, its tag naming the update
 *   endpoint in `data-update-uri` and the token in `data-csrf`, as Livewire 4's tag does) ends `<body>`
 */

/**
 * A complete HTML document in the demo theme: head with the theme, the runtime script naming AgentGate (`data-agentgate`: the site's manifest at
 * `/.well-known/agentgate-tools.json`) and the demo agent's signer script; every page, the 404
 * and the inbox too, so `send_message` is registered on each; body with a skip link, header navigation, `<main>` and a
 * footer holding the newsletter form (marked `data-agent-tools="none"`), `#agent-status` and the
 * "For agents" links (the inspector on this page, `?capell-webmcp=inspect`, and `/agents`), and
 * at the end of `<body>` the page graph island and the tools island, where Capell's frontend
 * writes them (its BodyEnd render hook; islands.js renderAgentData). No inline script runs: the
 * only inline scripts are the two JSON islands.
 * @param {DocumentParts} parts
 * @returns {string}
 */
export function renderDocument({ lang, now, title, description, main, currentKey, graph, manifest, path, csrfToken, scripts = [], writeWaitMs, livewire = false }) {
  const other = lang === 'en' ? 'de' : 'en';
  const navigation = NAVIGATION_KEYS.map((key) => {
    const url = toPublicUrl(key, lang, now);
    const page = readPages().find((candidate) => candidate.key === key);
    if (!url || !page) return '';
    const current = key === currentKey ? ' aria-current="page"' : '';
    return `<li><a href="${escapeHTML(url)}"${current}>${escapeHTML(key === 'home' ? text(lang, 'nav.home') : (page.translations[lang]?.title ?? key))}</a></li>`;
  }).join('');
  const translatedUrl = currentKey ? toPublicUrl(currentKey, other, now) : null;
  const switchUrl = translatedUrl ?? toPublicUrl('home', other, now) ?? '/';
  const alternate = translatedUrl ? `\n<link rel="alternate" hreflang="${other}" href="${escapeHTML(translatedUrl)}">` : '';
  const runtime = `\n<script type="module" src="${RUNTIME_SRC}" data-capell-webmcp data-api-base="${API_BASES[lang]}" data-agentgate${writeWaitMs === undefined ? '' : ` data-write-wait-ms="${writeWaitMs}"`}></script>`
    + scripts.map((src) => `\n<script type="module" src="${escapeHTML(src)}"></script>`).join('');
  const siteName = text(lang, 'site.name');
  const fullTitle = title === siteName ? siteName : `${title} · ${siteName}`;
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHTML(fullTitle)}</title>
<meta name="description" content="${escapeHTML(description)}">${csrfToken ? `\n<meta name="csrf-token" content="${escapeHTML(csrfToken)}">` : ''}
<link rel="icon" href="/site/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/site/theme.css">${alternate}
<script type="module" src="/site/theme.js"></script>${runtime}${livewire ? `\n${LIVEWIRE_STYLE}` : ''}
</head>
<body>
<a class="skip-link" href="#main">${escapeHTML(text(lang, 'nav.skip'))}</a>
<header class="site-header">
<a class="brand" href="${escapeHTML(toPublicUrl('home', lang, now) ?? '/')}">${escapeHTML(siteName)}</a>
<nav aria-label="${escapeHTML(text(lang, 'nav.label'))}"><ul>${navigation}</ul></nav>
<a class="language" href="${escapeHTML(switchUrl)}" hreflang="${other}" lang="${other}">${escapeHTML(text(lang, 'nav.language'))}</a>
</header>
<main id="main">
${main}
</main>
<footer class="site-footer">
<p>${escapeHTML(text(lang, 'footer.note'))}</p>
${renderNewsletterForm(lang, path ?? toPublicUrl('home', lang, now) ?? '/', csrfToken ?? '')}
<p id="agent-status" role="status">${escapeHTML(text(lang, 'footer.agentStatus'))}</p>
<nav class="for-agents" aria-label="${escapeHTML(text(lang, 'agents.nav'))}"><p><strong>${escapeHTML(text(lang, 'agents.nav'))}:</strong> <a class="open-inspector" href="${INSPECT_QUERY}">${escapeHTML(text(lang, 'agents.inspect'))}</a> · <a class="agents-page" href="${AGENTS_PATHS[lang]}">${escapeHTML(text(lang, 'agents.page'))}</a></p></nav>
</footer>
${renderAgentData(graph, manifest)}${livewire ? `<script type="module" src="${LIVEWIRE_STAND_IN_SRC}" data-csrf="${escapeHTML(csrfToken ?? '')}" data-update-uri="${LIVEWIRE_UPDATE_PATH}"></script>\n` : ''}</body>
</html>
`;
}
