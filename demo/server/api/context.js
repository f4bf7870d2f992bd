/**
 * @typedef {object} ApiContext what every agent API handler receives
 * @property {import('../catalogue.js').Language} lang from the API base (`/agent/v1` or `/de/agent/v1`)
 * @property {string} origin the site's origin as the request reached it, e.g. `http://127.0.0.1:5173`
 *   (Core's full page URLs and paginator links start with it)
 * @property {string} url the request's absolute URL without its query (Laravel's `request()->url()`):
 *   the path of the links of a paginated answer
 * @property {Record<string, unknown>} input the query in bracket notation as Laravel's middleware
 *   leaves it (validate-request.js toLaravelInput: strings trimmed, empty strings null)
 * @property {Record<string, string>} route the route's own parameters (`{key}` of `/taxonomies/{key}/terms`)
 * @property {Date} now the instant publication is judged at
 */

/**
 * @typedef {object} Envelope the Core read API envelope, minus the version marker
 * @property {unknown} data
 * @property {{ next: string | null, previous: string | null }} links
 */

export {};
