/**
 * The bench's own origin: the demo app (its /dist/ with the caching a site should use, see
 * demo/server/static-files.js) plus the bench pages and scripts, served over real HTTP. The
 * pages are not fulfilled by Playwright's `page.route`: routing turns the browser's HTTP cache
 * off, and a returning visitor's cache (and the compiled code kept with it) is what a bench of
 * repeated loads measures.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { listen } from '../demo/server/listen.js';

/**
 * Starts the bench origin on 127.0.0.1 (a free port).
 * @param {{ handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): unknown }} app the demo app
 * @returns {Promise<{ url: string, page(html: string): string, script(path: string, body: string | Buffer, options?: { immutable?: boolean }): void, close(): Promise<void> }>}
 *   `page(html)` serves the HTML (`no-store`) and returns its absolute URL; `script(path, body)`
 *   serves a script at `path` (`no-cache` with an ETag: revalidated, kept, as the runtime's entry;
 *   with `{ immutable: true }` kept a year without asking, as the runtime's hashed chunks).
 */
export async function startBenchServer(app) {
  const pages = new Map();
  const scripts = new Map();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://bench.invalid').pathname;
    if (pages.has(path)) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(pages.get(path));
      return;
    }
    const script = scripts.get(path);
    if (script) {
      const caching = { 'Cache-Control': script.immutable ? 'public, max-age=31536000, immutable' : 'no-cache', ETag: script.etag };
      if (req.headers['if-none-match'] === script.etag) res.writeHead(304, caching).end();
      else res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', ...caching }).end(script.body);
      return;
    }
    void app.handle(req, res);
  });
  const url = await listen(server, '127.0.0.1', 0);
  return {
    url,
    page(html) {
      const path = `/bench/page/${pages.size}`;
      pages.set(path, html);
      return `${url}${path}`;
    },
    script(path, body, { immutable = false } = {}) {
      scripts.set(path, { body, immutable, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
