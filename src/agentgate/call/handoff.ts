/**
 * Handoff (AgentGate declared tools: the manifest's `handoff.poll`): a site
 * that accepts a call but finishes it later, or needs a person, answers `202` with a handoff id;
 * the runtime then polls `handoff.poll` (`/v1/handoff/{id}`) until the site names a final state,
 * honouring `Retry-After` and backing off, and stops on the call's signal or after a bounded time:
 * the call then answers `pending` with the id and the read-only tool that asks again later
 * (`agentgate.handoff.status`, handoff-status-tool.ts).
 *
 * Polls are signed like the call that started the handoff, by the agent's own network layer
 * (capell-webmcp/agent signs the polls of ids its call's `202` returned), never by the page: the
 * handoff id alone is then no bearer token, since the site can check that the agent asking is the
 * one it accepted the call from (the demo site does). A handoff id is one path segment of safe
 * characters (HANDOFF_ID_PATTERN), so no answer can point the polls at another path.
 */
import type { BindingOutcome, CallContext } from '../../shared/bindings/binding-executor.js';
import { parseBoundedJSON } from '../../registry/bounded-json.js';
import { serverMessage } from '../../call/server-message.js';
import type { RuntimeConfig } from '../../start/config.js';
import type { AgentGateBinding, JSONValue, ToolSpec } from '../../shared/declarations/tool-spec.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { HANDOFF_STATUS_TOOL } from '../../shared/registration-rules.js';
import { request, type RequestOutcome } from '../../registry/request.js';

/**
 * Longest a call waits for a handed-off action to finish, in ms. 10 s, as a write's wait for the
 * person (DEFAULT_WRITE_WAIT_MS): MCP clients give up on a call after 20–60 s, so
 * the agent gets `pending` and the status tool while it is still listening. Then the call answers
 * `pending`.
 */
const HANDOFF_MAX_WAIT_MS = 10_000;

/** First wait between polls when the site sends no `Retry-After`, in ms; doubled after each pending poll. */
const HANDOFF_FIRST_INTERVAL_MS = 500;

/**
 * Shortest wait between two polls of one call, in ms, whatever the site's `Retry-After` says (a
 * `Retry-After: 0` must not become a burst of polls until the bound).
 */
const HANDOFF_MIN_INTERVAL_MS = 250;

/** Longest wait between polls the runtime chooses itself (backing off), in ms. */
const HANDOFF_MAX_INTERVAL_MS = 5_000;

/** The runtime's read-only tool that asks a pending handoff again (handoff-status-tool.ts). */
export { HANDOFF_STATUS_TOOL };

/**
 * Shortest time a poll may take before it counts as failed, in ms (or the runtime's `timeoutMs`
 * when shorter): a poll sent just before the bound still gets a fair answer time.
 */
const HANDOFF_MIN_POLL_TIMEOUT_MS = 2_000;

/** Most pending handoffs a page remembers for HANDOFF_STATUS_TOOL; the oldest is forgotten first. */
const MAX_PENDING_HANDOFFS = 50;

/** A handoff id the runtime accepts: a path segment needing no escaping, 1–128 characters (not `.` or `..`). */
const HANDOFF_ID_PATTERN = /^[A-Za-z0-9._~-]{1,128}$/;

/** The state a poll answers while the site has not finished. */
const PENDING = 'pending';

/**
 * The handoff id of a `202` answer's JSON body (`{ "handoffId": "h_…" }`), or undefined when it
 * names none or one outside HANDOFF_ID_PATTERN.
 */
