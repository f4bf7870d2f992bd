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

/** Where each language's contact form posts. */
export const CONTACT_ACTIONS = Object.freeze({ en: '/contact', de: '/de/kontakt' });

/**
 * The public contact form `#capell-form-contact`: name, email, topic, message, newsletter, the CSRF
 * token `_token` and the honeypot `website` (hidden by the theme's CSS, never to be filled). Its
 * controls keep native `name` attributes (form-builder's Livewire markup is not played yet).
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
