/**
 * Writing answers: JSON for the API, HTML for pages, and redirects. HEAD requests get the same
 * status and headers without a body.
 */

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/**
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {number} status
 * @param {Record<string, string>} headers
 * @param {string | Buffer} body
 */
export function send(req, res, status, headers, body) {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...headers, 'Content-Length': String(bytes.length), 'X-Content-Type-Options': 'nosniff' });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/**
 * A JSON answer (`application/json; charset=utf-8`, never cached).
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function sendJSON(req, res, status, body, headers = {}) {
  send(req, res, status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers }, JSON.stringify(body));
}

/**
 * The strict Content-Security-Policy of every HTML answer: only same-origin scripts (no inline
 * code, no eval), styles and connections. The JSON islands are data blocks, not scripts, so the
 * policy leaves them readable; the runtime must work under it (validation without `new Function`).
 */
export const CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * CONTENT_SECURITY_POLICY with Trusted Types: every script sink (`innerHTML`, `script.src`, …)
 * must be given a Trusted Type, and the only policy the page may create is `lit-html` (lit's own,
 * which the confirmation panel and the inspector render through). Sent instead of the strict
 * policy when a page is asked for with TRUSTED_TYPES_QUERY (the e2e suite's strict lane).
 */
export const TRUSTED_TYPES_POLICY = `${CONTENT_SECURITY_POLICY}; require-trusted-types-for 'script'; trusted-types lit-html`;

/** The query that asks for a page under TRUSTED_TYPES_POLICY: `?csp=trusted-types`. */
export const TRUSTED_TYPES_QUERY = { name: 'csp', value: 'trusted-types' };

/**
 * An HTML answer, sent with CONTENT_SECURITY_POLICY (a `Content-Security-Policy` in `headers`
 * replaces it).
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string} html
 * @param {Record<string, string>} [headers]
 */
export function sendHTML(req, res, status, html, headers = {}) {
  send(req, res, status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Security-Policy': CONTENT_SECURITY_POLICY, ...headers }, html);
}

/**
 * A redirect to a same-origin path.
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {301 | 302 | 303} status
 * @param {string} location root-relative
 */
export function sendRedirect(req, res, status, location) {
  send(req, res, status, { Location: location, 'Content-Type': 'text/plain; charset=utf-8' }, `Moved to ${location}\n`);
}

/**
 * A plain-text answer (static file errors).
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string} message
 */
export function sendText(req, res, status, message) {
  send(req, res, status, { 'Content-Type': 'text/plain; charset=utf-8' }, `${message}\n`);
}
