import { text } from '../localisation.js';
import { escapeHTML } from './escape-html.js';

/** Longest name accepted by the contact form, in code points (as JSON Schema `maxLength` counts them). */
export const NAME_MAX_LENGTH = 80;

/** Longest message accepted by the contact form, in code points (as JSON Schema `maxLength` counts them). */
export const MESSAGE_MAX_LENGTH = 2000;

/** Longest email address accepted, in code points (RFC 5321 path limit; JSON Schema `maxLength` counting). */
export const EMAIL_MAX_LENGTH = 254;

/** Topic option values; labels differ from values and are localised. */
export const CONTACT_TOPICS = /** @type {const} */ (['order', 'repair', 'product', 'other']);

/**
 * The contact form's id, as capell-app/form-builder names a form (`capell-form-<instanceId>`,
 * ../shared/DESIGN.md §4); its controls are `capell-form-contact-<key>`. The form's tool is
 * `form.submit.capell-form-contact`.
 */
export const CONTACT_FORM_ID = 'capell-form-contact';

/**
 * The contact page of each language with its plain HTML form (no script: the browser, or the
 * runtime's own fetch, sends it), beside the contact page whose form is form-builder's Livewire
 * form (demo/server/form-builder/). The plain form posts to its own page.
 */
export const CONTACT_ACTIONS = Object.freeze({ en: '/contact/plain', de: '/de/kontakt/einfach' });

/** The contact page of each language, whose form is form-builder's (the page the plain one varies). */
export const CONTACT_PAGES = Object.freeze({ en: '/contact', de: '/de/kontakt' });

/**
 * The language of a plain contact page path, or undefined.
 * @param {string} path
 * @returns {import('../catalogue.js').Language | undefined}
 */
export function plainContactLanguage(path) {
  return path === CONTACT_ACTIONS.en ? 'en' : path === CONTACT_ACTIONS.de ? 'de' : undefined;
}

/**
 * The plain contact form `#capell-form-contact` (at CONTACT_ACTIONS): name, email, topic,
 * message, newsletter, the CSRF token `_token` and the honeypot `website` (hidden by the theme's
 * CSS, never to be filled), a native `action` and `method="post"` and no script: what a site
 * without Livewire writes. Its id and tool name are the form-builder form's (one form per page).
 * @param {import('../catalogue.js').Language} lang
 * @param {string} csrfToken
 * @returns {string} HTML
 */
export function renderContactForm(lang, csrfToken) {
  const options = CONTACT_TOPICS.map(
    (topic) => `<option value="${topic}">${escapeHTML(text(lang, /** @type {import('../localisation.js').TextKey} */ (`contact.topic.${topic}`)))}</option>`,
  ).join('');
  return `<form id="${CONTACT_FORM_ID}" class="contact-form" action="${CONTACT_ACTIONS[lang]}" method="post">
  <input type="hidden" name="_token" value="${escapeHTML(csrfToken)}">
  <p><label for="${CONTACT_FORM_ID}-name">${escapeHTML(text(lang, 'contact.name'))}</label>
  <input type="text" id="${CONTACT_FORM_ID}-name" name="name" maxlength="${NAME_MAX_LENGTH}" autocomplete="name" required></p>
  <p><label for="${CONTACT_FORM_ID}-email">${escapeHTML(text(lang, 'contact.email'))}</label>
  <input type="email" id="${CONTACT_FORM_ID}-email" name="email" maxlength="${EMAIL_MAX_LENGTH}" autocomplete="email" required></p>
  <p><label for="${CONTACT_FORM_ID}-topic">${escapeHTML(text(lang, 'contact.topic'))}</label>
  <select id="${CONTACT_FORM_ID}-topic" name="topic" required><option value="">${escapeHTML(text(lang, 'contact.topicPlaceholder'))}</option>${options}</select></p>
  <p><label for="${CONTACT_FORM_ID}-message">${escapeHTML(text(lang, 'contact.message'))}</label>
  <textarea id="${CONTACT_FORM_ID}-message" name="message" rows="6" maxlength="${MESSAGE_MAX_LENGTH}" required></textarea></p>
  <p class="checkbox"><input type="checkbox" id="${CONTACT_FORM_ID}-newsletter" name="newsletter" value="yes">
  <label for="${CONTACT_FORM_ID}-newsletter">${escapeHTML(text(lang, 'contact.newsletter'))}</label></p>
  <p class="honeypot" aria-hidden="true"><label for="${CONTACT_FORM_ID}-website">${escapeHTML(text(lang, 'contact.website'))}</label>
  <input type="text" id="${CONTACT_FORM_ID}-website" name="website" tabindex="-1" autocomplete="off"></p>
  <p><button type="submit">${escapeHTML(text(lang, 'contact.send'))}</button></p>
</form>`;
}
