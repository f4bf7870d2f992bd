/**
 * Paying for an AgentGate call (issue 12, "Payment"), as pay per crawl does it (research notes,
 * "Pay per crawl"): an unpaid call is answered `402` with `crawler-price`; the retry carries
 * `crawler-exact-price`, covered by the signature; a paid answer carries `crawler-charged`; a
 * refused payment carries `crawler-error` with a code (e.g. `InvalidCrawlerExactPrice`,
 * `PaymentFailed`). The runtime pays only within the cap the page's owner configured
 * (`maxPrice`, `data-max-price`), in the same currency, once per call; without a cap it never
 * sends a payment header. It offers `crawler-exact-price` rather than `crawler-max-price`: it pays
 * the price the site stated and the runtime checked against the cap, where a max-price offer
 * would let the site charge any amount up to the cap unseen. A paid request is never resent after
 * a network failure (the site may have charged it).
 */
import type { RequestOutcome } from '../request.js';
import type { Price } from './payment-price.js';
import { formatPrice, parsePrice, priceMicros } from './payment-price.js';

/** The response header naming what a call costs. */
export const PRICE_HEADER = 'crawler-price';

/** The request header that offers to pay exactly the asked price; the signature covers it. */
export const EXACT_PRICE_HEADER = 'crawler-exact-price';

/** The response header naming what was charged. */
export const CHARGED_HEADER = 'crawler-charged';

/** The response header naming why a payment was refused. */
export const PAYMENT_ERROR_HEADER = 'crawler-error';

/** Longest `crawler-error` code quoted in a reason, in characters. */
const MAX_ERROR_CODE_LENGTH = 100;

/** What to do with a `402`: pay this price once, or answer the agent with `reason` (isError). */
export type PaymentDecision = { pay: Price; reason?: undefined } | { reason: string; pay?: undefined };

/**
 * Decides on a `402` answer to an unpaid call.
 * - no or unreadable `crawler-price`: refused, naming what the site sent;
 * - no cap on this page: refused, stating the price and how the page's owner allows it
 *   (`data-max-price`, or `start({ maxPrice })`);
 * - a price in another currency than the cap, or above it: refused, naming both;
 * - otherwise: pay it (`crawler-exact-price` with the price as the site wrote it).
 * @param price the `crawler-price` header's value, or null
 * @param capText the page owner's cap (`RuntimeConfig.maxPrice`, e.g. `0.05 USD`)
 * @param where the endpoint's path, for the reason
 * @example decidePayment('USD 0.01', '0.05 USD', '/agent/report') // → { pay: { currency: 'USD', amount: '0.01' } }
 */
export function decidePayment(price: string | null, capText: string | undefined, where: string): PaymentDecision {
  const cap = capText === undefined ? undefined : parsePrice(capText);
  if (price === null) return { reason: `the site asks payment for the call to ${where} (402) but names no ${PRICE_HEADER}: not paid` };
  const asked = parsePrice(price);
  if (!asked) return { reason: `the site asks payment for the call to ${where} (402) but its ${PRICE_HEADER} ${JSON.stringify(price.slice(0, 40))} is not a price: not paid` };
  const cost = `the call to ${where} costs ${formatPrice(asked)} (402, ${PRICE_HEADER})`;
  const allow = `data-max-price="${asked.amount} ${asked.currency}" on the runtime's script tag (or start({ maxPrice }))`;
  if (!cap) return { reason: `${cost} and was not paid: this page allows no payment; its owner can allow up to that price with ${allow}` };
  if (cap.currency !== asked.currency) {
    return { reason: `${cost} and was not paid: this page's cap is ${formatPrice(cap)}, another currency; its owner can allow it with ${allow}` };
  }
  if (priceMicros(asked) > priceMicros(cap)) {
    return { reason: `${cost} and was not paid: above this page's cap of ${formatPrice(cap)}; its owner can allow it with ${allow}` };
  }
  return { pay: asked };
}

/** The headers of the one paid retry: `crawler-exact-price` with the price asked. */
export function paymentHeaders(price: Price): Record<string, string> {
  return { [EXACT_PRICE_HEADER]: formatPrice(price) };
}

/**
 * The `crawler-error` of an answer as a reason, or undefined when it has none: a refused payment
 * is reported with its code, e.g. `the site refused payment for /agent/report: crawler-error
 * PaymentFailed (402)`.
 */
export function paymentErrorReason(response: Response, where: string, offered?: Price): string | undefined {
  const code = response.headers.get(PAYMENT_ERROR_HEADER);
  if (code === null) return undefined;
  const offer = offered ? ` of ${formatPrice(offered)}` : '';
  return `the site refused payment${offer} for the call to ${where}: ${PAYMENT_ERROR_HEADER} ${code.trim().slice(0, MAX_ERROR_CODE_LENGTH)} (${response.status})`;
}

/**
 * What a paid call reports next to the site's answer: the price offered and `crawler-charged` as
 * the site wrote it (null when it sent none: the agent then knows the charge is unconfirmed).
 */
export interface PaymentRecord {
  price: string;
  charged: string | null;
}

/** The payment record of a paid answer. */
export function paymentRecord(response: Response, offered: Price): PaymentRecord {
  return { price: formatPrice(offered), charged: response.headers.get(CHARGED_HEADER) };
}

/** The paid retry's outcome: the answer to go on with and what was paid, or why the call ends. */
export type PaidCall =
  | { ok: true; outcome: RequestOutcome & { ok: true }; record: PaymentRecord }
  | { ok: false; reason: string };

/**
 * Answers a `402` to an unpaid call: decides (`decidePayment`) and, within the cap, sends the
 * call once more through `sendPaid` with `crawler-exact-price` (which `sendPaid` must sign).
 * A `crawler-error` on that answer ends the call with its code; any other answer goes on (a 2xx
 * with its payment record).
 * @param sendPaid sends the call again with these extra headers, covered by its signature
 * @returns never rejects when `sendPaid` does not.
 */
export async function payForCall(
  response: Response, cap: string | undefined, where: string, sendPaid: (headers: Record<string, string>) => Promise<RequestOutcome>,
): Promise<PaidCall> {
  const refused = paymentErrorReason(response, where);
  if (refused) return { ok: false, reason: refused };
  const decision = decidePayment(response.headers.get(PRICE_HEADER), cap, where);
  if (!decision.pay) return { ok: false, reason: decision.reason };
  const outcome = await sendPaid(paymentHeaders(decision.pay));
  if (!outcome.ok) return { ok: false, reason: `${outcome.reason} (a payment of ${formatPrice(decision.pay)} was offered; whether it was charged is unknown)` };
  const error = paymentErrorReason(outcome.response, where, decision.pay);
  if (error) return { ok: false, reason: error };
  return { ok: true, outcome, record: paymentRecord(outcome.response, decision.pay) };
}
