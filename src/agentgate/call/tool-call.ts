/**
 * `agentgate` binding: an AgentGate tool's call is an HTTP request to the tool's endpoint
 * (AgentGate declared tools, "Call a tool"). The input, already validated against `inputSchema`,
 * is the JSON body, sent with `endpoint.method`, `endpoint.contentType` and its `Content-Digest`
 * (RFC 9530) through the one request path (request.ts).
 *
 * The page never signs: the signature is the agent's, added in the agent's own network layer
 * (capell-webmcp/agent, the DevTools Fetch domain; a browser extension or proxy does the same)
 * where no script of the page can reach the key, the nonce or the signature base. A key the page
 * held could be used by any script on the page (`crypto.subtle.sign` can be wrapped before the
 * runtime loads). So a call from a browser whose agent does not sign is refused by the site, and
 * the call answers isError saying so, naming what the site wants signed.
 */
import { serializeItem } from 'structured-headers';
import type { BindingExecutor, BindingOutcome } from '../../shared/bindings/binding-executor.js';
import { parseBoundedJSON } from '../../registry/bounded-json.js';
import { serverMessage } from '../../call/server-message.js';
import type { AgentGateBinding, JSONValue, ToolSpec } from '../../shared/declarations/tool-spec.js';
import { request, type RequestOutcome } from '../../registry/request.js';
import { withReceipt } from './receipt.js';
import { isRetryable, sendWithNetworkRetry } from './call-retry.js';
import { withFloor } from './component-floor.js';
import { contentDigest } from './content-digest.js';
import { followHandoff } from './handoff.js';
import { plainJSON } from '../../shared/plain-json.js';
import { errorMessage } from '../../shared/error-message.js';
import { payForCall, paymentErrorReason, type PaymentRecord } from './payment.js';
import { componentItem, type Component } from './signature-base.js';

/** Longest wait a `429`'s `Retry-After` is honoured for before the one retry, in ms. */
const MAX_RETRY_AFTER_MS = 10_000;

/** `Retry-After` (RFC 9110 §10.2.3: seconds or an HTTP date) in ms from `now`, at least 0. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (!value) return 0;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 0 : Math.max(0, date - now);
}

/** Waits `ms`, or rejects when `signal` aborts first. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The outcome of a send that the call's deadline leaves no time for: nothing is sent. */
function outOfTime(where: string, timeoutMs: number): RequestOutcome {
  return { ok: false, failure: 'timeout', reason: `the call to ${where} used its ${timeoutMs} ms on earlier sends; nothing more was sent` };
}

/** Options of `callAgentGate` beyond the executor's: bounds tests shorten. */
interface AgentGateCallOptions {
  /** Longest wait for a handed-off call, in ms. @default HANDOFF_MAX_WAIT_MS (handoff.ts) */
  handoffMaxWaitMs?: number;
}

/**
 * The components an agent signs a tool's call over, as RFC 9421 writes them in `Signature-Input`:
 * `auth[0].components` with at least `@authority`, `@method`, `@path` and `content-digest`, and
 * for web-bot-auth the `"signature-agent";key="sig1"` member (Web Bot Auth).
 * @example signedComponentsText(auth) // → '"@authority" "@method" "@path" "content-digest" "signature-agent";key="sig1"'
 */
export function signedComponentsText(auth: AgentGateBinding['auth']): string {
  const components: Component[] = withFloor(auth.components);
  if (auth.type === 'web-bot-auth') components.push({ name: 'signature-agent', key: 'sig1' });
  return components.map((component) => serializeItem(componentItem(component))).join(' ');
}

/**
 * The one-line reason of a call the site refused as unsigned or not signed as it asks (`401`, or
 * `403` with `Accept-Signature`): the page cannot sign, the agent's browser must.
 */
function unsignedReason(spec: ToolSpec, status: number, where: string, text: string): string {
  const { auth } = spec.binding as AgentGateBinding;
  const kind = auth.type === 'web-bot-auth' ? 'Web Bot Auth (Ed25519, with Signature-Agent)' : 'the key this site issued to the agent (shared-key, HMAC)';
  return `the site refused the call to ${where} as not signed (${status}${serverMessage(text)}): ${spec.name} must be signed by the agent's own browser (capell-webmcp/agent, or a signing extension or proxy) with ${kind} over ${signedComponentsText(auth)}; this page does not sign, and no agent signed it`;
}

