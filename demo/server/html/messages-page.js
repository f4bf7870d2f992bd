import { text } from '../localisation.js';
import { escapeHTML } from './escape-html.js';
import { renderDocument } from './render-document.js';

/** Where a person sees what the contact form delivered. */
export const MESSAGES_PATH = '/contact/messages';

/**
 * The page listing the contact messages the demo received (newest first), so a person can see
 * what arrived. Not a public Capell page: no islands (the theme and the runtime, as on every page).
 * @param {import('../contact-submission.js').ContactSubmission[]} submissions
 * @param {Date} now
 * @param {string} csrfToken the visitor's CSRF token, for the footer's newsletter form
 * @returns {string} HTML
 */
export function renderMessagesPage(submissions, now, csrfToken) {
  const lang = 'en';
  const title = text(lang, 'messages.title');
  const rows = [...submissions].reverse().map((submission) => `<article class="received-message">
<h2>${escapeHTML(submission.name)} &lt;${escapeHTML(submission.email)}&gt;</h2>
<dl>
<dt>${escapeHTML(text(lang, 'contact.topic'))}</dt><dd>${escapeHTML(submission.topic)}</dd>
<dt>${escapeHTML(text(lang, 'contact.newsletter'))}</dt><dd>${submission.newsletter ? 'yes' : 'no'}</dd>
<dt>${escapeHTML(text(lang, 'messages.language'))}</dt><dd>${escapeHTML(submission.lang)}</dd>${submission.form ? `
<dt>Form</dt><dd>${escapeHTML(submission.form)}</dd>${Object.entries(submission.values ?? {})
    .filter(([key]) => !['name', 'email', 'topic', 'message', 'newsletter'].includes(key))
    .map(([key, value]) => `<dt>${escapeHTML(key)}</dt><dd>${escapeHTML(value ?? '')}</dd>`).join('')}` : ''}
</dl>
<p>${escapeHTML(submission.message)}</p>
</article>`).join('\n');
  const main = `<h1>${escapeHTML(title)}</h1>\n<p>${escapeHTML(text(lang, 'messages.intro'))}</p>\n${rows || `<p>${escapeHTML(text(lang, 'messages.empty'))}</p>`}`;
  return renderDocument({ lang, now, title, description: text(lang, 'messages.intro'), main, currentKey: null, graph: null, manifest: null, csrfToken });
}
