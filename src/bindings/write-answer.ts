/**
 * What write executors (form.ts, endpoint-write.ts) hand back, and how they read a site's answer:
 * one copy of the status shape, the session-expired rule and the quoted server message.
 */
import type { JSONValue } from '../declarations/tool-spec.js';
import { isPlainObject } from '../is-plain-object.js';
import type { BindingOutcome } from './binding-executor.js';

/** HTTP statuses that mean the session or its CSRF token is no longer accepted (Laravel: 419). */
export const SESSION_EXPIRED_STATUSES: ReadonlySet<number> = new Set([403, 419]);

/** Longest server message quoted in a reason, in characters. */
export const MAX_SERVER_MESSAGE_LENGTH = 200;

/** The answer of a write call that was not refused: how the person's decision ended. */
export interface WriteStatus {
  status: 'submitted' | 'cancelled' | 'pending';
  /** The HTTP status of the request the person sent; absent when the runtime did not send it. */
  httpStatus?: number;
}

/** A write status as a successful outcome (`answer` and `data` are the same JSON). */
export function writeStatus(answer: WriteStatus): BindingOutcome {
  const json = answer as unknown as JSONValue;
  return { ok: true, answer: json, data: json };
}

/**
 * The reason for an answer that says the session expired (SESSION_EXPIRED_STATUSES), or
 * `undefined` for any other status.
 * @param where the path (and query) the request went to, as the reason names it.
 * @returns e.g. `the session expired or its CSRF token was refused (HTTP 419 from /contact);
 *   the person should reload the page and try again`.
 */
export function sessionExpiredReason(httpStatus: number, where: string): string | undefined {
  if (!SESSION_EXPIRED_STATUSES.has(httpStatus)) return undefined;
  return `the session expired or its CSRF token was refused (HTTP ${httpStatus} from ${where}); the person should reload the page and try again`;
}

/**
 * The server's own `message` from a JSON error body (Laravel's shape `{ "message": "…" }`), as
 * `": <message>"` cut to MAX_SERVER_MESSAGE_LENGTH characters, or `''` when the body is not JSON
 * or has no string `message` (the status then says enough).
 */
export function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (isPlainObject(parsed) && typeof parsed.message === 'string') return `: ${parsed.message.slice(0, MAX_SERVER_MESSAGE_LENGTH)}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return '';
}
