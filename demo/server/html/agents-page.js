import { text } from '../localisation.js';
import { toToolsManifest } from '../tools-manifest.js';
import { escapeHTML } from './escape-html.js';
import { AGENTS_PATHS, INSPECT_QUERY, renderDocument } from './render-document.js';

export { AGENTS_PATHS, INSPECT_QUERY };

/** @typedef {import('../catalogue.js').Language} Language */

/** The page's own script: live tools, the WebMCP line and the Run buttons (no inline script: strict CSP). */
export const AGENTS_SCRIPT_SRC = '/site/agents.js';

/**
 * A first input for each read tool's Run button, valid against its schema and answered with data
 * by the demo catalogue. A tool without one starts from `{}`.
 */
export const EXAMPLE_INPUTS = Object.freeze(/** @type {Record<string, object>} */ ({
  'site.pages.query': { set: 'commerce.product', page: { size: 3 } },
  'site.taxonomies.browse': { key: 'categories' },
  'site.navigation': {},
  'site.search': { q: 'trail' },
  'catalogue.lookup': { sku: 'CW-1001' },
}));

/**
 * The tools island of the page: the site's tools but `page.get` (this page is no page of Core's,
 * so it has no page graph to return, and Core declares `page.get` only beside a graph).
 * @param {Language} lang
 */
export function agentsPageManifest(lang) {
  return toToolsManifest(lang, { hasInlineData: false });
}

/**
 * `/agents` (`/de/agents`): what an agent can do on this site and how a person tries a tool by
 * hand. The list of tools is rendered from the page's own tools island (so it reads without
 * script); `/site/agents.js` then marks which are registered live, adds the tools registered from
 * elsewhere (AgentGate), and, when WebMCP is on, shows a Run button per read tool that calls it
 * through `document.modelContext.executeTool` and shows the answer; when WebMCP is off it says how
 * to turn it on. Nothing here is a `<form>`: the audit would rightly ask for a tool for it.
 * @param {Language} lang
 * @param {Date} now
 * @param {string} csrfToken the visitor's CSRF token, for the footer's newsletter form
 * @param {string} origin the site's origin as the browser reached it, for the example command
 * @returns {string} HTML
 */
export function renderAgentsPage(lang, now, csrfToken, origin) {
  const manifest = agentsPageManifest(lang);
  const tools = manifest.tools.map((tool) => {
    const name = String(tool.name);
    const description = typeof tool.description === 'string' ? tool.description
      : String(manifest.messages[/** @type {string} */ (tool.descriptionKey)] ?? '');
    const effect = tool.effect === 'write' ? 'write' : 'read';
    const id = `try-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
    const tryIt = effect === 'read'
      ? `\n<div class="try" hidden>
<label for="${id}-input">${escapeHTML(text(lang, 'agents.input').replace('{tool}', name))}</label>
<textarea id="${id}-input" class="try-input" rows="2" spellcheck="false">${escapeHTML(JSON.stringify(EXAMPLE_INPUTS[name] ?? {}))}</textarea>
<button type="button" class="try-run">${escapeHTML(text(lang, 'agents.run').replace('{tool}', name))}</button>
<pre class="try-answer" role="status" aria-live="polite" tabindex="0"></pre>
</div>`
      : '';
    return `<li class="agent-tool" data-tool="${escapeHTML(name)}" data-effect="${effect}">
<h3><code>${escapeHTML(name)}</code> <span class="effect">(${escapeHTML(text(lang, `agents.${effect}`))})</span> <span class="live-state"></span></h3>
<p>${escapeHTML(description)}</p>${tryIt}
</li>`;
  }).join('\n');
  const command = `chromium --enable-features=WebMCPTesting ${origin}${AGENTS_PATHS[lang]}`;
  const main = `<h1>${escapeHTML(text(lang, 'agents.title'))}</h1>
<p class="lead">${escapeHTML(text(lang, 'agents.lead'))}</p>
<p id="agents-webmcp" class="notice" role="status">${escapeHTML(text(lang, 'agents.checking'))}</p>
<h2>${escapeHTML(text(lang, 'agents.tools'))}</h2>
<p>${escapeHTML(text(lang, 'agents.toolsIntro'))}</p>
<ul class="agent-tools">
${tools}
</ul>
<h2 id="try">${escapeHTML(text(lang, 'agents.try'))}</h2>
<ol class="try-steps">
<li>${escapeHTML(text(lang, 'agents.step1'))}<br><code class="command">${escapeHTML(command)}</code></li>
<li>${escapeHTML(text(lang, 'agents.step2'))}</li>
<li>${escapeHTML(text(lang, 'agents.step3'))}</li>
<li><a href="${escapeHTML(AGENTS_PATHS[lang] + INSPECT_QUERY)}">${escapeHTML(text(lang, 'agents.step4'))}</a></li>
</ol>
<h2 id="signed">${escapeHTML(text(lang, 'agents.signed'))}</h2>
<p>${escapeHTML(text(lang, 'agents.signedIntro'))}</p>
<p><code class="command">${escapeHTML(`npm run agent -- ${origin}${AGENTS_PATHS[lang]}`)}</code></p>`;
  return renderDocument({
    lang, now, title: text(lang, 'agents.title'), description: text(lang, 'agents.lead'), main, currentKey: null,
    graph: null, manifest, path: AGENTS_PATHS[lang], csrfToken, scripts: [AGENTS_SCRIPT_SRC],
  });
}
