/**
 * An admin API failure: its HTTP status and a stable code, answered as
 * `{ "capellAgentSchema": 1, "error": { "code", "message" } }` (admin contract, "Admin API").
 */
export class AdminError extends Error {
  /**
   * @param {number} status HTTP status
   * @param {string} code e.g. `forbidden`, `invalid_payload`, `state_changed`
   * @param {string} message one line
   */
  constructor(status, code, message) {
    super(message);
    this.name = 'AdminError';
    this.status = status;
    this.code = code;
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

/** @param {string} message */
export const forbidden = (message) => new AdminError(403, 'forbidden', message);
/** @param {string} message */
export const invalidPayload = (message) => new AdminError(422, 'invalid_payload', message);
/** @param {string} message */
export const notFound = (message) => new AdminError(404, 'not_found', message);
