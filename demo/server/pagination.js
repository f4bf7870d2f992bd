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
 * The opaque cursor for an offset: base64url of `{"o":offset}`.
 * @param {number} offset
 * @returns {string}
 */
export function toCursor(offset) {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

/**
 * The offset a cursor stands for.
 * @param {unknown} cursor
 * @returns {number}
 * @throws {import('./api-error.js').ApiError} 422 naming `cursor` when it is not a string, not
 *   base64url, not JSON `{"o": n}`, or n is not a non-negative integer
 */
export function parseCursor(cursor) {
  const invalid = () => invalidField('cursor', 'The cursor field must be a cursor from links.next or links.previous.');
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) throw invalid();
  /** @type {unknown} */
  let decoded;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const offset = decoded !== null && typeof decoded === 'object' ? /** @type {{ o?: unknown }} */ (decoded).o : undefined;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) throw invalid();
  return offset;
}

/**
 * The page window a list request asks for.
 * @param {Record<string, unknown>} params parsed query
 * @returns {PageWindow}
 * @throws {import('./api-error.js').ApiError} 422 naming `limit` (not an integer 1…50 written in
 *   digits) or `cursor`
 */
export function readPageWindow(params) {
  let limit = DEFAULT_LIMIT;
  if (params.limit !== undefined) {
    const raw = params.limit;
    limit = typeof raw === 'string' && /^[0-9]{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT)) {
      throw invalidField('limit', `The limit field must be an integer between 1 and ${MAX_LIMIT}.`);
    }
  }
  const offset = params.cursor === undefined ? 0 : parseCursor(params.cursor);
  return { offset, limit };
}

/**
 * One page of a list, with links that repeat the request's other parameters.
 * @template T
 * @param {T[]} items the whole list
 * @param {PageWindow} window
 * @param {string} path the request path, e.g. `/de/agent/v1/search`
 * @param {Record<string, unknown>} params the parsed request query
 * @returns {{ data: T[], links: Links }}
 */
export function paginate(items, window, path, params) {
  const { offset, limit } = window;
  /** @param {number} at */
  const linkTo = (at) => {
    const { cursor: _drop, ...rest } = params;
    return `${path}?${toQueryString({ ...rest, cursor: toCursor(at) })}`;
  };
  return {
    data: items.slice(offset, offset + limit),
    links: {
      next: offset + limit < items.length ? linkTo(offset + limit) : null,
      previous: offset > 0 ? linkTo(Math.max(0, Math.min(offset, items.length) - limit)) : null,
    },
  };
}
