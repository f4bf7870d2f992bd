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

/** Where each language's contact form posts. */
export const CONTACT_ACTIONS = Object.freeze({ en: '/contact', de: '/de/kontakt' });

/**
 * The public contact form `#contact`: name, email, topic, message, newsletter, the CSRF token
 * `_token` and the honeypot `website` (hidden by the theme's CSS, never to be filled).
 * @param {import('../catalogue.js').Language} lang
 * @param {string} csrfToken
 * @returns {string} HTML
 */
export function renderContactForm(lang, csrfToken) {
  const options = CONTACT_TOPICS.map(
    (topic) => `<option value="${topic}">${escapeHTML(text(lang, /** @type {import('../localisation.js').TextKey} */ (`contact.topic.${topic}`)))}</option>`,
  ).join('');
  return `<form id="contact" class="contact-form" action="${CONTACT_ACTIONS[lang]}" method="post">
  <input type="hidden" name="_token" value="${escapeHTML(csrfToken)}">
  <p><label for="contact-name">${escapeHTML(text(lang, 'contact.name'))}</label>
  <input type="text" id="contact-name" name="name" maxlength="${NAME_MAX_LENGTH}" autocomplete="name" required></p>
  <p><label for="contact-email">${escapeHTML(text(lang, 'contact.email'))}</label>
  <input type="email" id="contact-email" name="email" maxlength="${EMAIL_MAX_LENGTH}" autocomplete="email" required></p>
  <p><label for="contact-topic">${escapeHTML(text(lang, 'contact.topic'))}</label>
  <select id="contact-topic" name="topic" required><option value="">${escapeHTML(text(lang, 'contact.topicPlaceholder'))}</option>${options}</select></p>
  <p><label for="contact-message">${escapeHTML(text(lang, 'contact.message'))}</label>
  <textarea id="contact-message" name="message" rows="6" maxlength="${MESSAGE_MAX_LENGTH}" required></textarea></p>
  <p class="checkbox"><input type="checkbox" id="contact-newsletter" name="newsletter" value="yes">
  <label for="contact-newsletter">${escapeHTML(text(lang, 'contact.newsletter'))}</label></p>
  <p class="honeypot" aria-hidden="true"><label for="contact-website">${escapeHTML(text(lang, 'contact.website'))}</label>
  <input type="text" id="contact-website" name="website" tabindex="-1" autocomplete="off"></p>
  <p><button type="submit">${escapeHTML(text(lang, 'contact.send'))}</button></p>
</form>`;
}
