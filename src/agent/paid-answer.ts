/**
 * What the agent tells its caller about money comes from the agent's own books, never from the
 * page: the page's answer is a CallToolResult written by page script, which can say "paid once"
 * after the agent paid more, or "refused" after it paid. So the agent writes the call's payment
 * into the answer itself: the price it signed, the `crawler-charged` it saw in the site's answer,
 * and whether it took the money back because the site did not charge.
 */
import type { Intent, Payment } from './intents.js';
import { errorResult, type CallToolResult } from './page-tool.js';

/** The agent's account of a call's payment, as the answer's `payment` member. */
function paymentMember(payment: Payment): { price: string; charged: string | null; refunded?: true } {
  return { price: payment.price, charged: payment.charged, ...(payment.refunded ? { refunded: true as const } : {}) };
}

/** The agent's account of a call's payment, as a clause of a one-line reason. */
function paymentClause(payment: Payment): string {
  if (payment.refunded) return `the agent signed a payment of ${payment.price}, which the site did not charge; the budget has it back`;
  if (!payment.answered) return `the agent paid ${payment.price} for this call; the site's answer to that send had not come when the call ended`;
  return `the agent paid ${payment.price} for this call; crawler-charged ${payment.charged ?? 'not sent'}`;
}

/** Whether a parsed answer has the runtime's paid shape: `{ answer, payment }`, nothing else. */
function isPaidShape(value: unknown): value is { answer: unknown; payment: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    && Object.keys(value).length === 2 && 'answer' in value && 'payment' in value;
}

/**
 * The page's result with the agent's own account of the call's payment:
 * - the agent refused to pay and the call failed: the agent's one-line reason (`intent.refusal`);
 * - a failed call the agent paid for: the reason with what the agent paid appended;
 * - a successful call the agent paid for: `{ answer, payment: { price, charged, refunded? } }`
 *   (the page's own `payment` replaced, its answer kept);
 * - a successful call that claims a payment (the runtime's paid shape) the agent never made:
 *   `payment: null`;
 * - anything else as the page answered.
 * @returns a CallToolResult; never throws (an answer that is not JSON is left as it is, or, when
 *   the agent paid, wrapped as `{ answer: <its text>, payment }`)
 */
export function withAgentsPayment(result: CallToolResult, intent: Intent): CallToolResult {
  const { payment, refusal } = intent;
  const text = result.content.find((item) => item.type === 'text')?.text ?? '';
  if (result.isError) {
    const reason = refusal ?? text;
    if (payment) return errorResult(`${reason} (${paymentClause(payment)})`);
    return refusal !== undefined ? errorResult(refusal) : result;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!payment) {
    if (!isPaidShape(parsed)) return result;
    return { ...result, content: [{ type: 'text', text: JSON.stringify({ answer: parsed.answer, payment: null }) }] };
  }
  const answer = isPaidShape(parsed) ? parsed.answer : parsed === undefined ? text : parsed;
  return { ...result, content: [{ type: 'text', text: JSON.stringify({ answer, payment: paymentMember(payment) }) }] };
}
