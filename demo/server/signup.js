import { isLongerThan } from './code-points.js';
import { readBody } from './contact-submission.js';
import { EMAIL_MAX_LENGTH } from './html/contact-form.js';
import { parseQuery } from './query.js';
import { readReturnPath } from './return-path.js';

/**
 * Largest sign-up body read, in bytes: an address of EMAIL_MAX_LENGTH code points at 12 bytes
 * each once UTF-8 and percent-encoded (4 × `%XX`), a `return` path of 2048 ASCII characters at
 * 3 bytes each (`%25`), and room for the other fields.
 */
export const MAX_SIGNUP_BODY_BYTES = 16 * 1024;

/** The lists a visitor can sign up to. */
export const SIGNUP_LISTS = /** @type {const} */ (['newsletter', 'back-in-stock']);

/**
 * @typedef {object} Signup an email address the newsletter or back-in-stock form delivered
 * @property {typeof SIGNUP_LISTS[number]} list
 * @property {string} email
 * @property {string | null} sku the product, for back-in-stock
 */

/**
 * @typedef {{ status: 'signed-up', location: string, signup: Signup }
 *   | { status: 'expired' }
 *   | { status: 'invalid', field: string, message?: string } | { status: 'too-large' }} SignupOutcome
 */

/**
 * Read a POSTed sign-up form (`_token`, `list`, `email`, optional `sku`, and `return`: the
 * same-origin path to go back to, never another origin; see readReturnPath). A `_token` that
 * is not the CSRF token of the request's session is `expired` (Laravel's 419).
 * @param {import('node:http').IncomingMessage} req
 * @param {(token: unknown) => boolean} isSessionToken whether a token belongs to the request's session
 * @returns {Promise<SignupOutcome>} `invalid` carries a `message` when the generic
 *   "The <field> field is invalid." would not say what to fix
 */
export async function readSignup(req, isSessionToken) {
  const body = await readBody(req, MAX_SIGNUP_BODY_BYTES);
  if (body === undefined) return { status: 'too-large' };
  const { _token, list, email, sku, return: returnValue } = parseQuery(body);
  if (!isSessionToken(_token)) return { status: 'expired' };
  if (!SIGNUP_LISTS.includes(/** @type {typeof SIGNUP_LISTS[number]} */ (list))) return { status: 'invalid', field: 'list' };
  if (typeof email !== 'string' || isLongerThan(email, EMAIL_MAX_LENGTH) || !/^[^\s@]+@[^\s@]+$/.test(email)) return { status: 'invalid', field: 'email' };
  const back = readReturnPath(returnValue, '/');
  if (!back.ok) return { status: 'invalid', field: 'return', message: back.reason };
  return {
    status: 'signed-up',
    location: `${back.path}?signed-up=1`,
    signup: { list: /** @type {typeof SIGNUP_LISTS[number]} */ (list), email, sku: typeof sku === 'string' ? sku : null },
  };
}
