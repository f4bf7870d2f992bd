import { randomBytes } from 'node:crypto';
import { parseDictionary } from 'structured-headers';
import {
  HANDOFF_DEFAULT_POLLS, HANDOFF_POLL_PREFIX, HANDOFF_RETRY_AFTER_S, MESSAGE_ID_LENGTH, STOCK_REPORT_PRICES,
} from './manifest.js';

/**
 * The demo site's agent-native answers (docs/agentgate.md): a tool that hands off (`request_callback`:
 * `202` with a handoff id, finished after a few signed polls of `GET /v1/handoff/{id}`) and a
 * priced tool (`stock_report`: pay per crawl, `402` with `crawler-price` until a signed
 * `crawler-exact-price` pays it, then `crawler-charged`; a refused payment gets `crawler-error`).
 * The caller (routes.js) has verified each request's signature before these run.
 */

/** What the demo's stock report answers per category (DEMO FIGURES). */
const STOCK = Object.freeze({ boots: 42, jackets: 17, archive: 1203, 'gift-cards': 250 });

/**
 * @typedef {object} Handoff a handed-off `request_callback`
 * @property {string} handoffId
 * @property {string} requestId the agent's id of the request
 * @property {string} topic
 * @property {string} keyid the key that signed the call; only it may poll
 * @property {string | undefined} agent
 * @property {number} polls polls it stays pending for
 * @property {number} retryAfterS
 * @property {number} polled polls so far
 */

/**
 * @typedef {object} Charge a paid call
 * @property {string} at ISO time
 * @property {string} tool
 * @property {string} price what was charged, e.g. `USD 0.01`
 * @property {string} keyid
 */

/**
 * @typedef {{ status: number, body: unknown, headers?: Record<string, string> }} Answer
 * @typedef {{ keyid: string, agent?: string, label: string }} Verified who signed, from the verdict
 */

/** The components a verified request's signature covered under `label` (lower-case names). */
function coveredComponents(headers, label) {
  try {
    const member = parseDictionary(String(headers['signature-input'] ?? '')).get(label);
    return Array.isArray(member?.[0]) ? member[0].map(([name]) => String(name)) : [];
  } catch {
    return [];
  }
}

/** One header's value, trimmed, or undefined. */
function header(headers, name) {
  const value = headers[name];
  return value === undefined ? undefined : (Array.isArray(value) ? value.join(', ') : value).trim();
}

