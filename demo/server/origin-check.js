import { escapeHTML } from './html/escape-html.js';
import { sendHTML, sendJSON } from './responses.js';

/**
 * The `Origin` check every state-changing request passes before it reaches a handler (OWASP's
 * "verifying origin with standard headers", on top of the session-bound CSRF token): a POST, PUT,
 * PATCH or DELETE must come from a page of this very origin. Browsers send `Origin` with every
 * non-GET/HEAD request, same-origin form posts included; a request without it is accepted only
 * when the browser vouches for it with `Sec-Fetch-Site: same-origin`.
 */

/** Methods that change nothing and pass unchecked (RFC 9110 safe methods the demo answers). */
export const SAFE_METHODS = Object.freeze(['GET', 'HEAD', 'OPTIONS']);

/**
 * The origin the request reached: `http(s)://` + its `Host` header, serialised as browsers
 * serialise origins (lower-case host, default port dropped).
 * @param {import('node:http').IncomingMessage} req
 * @returns {string | undefined} undefined when there is no usable `Host`
 */
export function readOwnOrigin(req) {
  const host = req.headers.host;
  if (!host) return undefined;
  const scheme = /** @type {{ encrypted?: boolean }} */ (req.socket).encrypted ? 'https' : 'http';
  try {
    const url = new URL(`${scheme}://${host}`);
    const given = host.toLowerCase();
    // A Host with a path, user info or anything else but host[:port] is no host; refuse rather than guess.
    const isBareHost = given === url.host || given === `${url.host}:${scheme === 'https' ? 443 : 80}`;
    return isBareHost ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a request may not change anything here, or undefined when it may: safe methods pass; any
 * other method needs `Origin` equal to the server's own origin (readOwnOrigin), or no `Origin`
 * and `Sec-Fetch-Site: same-origin`.
 * @param {import('node:http').IncomingMessage} req
 * @returns {string | undefined} a one-line reason naming what was wrong
 */
export function checkOrigin(req) {
  if (SAFE_METHODS.includes(req.method ?? 'GET')) return undefined;
  const own = readOwnOrigin(req);
  if (own === undefined) return 'The request has no valid Host header, so the server cannot tell its own origin; nothing was changed.';
  const origin = req.headers.origin;
  if (origin === undefined) {
    if (req.headers['sec-fetch-site'] === 'same-origin') return undefined;
    return `The request has no Origin header (nor Sec-Fetch-Site: same-origin), so it cannot be shown to come from ${own}; nothing was changed.`;
  }
  if (origin !== own) return `The request came from ${origin}, not from ${own}; a cross-origin request cannot change anything here.`;
  return undefined;
}

/**
 * Answer 403 with the reason: `{ "message": reason }` when the request accepts JSON (or `json`
 * is set, e.g. for the JSON-only agent API), else a small HTML page.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} reason from checkOrigin
 * @param {{ json?: boolean, lang?: string }} [options] `lang` of the HTML page (default 'en')
 */
export function sendOriginRefusal(req, res, reason, { json = false, lang = 'en' } = {}) {
  // The body is not read: discard it so the connection can be reused.
  req.resume();
  if (json || (req.headers.accept ?? '').includes('application/json')) {
    sendJSON(req, res, 403, { message: reason });
    return;
  }
  sendHTML(req, res, 403, `<!doctype html>\n<html lang="${escapeHTML(lang)}">\n<title>403 Forbidden</title>\n<h1>403 Forbidden</h1>\n<p>${escapeHTML(reason)}</p>\n</html>\n`);
}
