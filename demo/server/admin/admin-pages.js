import { escapeHTML } from '../html/escape-html.js';
import { RUNTIME_SRC } from '../html/render-document.js';
import { ACTORS } from './actors.js';

/**
 * The admin's HTML pages. Pages behind the sign-in load the runtime with the admin registry
 * named (`data-admin-registry`: the runtime fetches `GET /admin/agent/v1/tools` itself) and carry
 * the admin CSRF token in `<meta name="csrf-token">`; no page ever holds a tool declaration or a
 * confirmation token. Source: Capell Agent Schema, "Navigation, forms, and admin tools": "Admin
 * declarations and confirmation tokens never enter public HTML"; admin contract, "Admin pages".
 */

/** Where the sign-in form lives. */
export const ADMIN_SIGN_IN_PATH = '/admin/sign-in';

/** Where sign-out posts. */
export const ADMIN_SIGN_OUT_PATH = '/admin/sign-out';

/** Why the sign-out form is no agent tool (the runtime's audit reads it). */
export const SIGN_OUT_AGENT_REASON = 'Signing out is the editor\'s own step; an agent never ends the session.';

/**
 * @typedef {object} AdminViewer the signed-in editor a page is rendered for
 * @property {{ id: string, name: string }} actor
 * @property {string} csrfToken the admin CSRF token of their session
 */

/**
 * A whole admin document.
 * @param {{ title: string, main: string, viewer?: AdminViewer, csrfToken?: string }} parts
 *   `viewer`: a signed-in page (runtime with the admin registry, admin CSRF token, sign-out);
 *   without it `csrfToken` is the anonymous session's (the sign-in form)
 * @returns {string}
 */
