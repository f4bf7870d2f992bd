/**
 * How write executors (form.ts, endpoint-write.ts) read a site's answer: the session-expired rule
 * and the quoted server message. (The answer shapes are in writes/write-answers.ts.)
 */
import { isPlainObject } from '../is-plain-object.js';

/** HTTP statuses that mean the session or its CSRF token is no longer accepted (Laravel: 419). */
export const SESSION_EXPIRED_STATUSES: ReadonlySet<number> = new Set([403, 419]);

/** Longest server message quoted in a reason, in characters. */
export const MAX_SERVER_MESSAGE_LENGTH = 200;

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
