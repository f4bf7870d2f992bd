/**
 * Binding a node:http server for the demo: the one listen step both demo origins (the site and the
 * demo agent) share.
 */

/** How long the server keeps an idle kept-alive connection open, in ms. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Listens on `host:port` and resolves with the origin the server answers on.
 * @param {import('node:http').Server} server
 * @param {string} host e.g. '127.0.0.1' or '::1'
 * @param {number} port 0 picks a free one
 * @returns {Promise<string>} e.g. `http://127.0.0.1:5173` (an IPv6 host in brackets)
 * @throws the listen error (e.g. EADDRINUSE) when the port cannot be bound
 */
export async function listen(server, host, port) {
  // Longer than any client's pooled idle time: with node's 5 s a client (Playwright's route.fetch,
  // the agent's fetch) could pick a kept-alive connection the server was closing at that moment,
  // and its request failed with ECONNRESET (seen once in npm run test:busy).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
}