function renderAdminDocument({ title, main, viewer, csrfToken }) {
  const token = viewer?.csrfToken ?? csrfToken ?? '';
  const runtime = viewer ? `\n<script type="module" src="${RUNTIME_SRC}" data-capell-webmcp data-admin-registry></script>` : '';
  const header = viewer
    ? `<header class="site-header"><a class="brand" href="/admin/">Capell admin</a>
<p class="admin-actor">Signed in as <strong>${escapeHTML(viewer.actor.name)}</strong></p>
<form method="post" action="${ADMIN_SIGN_OUT_PATH}" data-agent-tools="none" data-agent-tools-reason="${escapeHTML(SIGN_OUT_AGENT_REASON)}"><input type="hidden" name="_token" value="${escapeHTML(token)}"><button type="submit">Sign out</button></form></header>`
    : '<header class="site-header"><span class="brand">Capell admin</span></header>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHTML(title)} · Capell admin</title>
<meta name="csrf-token" content="${escapeHTML(token)}">
<link rel="icon" href="/site/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/site/theme.css">${runtime}
</head>
<body>
${header}
<main id="main">
${main}
</main>
</body>
</html>
`;
}

/**
 * The sign-in page: a form (actor, password, the anonymous session's `_token`) and the demo
 * passwords (this is a demo).
 * @param {string} csrfToken the anonymous session's CSRF token
 * @param {string} [problem] one line shown above the form (e.g. a wrong password)
 * @returns {string}
 */
export function renderSignInPage(csrfToken, problem) {
  const options = ACTORS.map((actor) => `<option value="${escapeHTML(actor.id)}">${escapeHTML(actor.name)}</option>`).join('');
  const passwords = ACTORS.map((actor) => `<li><code>${escapeHTML(actor.id)}</code>: <code>${escapeHTML(actor.password)}</code></li>`).join('');
  return renderAdminDocument({
    title: 'Sign in',
    csrfToken,
    main: `<h1>Sign in to the admin</h1>${problem ? `\n<p class="problem" role="alert">${escapeHTML(problem)}</p>` : ''}
<form method="post" action="${ADMIN_SIGN_IN_PATH}">
<input type="hidden" name="_token" value="${escapeHTML(csrfToken)}">
<p><label for="actor">Editor</label> <select id="actor" name="actor">${options}</select></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>
<p>This is a demo; the passwords are:</p>
<ul>${passwords}</ul>`,
  });
}

/**
 * A page with one line of text (401, 419).
 * @param {string} title
 * @param {string} line
 * @returns {string}
 */
export function renderAdminNotice(title, line) {
  return renderAdminDocument({ title, main: `<h1>${escapeHTML(title)}</h1>\n<p>${escapeHTML(line)}</p>\n<p><a href="${ADMIN_SIGN_IN_PATH}">Sign in</a></p>` });
}

/**
 * A table of a site's pages.
 * @param {string} siteKey
 * @param {import('./admin-store.js').PageContent[]} pages
 * @returns {string}
 */
function renderPageTable(siteKey, pages) {
  const rows = pages.map((page) => `<tr><td><a href="/admin/sites/${escapeHTML(siteKey)}/pages/${escapeHTML(page.page)}">${escapeHTML(page.draft?.values.title ?? page.published.values.title)}</a></td><td><code>${escapeHTML(page.path)}</code></td><td>${escapeHTML(page.status)}</td><td>${page.draft ? 'draft changes' : '–'}</td></tr>`).join('\n');
  return `<table class="admin-pages"><thead><tr><th>Page</th><th>Path</th><th>Status</th><th>Draft</th></tr></thead>\n<tbody>\n${rows}\n</tbody></table>`;
}

/**
 * The dashboard: the actor, the sites they may edit with their pages and draft state.
 * @param {AdminViewer} viewer
 * @param {{ key: string, name: string, pages: import('./admin-store.js').PageContent[] }[]} sites
 * @param {boolean} globalAdmin whether the actor may change the global property sets
 * @returns {string}
 */
export function renderDashboard(viewer, sites, globalAdmin) {
  const sections = sites.map((site) => `<section class="admin-site" data-site="${escapeHTML(site.key)}">
<h2><a href="/admin/sites/${escapeHTML(site.key)}/">${escapeHTML(site.name)}</a> <small>(site ${escapeHTML(site.key)})</small></h2>
${renderPageTable(site.key, site.pages)}
</section>`).join('\n');
  return renderAdminDocument({
    title: 'Dashboard',
    viewer,
    main: `<h1>Welcome, ${escapeHTML(viewer.actor.name)}</h1>
<p>Sites you may edit: ${sites.length === 0 ? 'none' : sites.map((site) => escapeHTML(site.name)).join(', ')}.${globalAdmin ? ' You may also change the global property sets.' : ''}</p>
<p>An agent beside you can read these pages and propose changes; every change waits for your confirmation.</p>
${sections}`,
  });
}

/**
 * A site's page list.
 * @param {AdminViewer} viewer
 * @param {{ key: string, name: string }} site
 * @param {import('./admin-store.js').PageContent[]} pages
 * @returns {string}
 */
export function renderSitePage(viewer, site, pages) {
  return renderAdminDocument({
    title: site.name,
    viewer,
    main: `<h1>${escapeHTML(site.name)}</h1>\n${renderPageTable(site.key, pages)}\n<p><a href="/admin/">Back to the dashboard</a></p>`,
  });
}

/**
 * One page: its stored (published) values beside its draft.
 * @param {AdminViewer} viewer
 * @param {{ key: string, name: string }} site
 * @param {import('./admin-store.js').PageContent} content
 * @returns {string}
 */
export function renderPageView(viewer, site, content) {
  const names = Object.keys(content.published.values);
  const rows = names.map((name) => {
    const stored = content.published.values[name] ?? '';
    const draft = content.draft?.values[name];
    return `<tr data-property="${escapeHTML(name)}"><th scope="row"><code>${escapeHTML(name)}</code></th><td class="stored">${escapeHTML(stored)}</td><td class="draft">${draft === undefined ? '–' : escapeHTML(draft)}</td></tr>`;
  }).join('\n');
  /** @param {{ taxonomy: string, term: string }[]} terms */
  const termText = (terms) => terms.map((term) => `${term.taxonomy}: ${term.term}`).join(', ') || '–';
  return renderAdminDocument({
    title: `${content.published.values.title} · ${site.name}`,
    viewer,
    main: `<h1>${escapeHTML(content.draft?.values.title ?? content.published.values.title)}</h1>
<p><code>${escapeHTML(content.path)}</code> on ${escapeHTML(site.name)}: <strong class="status">${escapeHTML(content.status)}</strong>${content.draft ? ', with draft changes' : ''}</p>
<table class="admin-values"><thead><tr><th>Value</th><th>${content.status === 'published' ? 'Published' : 'Stored'}</th><th>Draft</th></tr></thead>
<tbody>
${rows}
<tr data-property="terms"><th scope="row">terms</th><td class="stored">${escapeHTML(termText(content.published.terms))}</td><td class="draft">${content.draft ? escapeHTML(termText(content.draft.terms)) : '–'}</td></tr>
</tbody></table>
<p><a href="/admin/sites/${escapeHTML(site.key)}/">All pages of ${escapeHTML(site.name)}</a></p>`,
  });
}
