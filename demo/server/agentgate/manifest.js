import { createHash } from 'node:crypto';
import { RECEIPT_HEADER, RECEIPT_KEYS_PATH, RECEIPT_VERIFY_PATH } from './receipts.js';

/**
 * The AgentGate tools manifest the demo site publishes (`agentgate-tools/1`): each tool is an MCP
 * `Tool` plus `action`, `endpoint` (absolute URL on the site's own origin, exact route) and `auth`;
 * `receipts` names the receipt header, the receipt keys and the verify endpoint (receipts.js).
 */

/** The manifest format this demo speaks. */
export const MANIFEST_VERSION = 'agentgate-tools/1';

/** Path of the manifest found by host (and by `?siteKey=`). */
export const WELL_KNOWN_PATH = '/.well-known/agentgate-tools.json';

/** Prefix of the manifest found by site key: `/v1/agent-tools/{siteKey}`. */
export const BY_SITE_KEY_PREFIX = '/v1/agent-tools/';

/** Route of `send_message` (web-bot-auth). */
export const SEND_MESSAGE_PATH = '/agent/submit';

/** Route of `message_status` (shared-key). */
export const MESSAGE_STATUS_PATH = '/agent/message-status';

/** Route of `request_callback` (web-bot-auth; hands off: answers 202 and finishes after a few polls). */
export const REQUEST_CALLBACK_PATH = '/agent/request-callback';

/** Route of `stock_report` (web-bot-auth; priced: 402 with crawler-price until paid). */
export const STOCK_REPORT_PATH = '/agent/stock-report';

/** Prefix of the handoff poll route: `GET /v1/handoff/{id}` (the manifest's `handoff.poll`). */
export const HANDOFF_POLL_PREFIX = '/v1/handoff/';

/**
 * What `stock_report` costs per category (pay per crawl's `crawler-price`), DEMO PRICES. The
 * `gift-cards` report's payment is always declined (`crawler-error: PaymentFailed`), so a page
 * can see how a refused payment is reported.
 */
export const STOCK_REPORT_PRICES = Object.freeze({ boots: 'USD 0.01', jackets: 'USD 0.02', archive: 'USD 0.50', 'gift-cards': 'USD 0.01' });

/** Default polls a `request_callback` handoff stays pending for, and the `Retry-After` (s) it sends meanwhile. */
export const HANDOFF_DEFAULT_POLLS = 3;
export const HANDOFF_RETRY_AFTER_S = 1;

/** Components every signed call must cover (plus, for web-bot-auth, the signature-agent member). */
export const SIGNED_COMPONENTS = Object.freeze(['@authority', '@method', '@path', 'content-digest']);

/** `send_message` bounds, in code points (as JSON Schema counts). */
export const MESSAGE_ID_LENGTH = Object.freeze({ min: 8, max: 128 });
export const MESSAGE_LENGTH = Object.freeze({ min: 1, max: 1000 });

/**
 * @typedef {object} DemoSite
 * @property {string} siteKey
 * @property {string} name
 * @property {string[]} hostnames the hosts (without port) the site answers as
 */

/** The sites this demo plays: one, on the loopback names. */
export const SITES = /** @type {readonly DemoSite[]} */ (Object.freeze([
  { siteKey: 'site_demo', name: 'Capell demo shop (AgentGate demo)', hostnames: ['127.0.0.1', 'localhost', '[::1]'] },
]));

/**
 * The site a host name belongs to.
 * @param {string} hostname lower-case, brackets kept for IPv6 (as `URL.hostname` gives it)
 * @returns {DemoSite | undefined}
 */
export function siteForHostname(hostname) {
  return SITES.find((site) => site.hostnames.includes(hostname));
}

/**
 * The site with this key.
 * @param {string} siteKey
 * @returns {DemoSite | undefined}
 */
export function siteForKey(siteKey) {
  return SITES.find((site) => site.siteKey === siteKey);
}

/**
 * The tools of a site, with endpoints on `origin`.
 * @param {string} origin the site's own origin, e.g. `http://127.0.0.1:5173`
 * @returns {object[]} MCP-shaped tools with `action`, `endpoint`, `auth`
 */
