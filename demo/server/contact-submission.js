import { isLongerThan } from './code-points.js';
import { CONTACT_ACTIONS, CONTACT_TOPICS, EMAIL_MAX_LENGTH, MESSAGE_MAX_LENGTH, NAME_MAX_LENGTH } from './html/contact-form.js';
import { parseQuery } from './query.js';

/**
 * Largest form body read, in bytes: every text field at its `maxLength` in code points, at 12
 * bytes a code point once UTF-8 and percent-encoded (4 × `%XX`), plus 4 KiB for the token, topic
 * and field names. A value the declared schema accepts must never be refused for its size.
 */
export const MAX_FORM_BODY_BYTES = 12 * (NAME_MAX_LENGTH + EMAIL_MAX_LENGTH + MESSAGE_MAX_LENGTH) + 4 * 1024;

/**
 * @typedef {object} ContactSubmission a message the contact form delivered
 * @property {import('./catalogue.js').Language} lang
 * @property {string} name
 * @property {string} email
 * @property {string} topic
 * @property {string} message
 * @property {boolean} newsletter
 * @property {string} [form] the form-builder form it came from (`capell-form-contact`,
 *   `capell-form-product-enquiry`); absent for the plain contact form
 * @property {Record<string, unknown>} [values] every field of that form-builder form as validated
 *   (hidden fields included, the honeypot never)
 */

/**
 * Read a request body up to a byte limit.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit bytes
 * @returns {Promise<string | undefined>} undefined when the body is larger than `limit`
 */
export async function readBody(req, limit) {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * @typedef {{ status: 'sent', location: string, submission: ContactSubmission | null }
 *   | { status: 'expired' } | { status: 'invalid', field: string } | { status: 'too-large' }} ContactOutcome
 */

/**
 * Read a POSTed contact form. A `_token` that is not the CSRF token of the request's session
 * means the form expired (Laravel's 419); a filled honeypot `website` is treated as sent but
 * delivers nothing (spam is dropped quietly so bots learn nothing). Lengths are counted in code
 * points, as the declared `maxLength` counts them (code-points.js).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('./catalogue.js').Language} lang
 * @param {(token: unknown) => boolean} isSessionToken whether a token belongs to the request's session
 * @returns {Promise<ContactOutcome>}
 */
export async function readContactSubmission(req, lang, isSessionToken) {
  const body = await readBody(req, MAX_FORM_BODY_BYTES);
  if (body === undefined) return { status: 'too-large' };
  const fields = parseQuery(body);
  if (!isSessionToken(fields._token)) return { status: 'expired' };
  const location = `${CONTACT_ACTIONS[lang]}?sent=1`;
  if (typeof fields.website === 'string' && fields.website !== '') return { status: 'sent', location, submission: null };
  const { name, email, topic, message, newsletter } = fields;
  if (typeof name !== 'string' || name.trim() === '' || isLongerThan(name, NAME_MAX_LENGTH)) return { status: 'invalid', field: 'name' };
  if (typeof email !== 'string' || isLongerThan(email, EMAIL_MAX_LENGTH) || !/^[^\s@]+@[^\s@]+$/.test(email)) return { status: 'invalid', field: 'email' };
  if (typeof topic !== 'string' || !CONTACT_TOPICS.includes(/** @type {typeof CONTACT_TOPICS[number]} */ (topic))) {
    return { status: 'invalid', field: 'topic' };
  }
  // A browser sends a textarea's line breaks as CRLF; the text the person (or agent) wrote had
  // one character per break, which is what the schema's maxLength counted.
  if (typeof message !== 'string' || message.trim() === '' || isLongerThan(message.replace(/\r\n/g, '\n'), MESSAGE_MAX_LENGTH)) {
    return { status: 'invalid', field: 'message' };
  }
  return { status: 'sent', location, submission: { lang, name, email, topic, message, newsletter: newsletter === 'yes' } };
}
