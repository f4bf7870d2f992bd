import { ApiError, isApiError } from '../api-error.js';
import { sendJSON } from '../responses.js';
import { parseQuery } from '../query.js';
import { lookupCatalogueItem } from './catalogue-lookup.js';
import { listNavigation } from './navigation.js';
import { readPage } from './pages.js';
import { queryProperties } from './properties.js';
import { searchPages } from './search.js';
import { browseTaxonomies, listTaxonomyTerms } from './taxonomies.js';
import { SITE } from '../catalogue.js';

/** @typedef {import('./context.js').ApiContext} ApiContext */
/** @typedef {Record<string, string>} PathParams named segments of a route's path, e.g. `{ setKey: 'product' }` */
/** @typedef {(context: ApiContext & PathParams) => import('./context.js').Envelope} Handler */

/** Version marker of every answer. Source: Capell Agent Schema, "What is public". */
export const CAPELL_AGENT_SCHEMA_VERSION = 1;

/** Read endpoints by path below the API base, named as Core names them. */
const ROUTES = /** @type {Record<string, Handler>} */ ({
  '/pages': readPage,
  '/search': searchPages,
  '/navigation': listNavigation,
  '/taxonomies': browseTaxonomies,
  '/catalogue/lookup': lookupCatalogueItem,
});

/**
 * Read endpoints with a key in their path: the pattern, the handler, and the name the key is
 * passed to the handler under.
 * @type {[RegExp, Handler, string][]}
 */
const KEYED_ROUTES = [
  [/^\/properties\/([a-z0-9_-]{1,64})$/, /** @type {Handler} */ (queryProperties), 'setKey'],
  [/^\/taxonomies\/([a-z0-9_-]{1,64})\/terms$/, /** @type {Handler} */ (listTaxonomyTerms), 'taxonomyKey'],
];

/** Methods every read endpoint answers. */
const READ_METHODS = ['GET', 'HEAD'];

/**
 * The handler for a path below the API base, with its path parameters.
 * @param {string} subpath e.g. `/search`, `/properties/product` or `/taxonomies/topics/terms`
 * @returns {{ handler: Handler, pathParams: PathParams } | undefined}
 */
function route(subpath) {
  const handler = Object.hasOwn(ROUTES, subpath) ? ROUTES[subpath] : undefined;
  if (handler) return { handler, pathParams: {} };
  for (const [pattern, keyed, name] of KEYED_ROUTES) {
    const match = pattern.exec(subpath);
    if (match) return { handler: keyed, pathParams: { [name]: /** @type {string} */ (match[1]) } };
  }
  return undefined;
}

/**
 * Answer one request below an agent API base (`/agent/v1` or `/de/agent/v1`) with the Core read
 * API: `{capellAgentSchema: 1, data, links}` on success, `{message}` (404, 405) or
 * `{message, errors}` (422) on failure, always `application/json; charset=utf-8`.
 *
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ lang: import('../catalogue.js').Language, path: string, subpath: string, search: string, now: Date }} request
 */
export function handleAgentRequest(req, res, { lang, path, subpath, search, now }) {
  try {
    const found = route(subpath);
    if (!found) throw new ApiError(404, `There is no agent API endpoint at ${path}.`);
    if (!READ_METHODS.includes(req.method ?? '')) {
      sendJSON(req, res, 405, { message: `The ${req.method} method is not supported for ${path}; use GET.` }, { Allow: READ_METHODS.join(', ') });
      return;
    }
    const { data, links } = found.handler({ ...found.pathParams, site: SITE.key, lang, path, params: parseQuery(search), now });
    sendJSON(req, res, 200, { capellAgentSchema: CAPELL_AGENT_SCHEMA_VERSION, data, links });
  } catch (error) {
    if (!isApiError(error)) throw error;
    sendJSON(req, res, error.status, error.toJSON());
  }
}
