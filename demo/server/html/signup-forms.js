import { text } from '../localisation.js';
import { escapeHTML } from './escape-html.js';

/** Where both sign-up forms post (demo/server/signup.js). */
export const SIGNUP_ACTION = '/signups';

/**
 * Why the newsletter form is not an agent tool: the audit reads it from `data-agent-tools-reason`
 * (Capell Agent Schema, "Tool declarations": `agent_tools: none` with a human-readable reason).
 */
export const NEWSLETTER_AGENT_REASON = 'The footer sign-up is for people; agents use newsletter.subscribe on the contact page, which the visitor confirms.';

/**
 * The footer's newsletter sign-up `#newsletter`, marked `data-agent-tools="none"` with a reason:
 * an interactive public surface that is intentionally not actionable by agents.
 * @param {import('../catalogue.js').Language} lang
 * @param {string} returnPath the page to come back to after signing up
 * @param {string} csrfToken the session's CSRF token, sent as `_token`
 * @returns {string} HTML
 */
export function renderNewsletterForm(lang, returnPath, csrfToken) {
  return `<form id="newsletter" class="signup-form" action="${SIGNUP_ACTION}" method="post" data-agent-tools="none" data-agent-tools-reason="${escapeHTML(NEWSLETTER_AGENT_REASON)}">
  <input type="hidden" name="_token" value="${escapeHTML(csrfToken)}"><input type="hidden" name="list" value="newsletter"><input type="hidden" name="return" value="${escapeHTML(returnPath)}">
  <label for="newsletter-email">${escapeHTML(text(lang, 'signup.newsletter'))}</label>
  <input type="email" id="newsletter-email" name="email" autocomplete="email" required>
  <button type="submit">${escapeHTML(text(lang, 'signup.newsletter.send'))}</button>
</form>`;
}

/**
 * "Notify me when it is back in stock" `#back-in-stock` on an out-of-stock product page. The demo
 * declares no tool for it and does not mark it, so the runtime's audit reports it: the demo's
 * example of an undeclared interactive surface.
 * @param {import('../catalogue.js').Language} lang
 * @param {string} sku
 * @param {string} returnPath
 * @param {string} csrfToken the session's CSRF token, sent as `_token`
 * @returns {string} HTML
 */
export function renderBackInStockForm(lang, sku, returnPath, csrfToken) {
  return `<form id="back-in-stock" class="signup-form" action="${SIGNUP_ACTION}" method="post">
  <input type="hidden" name="_token" value="${escapeHTML(csrfToken)}"><input type="hidden" name="list" value="back-in-stock"><input type="hidden" name="sku" value="${escapeHTML(sku)}"><input type="hidden" name="return" value="${escapeHTML(returnPath)}">
  <label for="back-in-stock-email">${escapeHTML(text(lang, 'signup.backInStock'))}</label>
  <input type="email" id="back-in-stock-email" name="email" autocomplete="email" required>
  <button type="submit">${escapeHTML(text(lang, 'signup.backInStock.send'))}</button>
</form>`;
}
