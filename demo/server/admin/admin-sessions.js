import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { findActor } from './actors.js';

/**
 * The editors' sessions: server-side (id → actor, createdAt), carried by the `capell_admin`
 * cookie (`HttpOnly; SameSite=Lax; Path=/admin`, so the public site never receives it), with a
 * CSRF token HMAC-SHA256(server secret, session id) that admin pages carry in
 * `<meta name="csrf-token">` and admin POSTs send back. Source: Capell Agent Schema, "Navigation,
 * forms, and admin tools": admin tools use "the existing session".
 */

/** Name of the admin session cookie. */
export const ADMIN_SESSION_COOKIE = 'capell_admin';

/** Random bytes in an admin session id (256 bits). */
const ADMIN_SESSION_ID_BYTES = 32;

/** A session id as issued: 43 base64url characters. */
const ADMIN_SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The value of one cookie in a `Cookie` header.
 * @param {string | undefined} header
 * @param {string} name
 * @returns {string | undefined}
 */
function readCookie(header, name) {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at !== -1 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * Whether two strings are equal, compared in constant time over their SHA-256 (so lengths leak nothing).
 * @param {string} given
 * @param {string} expected
 * @returns {boolean}
 */
export function isSameSecret(given, expected) {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * @typedef {object} AdminSession
 * @property {string} id
 * @property {string} actor actor id
 * @property {number} createdAt ms since the epoch
 * @property {string | undefined} site the session's active site key (Capell: `capell.current_site_id`)
 */

/**
 * @typedef {object} AdminSessions
 * @property {(actorId: unknown, password: unknown) => { id: string, setCookie: string } | undefined} signIn
 *   a new session (a new id on every sign-in) and its `Set-Cookie` value, or undefined when the
 *   actor is unknown or the password wrong
 * @property {(req: import('node:http').IncomingMessage) => AdminSession | undefined} read the live
 *   session of the request's `capell_admin` cookie, or undefined
 * @property {(id: string) => boolean} end ends a session; whether there was one
 * @property {(id: string) => string} csrfFor the admin CSRF token of a session (43 base64url characters)
 * @property {(id: string, token: unknown) => boolean} isCsrfOf whether `token` is that session's CSRF token
 * @property {string} clearCookie a `Set-Cookie` value that removes the cookie
 * @property {(id: string) => string | undefined} siteOf the session's active site key, if any
 * @property {(id: string, site: string) => void} setSite sets the session's active site (Capell:
 *   `SetSitePermissionScope` writes `capell.current_site_id` when the actor belongs to the site)
 */

/**
 * Admin sessions of one server run.
 * @param {object} [options]
 * @param {Buffer} [options.secret] HMAC key of the CSRF tokens (default 32 random bytes, new each run)
 * @param {() => number} [options.now] clock in ms
 * @returns {AdminSessions}
 * @example
 * const sessions = createAdminSessions();
 * const started = sessions.signIn('ada', 'demo-ada'); // → Set-Cookie: started.setCookie
 * sessions.read(req)?.actor; // 'ada'
 */
export function createAdminSessions({ secret = randomBytes(32), now = Date.now } = {}) {
  /** @type {Map<string, AdminSession>} */
  const live = new Map();
  /** @param {string} id */
  const csrfFor = (id) => createHmac('sha256', secret).update(`admin:${id}`).digest('base64url');
  return {
    signIn(actorId, password) {
      const actor = findActor(actorId);
      // Compare against a password even for an unknown actor, so timing does not say which actors exist.
      const ok = isSameSecret(typeof password === 'string' ? password : '', actor?.password ?? 'demo-\u0000') && actor !== undefined;
      if (!ok) return undefined;
      const id = randomBytes(ADMIN_SESSION_ID_BYTES).toString('base64url');
      live.set(id, { id, actor: actor.id, createdAt: now(), site: undefined });
      return { id, setCookie: `${ADMIN_SESSION_COOKIE}=${id}; Path=/admin; HttpOnly; SameSite=Lax` };
    },
    read(req) {
      const id = readCookie(req.headers.cookie, ADMIN_SESSION_COOKIE);
      if (id === undefined || !ADMIN_SESSION_ID_SHAPE.test(id)) return undefined;
      return live.get(id);
    },
    end: (id) => live.delete(id),
    csrfFor,
    isCsrfOf(id, token) {
      return typeof token === 'string' && isSameSecret(token, csrfFor(id));
    },
    clearCookie: `${ADMIN_SESSION_COOKIE}=; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=0`,
    siteOf: (id) => live.get(id)?.site,
    setSite(id, site) {
      const session = live.get(id);
      if (session) session.site = site;
    },
  };
}
