import { createHash, randomBytes } from 'node:crypto';

/**
 * One-use confirmation tokens for admin writes. A preview issues a token (256 random bits,
 * base64url) bound to the actor, site, session, the payload's digest and the preview's digest,
 * with a short expiry; the server keeps only SHA-256 of the token with those bindings. A confirm
 * spends the token whatever the outcome, so a refused token cannot be retried. Source: Capell
 * Agent Schema, "Navigation, forms, and admin tools": "Writes require a one-use confirmation
 * bound to the actor, site, session, payload and preview".
 */

/** Default lifetime of a confirmation token, in ms. */
export const DEFAULT_CONFIRMATION_TTL_MS = 120_000;

/** Random bytes in a token (256 bits → 43 base64url characters). */
const TOKEN_BYTES = 32;

/**
 * @typedef {object} ConfirmationBinding what a token is bound to
 * @property {string} actor actor id
 * @property {string} site admin site key (`*` for a global action)
 * @property {string} sessionId admin session id
 * @property {string} payloadDigest digests.js toDigest of the payload
 * @property {string} previewDigest digests.js toDigest of the preview
 */

/**
 * @typedef {ConfirmationBinding & { tokenHash: string, action: string, expiresAt: number, used: boolean }} ConfirmationRecord
 *   a stored record: `tokenHash` is the hex SHA-256 of the token; `expiresAt` ms since the epoch
 */

/**
 * @typedef {{ ok: true, record: ConfirmationRecord }
 *   | { ok: false, code: 'confirmation_used' | 'confirmation_expired' | 'confirmation_refused', message: string }} Redemption
 */

/**
 * @param {string} token
 * @returns {string} hex SHA-256
 */
function hashToken(token) {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The token store of one server run.
 * @param {object} [options]
 * @param {number} [options.ttlMs] token lifetime in ms (default DEFAULT_CONFIRMATION_TTL_MS)
 * @param {() => number} [options.now] clock in ms
 * @returns {{
 *   issue: (action: string, binding: ConfirmationBinding) => { token: string, expiresAt: string },
 *   redeem: (token: unknown, action: string, binding: ConfirmationBinding) => Redemption,
 *   records: () => ConfirmationRecord[],
 * }} `issue` returns the raw token (the only place it exists on the server) and its ISO expiry;
 *   `redeem` checks and spends a token: unknown → `confirmation_refused`; used →
 *   `confirmation_used`; expired → `confirmation_expired`; any binding (or the action) different →
 *   `confirmation_refused`; a known token is marked used whatever the outcome; `records` copies of
 *   the stored records (hashes only)
 * @example
 * const { token } = confirmations.issue('page.publish', binding);
 * confirmations.redeem(token, 'page.publish', binding); // { ok: true, … }
 * confirmations.redeem(token, 'page.publish', binding); // { ok: false, code: 'confirmation_used', … }
 */
export function createConfirmations({ ttlMs = DEFAULT_CONFIRMATION_TTL_MS, now = Date.now } = {}) {
  /** @type {Map<string, ConfirmationRecord>} by tokenHash */
  const stored = new Map();
  return {
    issue(action, binding) {
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const expiresAt = now() + ttlMs;
      const record = { tokenHash: hashToken(token), action, ...binding, expiresAt, used: false };
      stored.set(record.tokenHash, record);
      return { token, expiresAt: new Date(expiresAt).toISOString() };
    },
    redeem(token, action, binding) {
      const record = typeof token === 'string' ? stored.get(hashToken(token)) : undefined;
      if (!record) return { ok: false, code: 'confirmation_refused', message: 'The confirmation token is not known; preview again.' };
      const wasUsed = record.used;
      record.used = true;
      if (wasUsed) return { ok: false, code: 'confirmation_used', message: 'The confirmation token was already used; preview again.' };
      if (now() >= record.expiresAt) return { ok: false, code: 'confirmation_expired', message: 'The confirmation token expired; preview again.' };
      const mismatch = /** @type {(keyof ConfirmationBinding)[]} */ (['actor', 'sessionId', 'site', 'payloadDigest', 'previewDigest'])
        .find((key) => record[key] !== binding[key]);
      if (record.action !== action) return { ok: false, code: 'confirmation_refused', message: 'The confirmation token was issued for another action.' };
      if (mismatch) return { ok: false, code: 'confirmation_refused', message: `The confirmation token is bound to another ${BINDING_NAMES[mismatch]}.` };
      return { ok: true, record: { ...record } };
    },
    records: () => [...stored.values()].map((record) => ({ ...record })),
  };
}

/** How a binding is named in a refusal. */
const BINDING_NAMES = Object.freeze({
  actor: 'actor',
  sessionId: 'session',
  site: 'site',
  payloadDigest: 'payload',
  previewDigest: 'preview',
});