/**
 * Calls an AgentGate tool: one request, sent once more where the site or the network asks:
 * - a network failure (no answer) is sent once more, same body, only for an idempotent or
 *   read-only tool (call-retry.ts); never for another, never a paid send;
 * - a `403` with `Accept-Signature` is sent once more, so that the agent's network layer, which
 *   saw what the site asked for, can sign it so; a second refusal (or a `401`) answers isError
 *   saying the agent's browser must sign the call (unsignedReason);
 * - a `429` is sent once more after its `Retry-After` (at most MAX_RETRY_AFTER_MS);
 * - a `402` with `crawler-price` is sent once more with `crawler-exact-price` (payment.ts): the
 *   agent decides in its network layer whether to pay it (within its own cap and budget) and
 *   signs it only then; the page sets no cap and cannot pay. A paid answer is
 *   `{ answer, payment: { price, charged } }`;
 * - a `202` with a handoff id is polled at the manifest's `handoff.poll` until final, or answers
 *   `pending` with the id and `agentgate.handoff.status` (handoff.ts);
 * - anything else is the result: a 2xx JSON answer is `answer` and `data` (checked against
 *   `outputSchema` by the caller), another status a one-line reason with the site's message
 *   (and a `crawler-error` code when the site sent one); where the manifest declares receipts, a
 *   2xx answer's receipt is checked and added as `added.receipt` (receipt.ts).
 * Every send shares the call's one deadline (`timeoutMs`), so they cannot add up past what an MCP
 * client waits. Never throws: network failures resolve `{ ok: false, reason }`.
 */
export const executeAgentGate: BindingExecutor = (spec, input, context) => callAgentGate(spec, input, context);

/** `executeAgentGate` with options (tests shorten the handoff bound). */
export async function callAgentGate(...[spec, input, context, options = {}]: [...Parameters<BindingExecutor>, AgentGateCallOptions?]): Promise<BindingOutcome> {
  const binding = spec.binding as AgentGateBinding;
  const { timeoutMs } = context.config;
  const deadline = Date.now() + timeoutMs;
  const url = new URL(binding.target);
  const where = `${url.pathname}`;
  let text: string;
  try {
    // plainJSON, not JSON.stringify: no toJSON or getter a page script added changes the body.
    text = plainJSON(input);
  } catch (error) {
    return { ok: false, reason: `${spec.name}: the input ${errorMessage(error)}` };
  }
  const body = new TextEncoder().encode(text);
  const digest = await contentDigest(body);
  const retryable = isRetryable(spec);
  // A paid send is never repeated: a payment the site took before the connection broke would be paid twice.
  const send = (extraHeaders: Record<string, string> = {}, mayRetry = retryable): Promise<RequestOutcome> => sendWithNetworkRetry(async () => (Date.now() >= deadline ? outOfTime(where, timeoutMs) : request(url, {
    method: binding.method,
    credentials: 'omit',
    redirect: 'error',
    headers: { 'Content-Type': binding.contentType, Accept: 'application/json', 'Content-Digest': digest, ...extraHeaders },
    body,
    timeoutMs: Math.max(1, deadline - Date.now()),
    signal: context.signal,
    where,
    description: `the call to ${where}`,
  })), mayRetry);

  let outcome = await send();
  if (outcome.ok && outcome.response.status === 403 && outcome.response.headers.has('accept-signature')) {
    outcome = await send();
  } else if (outcome.ok && outcome.response.status === 429) {
    try {
      await wait(Math.max(0, Math.min(retryAfterMs(outcome.response.headers.get('retry-after')), MAX_RETRY_AFTER_MS, deadline - Date.now())), context.signal);
    } catch {
      return { ok: false, reason: `the call was aborted before ${where} answered` };
    }
    outcome = await send();
  }
  let payment: PaymentRecord | undefined;
  if (outcome.ok && outcome.response.status === 402) {
    const paid = await payForCall(outcome.response, where, (headers) => send(headers, false), serverMessage(outcome.text));
    if (!paid.ok) return paid;
    ({ outcome, record: payment } = paid);
  }
  if (outcome.ok && (outcome.response.status === 401 || (outcome.response.status === 403 && outcome.response.headers.has('accept-signature')))) {
    return { ok: false, reason: unsignedReason(spec, outcome.response.status, where, outcome.text) };
  }
  const handoff = outcome.ok ? followHandoff(spec, outcome, context, options.handoffMaxWaitMs) : undefined;
  const finished = withPayment(handoff ? await handoff : answerOf(outcome, where), payment);
  return withReceipt(finished, outcome, digest, spec, context);
}

/** A paid call's outcome: the answer next to what was paid (`data` stays the site's, for `outputSchema`). */
function withPayment(outcome: BindingOutcome, payment: PaymentRecord | undefined): BindingOutcome {
  if (!payment) return outcome;
  if (!outcome.ok) return { ok: false, reason: `${outcome.reason} (paid ${payment.price}, crawler-charged ${payment.charged ?? 'not sent'})` };
  return { ...outcome, answer: { answer: outcome.answer, payment: { ...payment } } };
}

/** The outcome of the last request: the site's JSON answer, or a one-line reason. */
function answerOf(outcome: RequestOutcome, where: string): BindingOutcome {
  if (!outcome.ok) return { ok: false, reason: outcome.reason };
  const { response, text } = outcome;
  if (response.status < 200 || response.status > 299) {
    const paymentError = paymentErrorReason(response, where);
    if (paymentError) return { ok: false, reason: `${paymentError}${serverMessage(text)}` };
    return { ok: false, reason: `the site refused the call to ${where} with ${response.status}${serverMessage(text)}` };
  }
  if (text.trim() === '') return { ok: true, answer: null, data: null };
  const parsed = parseBoundedJSON(text, `the answer from ${where}`);
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  return { ok: true, answer: parsed.value as JSONValue, data: parsed.value as JSONValue };
}
