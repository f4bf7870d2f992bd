/**
 * The demo site's AgentGate half inside web-test-runner's dev server, for browser tests of signed
 * calls: the manifest, the signed endpoints and the handoff polls go to the real demo app; the
 * dev server's own origin also publishes the demo agent's key directory (so a page signs as the
 * demo agent with `Signature-Agent` = its own origin, on loopback as the demo verifier requires);
 * and a few fixture routes read the demo's server-side records or fail on purpose. Never part of
 * the demo.
 */
import { createDirectoryHandler, demoAgentDirectory } from '../../demo/server/agentgate/demo-agent.js';
import { DIRECTORY_PATH } from '../../demo/server/agentgate/verifier.js';

/** Paths the demo app answers for AgentGate (agentgate/routes.js, manifest.js). */
const DEMO_AGENTGATE_PATH = /^\/(\.well-known\/agentgate-tools\.json$|v1\/agent-tools\/|v1\/handoff\/|agent\/(submit|message-status|request-callback|stock-report)$)/;

/** Fixture routes' prefix. */
export const AGENTGATE_FIXTURE_PREFIX = '/test-fixtures/agentgate/';

const directory = createDirectoryHandler(demoAgentDirectory());

/**
 * Requests that reached `/test-fixtures/agentgate/drop-once/{key}`, by key: the body and the
 * signature's nonce of each. The first request of a key gets a connection that breaks inside
 * the answer (a network failure in the page), every later one `200 {"status":"accepted"}`.
 * @type {Map<string, { body: string, signatureInput: string }[]>}
 */
const dropOnce = new Map();

/** Sends JSON, never cached. */
function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * Answers an AgentGate path, or returns false for any other.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} path
 * @param {{ handle: (req: any, res: any) => Promise<void>, agentGate: { log: object[], charges: object[] } }} demo the demo app
 * @returns {boolean | Promise<void>} false for other paths; a promise while an answer is pending
 */
export function handleAgentGateRoute(req, res, path, demo) {
  if (DEMO_AGENTGATE_PATH.test(path)) return demo.handle(req, res);
  if (path === DIRECTORY_PATH) {
    directory(req, res);
    return true;
  }
  if (!path.startsWith(AGENTGATE_FIXTURE_PREFIX)) return false;
  const rest = path.slice(AGENTGATE_FIXTURE_PREFIX.length);
  if (rest === 'log') {
    req.resume();
    json(res, 200, { log: demo.agentGate.log, charges: demo.agentGate.charges });
    return true;
  }
  if (rest.startsWith('drop-once-count/')) {
    req.resume();
    json(res, 200, { requests: dropOnce.get(rest.slice('drop-once-count/'.length)) ?? [] });
    return true;
  }
  if (rest.startsWith('drop-once/')) {
    const key = rest.slice('drop-once/'.length);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => { body += chunk; });
    // Settles once answered, so the dev server neither answers first nor counts it a 404.
    return new Promise((resolve) => req.on('end', () => {
      const seen = dropOnce.get(key) ?? [];
      seen.push({ body, signatureInput: String(req.headers['signature-input'] ?? '') });
      dropOnce.set(key, seen);
      if (seen.length === 1) {
        // The connection breaks inside the body: the page's read fails (a network failure).
        // Headers came first, so Chromium never resends it by itself (as it may a reset on a
        // reused connection): each request the page makes arrives here exactly once.
        req.socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sta', resolve);
        return;
      }
      json(res, 200, { status: 'accepted' });
      resolve();
    }));
  }
  req.resume();
  json(res, 404, { message: 'no such AgentGate fixture' });
  return true;
}
