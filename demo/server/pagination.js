import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalidField } from './api-error.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from './limits.js';
import { toQueryString } from './query.js';

/**
 * @typedef {object} PageWindow
 * @property {number} offset index of the first item, ≥ 0
 * @property {number} limit items per page, 1…MAX_LIMIT
 */

/**
 * @typedef {object} Links
 * @property {string | null} next root-relative URL of the next page, or null at the end
 * @property {string | null} previous root-relative URL of the previous page, or null at the start
 */

/**
 * @typedef {object} ListRequest the request a cursor belongs to
 * @property {string} site key of the site the list is of
 * @property {string} lang language of the API base the list was asked from
 * @property {string} path the request path, e.g. `/de/agent/v1/search`
 * @property {Record<string, unknown>} params the parsed request query (bracket notation)
 */

/**
 * The key cursors are signed with, new for each process: a cursor is good only on the server
 * that issued it, so after a restart an agent starts its list again (a 422 tells it so) rather
 * than the server trusting a position nobody can vouch for.
 */
const CURSOR_KEY = randomBytes(32);

/** Length of a cursor's signature in base64url characters (128 bits of HMAC-SHA256). */
const SIGNATURE_LENGTH = 22;

/** Length of the request digest a cursor carries, in base64url characters (96 bits of SHA-256). */
const QUERY_DIGEST_LENGTH = 16;

/** Shape of a cursor: base64url payload, a dot, the signature. Bounds what is decoded at all. */
const CURSOR_PATTERN = new RegExp(`^([A-Za-z0-9_-]{1,200})\\.([A-Za-z0-9_-]{${SIGNATURE_LENGTH}})$`);

/** Parameters that do not change which list is paged: the position itself and the page size. */
const UNBOUND_PARAMS = new Set(['cursor', 'limit']);

/**
 * A value with its object keys sorted at every level, so the same query written in another order
 * is the same request.
 * @param {unknown} value
 * @returns {unknown}
 */
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const record = /** @type {Record<string, unknown>} */ (value);
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortKeys(record[key])]));
}

/**
 * The digest of what a list request asks for (its path and every parameter but `cursor` and
 * `limit`), so a cursor names its query without repeating it.
 * @param {ListRequest} request
 * @returns {string} base64url, QUERY_DIGEST_LENGTH characters
 */
function digestQuery({ path, params }) {
  const bound = Object.fromEntries(Object.entries(params).filter(([key]) => !UNBOUND_PARAMS.has(key)));
  return createHash('sha256').update(JSON.stringify([path, sortKeys(bound)])).digest('base64url').slice(0, QUERY_DIGEST_LENGTH);
}

/**
 * @param {string} payload base64url
 * @returns {string} base64url, SIGNATURE_LENGTH characters
 */
function sign(payload) {
  return createHmac('sha256', CURSOR_KEY).update(payload).digest('base64url').slice(0, SIGNATURE_LENGTH);
}

/**
 * The cursor for a position in the list `request` asks for: base64url of
 * `{"o": offset, "s": site, "l": lang, "q": query digest}`, a dot, and an HMAC-SHA256 of that
 * payload under this process's key. Opaque to the agent, which passes it back as given.
 * @param {number} offset index of the first item of the page, ≥ 0
 * @param {ListRequest} request
 * @returns {string}
 */
export function toCursor(offset, request) {
  const payload = Buffer.from(JSON.stringify({ o: offset, s: request.site, l: request.lang, q: digestQuery(request) })).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

/**
 * The offset a cursor stands for, when this process issued it for this same request.
 * @param {unknown} cursor
 * @param {ListRequest} request the request it came with
 * @returns {number}
 * @throws {import('./api-error.js').ApiError} 422 naming `cursor`, with a one-line reason: not a
 *   cursor at all; not issued by this server or changed since (its signature does not match);
 *   issued for another site, another language, or another query (path or parameters other than
 *   `limit`). A cursor is never read as a position in a list it was not issued for.
 */
export function parseCursor(cursor, request) {
  const match = typeof cursor === 'string' ? CURSOR_PATTERN.exec(cursor) : null;
  if (!match) throw invalidField('cursor', 'The cursor field must be a cursor from links.next or links.previous.');
  const payload = /** @type {string} */ (match[1]);
  const signature = /** @type {string} */ (match[2]);
  if (!timingSafeEqual(Buffer.from(sign(payload)), Buffer.from(signature))) {
    throw invalidField('cursor', 'The cursor field was not issued by this server or was changed; pass links.next or links.previous as given.');
  }
  // Signed by this process, so the payload is one toCursor wrote.
  const { o: offset, s: site, l: lang, q: query } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  if (site !== request.site) throw invalidField('cursor', 'The cursor field belongs to a list of another site; ask again without a cursor.');
  if (lang !== request.lang) throw invalidField('cursor', `The cursor field belongs to a list in another language (${lang}); ask again without a cursor.`);
  if (query !== digestQuery(request)) {
    throw invalidField('cursor', 'The cursor field belongs to another query; repeat that query\'s parameters with it, or ask again without a cursor.');
  }
  return offset;
}

/**
 * The page window a list request asks for.
 * @param {ListRequest} request
 * @returns {PageWindow}
 * @throws {import('./api-error.js').ApiError} 422 naming `limit` (not an integer 1…50 written in
 *   digits) or `cursor` (see parseCursor)
 */
export function readPageWindow(request) {
  const { params } = request;
  let limit = DEFAULT_LIMIT;
  if (params.limit !== undefined) {
    const raw = params.limit;
    limit = typeof raw === 'string' && /^[0-9]{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT)) {
      throw invalidField('limit', `The limit field must be an integer between 1 and ${MAX_LIMIT}.`);
    }
  }
  const offset = params.cursor === undefined ? 0 : parseCursor(params.cursor, request);
  return { offset, limit };
}

/**
 * One page of a list, with links that repeat the request's other parameters and carry a cursor
 * bound to this request (toCursor).
 * @template T
 * @param {T[]} items the whole list
 * @param {PageWindow} window
 * @param {ListRequest} request
 * @returns {{ data: T[], links: Links }}
 */
export function paginate(items, window, request) {
  const { offset, limit } = window;
  const { path, params } = request;
  /** @param {number} at */
  const linkTo = (at) => {
    const { cursor: _drop, ...rest } = params;
    return `${path}?${toQueryString({ ...rest, cursor: toCursor(at, request) })}`;
  };
  return {
    data: items.slice(offset, offset + limit),
    links: {
      next: offset + limit < items.length ? linkTo(offset + limit) : null,
      previous: offset > 0 ? linkTo(Math.max(0, Math.min(offset, items.length) - limit)) : null,
    },
  };
}
