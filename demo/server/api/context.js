/**
 * @typedef {object} ApiContext what every agent API handler receives (a pagination ListRequest too)
 * @property {string} site key of the site delivered (the one whose pages are public here)
 * @property {import('../catalogue.js').Language} lang from the API base (`/agent/v1` or `/de/agent/v1`)
 * @property {string} path the full request path, for pagination links
 * @property {Record<string, unknown>} params the parsed query (bracket notation)
 * @property {Date} now the instant publication is judged at
 */

/**
 * @typedef {object} Envelope the Core read API envelope, minus the version marker
 * @property {unknown} data
 * @property {import('../pagination.js').Links} links
 */

export {};
