import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { send, sendText } from './responses.js';

/** Content types by file extension; anything else is served as bytes. */
const CONTENT_TYPES = /** @type {Record<string, string>} */ ({
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
});

/**
 * The file a request path below a static root names, or undefined when the path tries to leave
 * the root: every percent-decoded segment must be a plain name (no `..`, `.`, empty segment,
 * slash, backslash or NUL), and the resolved path must stay inside the root.
 * @param {string} root absolute directory
 * @param {string} encodedPath the request path below the root, still percent-encoded
 * @returns {string | undefined}
 */
export function resolveStaticPath(root, encodedPath) {
  const segments = encodedPath.split('/');
  /** @type {string[]} */
  const names = [];
  for (const segment of segments) {
    let name;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) return undefined;
    names.push(name);
  }
  const base = resolve(root);
  const file = join(base, ...names);
  return file.startsWith(base + sep) ? file : undefined;
}

/** How long a file whose name carries its content hash may be kept: a year, in seconds. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serve one file from a static root with its content type, or 404 (missing file, directory, or
 * a path that would leave the root). Only GET and HEAD are answered; others get 405.
 * Caching as a site should serve the runtime: a file whose name carries its content hash
 * (`immutable`, e.g. dist/chunks/) may be kept a year without asking again; any other is
 * revalidated on each use (`no-cache` with a weak ETag of size and mtime; a matching
 * `If-None-Match` gets 304 without a body), so a returning visitor's browser keeps its copy and
 * its compiled code.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} root absolute directory
 * @param {string} encodedPath request path below the root
 * @param {{ immutable?: boolean }} [options] `immutable`: the file name holds its content hash
 * @returns {Promise<void>}
 */
export async function serveStaticFile(req, res, root, encodedPath, { immutable = false } = {}) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    sendText(req, res, 405, 'Method not allowed');
    return;
  }
  const file = resolveStaticPath(root, encodedPath);
  const info = file ? await stat(file).catch(() => undefined) : undefined;
  if (!file || !info?.isFile()) {
    sendText(req, res, 404, 'Not found');
    return;
  }
  const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const etag = `W/"${info.size.toString(36)}-${Math.trunc(info.mtimeMs).toString(36)}"`;
  const caching = { 'Cache-Control': immutable ? IMMUTABLE : 'no-cache', ETag: etag };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, caching);
    res.end();
    return;
  }
  send(req, res, 200, { 'Content-Type': type, ...caching }, await readFile(file));
}
