import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Anonymous sessions and the CSRF token bound to each, as Laravel's session + VerifyCsrfToken
 * pair does it: every visitor gets a `capell_session` cookie with a random id, and the CSRF token
 * of that visitor is HMAC-SHA256(server secret, session id). The server keeps nothing per session
 * (the token is recomputed), so a token copied from one session is worthless with another
 * session's cookie, and a server restart (new secret) expires every token.
 */

/** Name of the session cookie HTML pages set. */
export const SESSION_COOKIE = 'capell_session';

/** Random bytes in a session id (160 bits). */
const SESSION_ID_BYTES = 20;

/** Letters only, 32 of them (5 bits each): ids and tokens can never look like a storage id. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEF';

/** A session id as issued: 32 letters of ALPHABET. */
const SESSION_ID_SHAPE = /^[a-zA-F]{32}$/;

/**
 * Bytes as letters of ALPHABET, 5 bits per letter (base 32 without padding).
 * @param {Buffer} bytes
 * @returns {string}
 */
function toLetters(bytes) {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return bits > 0 ? out + ALPHABET[(buffer << (5 - bits)) & 31] : out;
}

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
 * @typedef {object} Sessions
 * @property {(req: import('node:http').IncomingMessage) => string | undefined} readSessionId
 *   the well-formed session id the request's cookie carries, or undefined (none, or malformed)
 * @property {(req: import('node:http').IncomingMessage) => { id: string, setCookie: string | undefined }} startSession
 *   the request's session, or a new one with the `Set-Cookie` value that gives it to the visitor
 *   (`HttpOnly; SameSite=Lax; Path=/`)
 * @property {(id: string) => string} tokenFor the CSRF token of a session (52 letters)
 * @property {(req: import('node:http').IncomingMessage, token: unknown) => boolean} isTokenOfSession
 *   whether `token` is the CSRF token of the session in the request's cookie; false without a
 *   session cookie or when `token` is not a string (compared in constant time)
 */

/**
 * Sessions of one server run.
 * @param {object} [options]
 * @param {Buffer} [options.secret] HMAC key (default 32 random bytes, new each run)
 * @returns {Sessions}
 * @example
 * const sessions = createSessions();
 * const { id, setCookie } = sessions.startSession(req); // setCookie when the visitor had none
 * const token = sessions.tokenFor(id);                   // into <meta name="csrf-token"> and _token
 * sessions.isTokenOfSession(postReq, fields._token);     // false → 419
 */
export function createSessions({ secret = randomBytes(32) } = {}) {
  /** @param {string} id */
  const tokenFor = (id) => toLetters(createHmac('sha256', secret).update(id).digest());

  /** @param {import('node:http').IncomingMessage} req */
  const readSessionId = (req) => {
    const id = readCookie(req.headers.cookie, SESSION_COOKIE);
    return id !== undefined && SESSION_ID_SHAPE.test(id) ? id : undefined;
  };

  return {
    readSessionId,
    startSession(req) {
      const existing = readSessionId(req);
      if (existing) return { id: existing, setCookie: undefined };
      const id = toLetters(randomBytes(SESSION_ID_BYTES));
      return { id, setCookie: `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax` };
    },
    tokenFor,
    isTokenOfSession(req, token) {
      const id = readSessionId(req);
      if (id === undefined || typeof token !== 'string') return false;
      const expected = Buffer.from(tokenFor(id));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
