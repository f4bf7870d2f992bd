/**
 * `agentgate` binding: an AgentGate tool's call is the agent's own signed HTTP request to the
 * tool's endpoint (AgentGate declared tools, "Call a tool"; issue 9, "Signed calls"). The input,
 * already validated against `inputSchema`, is the JSON body, sent with `endpoint.method` and
 * `endpoint.contentType` through the one request path (request.ts), signed by its `beforeSend`
 * hook (signer.ts) with the signer the agent gave for the tool's `auth[0]`.
 */
import { parseDictionary, type InnerList } from 'structured-headers';
import type { BindingExecutor, BindingOutcome } from '../bindings/binding-executor.js';
import { parseBoundedJSON } from '../bindings/bounded-json.js';
import { serverMessage } from '../bindings/server-message.js';
import type { AgentGateBinding, JSONValue } from '../declarations/tool-spec.js';
import { request, type RequestOutcome } from '../request.js';
import { withReceipt } from './receipt.js';
import { isRetryable, sendWithNetworkRetry } from './call-retry.js';
import { sameComponent, withFloor } from './component-floor.js';
import { followHandoff } from './handoff.js';
import { revalidationRefusal } from './manifest-revalidation.js';
import { EXACT_PRICE_HEADER, payForCall, paymentErrorReason, type PaymentRecord } from './payment.js';
import type { Component } from './signature-base.js';
import { signRequest, WEB_BOT_AUTH_TAG, type Signer } from './signer.js';

/** Components a shared-key tool is signed over when its `auth[0]` names none. */
export const DEFAULT_SHARED_KEY_COMPONENTS: readonly string[] = ['@authority', '@method', '@path', 'content-digest'];

/** Longest wait a `429`'s `Retry-After` is honoured for before the one retry, in ms. */
export const MAX_RETRY_AFTER_MS = 10_000;

/** The components an `Accept-Signature` (RFC 9421 §5.1) asks for, from its first member; none when unreadable. */
export function requestedComponents(acceptSignature: string | null): Component[] {
  if (!acceptSignature) return [];
  try {
    const first = [...parseDictionary(acceptSignature).values()][0];
    if (!first || !Array.isArray(first[0])) return [];
    return (first as InnerList)[0].flatMap(([name, params]) => {
      if (typeof name !== 'string') return [];
      const key = params.get('key');
      return [key === undefined ? name : { name, key: String(key) }];
    });
  } catch {
    return [];
  }
}

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
  return { ok: false, failure: 'timeout', reason: `the signed call to ${where} used its ${timeoutMs} ms on earlier sends; nothing more was sent` };
}

/** Options of `callAgentGate` beyond the executor's: bounds tests shorten. */
export interface AgentGateCallOptions {
  /** Longest wait for a handed-off call, in ms. @default HANDOFF_MAX_WAIT_MS (handoff.ts) */
  handoffMaxWaitMs?: number;
}

/**
 * Calls an AgentGate tool: a signed request, answered once more when the site asks for it.
 * First, a tool registered from a manifest's copy kept in IndexedDB waits (within the call's
 * `timeoutMs`) until the site's own manifest was read again, and is refused with nothing signed
 * or sent when the site no longer declares it so (manifest-revalidation.ts). Then:
 * - a network failure (no answer) is sent once more, same body, fresh signature and nonce, only
 *   for an idempotent or read-only tool (call-retry.ts); never for another, never a paid send;
 * - a `403` with `Accept-Signature` is answered once with a new signature covering what it asks
 *   for as well (the signature-agent member is added by the signer);
 * - a `429` is retried once with a fresh nonce after its `Retry-After` (at most MAX_RETRY_AFTER_MS);
 * - a `402` with `crawler-price` is paid once with `crawler-exact-price` (signed) only within the
 *   page owner's `maxPrice`, else answered isError with the price and how to allow it
 *   (payment.ts); a paid answer is `{ answer, payment: { price, charged } }`;
 * - a `202` with a handoff id is polled at the manifest's `handoff.poll` until final, or answers
 *   `pending` with the id and `agentgate.handoff.status` (handoff.ts);
 * - anything else is the result: a 2xx JSON answer is `answer` and `data` (checked against
 *   `outputSchema` by the caller), another status a one-line reason with the site's message
 *   (and a `crawler-error` code when the site sent one); where the manifest declares receipts, a
 *   2xx answer's receipt is checked and kept, and added as `added.receipt` (receipt.ts).
 * Never throws: no signer, a failed signature and network failures resolve `{ ok: false, reason }`.
 */
export const executeAgentGate: BindingExecutor = (spec, input, context) => callAgentGate(spec, input, context);

