import { readOwnOrigin } from '../origin-check.js';
import { sendJSON, send } from '../responses.js';
import { DEMO_SHARED_KEY } from './demo-keys.js';
import { createAgentNative } from './agent-native.js';
import {
  BY_SITE_KEY_PREFIX, HANDOFF_POLL_PREFIX, MESSAGE_ID_LENGTH, MESSAGE_LENGTH, MESSAGE_STATUS_PATH, REQUEST_CALLBACK_PATH,
  SEND_MESSAGE_PATH, SITES, STOCK_REPORT_PATH, WELL_KNOWN_PATH, endpointForPath, renderManifest, siteForHostname, siteForKey,
} from './manifest.js';
import { createVerifier } from './verifier.js';
import { JWKS_MEDIA_TYPE, RECEIPT_HEADER, RECEIPT_KEYS_PATH, RECEIPT_VERIFY_PATH, createReceiptSigner } from './receipts.js';

/** Largest signed request body read, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * @typedef {object} AgentGateLogEntry one signed call, verified or refused
 * @property {string} at ISO time
 * @property {string} path
 * @property {string | undefined} tool
 * @property {'verified' | 'refused'} outcome `verified`: the signature checked out (the tool's own
 *   answer, e.g. 409, is in `status`); `refused`: the verifier refused it
 * @property {number} status the HTTP status answered
 * @property {string} [reason] the one-line reason of a refusal
 * @property {string} [keyid]
 * @property {string} [agent] the Signature-Agent of a web-bot-auth call
 * @property {string} [offered] the price a verified call offered (`crawler-exact-price` or `crawler-max-price`)
 */

/**
 * @typedef {object} InboxMessage a message `send_message` accepted
 * @property {string} id
 * @property {string} message
 * @property {string} keyid the key that signed it
 * @property {string | undefined} agent the signing agent's Signature-Agent
 * @property {string} at ISO time
 */

/** Length in code points, as JSON Schema's minLength/maxLength count. */
function codePoints(text) {
  return [...text].length;
}

/**
 * Read a body up to MAX_BODY_BYTES.
 * @returns {Promise<Buffer | undefined>} undefined when larger
 */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Validate a JSON body against a tool's input rules.
 * @param {unknown} input
 * @param {string[]} fields the allowed (and required) string fields
 * @returns {Record<string, string[]> | undefined} errors by field, undefined when valid
 */
