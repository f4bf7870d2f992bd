/**
 * An API failure with its HTTP status, answered as Laravel does:
 * `{"message": "…"}`, plus `"errors": {"field": ["…"]}` for a 422.
 */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status
   * @param {string} message one readable sentence
   * @param {Record<string, string[]>} [errors] reasons by field (dot notation), for 422
   */
  constructor(status, message, errors) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }

  /** @returns {{ message: string, errors?: Record<string, string[]> }} */
  toJSON() {
    return this.errors ? { message: this.message, errors: this.errors } : { message: this.message };
  }
}

/**
 * A 422 naming one field.
 * @param {string} field dot-notation field name, e.g. `filter.price.max`
 * @param {string} reason
 * @returns {ApiError}
 */
export function invalidField(field, reason) {
  return new ApiError(422, reason, { [field]: [reason] });
}

/**
 * A 404.
 * @param {string} message
 * @returns {ApiError}
 */
export function notFound(message) {
  return new ApiError(404, message);
}

/**
 * Guard that works on any object carrying the name, as error guards across realms should.
 * @param {unknown} error
 * @returns {error is ApiError}
 */
export function isApiError(error) {
  return error instanceof Error && error.name === 'ApiError';
}
