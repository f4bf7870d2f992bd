import { createServer } from 'node:http';
import { createDemoApp } from './app.js';

/**
 * Start the demo server.
 *
 * @param {object} [options]
 * @param {string} [options.host] interface to listen on (default '127.0.0.1')
 * @param {number} [options.port] TCP port; 0 picks a free one (default 5173)
 * @param {string} [options.distDir] directory served at `/dist/` (default `<repo>/dist`)
 * @returns {Promise<{ url: string, app: ReturnType<typeof createDemoApp>, server: import('node:http').Server, close: () => Promise<void> }>}
 *   `url` is the origin with the real port and no trailing slash, e.g. `http://127.0.0.1:5173`.
 * @throws the listen error (e.g. `EADDRINUSE`) when the port cannot be bound
 * @example
 * const demo = await startDemoServer({ port: 0 });
 * await fetch(`${demo.url}/agent/v1/navigation`);
 * await demo.close();
 */
export async function startDemoServer({ host = '127.0.0.1', port = 5173, distDir } = {}) {
  const app = createDemoApp(distDir === undefined ? {} : { distDir });
  const server = createServer((req, res) => {
    void app.handle(req, res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${boundPort}`,
    app,
    server,
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      });
    },
  };
}