/** `check`'s answer, or `late` when `deadline` (epoch ms) passes first. */
async function untilDeadline(check: Promise<string | undefined>, deadline: number, late: string): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([check, new Promise<string>((resolve) => { timer = setTimeout(() => resolve(late), Math.max(0, deadline - Date.now())); })]);
  } finally {
    clearTimeout(timer);
  }
}

/** `executeAgentGate` with options (tests shorten the handoff bound). */
export async function callAgentGate(...[spec, input, context, options = {}]: [...Parameters<BindingExecutor>, AgentGateCallOptions?]): Promise<BindingOutcome> {
  const binding = spec.binding as AgentGateBinding;
  const { auth } = binding;
  const signer: Signer | undefined = context.config.signers.get(auth.type);
  if (!signer) {
    return { ok: false, reason: `${spec.name} is waiting for a signer: it needs a ${auth.type} signer from the agent (window.capellWebMCP.setSigner)` };
  }
  // One deadline for every send of the call (a 403's resend, a 429's, the paid one) and the wait
  // below: each waits only what is left of `timeoutMs`, so they cannot add up past what an MCP
  // client waits.
  const { timeoutMs } = context.config;
  const deadline = Date.now() + timeoutMs;
  const stale = await untilDeadline(revalidationRefusal(context.config.document, spec), deadline,
    `${spec.name}: the site's AgentGate manifest was still being read again after ${timeoutMs} ms; nothing was sent`);
  if (stale) return { ok: false, reason: stale };
  const url = new URL(binding.target);
  const where = `${url.pathname}`;
  const body = JSON.stringify(input);
  const declared: Component[] = withFloor(auth.type === 'web-bot-auth' ? auth.components : (auth.components.length > 0 ? auth.components : DEFAULT_SHARED_KEY_COMPONENTS));
  const tag = auth.type === 'web-bot-auth' ? auth.tag ?? WEB_BOT_AUTH_TAG : null;
  let signed: Request | undefined; // the last request sent, as signed: what a receipt must cover
  const retryable = isRetryable(spec);
  // A paid send is never repeated: a payment the site took before the connection broke would be paid twice.
  const send = (components: readonly Component[], extraHeaders: Record<string, string> = {}, mayRetry = retryable): Promise<RequestOutcome> => sendWithNetworkRetry(async () => (Date.now() >= deadline ? outOfTime(where, timeoutMs) : request(url, {
    method: binding.method,
    credentials: 'omit',
    redirect: 'error',
    headers: { 'Content-Type': binding.contentType, Accept: 'application/json', ...extraHeaders },
    body,
    timeoutMs: Math.max(1, deadline - Date.now()),
    signal: context.signal,
    where,
    description: `the signed call to ${where}`,
    beforeSend: async (built) => (signed = await signRequest(built, signer, { components, tag })),
  })), mayRetry);

  let components = declared;
  let outcome = await send(components);
  if (outcome.ok && outcome.response.status === 403 && outcome.response.headers.has('accept-signature')) {
    const asked = requestedComponents(outcome.response.headers.get('accept-signature'))
      // The signer adds its own signature-agent member under its label.
      .filter((component) => !(typeof component !== 'string' && component.name === 'signature-agent'));
    components = [...declared, ...asked.filter((component) => !declared.some((known) => sameComponent(known, component)))];
    outcome = await send(components);
  } else if (outcome.ok && outcome.response.status === 429) {
    try {
      await wait(Math.max(0, Math.min(retryAfterMs(outcome.response.headers.get('retry-after')), MAX_RETRY_AFTER_MS, deadline - Date.now())), context.signal);
    } catch {
      return { ok: false, reason: `the call was aborted before ${where} answered` };
    }
    outcome = await send(declared); // signRequest draws a fresh nonce
  }
  let payment: PaymentRecord | undefined;
  if (outcome.ok && outcome.response.status === 402) {
    const paid = await payForCall(outcome.response, context.config.maxPrice, where, (headers) => send([...components, EXACT_PRICE_HEADER], headers, false));
    if (!paid.ok) return paid;
    ({ outcome, record: payment } = paid);
  }
  const handoff = outcome.ok ? followHandoff(spec, outcome, components, context, options.handoffMaxWaitMs) : undefined;
  const finished = withPayment(handoff ? await handoff : answerOf(outcome, where), payment);
  return withReceipt(finished, outcome, signed, spec, context);
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
    return { ok: false, reason: `the site refused the signed call to ${where} with ${response.status}${serverMessage(text)}` };
  }
  if (text.trim() === '') return { ok: true, answer: null, data: null };
  const parsed = parseBoundedJSON(text, `the answer from ${where}`);
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  return { ok: true, answer: parsed.value as JSONValue, data: parsed.value as JSONValue };
}
