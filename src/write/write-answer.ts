/**
 * How write executors (form.ts, endpoint-write.ts) read a site's answer: the session-expired rule.
 * (The quoted server message is bindings/server-message.ts; the answer shapes are write-answers.ts.)
 */

/** HTTP statuses that mean the session or its CSRF token is no longer accepted (Laravel: 419). */
export const SESSION_EXPIRED_STATUSES: ReadonlySet<number> = new Set([403, 419]);

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
