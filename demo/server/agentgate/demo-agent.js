import { createServer } from 'node:http';
import { send } from '../responses.js';
import { DEMO_AGENT_PRIVATE_JWK, DEMO_AGENT_PUBLIC_JWK, DEMO_SHARED_KEY } from './demo-keys.js';
import { DIRECTORY_MEDIA_TYPE, DIRECTORY_PATH } from './verifier.js';
import { createHash } from 'node:crypto';
import { listen } from '../listen.js';

/**
 * The demo agent's origin, on its own loopback port: it publishes the demo agent's public key
 * (DEMO KEY, see demo-keys.js) at `/.well-known/http-message-signatures-directory`, the URL its
 * signed calls name in `Signature-Agent`.
 */

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
 * @returns {Promise<{ url: string, server: import('node:http').Server, close: () => Promise<void> }>}
 *   `url` is the origin to name in `Signature-Agent`, e.g. `http://127.0.0.1:5174`
 * @throws the listen error when the port cannot be bound
 */
export async function startDemoAgent({ host = '127.0.0.1', port = 0, directory = demoAgentDirectory() } = {}) {
  const server = createServer(createDirectoryHandler(directory));
  const url = await listen(server, host, port);
  return {
    url,
    server,
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/** Path of the module that hands the demo agent's keys to the theme (demo/site/demo-agent.js imports it). */
export const DEMO_AGENT_KEYS_PATH = '/site/demo-agent-keys.js';

/**
 * The JavaScript module served at DEMO_AGENT_KEYS_PATH: the demo agent's identity and its DEMO
 * keys (demo-keys.js, the one place they are written), for the theme script that plays the agent
 * in the page. Generated because the agent's origin is known only once its port is bound.
 * @param {string | undefined} agentUrl the demo agent's origin (`Signature-Agent`), e.g.
 *   `http://127.0.0.1:5174`; undefined when no demo agent runs (the module then exports
 *   `DEMO_AGENT = null` and the theme gives no signer)
 * @returns {string} module text exporting `DEMO_AGENT`: `{ signatureAgent, keyid, privateJwk,
 *   sharedKey: { keyid, secret } }` or `null`
 */
export function renderDemoAgentKeysModule(agentUrl) {
  const agent = agentUrl === undefined ? null : {
    signatureAgent: agentUrl,
    keyid: demoAgentDirectory().keys[0]?.kid,
    privateJwk: DEMO_AGENT_PRIVATE_JWK,
    sharedKey: DEMO_SHARED_KEY,
  };
  return `// DEMO KEYS, PUBLISHED ON PURPOSE (capell-webmcp demo, demo/server/agentgate/demo-keys.js).
// Anyone can read them here: never trust them outside this demo. A real agent keeps its key to itself.
export const DEMO_AGENT = ${JSON.stringify(agent, null, 2)};
`;
}
