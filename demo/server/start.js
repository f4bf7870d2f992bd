import { createServer } from 'node:http';
import { createDemoApp } from './app.js';
import { startDemoAgent } from './agentgate/demo-agent.js';
import { listen } from './listen.js';

/**
 * Start the demo server.
 *
 * @param {object} [options]
 * @param {string} [options.host] interface to listen on (default '127.0.0.1')
 * @param {number} [options.port] TCP port; 0 picks a free one (default 5173)
 * @param {string} [options.distDir] directory served at `/dist/` (default `<repo>/dist`)
 * @param {number} [options.agentPort] port of the demo agent's origin (agentgate/demo-agent.js);
 *   default `port + 1`, or a free one when `port` is 0
 * @returns {Promise<{ url: string, agentUrl: string, agentKeysUrl: string, app: ReturnType<typeof createDemoApp>, server: import('node:http').Server, close: () => Promise<void> }>}
 *   `url` is the origin with the real port and no trailing slash, e.g. `http://127.0.0.1:5173`;
 *   `agentUrl` the demo agent's origin, e.g. `http://127.0.0.1:5174`; `agentKeysUrl` its key-set
 *   URL (`…/.well-known/http-message-signatures-directory`), the demo agent's `Signature-Agent`.
 * @throws the listen error (e.g. `EADDRINUSE`) when the port cannot be bound
 * @example
 * const demo = await startDemoServer({ port: 0 });
 * await fetch(`${demo.url}/agent/v1/navigation`);
 * await demo.close();
 */
export async function startDemoServer({ host = '127.0.0.1', port = 5173, distDir, agentPort = port === 0 ? 0 : port + 1 } = {}) {
  const agent = await startDemoAgent({ host, port: agentPort });
  const app = createDemoApp(distDir === undefined ? {} : { distDir });
  const server = createServer((req, res) => {
    void app.handle(req, res);
  });
  let url;
  try {
    url = await listen(server, host, port);
  } catch (error) {
    await agent.close();
    throw error;
  }
  return {
    url,
    agentUrl: agent.url,
    agentKeysUrl: agent.keysUrl,
    app,
    server,
    async close() {
      await new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve(undefined)));
        // Keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      });
      await agent.close();
    },
  };
}