function handoffIdOf(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    const id = isPlainObject(body) ? body.handoffId : undefined;
    // `.` and `..` would be dot segments of the poll URL: the signed GETs would go to a parent path.
    return typeof id === 'string' && HANDOFF_ID_PATTERN.test(id) && id !== '.' && id !== '..' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The poll URL of a handoff: the manifest's `handoff.poll` with `{id}` replaced. */
function handoffPollURL(template: string, id: string): URL {
  return new URL(template.replace('{id}', encodeURIComponent(id)));
}

/** One signed poll: `signal` aborts it, `timeoutMs` bounds it. Never throws (request.ts). */
type HandoffPoll = (signal: AbortSignal, timeoutMs: number) => Promise<RequestOutcome>;

/** A handoff the page remembers, so HANDOFF_STATUS_TOOL can ask again: which tool, where, and how to ask. */
interface PendingHandoff {
  tool: string;
  url: URL;
  poll: HandoffPoll;
}

/**
 * The poll of a handoff: a `GET` of `url`, anonymous, no redirects; the agent's network layer
 * signs it (the page does not).
 */
function createHandoffPoll(url: URL): HandoffPoll {
  const where = url.pathname;
  return (signal, timeoutMs) => request(url, {
    method: 'GET',
    credentials: 'omit',
    redirect: 'error',
    headers: { Accept: 'application/json' },
    timeoutMs,
    signal,
    where,
    description: `the handoff poll ${where}`,
  });
}

/** Pending handoffs per runtime (its config), in the order they were handed off. */
const pendingByRuntime = new WeakMap<RuntimeConfig, Map<string, PendingHandoff>>();

/** Remembers a pending handoff for HANDOFF_STATUS_TOOL (at most MAX_PENDING_HANDOFFS per runtime). */
function rememberHandoff(config: RuntimeConfig, id: string, handoff: PendingHandoff): void {
  const pending = pendingByRuntime.get(config) ?? new Map<string, PendingHandoff>();
  pendingByRuntime.set(config, pending);
  pending.delete(id);
  pending.set(id, handoff);
  while (pending.size > MAX_PENDING_HANDOFFS) pending.delete(pending.keys().next().value!);
}

/** A remembered pending handoff, or undefined. */
export function pendingHandoff(config: RuntimeConfig, id: string): PendingHandoff | undefined {
  return pendingByRuntime.get(config)?.get(id);
}

/** Forgets a handoff that reached a final state. */
function forgetHandoff(config: RuntimeConfig, id: string): void {
  pendingByRuntime.get(config)?.delete(id);
}

/** How long to wait for the handoff: `maxWaitMs` in ms, `firstWaitMs` before the first poll (the `202`'s `Retry-After`). */
interface HandoffWait {
  signal: AbortSignal;
  /** Total bound, in ms. @default HANDOFF_MAX_WAIT_MS */
  maxWaitMs?: number;
  /** Wait before the first poll, in ms. @default HANDOFF_FIRST_INTERVAL_MS */
  firstWaitMs?: number;
  /** Clock, in ms (tests). @default Date.now */
  now?: () => number;
}

/** Waits `ms`; resolves false when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `Retry-After` (RFC 9110 §10.2.3: seconds or an HTTP date) in ms, or undefined when absent or unreadable. */
function retryAfterOf(response: Response, now: number): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value.trim());
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Polls a handoff until the site names a final state, the bound passes, or the signal aborts.
 * Between polls it waits the site's `Retry-After` when given, else HANDOFF_FIRST_INTERVAL_MS
 * doubling up to HANDOFF_MAX_INTERVAL_MS, and never less than HANDOFF_MIN_INTERVAL_MS; it never
 * polls sooner than the site asked, so a `Retry-After` beyond the bound ends the wait at once. Each poll's own timeout is the time left
 * (at least HANDOFF_MIN_POLL_TIMEOUT_MS, at most the runtime's `timeoutMs`).
 * A poll that fails at the network level or times out is tried again (polls only read).
 * @returns
 *   - a final state (any JSON `status` but `pending`): `{ status, handoffId, answer }`, `answer`
 *     being the site's last JSON (also `data`, for `outputSchema`); the handoff is forgotten;
 *   - still pending at the bound: `{ status: 'pending', handoffId, next: { tool:
 *     'agentgate.handoff.status', input: { handoffId } }, reason }`, the handoff remembered;
 *   - the same pending answer, its `reason` naming why, when a poll cannot be sent or its answer
 *     cannot be read: the site accepted the call, so the agent must
 *     not be led to send it again;
 *   - `{ ok: false }` on abort (no request is sent after it), when the site no longer knows the
 *     handoff (404) or answers another error status or a non-JSON body. Never throws.
 */
export async function awaitHandoff(config: RuntimeConfig, id: string, handoff: PendingHandoff, wait: HandoffWait): Promise<BindingOutcome> {
  const now = wait.now ?? Date.now;
  const maxWaitMs = wait.maxWaitMs ?? HANDOFF_MAX_WAIT_MS;
  const deadline = now() + maxWaitMs;
  const where = handoff.url.pathname;
  const next = { tool: HANDOFF_STATUS_TOOL, input: { handoffId: id } };
  const pending = (why: string): BindingOutcome => {
    rememberHandoff(config, id, handoff);
    const answer: JSONValue = { status: PENDING, handoffId: id, next, reason: why };
    // The runtime's status, not the site's result: the tool's outputSchema does not describe it.
    return { ok: true, answer, data: answer, runtimeStatus: true };
  };
  const aborted = (): BindingOutcome => {
    rememberHandoff(config, id, handoff);
    return { ok: false, reason: `the call was aborted while ${handoff.tool}'s handoff ${id} was pending at ${where}; ${HANDOFF_STATUS_TOOL} asks again later` };
  };
  let interval = HANDOFF_FIRST_INTERVAL_MS;
  let delay = wait.firstWaitMs ?? interval;
  let polls = 0;
  let lastFailure = '';
  for (;;) {
    if (now() + delay > deadline) {
      const asked = polls === 0 && delay > maxWaitMs ? `the site asked to wait ${delay} ms before polling` : `the site had not finished after ${polls} poll(s)`;
      return pending(`${asked}, beyond this call's bound of ${maxWaitMs} ms${lastFailure}`);
    }
    if (delay > 0 && !(await sleep(delay, wait.signal))) return aborted();
    if (wait.signal.aborted) return aborted();
    polls += 1;
    const outcome = await handoff.poll(wait.signal, Math.min(config.timeoutMs, Math.max(HANDOFF_MIN_POLL_TIMEOUT_MS, deadline - now())));
    if (!outcome.ok) {
      if (outcome.failure === 'aborted') return aborted();
      if (outcome.failure === 'network' || outcome.failure === 'timeout') {
        lastFailure = ` (last poll: ${outcome.reason})`;
        interval = Math.min(interval * 2, HANDOFF_MAX_INTERVAL_MS);
        delay = interval;
        continue;
      }
      // The site accepted the call: a poll that cannot be sent is no reason to send the call again.
      return pending(`the site accepted the call, but its handoff poll was not sent: ${outcome.reason}`);
    }
    const { response, text } = outcome;
    if (response.status === 404) {
      forgetHandoff(config, id);
      return { ok: false, reason: `the site no longer knows handoff ${id} (${where} answered 404${serverMessage(text)})` };
    }
    if (response.status !== 200 && response.status !== 202) {
      return { ok: false, reason: `the site refused the handoff poll ${where} with ${response.status}${serverMessage(text)}` };
    }
    const parsed = parseBoundedJSON(text, `the answer from ${where}`);
    if (!parsed.ok) return { ok: false, reason: parsed.reason };
    const state = isPlainObject(parsed.value) ? parsed.value.status : undefined;
    if (typeof state !== 'string' || state === '') return { ok: false, reason: `the answer from ${where} names no status` };
    lastFailure = '';
    if (state !== PENDING && response.status === 200) {
      forgetHandoff(config, id);
      const answer: JSONValue = { status: state, handoffId: id, answer: parsed.value as JSONValue };
      return { ok: true, answer, data: parsed.value as JSONValue };
    }
    const asked = retryAfterOf(response, now());
    interval = Math.min(interval * 2, HANDOFF_MAX_INTERVAL_MS);
    delay = Math.max(asked ?? interval, HANDOFF_MIN_INTERVAL_MS);
  }
}

/**
 * Follows a call's `202` when it is a handoff: a JSON body with a `handoffId` and a manifest
 * that names `handoff.poll`. Waits `firstWaitMs` from the `202`'s `Retry-After`, then polls
 * (`awaitHandoff`).
 * @param maxWaitMs the bound (HANDOFF_MAX_WAIT_MS unless a test gives a shorter one)
 * @returns the handoff's outcome, or undefined when the answer is no handoff the runtime can
 *   follow (then it is the call's answer as it is).
 */
export function followHandoff(
  spec: ToolSpec, answer: { response: Response; text: string }, context: CallContext, maxWaitMs?: number,
): Promise<BindingOutcome> | undefined {
  const binding = spec.binding as AgentGateBinding;
  const id = handoffIdOf(answer.text);
  if (answer.response.status !== 202 || id === undefined || binding.handoffPoll === undefined) return undefined;
  const url = handoffPollURL(binding.handoffPoll, id);
  const handoff: PendingHandoff = { tool: spec.name, url, poll: createHandoffPoll(url) };
  return awaitHandoff(context.config, id, handoff, {
    signal: context.signal,
    ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
    firstWaitMs: Math.max(retryAfterOf(answer.response, Date.now()) ?? HANDOFF_FIRST_INTERVAL_MS, HANDOFF_MIN_INTERVAL_MS),
  });
}
