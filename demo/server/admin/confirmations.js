import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AdminError, CAPELL_MESSAGES } from './admin-error.js';

/**
 * One-use confirmations of admin writes, as Capell's admin keeps them (capell-app/capell
 * `packages/admin/src/Support/Agent/AgentAdminConfirmationStore.php` @73e5701;
 * test/fixtures/capell/admin/SOURCES.md §3 "Token binding"):
 * - the token is 32 random bytes as 64 lowercase hex (`bin2hex(random_bytes(32))`);
 * - the record is stored under `sha256(token | actor type | actor id | session id)`, so the lookup
 *   itself is bound to the actor and the session: another session's attempt finds nothing and
 *   leaves the record where it is;
 * - the record holds the tool, the site, the payload, its hash and the preview's fingerprint, and
 *   expires after the lifetime (Capell: `agent_confirmation_ttl_minutes`, default 10);
 * - `pull` removes the record on its first lookup whatever follows (one use), then every binding
 *   must hold; any failure is the same 403 "The agent confirmation is missing, expired, or out of
 *   scope.". The server never keeps the token itself.
 */

/** Default lifetime of a confirmation, in ms (Capell: 10 minutes). */
export const DEFAULT_CONFIRMATION_TTL_MS = 10 * 60_000;

/** Capell's actor type (`getMorphClass()`) for the demo's editors. */
const ACTOR_TYPE = 'user';

/** Capell's token shape, checked before any lookup. */
const TOKEN_SHAPE = /^[a-f0-9]{64}$/;

/**
 * @param {string} text
 * @returns {string} hex SHA-256
 */
const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/**
 * The fingerprint Capell compares: sha256 of the JSON (`JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES`,
 * which JSON.stringify writes the same for the demo's values).
 * @param {unknown} value
 */
export const fingerprint = (value) => sha256(JSON.stringify(value) ?? 'null');

/**
 * @typedef {object} ConfirmationRecord what is stored (never the token)
 * @property {1} record_version
 * @property {string} user_type
 * @property {string} user_id
 * @property {string} session_id
 * @property {string} tool
 * @property {number} site_id
 * @property {string} payload_hash
 * @property {Record<string, unknown>} payload
 * @property {string} preview_fingerprint
 * @property {unknown} preview
 * @property {number} expires_at ms since the epoch
 */

/**
 * @typedef {object} Invocation what a token is bound to
 * @property {string} actor actor id
 * @property {string} sessionId admin session id
 * @property {string} tool tool name
 * @property {number} siteId the session's site id
 */

/**
 * The confirmation store of one server run.
 * @param {object} [options]
 * @param {number} [options.ttlMs] lifetime in ms (default DEFAULT_CONFIRMATION_TTL_MS)
 * @param {() => number} [options.now] clock in ms
 * @example
 * const token = confirmations.put({ actor: 'ada', sessionId, tool, siteId: 1 }, payload, preview);
 * confirmations.pull(token, { actor: 'ada', sessionId, tool, siteId: 1 }); // the record
 * confirmations.pull(token, { actor: 'ada', sessionId, tool, siteId: 1 }); // throws 403
 */
export function createConfirmations({ ttlMs = DEFAULT_CONFIRMATION_TTL_MS, now = Date.now } = {}) {
  /** @type {Map<string, ConfirmationRecord>} by lookup key */
  const stored = new Map();
  /**
   * @param {string} token
   * @param {Invocation} invocation
   */
  const keyOf = (token, { actor, sessionId }) => `capell-admin-agent-confirmation:${sha256([token, ACTOR_TYPE, actor, sessionId].join('|'))}`;
  const refuse = () => new AdminError(403, CAPELL_MESSAGES.confirmationInvalid);
  return {
    /**
     * Stores a confirmation for an invocation's payload and preview.
     * @param {Invocation} invocation
     * @param {Record<string, unknown>} payload
     * @param {unknown} preview the preview's `toArray()` (`{ ok, mode: 'preview', tool, data }`)
     * @returns {string} the token (64 lowercase hex; the only place it exists on the server)
     */
    put(invocation, payload, preview) {
      const token = randomBytes(32).toString('hex');
      stored.set(keyOf(token, invocation), {
        record_version: 1,
        user_type: ACTOR_TYPE,
        user_id: invocation.actor,
        session_id: invocation.sessionId,
        tool: invocation.tool,
        site_id: invocation.siteId,
        payload_hash: fingerprint(payload),
        payload: structuredClone(payload),
        preview_fingerprint: fingerprint(preview),
        preview: structuredClone(preview),
        expires_at: now() + ttlMs,
      });
      return token;
    },
    /**
     * Takes a confirmation: removed at its first lookup, then checked.
     * @param {unknown} token
     * @param {Invocation} invocation
     * @returns {ConfirmationRecord}
     * @throws {AdminError} 403 "The agent confirmation is missing, expired, or out of scope." for a
     *   token of another shape, unknown to this actor and session, already taken, expired, or
     *   bound to another tool, site or payload
     */
    pull(token, invocation) {
      if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) throw refuse();
      const key = keyOf(token, invocation);
      const record = stored.get(key);
      stored.delete(key);
      if (!record) throw refuse();
      const same = (/** @type {string} */ a, /** @type {string} */ b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
      const holds = record.record_version === 1
        && record.user_type === ACTOR_TYPE && record.user_id === invocation.actor
        && same(record.session_id, invocation.sessionId)
        && record.tool === invocation.tool
        && record.site_id === invocation.siteId
        && same(record.payload_hash, fingerprint(record.payload))
        && record.preview !== undefined
        && now() < record.expires_at;
      if (!holds) throw refuse();
      return record;
    },
    /** Copies of the stored records (no token: they are keyed by its hash). */
    records: () => [...stored.values()].map((record) => structuredClone(record)),
  };
}
