/**
 * A refusal of the demo's admin API, answered as Laravel answers Capell's admin refusals for a
 * JSON request (test/fixtures/capell/admin/SOURCES.md §3 "Refusals" and §7): an exception's
 * `{ "message": … }` pretty-printed (JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES: 403 policy or
 * confirmation, 404, 422 `site_id` / no active site, 500), or a validation failure's compact
 * `{ "message", "errors" }` (422), or a body given as is (a rejected preview's envelope, 422).
 */
export class AdminError extends Error {
  /**
   * @param {number} status HTTP status
   * @param {string} message Laravel's `message`
   * @param {{ errors?: Record<string, string[]>, body?: unknown }} [extra] `errors`: a validation
   *   failure (compact `{ message, errors }`); `body`: the whole answer, compact (Capell's envelope)
   */
  constructor(status, message, extra = {}) {
    super(message);
    this.name = 'AdminError';
    this.status = status;
    this.errors = extra.errors;
    this.body = extra.body;
  }
}

/**
 * Guard that compares the name, so it works across realms.
 * @param {unknown} error
 * @returns {error is AdminError}
 */
export function isAdminError(error) {
  return error instanceof Error && error.name === 'AdminError';
}

/** Capell's `capell-admin::agent.*` texts (`packages/admin/resources/lang/en/agent.php` @cdb7004). */
export const CAPELL_MESSAGES = Object.freeze({
  confirmationRequired: 'Explicit confirmation is required before this admin write.',
  confirmationInvalid: 'The agent confirmation is missing, expired, or out of scope.',
  confirmationChanged: 'The agent confirmation is no longer valid because the preview changed.',
  siteMustFollowSession: 'The active site must come from the authenticated admin session.',
  activeSiteRequired: 'An active site is required for admin agent tools.',
  publicationBlocked: 'The page is not ready for this publication transition.',
});

/** Laravel's AuthorizationException text (a policy that says no). */
export const UNAUTHORIZED = 'This action is unauthorized.';

/** 403 for a policy that says no. */
export const forbidden = () => new AdminError(403, UNAUTHORIZED);

/**
 * 404 as `firstOrFail` / `findOrFail` answers it.
 * @param {string} model e.g. `Page`
 */
export const notFound = (model) => new AdminError(404, `No query results for model [Capell\\Core\\Models\\${model}].`);

/**
 * 422 as Laravel's validator answers it: the first message, "(and N more error[s])".
 * @param {Record<string, string[]>} errors field → messages
 */
export function validationFailed(errors) {
  const messages = Object.values(errors).flat();
  const more = messages.length - 1;
  const summary = `${messages[0]}${more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'})` : ''}`;
  return new AdminError(422, summary, { errors });
}
