/**
 * Prices as pay per crawl (HTTP 402 with `crawler-*` headers) writes them
 * (`crawler-price: USD 0.01`) and as an agent caps them (capell-webmcp/agent `maxPrice: '0.05 USD'`): a currency and a decimal
 * amount. Pure: the page's call chunk and the agent (Node) both read prices with it.
 */

/** A price: an ISO 4217 currency code and a non-negative decimal amount, kept exact as text. */
export interface Price {
  /** Three upper-case letters, e.g. `USD`. */
  currency: string;
  /** The amount as written, without sign or exponent, e.g. `0.01` (at most MAX_PRICE_DECIMALS decimals). */
  amount: string;
}

/** Most decimals a price may have (micro-units: enough for any per-call price). */
export const MAX_PRICE_DECIMALS = 6;

/** Most digits before the decimal point (amounts below a billion stay exact in micro-units). */
const MAX_PRICE_INTEGER_DIGITS = 9;

const CURRENCY = /^[A-Z]{3}$/;
const AMOUNT = new RegExp(`^\\d{1,${MAX_PRICE_INTEGER_DIGITS}}(\\.\\d{1,${MAX_PRICE_DECIMALS}})?$`);

/**
 * Reads a price written `USD 0.01` (pay per crawl's order) or `0.01 USD` (a page owner's cap),
 * one space (or more) between; the currency in upper case.
 * @returns the price, or undefined when the text is not one (a negative, an exponent, more than
 *   MAX_PRICE_DECIMALS decimals, a lower-case or missing currency). Never throws.
 * @example parsePrice('0.05 USD') // → { currency: 'USD', amount: '0.05' }
 */
export function parsePrice(text: unknown): Price | undefined {
  if (typeof text !== 'string') return undefined;
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2) return undefined;
  const [first, second] = parts as [string, string];
  const [currency, amount] = CURRENCY.test(first) ? [first, second] : [second, first];
  return CURRENCY.test(currency) && AMOUNT.test(amount) ? { currency, amount } : undefined;
}

/** The amount in millionths of its currency unit, exact (at most 10^15, within Number's exact integers). */
export function priceMicros(price: Price): number {
  const [whole, fraction = ''] = price.amount.split('.') as [string, string?];
  return Number(whole) * 10 ** MAX_PRICE_DECIMALS + Number(fraction.padEnd(MAX_PRICE_DECIMALS, '0'));
}

/** A price as pay per crawl's headers write it: `USD 0.01`. */
export function formatPrice(price: Price): string {
  return `${price.currency} ${price.amount}`;
}
