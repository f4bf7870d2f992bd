/**
 * Binding a node:http server for the demo: the one listen step both demo origins (the site and the
 * demo agent) share.
 */

/**
 * Listens on `host:port` and resolves with the origin the server answers on.
 * @param {import('node:http').Server} server
 * @param {string} host e.g. '127.0.0.1' or '::1'
 * @param {number} port 0 picks a free one
 * @returns {Promise<string>} e.g. `http://127.0.0.1:5173` (an IPv6 host in brackets)
 * @throws the listen error (e.g. EADDRINUSE) when the port cannot be bound
 */
export async function listen(server, host, port) {
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
