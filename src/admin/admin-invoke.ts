/**
 * Capell's admin invoke protocol, as the runtime speaks it (capell-app/capell `packages/admin`;
 * test/fixtures/capell/admin/SOURCES.md has every fact with its file and commit):
 * - one route, `POST /admin/agent/v1/tools/invoke` (`routes/agent.php` @cdb7004: `web` middleware,
 *   so the session's cookie and its CSRF token; Filament's `Authenticate`);
 * - a call sends `{ tool, payload }`; the editor's approval of a write sends
 *   `{ tool, confirmation_token }` and nothing else: Capell runs the payload it stored with the
 *   token (`AgentAdminToolInvocationService.php` @2c15f27; its own bridge
 *   `resources/js/agent/admin-bridge.js` @73e5701 sends exactly these bodies, with `Accept` and
 *   `Content-Type: application/json` and `X-CSRF-TOKEN`);
 * - the answer (`src/Data/Agent/AgentAdminToolResultData.php` @3affada) is
 *   `{ ok, mode, tool, data, confirmationToken?, message? }`: a read `mode: "executed"` with its
 *   `data`; a write first `mode: "confirmation_required"` with the preview as `data`, a
 *   64-hex `confirmationToken` and a `message`; a refused preview 422 `mode: "rejected"`; other
 *   refusals are Laravel's `{ "message": "…" }` (403 policy or confirmation, 422 validation or
 *   `site_id`, 404, 419 CSRF, 500 an unknown tool).
 * The module reads answers into InvokeOutcome; it never keeps the token (the write executor holds
 * it in its closure alone).
 */
import { parseBoundedJSON } from '../registry/bounded-json.js';
import { request } from '../registry/request.js';
import { ADMIN_API_BASE } from '../registry/sources/admin-registry.js';
import type { RuntimeConfig } from '../start/config.js';
import type { JSONValue } from '../shared/declarations/tool-spec.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { primitives } from '../start/primitives.js';
import { plainJSON } from '../shared/plain-json.js';
import { errorMessage } from '../shared/error-message.js';

/** Capell's one invoke route (its default admin path `admin`). */
export const ADMIN_INVOKE_PATH = `${ADMIN_API_BASE}/tools/invoke`;

/** Largest invoke answer read, in bytes (a blueprint list holds at most 100 rows). */
const MAX_INVOKE_ANSWER_BYTES = 256 * 1024;

/** Deepest nesting of an invoke answer read. */
const MAX_INVOKE_ANSWER_DEPTH = 64;

/** Longest server message quoted, in characters. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * Capell's result envelope (`AgentAdminToolResultData::toArray()`, null top-level keys dropped).
 * `confirmationToken` is present only with `mode: "confirmation_required"`.
 */
export interface InvokeEnvelope {
  ok: boolean;
  mode: string;
  tool: string;
  data: JSONValue;
  confirmationToken?: string;
  message?: string;
}

/**
 * One invoke request's outcome: no answer (`reason`: request.ts' one line: timeout, network,
 * redirect refused, abort); or the HTTP `status`, the `envelope` when the body is Capell's result
 * envelope, and the server's one-line `message` (the envelope's, else Laravel's `{ message }`,
 * else `''`).
 */
export type InvokeOutcome =
  | { reason: string }
  | { status: number; envelope?: InvokeEnvelope; message: string };

/**
 * The page's CSRF token for the admin (Laravel's `<meta name="csrf-token">`, which Filament's admin
 * layout writes; Capell's bridge sends the same token, `csrf_token()`, as `X-CSRF-TOKEN`). Read at
 * send time: a new sign-in rotates it.
 */
function readCSRFToken(doc: Document): string | undefined {
  return doc.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content || undefined;
}

/** A server message as one line, at most MAX_MESSAGE_LENGTH characters. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_MESSAGE_LENGTH ? `${line.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : line;
}

/**
 * Reads Capell's result envelope from a parsed answer.
 * @returns the envelope, or undefined when `ok` is not a boolean, `mode` or `tool` not a string,
 *   `data` absent, or a present `confirmationToken` / `message` not a string.
 */
export function readInvokeEnvelope(value: unknown): InvokeEnvelope | undefined {
  if (!isPlainObject(value)) return undefined;
  const { ok, mode, tool, data, confirmationToken, message } = value;
  if (typeof ok !== 'boolean' || typeof mode !== 'string' || typeof tool !== 'string' || data === undefined) return undefined;
  if (confirmationToken !== undefined && typeof confirmationToken !== 'string') return undefined;
  if (message !== undefined && typeof message !== 'string') return undefined;
  const envelope: InvokeEnvelope = { ok, mode, tool, data: data as JSONValue };
  if (confirmationToken !== undefined) envelope.confirmationToken = confirmationToken;
  if (message !== undefined) envelope.message = message;
  return envelope;
}

/**
 * Sends one invoke request: `POST` ADMIN_INVOKE_PATH on the page's origin with `body` as JSON,
 * the session's cookie (`credentials: 'same-origin'`), `X-CSRF-TOKEN` from the page,
 * `redirect: 'error'`, `cache: 'no-store'`, within the runtime's `timeoutMs` and
 * MAX_INVOKE_ANSWER_BYTES. `signal` aborts it (omit it for the editor's approval: once they
 * approved, the request is theirs, not the agent's).
 * @returns an InvokeOutcome; never rejects.
 */
export async function postInvoke(config: RuntimeConfig, body: { tool: string; payload?: Record<string, unknown>; confirmation_token?: string }, signal?: AbortSignal): Promise<InvokeOutcome> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  const csrf = readCSRFToken(config.document);
  if (csrf) headers['X-CSRF-TOKEN'] = csrf;
  let text: string;
  try {
    // plainJSON, not JSON.stringify: no toJSON or getter a page added changes what is sent.
    text = plainJSON(body);
  } catch (error) {
    return { reason: `the request to ${ADMIN_INVOKE_PATH}: ${errorMessage(error)}` };
  }
  const outcome = await request(new primitives.URL(ADMIN_INVOKE_PATH, config.origin), {
    method: 'POST', headers, body: text, credentials: 'same-origin', redirect: 'error', cache: 'no-store',
    timeoutMs: config.timeoutMs, maxAnswerBytes: MAX_INVOKE_ANSWER_BYTES, description: `the request to ${ADMIN_INVOKE_PATH}`,
    ...(signal ? { signal } : {}),
  });
  if (!outcome.ok && outcome.failure !== 'tooLarge') return { reason: outcome.reason };
  const { status } = outcome.response;
  if (!outcome.ok) return { status, message: '' };
  const parsed = parseBoundedJSON(outcome.text, `the answer from ${ADMIN_INVOKE_PATH}`, { maxBytes: MAX_INVOKE_ANSWER_BYTES, maxDepth: MAX_INVOKE_ANSWER_DEPTH });
  if (!parsed.ok) return { status, message: '' };
  const envelope = readInvokeEnvelope(parsed.value);
  const said = envelope?.message ?? (isPlainObject(parsed.value) ? parsed.value.message : undefined);
  return { status, ...(envelope ? { envelope } : {}), message: typeof said === 'string' ? oneLine(said) : '' };
}

/**
 * The agent's one line for an answer that is not the one expected: `<tool>: HTTP <status> from
 * /admin/agent/v1/tools/invoke: <Capell's message>` (the message left out when there is none).
 */
export function invokeRefusal(tool: string, status: number, message: string): string {
  return `${tool}: HTTP ${status} from ${ADMIN_INVOKE_PATH}${message ? `: ${message}` : ''}`;
}