export function siteTools(origin) {
  return [
    {
      name: 'send_message',
      title: 'Send a message',
      description: 'Send a message to the site\'s inbox. Retrying with the same id and message is safe; the same id with another message is refused.',
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', minLength: MESSAGE_ID_LENGTH.min, maxLength: MESSAGE_ID_LENGTH.max, description: 'Your id for this message, reused when you retry it.' },
          message: { type: 'string', minLength: MESSAGE_LENGTH.min, maxLength: MESSAGE_LENGTH.max },
        },
        required: ['id', 'message'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { status: { type: 'string', enum: ['accepted', 'already_accepted'] } }, required: ['status'] },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      action: 'agent_submit',
      endpoint: { method: 'POST', url: `${origin}${SEND_MESSAGE_PATH}`, contentType: 'application/json' },
      auth: [{ type: 'web-bot-auth', components: [...SIGNED_COMPONENTS], tag: 'web-bot-auth' }],
    },
    {
      name: 'message_status',
      title: 'Check a message',
      description: 'Whether the site\'s inbox has accepted the message with this id. For agents the site issued a shared key to.',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', minLength: MESSAGE_ID_LENGTH.min, maxLength: MESSAGE_ID_LENGTH.max } },
        required: ['id'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { status: { type: 'string', enum: ['accepted', 'unknown'] } }, required: ['status'] },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      action: 'agent_message_status',
      endpoint: { method: 'POST', url: `${origin}${MESSAGE_STATUS_PATH}`, contentType: 'application/json' },
      auth: [{ type: 'shared-key', components: [...SIGNED_COMPONENTS] }],
    },
    {
      name: 'request_callback',
      title: 'Request a call back',
      description: 'Ask the shop to call you back about a topic. A person at the shop confirms it, so the call is handed off and finishes later. Retrying with the same id is safe.',
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', minLength: MESSAGE_ID_LENGTH.min, maxLength: MESSAGE_ID_LENGTH.max, description: 'Your id for this request, reused when you retry it.' },
          topic: { type: 'string', minLength: 1, maxLength: 200 },
          polls: { type: 'integer', minimum: 1, maximum: 20, description: `Demo only: how many polls the shop stays pending for (default ${HANDOFF_DEFAULT_POLLS}).` },
          retryAfter: { type: 'integer', minimum: 0, maximum: 60, description: `Demo only: the Retry-After, in seconds, the shop sends while pending (default ${HANDOFF_RETRY_AFTER_S}).` },
        },
        required: ['id', 'topic'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      action: 'agent_request_callback',
      endpoint: { method: 'POST', url: `${origin}${REQUEST_CALLBACK_PATH}`, contentType: 'application/json' },
      auth: [{ type: 'web-bot-auth', components: [...SIGNED_COMPONENTS], tag: 'web-bot-auth' }],
    },
    {
      name: 'stock_report',
      title: 'Stock report',
      description: 'The shop\'s current stock figures for one category. Priced per call (pay per crawl): the runtime pays only within the page owner\'s cap.',
      inputSchema: {
        type: 'object',
        properties: { category: { type: 'string', enum: Object.keys(STOCK_REPORT_PRICES) } },
        required: ['category'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { category: { type: 'string' }, inStock: { type: 'integer' } }, required: ['category', 'inStock'] },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      action: 'agent_stock_report',
      endpoint: { method: 'POST', url: `${origin}${STOCK_REPORT_PATH}`, contentType: 'application/json' },
      auth: [{ type: 'web-bot-auth', components: [...SIGNED_COMPONENTS], tag: 'web-bot-auth' }],
    },
  ];
}

/**
 * The site's agent-native mechanisms the manifest names (AgentGate declared tools): where a
 * handed-off call is polled, and the pay per crawl headers its priced tools speak.
 * @param {string} origin the site's own origin
 */
export function agentNativeSections(origin) {
  return {
    handoff: { poll: `${origin}${HANDOFF_POLL_PREFIX}{id}` },
    payment: { price: 'crawler-price', offer: ['crawler-exact-price', 'crawler-max-price'], charged: 'crawler-charged' },
  };
}

/**
 * The manifest document of a site and its strong ETag (sha-256 of the JSON, so an unchanged
 * manifest keeps its tag and revalidates with 304).
 * @param {DemoSite} site
 * @param {string} origin the site's own origin
 * @param {Record<string, string[]>} [covered] extra covered header components per tool name (routes.js `coverHeader`)
 * @returns {{ json: string, etag: string }}
 */
export function renderManifest(site, origin, covered = {}) {
  const json = JSON.stringify({
    version: MANIFEST_VERSION,
    site: { siteKey: site.siteKey, name: site.name },
    tools: withCovered(siteTools(origin), covered),
    receipts: { header: RECEIPT_HEADER, jwks: `${origin}${RECEIPT_KEYS_PATH}`, verify: `${origin}${RECEIPT_VERIFY_PATH}` },
    ...agentNativeSections(origin),
  });
  const etag = `"${createHash('sha256').update(json).digest('base64url')}"`;
  return { json, etag };
}

/**
 * The tools with extra covered components (a test knob of routes.js, `coverHeader`): each tool
 * named in `covered` lists those header names after its own `auth[0].components`.
 * @param {object[]} tools siteTools' tools
 * @param {Record<string, string[]>} covered tool name → extra header names
 * @returns {object[]} new tool objects; the others as they are
 */
function withCovered(tools, covered) {
  return tools.map((tool) => {
    const extra = covered[tool.name];
    if (!extra || extra.length === 0) return tool;
    return { ...tool, auth: [{ ...tool.auth[0], components: [...tool.auth[0].components, ...extra] }] };
  });
}

/**
 * The route table entry of a signed endpoint path: its tool name and declared `auth[0]`.
 * @param {string} path
 * @param {Record<string, string[]>} [covered] extra covered components per tool (routes.js `coverHeader`)
 * @returns {{ tool: string, action: string, auth: { type: 'web-bot-auth' | 'shared-key', components: string[], tag?: string } } | undefined}
 */
export function endpointForPath(path, covered = {}) {
  const tool = withCovered(siteTools('http://site.invalid'), covered).find((candidate) => new URL(candidate.endpoint.url).pathname === path);
  return tool ? { tool: tool.name, action: tool.action, auth: /** @type {any} */ (tool.auth[0]) } : undefined;
}