/** An integer in [min, max], `fallback` when absent, undefined when invalid. */
function boundedInteger(value, min, max, fallback) {
  if (value === undefined) return fallback;
  return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

/**
 * The agent-native half of the demo site.
 * @param {object} [options]
 * @param {() => number} [options.now] clock in ms (default Date.now)
 * @returns {{
 *   requestCallback: (input: unknown, who: Verified) => Answer,
 *   pollHandoff: (handoffId: string, who: Verified) => Answer,
 *   stockReport: (input: unknown, who: Verified, headers: import('node:http').IncomingHttpHeaders) => Answer,
 *   failPaidSends: (status: number, times: number) => () => void,
 *   handoffs: Map<string, Handoff>,
 *   charges: Charge[],
 * }}
 */
export function createAgentNative({ now = Date.now } = {}) {
  /** @type {Map<string, Handoff>} handoff id → handoff */
  const handoffs = new Map();
  /** @type {Map<string, string>} `keyid requestId` → handoff id, so a retried request gets the same handoff */
  const byRequest = new Map();
  /** @type {Charge[]} */
  const charges = [];
  /** @type {{ status: number, times: number } | undefined} paid sends still to fail (test knob `failPaidSends`) */
  let failing;

  /** `request_callback`: hands the request off (202 with a handoff id and Retry-After). */
  function requestCallback(input, who) {
    const fields = /** @type {Record<string, unknown>} */ (input ?? {});
    const { id, topic } = fields;
    const polls = boundedInteger(fields.polls, 1, 20, HANDOFF_DEFAULT_POLLS);
    const retryAfterS = boundedInteger(fields.retryAfter, 0, 60, HANDOFF_RETRY_AFTER_S);
    const unknown = Object.keys(fields).filter((key) => !['id', 'topic', 'polls', 'retryAfter'].includes(key));
    if (typeof input !== 'object' || input === null || unknown.length > 0 || typeof id !== 'string' || id.length < MESSAGE_ID_LENGTH.min
      || id.length > MESSAGE_ID_LENGTH.max || typeof topic !== 'string' || topic.length < 1 || topic.length > 200 || polls === undefined || retryAfterS === undefined) {
      return { status: 422, body: { message: 'The input must be { id (8–128 characters), topic (1–200), polls? (1–20), retryAfter? (0–60) }.' } };
    }
    const known = byRequest.get(`${who.keyid} ${id}`);
    const handoffId = known ?? `h_${randomBytes(12).toString('base64url')}`;
    if (!known) {
      byRequest.set(`${who.keyid} ${id}`, handoffId);
      handoffs.set(handoffId, { handoffId, requestId: id, topic, keyid: who.keyid, agent: who.agent, polls, retryAfterS, polled: 0 });
    }
    const handoff = /** @type {Handoff} */ (handoffs.get(handoffId));
    return {
      status: 202,
      body: { status: 'pending', handoffId, poll: `${HANDOFF_POLL_PREFIX}${handoffId}`, message: 'A person at the shop confirms call-back requests; poll for the outcome.' },
      headers: { 'Retry-After': String(handoff.retryAfterS) },
    };
  }

  /** `GET /v1/handoff/{id}`: the handoff's state; only the key that started it may ask. */
  function pollHandoff(handoffId, who) {
    const handoff = handoffs.get(handoffId);
    if (!handoff) return { status: 404, body: { message: `No handoff ${handoffId} is known here.` } };
    if (handoff.keyid !== who.keyid || handoff.agent !== who.agent) {
      return { status: 403, body: { message: 'Only the agent that started this handoff may poll it.' } };
    }
    handoff.polled += 1;
    if (handoff.polled < handoff.polls) {
      return { status: 200, body: { status: 'pending' }, headers: { 'Retry-After': String(handoff.retryAfterS) } };
    }
    return {
      status: 200,
      body: { status: 'completed', result: { callback: 'scheduled', topic: handoff.topic, confirmedAt: new Date(now()).toISOString() } },
    };
  }

  /**
   * `stock_report`, priced per category: without a payment header `402` + `crawler-price`; a
   * `crawler-exact-price` must equal the price and be covered by the signature; a
   * `crawler-max-price` must be at least it; paid: `200` + `crawler-charged`.
   */
  function stockReport(input, who, headers) {
    const category = /** @type {Record<string, unknown>} */ (input ?? {}).category;
    if (typeof input !== 'object' || input === null || Object.keys(input).length !== 1 || typeof category !== 'string' || !(category in STOCK_REPORT_PRICES)) {
      return { status: 422, body: { message: `The input must be { category: one of ${Object.keys(STOCK_REPORT_PRICES).join(', ')} }.` } };
    }
    const price = STOCK_REPORT_PRICES[/** @type {keyof typeof STOCK_REPORT_PRICES} */ (category)];
    const exact = header(headers, 'crawler-exact-price');
    const max = header(headers, 'crawler-max-price');
    const unpaid = { status: 402, body: { message: `The ${category} stock report costs ${price}.` }, headers: { 'crawler-price': price } };
    if (exact === undefined && max === undefined) return unpaid;
    const covered = coveredComponents(headers, who.label);
    const offered = exact !== undefined ? 'crawler-exact-price' : 'crawler-max-price';
    if (!covered.includes(offered)) {
      return { status: 402, body: { message: `${offered} must be covered by the request's signature.` }, headers: { 'crawler-price': price, 'crawler-error': 'UnsignedCrawlerPrice' } };
    }
    const amount = (text) => Number(text.trim().split(/\s+/)[1]);
    const currency = (text) => text.trim().split(/\s+/)[0];
    if (exact !== undefined && exact !== price) {
      return { status: 402, body: { message: `crawler-exact-price ${exact} is not the price ${price}.` }, headers: { 'crawler-price': price, 'crawler-error': 'InvalidCrawlerExactPrice' } };
    }
    if (exact === undefined && max !== undefined && (currency(max) !== currency(price) || !(amount(max) >= amount(price)))) {
      return unpaid;
    }
    if (failing && failing.times > 0) {
      failing.times -= 1;
      const status = failing.status;
      return status === 429
        ? { status, body: { message: 'Too many paid requests; nothing was charged.' }, headers: { 'Retry-After': '0' } }
        : { status, body: { message: 'The shop\'s stock service is unavailable; nothing was charged.' } };
    }
    if (category === 'gift-cards') {
      return { status: 402, body: { message: 'The demo payment processor declined this payment.' }, headers: { 'crawler-error': 'PaymentFailed' } };
    }
    charges.push({ at: new Date(now()).toISOString(), tool: 'stock_report', price, keyid: who.keyid });
    return { status: 200, body: { category, inStock: STOCK[/** @type {keyof typeof STOCK} */ (category)] }, headers: { 'crawler-charged': price } };
  }

  /**
   * Answers the next `times` paid sends of `stock_report` with `status` (429 or a 5xx), charging
   * nothing (a test knob: the agent must get its money back).
   * @returns {() => void} undoes it
   */
  function failPaidSends(status, times) {
    const knob = { status, times };
    failing = knob;
    return () => {
      if (failing === knob) failing = undefined;
    };
  }

  return { requestCallback, pollHandoff, stockReport, failPaidSends, handoffs, charges };
}
