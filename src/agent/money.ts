/**
 * The agent's money: its cap per call (`maxPrice`) and its total (`budget`), both written as a
 * site writes prices (`'0.05 USD'` or pay per crawl's `'USD 0.05'`), kept as integer micro-units
 * (millionths of the currency unit) so that adding and comparing are exact. The site's `402`
 * names its price in `crawler-price`; the agent alone decides whether that is paid.
 */
import { MAX_PRICE_DECIMALS, parsePrice } from '../agentgate/call/payment-price.js';

/** An amount of one currency in integer micro-units (1 USD = 1 000 000). */
export interface Money {
  /** ISO 4217 code, three upper-case letters, e.g. `USD`. */
  currency: string;
  /** The amount in millionths of the unit; a non-negative safe integer. */
  micros: number;
}

const MICROS_PER_UNIT = 10 ** MAX_PRICE_DECIMALS;

/**
 * Reads a price: `0.05 USD` or `USD 0.05`, at most six decimals, no sign or exponent
 * (agentgate/call/payment-price.ts's grammar, the same the runtime reads `crawler-price` with).
 * @returns the amount, or undefined when the text is not a price. Never throws.
 * @example parseMoney('USD 0.01') // → { currency: 'USD', micros: 10000 }
 */
export function parseMoney(text: unknown): Money | undefined {
  const price = parsePrice(text);
  if (!price) return undefined;
  const [whole, fraction = ''] = price.amount.split('.') as [string, string?];
  return { currency: price.currency, micros: Number(whole) * MICROS_PER_UNIT + Number(fraction.padEnd(MAX_PRICE_DECIMALS, '0')) };
}

/**
 * An amount as the agent writes it in its messages: at least two decimals, no trailing zeros
 * beyond them, currency last.
 * @example formatMoney({ currency: 'USD', micros: 500000 }) // → '0.50 USD'
 */
export function formatMoney(money: Money): string {
  const whole = Math.floor(money.micros / MICROS_PER_UNIT);
  const fraction = String(money.micros % MICROS_PER_UNIT).padStart(MAX_PRICE_DECIMALS, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction} ${money.currency}`;
}


/** What the agent does with a site's price: pay it, or the one-line reason it does not. */
export type PaymentDecision = { pay: Money; reason?: undefined } | { reason: string; pay?: undefined };

/** A cap per call and a budget, and what was spent: the agent's own, never the page's. */
export interface Purse {
  /**
   * Decides on a `402`'s `crawler-price`:
   * - no cap (`maxPrice` not given): never paid;
   * - not a price, another currency, above the cap, or more than the budget has left: not paid;
   * - else pay (the caller then calls `spend` when it signs the paid send).
   * @param priceText the `crawler-price` value as the site sent it
   * @returns the decision; `reason` reads e.g. `not paid: the site asks 0.50 USD; the agent's cap
   *   is 0.05 USD a call`. Never throws.
   */
  decide(priceText: string): PaymentDecision;
  /**
   * Takes `price` from the budget (when there is one).
   * @returns false, spending nothing, when the budget no longer covers it (two calls decided
   *   before either spent).
   */
  spend(price: Money): boolean;
  /**
   * Gives back what `spend` took for a send the site did not charge (it answered `402`, `429` or
   * `5xx`), or whose claim was given back before it was sent.
   */
  refund(price: Money): void;
  /** What the budget has left, or undefined without a budget. */
  left(): Money | undefined;
  /** Everything spent so far, in the cap's currency (zero without a cap). */
  spent(): Money;
}

/**
 * The agent's purse.
 * @param maxPrice the cap per call (undefined: nothing is ever paid)
 * @param budget the total the agent may spend (undefined: no total, only the cap); its currency
 *   must be the cap's (checked by the options, agent-options.ts)
 */
export function createPurse(maxPrice: Money | undefined, budget: Money | undefined): Purse {
  let spentMicros = 0;
  const left = (): Money | undefined => (budget ? { currency: budget.currency, micros: budget.micros - spentMicros } : undefined);
  return {
    decide(priceText) {
      const asked = parseMoney(priceText);
      if (!asked) return { reason: `not paid: the site's crawler-price ${JSON.stringify(priceText.slice(0, 40))} is not a price` };
      const ask = `the site asks ${formatMoney(asked)}`;
      if (!maxPrice) return { reason: `not paid: ${ask}; the agent pays nothing (it has no maxPrice)` };
      if (asked.currency !== maxPrice.currency) {
        return { reason: `not paid: the site asks ${formatMoney(asked).split(' ')[0]} in ${asked.currency}, the agent pays in ${maxPrice.currency}` };
      }
      if (asked.micros > maxPrice.micros) return { reason: `not paid: ${ask}; the agent's cap is ${formatMoney(maxPrice)} a call` };
      const rest = left();
      if (rest && asked.micros > rest.micros) return { reason: `not paid: ${ask}; the agent's budget has ${formatMoney(rest)} left` };
      return { pay: asked };
    },
    spend(price) {
      const rest = left();
      if (rest && price.micros > rest.micros) return false;
      spentMicros += price.micros;
      return true;
    },
    refund(price) {
      spentMicros = Math.max(0, spentMicros - price.micros);
    },
    left,
    spent: () => ({ currency: maxPrice?.currency ?? budget?.currency ?? 'USD', micros: spentMicros }),
  };
}
