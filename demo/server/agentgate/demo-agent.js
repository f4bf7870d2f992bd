import { createServer } from 'node:http';
import { send } from '../responses.js';
import { DEMO_AGENT_PUBLIC_JWK } from './demo-keys.js';
import { DIRECTORY_MEDIA_TYPE, DIRECTORY_PATH } from './verifier.js';
import { createHash } from 'node:crypto';
import { listen } from '../listen.js';

/**
 * The demo agent's origin, on its own loopback port: it publishes the demo agent's public key
 * (DEMO KEY, see demo-keys.js) at `/.well-known/http-message-signatures-directory`, the key-set
 * URL its signed calls name in `Signature-Agent` (draft-ietf-webbotauth-httpsig-protocol-01: the
 * member's value is that URL itself). The demo agent signs from Node (demo/agent.js, with
 * `capell-webmcp/agent`); its private key is never served to a page.
 */

/**
 * The demo agent's key-set URL on its origin.
 * @param {string} agentUrl the demo agent's origin, e.g. `http://127.0.0.1:5174`
 * @returns {string} e.g. `http://127.0.0.1:5174/.well-known/http-message-signatures-directory`
 */
export function demoAgentKeysUrl(agentUrl) {
  return `${agentUrl.replace(/\/$/, '')}${DIRECTORY_PATH}`;
}

/** The directory document of the demo agent: its one key, with `kid` = its JWK thumbprint. */
export function demoAgentDirectory() {
  const kid = createHash('sha256').update(JSON.stringify({ crv: DEMO_AGENT_PUBLIC_JWK.crv, kty: DEMO_AGENT_PUBLIC_JWK.kty, x: DEMO_AGENT_PUBLIC_JWK.x })).digest('base64url');
  return { keys: [{ ...DEMO_AGENT_PUBLIC_JWK, kid }] };
}

/**
 * A node handler serving a key directory.
 * @param {{ keys: object[] }} directory the JWKS to publish
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void}
 */
export function createDirectoryHandler(directory) {
  const body = JSON.stringify(directory);
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://agent.invalid').pathname;
    req.resume();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(req, res, 405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }, 'Method not allowed\n');
    } else if (path === DIRECTORY_PATH) {
      send(req, res, 200, { 'Content-Type': DIRECTORY_MEDIA_TYPE, 'Cache-Control': 'max-age=60' }, body);
    } else if (path === '/') {
      send(req, res, 200, { 'Content-Type': 'text/plain; charset=utf-8' }, `capell-webmcp demo agent (DEMO KEY, never trust it elsewhere). Key directory: ${DIRECTORY_PATH}\n`);
    } else {
      send(req, res, 404, { 'Content-Type': 'text/plain; charset=utf-8' }, 'Not found\n');
    }
  };
}

/**
 * Start the demo agent's origin.
 * @param {object} [options]
 * @param {string} [options.host] default '127.0.0.1'
 * @param {number} [options.port] 0 picks a free one (default 0)
 * @param {{ keys: object[] }} [options.directory] default demoAgentDirectory()
 * @returns {Promise<{ url: string, keysUrl: string, server: import('node:http').Server, close: () => Promise<void> }>}
 *   `url` is the agent's origin, e.g. `http://127.0.0.1:5174`; `keysUrl` its key-set URL, the
 *   value to name in `Signature-Agent`
 * @throws the listen error when the port cannot be bound
 */
export async function startDemoAgent({ host = '127.0.0.1', port = 0, directory = demoAgentDirectory() } = {}) {
  const server = createServer(createDirectoryHandler(directory));
  const url = await listen(server, host, port);
  return {
    url,
    keysUrl: demoAgentKeysUrl(url),
    server,
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