function inputErrors(input, fields) {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { body: ['The body must be a JSON object.'] };
  /** @type {Record<string, string[]>} */
  const errors = {};
  for (const key of Object.keys(input)) if (!fields.includes(key)) errors[key] = [`The ${key} field is not allowed.`];
  const bounds = { id: MESSAGE_ID_LENGTH, message: MESSAGE_LENGTH };
  for (const field of fields) {
    const value = /** @type {Record<string, unknown>} */ (input)[field];
    const { min, max } = bounds[/** @type {'id' | 'message'} */ (field)];
    if (typeof value !== 'string') errors[field] = [`The ${field} field is required and must be a string.`];
    else if (codePoints(value) < min || codePoints(value) > max) errors[field] = [`The ${field} field must be ${min} to ${max} characters.`];
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/**
 * The demo site's AgentGate half: the tools manifest (by host at WELL_KNOWN_PATH, by `?siteKey=`
 * there, and at `/v1/agent-tools/{siteKey}`, with an ETag), and the signed endpoints of its two
 * tools, each call verified (verifier.js) before the tool runs; an accepted call is answered with
 * its `AgentGate-Receipt`, and the receipt keys (RECEIPT_KEYS_PATH) and the receipt check
 * (RECEIPT_VERIFY_PATH) are served too (receipts.js).
 *
 * @param {object} [options]
 * @param {() => number} [options.now] clock in milliseconds (default Date.now)
 * @returns {{
 *   handle: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, url: URL) => Promise<boolean>,
 *   log: AgentGateLogEntry[],
 *   manifestRequests: { path: string, ifNoneMatch: string | undefined, status?: number }[],
 *   holdManifests: () => () => void,
 *   coverHeader: (tool: string, header: string) => () => void,
 *   failPaidSends: (status: number, times: number) => () => void,
 *   servePage: (path: string, html: string) => () => void,
 *   messages: Map<string, InboxMessage>,
 *   handoffs: Map<string, import('./agent-native.js').Handoff>,
 *   charges: import('./agent-native.js').Charge[],
 *   clearDirectoryCache: () => void,
 *   receipts: ReturnType<typeof createReceiptSigner>,
 *   rotateReceiptKey: () => string,
 * }} `handle` answers and returns true for AgentGate paths, false for any other; `log` lists
 *   every signed call (verified or refused, with its reason; handoff polls too);
 *   `manifestRequests` every manifest request as it arrived (its `If-None-Match`, and the status
 *   once answered); `holdManifests()` holds manifest answers until the function it returns is
 *   called (for tests of what a page does before its manifest arrives); `coverHeader(tool, header)`
 *   makes the manifest (and the verifier) cover one more header for that tool until the returned
 *   function is called (for tests of what an agent signs of a header it does not set);
 *   `failPaidSends(status, times)` answers the next `times` paid sends of `stock_report` with
 *   `status` (`429` with `Retry-After: 0`, or a `5xx`) and charges nothing (for tests of the
 *   agent's budget), until the returned function is called; `servePage(path, html)` serves `html`
 *   at `path` on the site's origin without a CSP (for tests of what page script of the site's own
 *   origin can do), until the returned function is called; `messages` the
 *   inbox by id; `handoffs` the handed-off calls by handoff id; `charges` the paid calls;
 *   `receipts` signs the `AgentGate-Receipt` of every accepted (2xx) verified call (receipts.js);
 *   `rotateReceiptKey()` makes a new receipt key and returns its kid (for tests of key rotation).
 */
export function createAgentGate({ now = Date.now } = {}) {
  /** @type {AgentGateLogEntry[]} */
  const log = [];
  /** @type {Map<string, InboxMessage>} */
  const messages = new Map();
  const verifier = createVerifier({ now, sharedKeys: { [DEMO_SHARED_KEY.keyid]: DEMO_SHARED_KEY.secret } });
  const receipts = createReceiptSigner({ now });
  const agentNative = createAgentNative({ now });

  /** @type {{ path: string, ifNoneMatch: string | undefined, status?: number }[]} */
  const manifestRequests = [];
  /** @type {Record<string, string[]>} extra covered header components per tool (test knob `coverHeader`) */
  const covered = {};
  /** @type {Map<string, string>} path → HTML of a page a test serves on the site's origin (test knob `servePage`) */
  const testPages = new Map();
  /** @type {Promise<void> | undefined} */
  let manifestsHeld;

  /**
   * Answer the manifest of `site`, or 304 when the client's ETag still matches.
   * @returns {number} the status sent
   */
  function serveManifest(req, res, site) {
    const origin = readOwnOrigin(req);
    if (origin === undefined) {
      sendJSON(req, res, 400, { message: 'The request has no valid Host header, so the manifest cannot name endpoint URLs.' });
      return 400;
    }
    if (!site) {
      sendJSON(req, res, 404, { message: 'No AgentGate site is known by that host or site key.' });
      return 404;
    }
    const { json, etag } = renderManifest(site, origin, covered);
    const headers = { ETag: etag, 'Cache-Control': 'no-cache', Vary: 'Host' };
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, '')).includes(etag)) {
      send(req, res, 304, headers, '');
      return 304;
    }
    sendJSON(req, res, 200, JSON.parse(json), headers);
    return 200;
  }

  /** Verify and run one signed tool call (a signed POST), or a handoff poll (a signed GET, `method` GET). */
  async function serveEndpoint(req, res, path, endpoint, method = 'POST') {
    const entry = { at: new Date(now()).toISOString(), path, tool: endpoint.tool };
    const finish = (status, body, extra = {}, headers = {}) => {
      log.push({ ...entry, ...extra, status });
      sendJSON(req, res, status, body, headers);
    };
    if (req.method !== method) {
      req.resume();
      return finish(405, { message: `Method not allowed; this endpoint takes a signed ${method}.` }, { outcome: 'refused', reason: 'method not allowed' }, { Allow: method });
    }
    const body = await readBody(req);
    if (body === undefined) return finish(413, { message: `Payload too large (over ${MAX_BODY_BYTES} bytes).` }, { outcome: 'refused', reason: 'payload too large' });
    const scheme = /** @type {{ encrypted?: boolean }} */ (req.socket).encrypted ? 'https' : 'http';
    let url;
    try {
      url = new URL(`${scheme}://${req.headers.host ?? ''}${req.url ?? '/'}`);
    } catch {
      return finish(400, { message: 'The request has no valid Host header.' }, { outcome: 'refused', reason: 'no valid Host' });
    }
    const port = req.socket.localPort;
    const defaultPort = scheme === 'https' ? 443 : 80;
    const ownAuthorities = SITES.flatMap((site) => site.hostnames.map((hostname) => (port === defaultPort ? hostname : `${hostname}:${port}`)));
    const verdict = await verifier.verify({ method: req.method, url: url.href, headers: req.headers, body }, endpoint.auth, ownAuthorities);
    if (!verdict.ok) return finish(verdict.status, { message: verdict.reason }, { outcome: 'refused', reason: verdict.reason }, verdict.headers);
    const offered = req.headers['crawler-exact-price'] ?? req.headers['crawler-max-price'];
    const who = { outcome: 'verified', keyid: verdict.keyid, ...(verdict.agent ? { agent: verdict.agent } : {}), ...(offered === undefined ? {} : { offered: String(offered) }) };
    const digest = req.headers['content-digest'];
    /** An accepted (2xx) call's answer carries its receipt (receipts.js): what the site accepted, signed. */
    const receiptFor = (status) => ({
      [RECEIPT_HEADER]: receipts.issue({
        iss: readOwnOrigin(req) ?? url.origin, tool: endpoint.tool, action: endpoint.action, nonce: verdict.nonce,
        contentDigest: Array.isArray(digest) ? digest.join(', ') : digest ?? '', status,
      }),
    });
    const accept = (body) => finish(200, body, who, receiptFor(200));
    const signer = { keyid: verdict.keyid, agent: verdict.agent, label: verdict.label };
    const answer = ({ status, body, headers }) => finish(status, body, who, status >= 200 && status < 300 ? { ...headers, ...receiptFor(status) } : headers);
    // A handoff poll asks about a call already accepted (and receipted): no receipt of its own.
    if (path.startsWith(HANDOFF_POLL_PREFIX)) {
      const polled = agentNative.pollHandoff(decodeURIComponent(path.slice(HANDOFF_POLL_PREFIX.length)), signer);
      return finish(polled.status, polled.body, who, polled.headers);
    }

    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (contentType !== 'application/json') return finish(415, { message: 'The body must be application/json.' }, who);
    let input;
    try {
      input = JSON.parse(body.toString('utf8'));
    } catch {
      return finish(400, { message: 'The body is not valid JSON.' }, who);
    }
    if (path === REQUEST_CALLBACK_PATH) return answer(agentNative.requestCallback(input, signer));
    if (path === STOCK_REPORT_PATH) return answer(agentNative.stockReport(input, signer, req.headers));
    if (path === SEND_MESSAGE_PATH) {
      const errors = inputErrors(input, ['id', 'message']);
      if (errors) return finish(422, { message: Object.values(errors)[0]?.[0] ?? 'Invalid input.', errors }, who);
      const { id, message } = input;
      const known = messages.get(id);
      if (known && known.message !== message) {
        return finish(409, { message: `A different message was already accepted with id ${id}; use a new id for a new message.` }, who);
      }
      if (known) return accept({ status: 'already_accepted' });
      messages.set(id, { id, message, keyid: verdict.keyid, agent: verdict.agent, at: entry.at });
      return accept({ status: 'accepted' });
    }
    const errors = inputErrors(input, ['id']);
    if (errors) return finish(422, { message: Object.values(errors)[0]?.[0] ?? 'Invalid input.', errors }, who);
    return accept({ status: messages.has(input.id) ? 'accepted' : 'unknown' });
  }

  /** The receipt keys (GET) and the receipt check (POST `{ receipt }` → `{ valid, kid, claims }` or `{ valid: false, reason }`). */
  async function serveReceipts(req, res, path) {
    if (path === RECEIPT_KEYS_PATH) {
      req.resume();
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJSON(req, res, 405, { message: 'Method not allowed.' }, { Allow: 'GET, HEAD' });
      // no-cache: a rotated key must be found by the agent's refetch at once.
      return send(req, res, 200, { 'Content-Type': JWKS_MEDIA_TYPE, 'Cache-Control': 'no-cache' }, JSON.stringify(receipts.jwks()));
    }
    if (req.method !== 'POST') {
      req.resume();
      return sendJSON(req, res, 405, { message: 'Method not allowed; POST { "receipt": "<jws>" }.' }, { Allow: 'POST' });
    }
    const body = await readBody(req);
    if (body === undefined) return sendJSON(req, res, 413, { message: `Payload too large (over ${MAX_BODY_BYTES} bytes).` });
    let input;
    try {
      input = JSON.parse(body.toString('utf8'));
    } catch {
      return sendJSON(req, res, 400, { message: 'The body is not valid JSON; send { "receipt": "<jws>" }.' });
    }
    return sendJSON(req, res, 200, receipts.verify(input?.receipt));
  }

  return {
    async handle(req, res, url) {
      const path = url.pathname;
      const testPage = testPages.get(path);
      if (testPage !== undefined && (req.method === 'GET' || req.method === 'HEAD')) {
        req.resume();
        // A hostile page of the site's own origin for a test: inline script runs, so no CSP.
        send(req, res, 200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }, testPage);
        return true;
      }
      if (path === WELL_KNOWN_PATH || path.startsWith(BY_SITE_KEY_PREFIX)) {
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          req.resume();
          sendJSON(req, res, 405, { message: 'Method not allowed.' }, { Allow: 'GET, HEAD' });
          return true;
        }
        const request = { path, ifNoneMatch: req.headers['if-none-match'] };
        manifestRequests.push(request);
        if (manifestsHeld) await manifestsHeld;
        if (path === WELL_KNOWN_PATH) {
          const siteKey = url.searchParams.get('siteKey');
          const hostname = (() => {
            try {
              return new URL(`http://${req.headers.host ?? ''}`).hostname;
            } catch {
              return '';
            }
          })();
          request.status = serveManifest(req, res, siteKey === null ? siteForHostname(hostname) : siteForKey(siteKey));
        } else {
          const siteKey = path.slice(BY_SITE_KEY_PREFIX.length);
          request.status = serveManifest(req, res, siteKey.includes('/') ? undefined : siteForKey(decodeURIComponent(siteKey)));
        }
        return true;
      }
      if (path === RECEIPT_KEYS_PATH || path === RECEIPT_VERIFY_PATH) {
        await serveReceipts(req, res, path);
        return true;
      }
      if (path.startsWith(HANDOFF_POLL_PREFIX) && !path.slice(HANDOFF_POLL_PREFIX.length).includes('/')) {
        // A poll is signed like the call that started the handoff (request_callback's auth).
        await serveEndpoint(req, res, path, endpointForPath(REQUEST_CALLBACK_PATH, covered), 'GET');
        return true;
      }
      const signedPaths = [SEND_MESSAGE_PATH, MESSAGE_STATUS_PATH, REQUEST_CALLBACK_PATH, STOCK_REPORT_PATH];
      const endpoint = signedPaths.includes(path) ? endpointForPath(path, covered) : undefined;
      if (!endpoint) return false;
      await serveEndpoint(req, res, path, endpoint);
      return true;
    },
    log,
    manifestRequests,
    holdManifests() {
      let release = () => {};
      const held = new Promise((resolve) => { release = resolve; });
      manifestsHeld = held;
      return () => {
        if (manifestsHeld === held) manifestsHeld = undefined;
        release();
      };
    },
    coverHeader(tool, header) {
      const list = covered[tool] ??= [];
      list.push(header);
      return () => {
        const at = list.indexOf(header);
        if (at >= 0) list.splice(at, 1);
      };
    },
    failPaidSends: (status, times) => agentNative.failPaidSends(status, times),
    servePage(path, html) {
      testPages.set(path, html);
      return () => {
        if (testPages.get(path) === html) testPages.delete(path);
      };
    },
    messages,
    handoffs: agentNative.handoffs,
    charges: agentNative.charges,
    clearDirectoryCache: verifier.clearDirectoryCache,
    receipts,
    rotateReceiptKey: () => receipts.rotate(),
  };
}
