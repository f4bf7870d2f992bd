/**
 * Paying for an AgentGate call, as pay per crawl (HTTP 402 with `crawler-*` headers) does it: an
 * unpaid call is answered `402` with `crawler-price`; the retry carries `crawler-exact-price`,
 * covered by the signature; a paid answer carries `crawler-charged`; a refused payment carries
 * `crawler-error` with a code (e.g. `InvalidCrawlerExactPrice`, `PaymentFailed`).
 *
 * The money is the agent's, so the page decides nothing: it sends the one retry with
 * `crawler-exact-price` set to the price the site asked, and the agent's network layer
 * (capell-webmcp/agent) signs it only when that price is within the agent's own cap and budget,
 * or answers it itself with a `402` naming the price and the agent's limit. No cap is read from
 * the page. The page offers `crawler-exact-price` rather than `crawler-max-price`: a max-price
 * offer would let the site charge any amount up to the agent's cap unseen. A paid request is never
 * resent after a network failure (the site may have charged it).
 */
import type { RequestOutcome } from '../../registry/request.js';
import type { Price } from './payment-price.js';
import { formatPrice, parsePrice } from './payment-price.js';
import { serverMessage } from '../../call/server-message.js';

/** The response header naming what a call costs. */
const PRICE_HEADER = 'crawler-price';

/** The request header that offers to pay exactly the asked price; the signature covers it. */
const EXACT_PRICE_HEADER = 'crawler-exact-price';

/** The response header naming what was charged. */
const CHARGED_HEADER = 'crawler-charged';

/** The response header naming why a payment was refused. */
const PAYMENT_ERROR_HEADER = 'crawler-error';

/** Longest `crawler-error` code quoted in a reason, in characters. */
const MAX_ERROR_CODE_LENGTH = 100;

/**
 * The price a `402` asks, or the one-line reason it cannot be offered: no or an unreadable
 * `crawler-price` (the agent's network layer may have answered the call itself, with its reason as
 * the message).
 * @param price the `crawler-price` header's value, or null
 * @param where the endpoint's path, for the reason
 * @param message the answer's message (serverMessage), appended to the reason
 */
function askedPrice(price: string | null, where: string, message = ''): { pay: Price } | { reason: string } {
  if (price === null) return { reason: `the call to ${where} was not paid (402${message})` };
  const asked = parsePrice(price);
  if (!asked) return { reason: `the site asks payment for the call to ${where} (402) but its ${PRICE_HEADER} ${JSON.stringify(price.slice(0, 40))} is not a price: not paid` };
  return { pay: asked };
}

/** The headers of the one paid retry: `crawler-exact-price` with the price asked. */
function paymentHeaders(price: Price): Record<string, string> {
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
function paymentRecord(response: Response, offered: Price): PaymentRecord {
  return { price: formatPrice(offered), charged: response.headers.get(CHARGED_HEADER) };
}

/** The paid retry's outcome: the answer to go on with and what was paid, or why the call ends. */
type PaidCall =
  | { ok: true; outcome: RequestOutcome & { ok: true }; record: PaymentRecord }
  | { ok: false; reason: string };

/**
 * Answers a `402` to an unpaid call: sends it once more through `sendPaid` with
 * `crawler-exact-price` set to the price asked. Whether that is paid is the agent's decision, in
 * its network layer (see the module's comment). A `crawler-error` or another `402` on that answer
 * ends the call with its reason; any other answer goes on (a 2xx with its payment record).
 * @param sendPaid sends the call again with these extra headers
 * @returns never rejects when `sendPaid` does not.
 */
export async function payForCall(
  response: Response, where: string, sendPaid: (headers: Record<string, string>) => Promise<RequestOutcome>, message = '',
): Promise<PaidCall> {
  const refused = paymentErrorReason(response, where);
  if (refused) return { ok: false, reason: refused };
  const asked = askedPrice(response.headers.get(PRICE_HEADER), where, message);
  if (!('pay' in asked)) return { ok: false, reason: asked.reason };
  const outcome = await sendPaid(paymentHeaders(asked.pay));
  if (!outcome.ok) return { ok: false, reason: `${outcome.reason} (a payment of ${formatPrice(asked.pay)} was offered; whether it was charged is unknown)` };
  const error = paymentErrorReason(outcome.response, where, asked.pay);
  if (error) return { ok: false, reason: error };
  if (outcome.response.status === 402) return { ok: false, reason: `the call to ${where} costs ${formatPrice(asked.pay)} and was not paid (402${serverMessage(outcome.text)})` };
  return { ok: true, outcome, record: paymentRecord(outcome.response, asked.pay) };
}
