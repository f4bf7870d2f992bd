/**
 * A failure of the agent read API, answered as Laravel answers it for Core's routes
 * (test/fixtures/capell/SOURCES.md §4.5):
 * - a 422 (a ValidationException) is compact `{"message", "errors"}`, its message the first error
 *   with ` (and N more error[s])`;
 * - any other status (an HttpException: 404, 405, 429) is `{"message"}` pretty-printed with
 *   unescaped slashes (Laravel's `Handler::prepareJsonResponse`).
 * `inRoute` says whether the failure happened inside the agent route group (a validation error, a
 * missing model, the rate limit), whose middleware adds the agent headers, or before any route
 * matched (an unknown path, a method the route does not answer), which has none of them.
 */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status
   * @param {string} message Laravel's message (may be empty, as `abort(404)` leaves it)
   * @param {{ errors?: Record<string, string[]>, inRoute?: boolean, headers?: Record<string, string> }} [options]
   *   `errors` by attribute (dot path), for a 422; `inRoute` (default true); extra `headers` (`Allow`, `Retry-After`)
   */
  constructor(status, message, { errors, inRoute = true, headers = {} } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.inRoute = inRoute;
    this.headers = headers;
  }

  /** @returns {{ message: string, errors?: Record<string, string[]> }} the body's value */
  toJSON() {
    return this.errors ? { message: this.message, errors: this.errors } : { message: this.message };
  }
}

/**
 * A 422 as Laravel's ValidationException gives it: the first message, `(and N more error[s])`
 * when there are more, and every message by attribute.
 * @param {Record<string, string[]>} errors
 * @returns {ApiError}
 */
export function invalidFields(errors) {
  const messages = Object.values(errors).flat();
  const more = messages.length - 1;
  const summary = more > 0 ? `${messages[0]} (and ${more} more error${more === 1 ? '' : 's'})` : String(messages[0]);
  return new ApiError(422, summary, { errors });
}

/**
 * A 422 naming one attribute.
 * @param {string} field dot path, e.g. `filter.price.max`
 * @param {string} reason
 * @returns {ApiError}
 */
export function invalidField(field, reason) {
  return invalidFields({ [field]: [reason] });
}

/**
 * A 404 inside a route: a model that does not exist (`firstOrFail`) or an `abort(404, …)`.
 * @param {string} message
 * @returns {ApiError}
 */
export function notFound(message) {
  return new ApiError(404, message);
}

/**
 * The router's 404 for a path no route matches (Laravel: `The route <path> could not be found.`).
 * @param {string} path the request path, with its leading `/`
 * @returns {ApiError}
 */
export function routeNotFound(path) {
  return new ApiError(404, `The route ${path.replace(/^\/+/, '')} could not be found.`, { inRoute: false });
}

/**
 * The router's 405 for a method the route does not answer.
 * @param {string} method
 * @param {string} path
 * @param {string[]} allowed
 * @returns {ApiError}
 */
export function methodNotAllowed(method, path, allowed) {
  return new ApiError(405, `The ${method} method is not supported for route ${path.replace(/^\/+/, '')}. Supported methods: ${allowed.join(', ')}.`, {
    inRoute: false,
    headers: { Allow: allowed.join(', ') },
  });
}

/**
 * Guard that works on any object carrying the name, as error guards across realms should.
 * @param {unknown} error
 * @returns {error is ApiError}
 */
export function isApiError(error) {
  return error instanceof Error && error.name === 'ApiError';
}
