import { parseQuery } from './query.js';

/** Largest sign-up body read, in bytes. */
export const MAX_SIGNUP_BODY_BYTES = 4 * 1024;

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
 *   | { status: 'invalid', field: string } | { status: 'too-large' }} SignupOutcome
 */

/**
 * Read a POSTed sign-up form (`list`, `email`, optional `sku`, and `return`: the same-origin path
 * to go back to, never another origin).
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<SignupOutcome>}
 */
export async function readSignup(req) {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_SIGNUP_BODY_BYTES) return { status: 'too-large' };
    chunks.push(chunk);
  }
  const { list, email, sku, return: returnPath } = parseQuery(Buffer.concat(chunks).toString('utf8'));
  if (!SIGNUP_LISTS.includes(/** @type {typeof SIGNUP_LISTS[number]} */ (list))) return { status: 'invalid', field: 'list' };
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email)) return { status: 'invalid', field: 'email' };
  // Only a root-relative path: `//host` or `/\host` would send the visitor to another origin.
  const back = typeof returnPath === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(returnPath) ? returnPath.replace(/[?#].*$/, '') : '/';
  return {
    status: 'signed-up',
    location: `${back}?signed-up=1`,
    signup: { list: /** @type {typeof SIGNUP_LISTS[number]} */ (list), email, sku: typeof sku === 'string' ? sku : null },
  };
}
