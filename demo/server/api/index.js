import { ApiError, isApiError, methodNotAllowed, routeNotFound } from '../api-error.js';
import { encodePHPJSON } from '../php-json.js';
import { parseAgentQuery } from '../query.js';
import { send } from '../responses.js';
import { lookupCatalogueItem } from './catalogue-lookup.js';
import { listNavigation } from './navigation.js';
import { queryPages } from './pages.js';
import { queryProperties } from './properties.js';
import { searchPages } from './search.js';
import { browseTaxonomies } from './taxonomies.js';
import { toLaravelInput } from './validate-request.js';

/** @typedef {import('./context.js').ApiContext} ApiContext */
/** @typedef {(context: ApiContext) => import('./context.js').Envelope} Handler */

/** Version marker of every answer. Source: Capell Agent Schema, "What is public". */
export const CAPELL_AGENT_SCHEMA_VERSION = 1;

/**
 * The routes below the API base: Core's five (capell-app/frontend `routes/agent.php`), then the
 * catalogue extension's. A pattern's groups are the route's parameters, named in order.
 * @type {[pattern: RegExp, handler: Handler, parameters: string[]][]}
 */
const ROUTES = [
  [/^\/taxonomies$/, browseTaxonomies, []],
  [/^\/taxonomies\/([A-Za-z0-9_.-]+)\/terms$/, browseTaxonomies, ['key']],
  [/^\/search$/, searchPages, []],
  [/^\/navigation$/, listNavigation, []],
  [/^\/pages$/, queryPages, []],
  [/^\/catalogue\/lookup$/, lookupCatalogueItem, []],
  [/^\/properties\/([a-z0-9_.-]{1,64})$/, queryProperties, ['set']],
];

/** Methods a GET route answers (Laravel adds HEAD). */
const READ_METHODS = ['GET', 'HEAD'];

/** Cache-Control of a successful answer of the group (ResolveAgentSite; as Symfony writes it). */
const CACHE_OK = 'max-age=60, public';

/** Cache-Control of a failure inside the group (ResolveAgentSite: `no-store`, as Symfony writes it). */
const CACHE_FAILED = 'no-store, private';

/** Cache-Control Symfony gives an answer that set none (the router's 404 and 405). */
const CACHE_DEFAULT = 'no-cache, private';

/**
 * The route for a path below the API base, with its parameters.
 * @param {string} subpath e.g. `/search` or `/taxonomies/topics/terms`
 * @returns {{ handler: Handler, route: Record<string, string> } | undefined}
 */
function matchRoute(subpath) {
  for (const [pattern, handler, names] of ROUTES) {
    const match = pattern.exec(subpath);
    if (match) return { handler, route: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(/** @type {string} */ (match[index + 1]))])) };
  }
  return undefined;
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {ApiError} error
 * @param {Record<string, string>} headers
 */
function sendFailure(req, res, error, headers) {
  // Laravel renders a ValidationException compact and any HttpException pretty-printed.
  const body = error.status === 422 ? encodePHPJSON(error.toJSON()) : encodePHPJSON(error.toJSON(), { pretty: true, unescapedSlashes: true });
  const cache = error.inRoute
    ? { 'Cache-Control': CACHE_FAILED, 'X-Capell-Agent-Schema': String(CAPELL_AGENT_SCHEMA_VERSION) }
    : { 'Cache-Control': CACHE_DEFAULT };
  send(req, res, error.status, { 'Content-Type': 'application/json', ...cache, ...headers, ...error.headers }, body);
}

/**
 * Answer one request below an agent API base (`/agent/v1` or `/de/agent/v1`) as Capell's agent
 * routes do (test/fixtures/capell/SOURCES.md §4): the envelope `{capellAgentSchema: 1, data,
 * links}` with `Cache-Control: max-age=60, public` and `X-Capell-Agent-Schema: 1`; a failure
 * inside the routes (422 `{message, errors}`, 404, 429) with `Cache-Control: no-store, private`
 * and the agent header; both with the throttle's `X-RateLimit-*`. A path no route matches is the
 * router's 404 and a method a route does not answer its 405, without the agent headers. Bodies are
 * JSON as PHP writes it (`\/`, `\uXXXX`); `Content-Type: application/json`.
 *
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ lang: import('../catalogue.js').Language, path: string, subpath: string, search: string, now: Date,
 *   origin: string, limiter: ReturnType<typeof import('./rate-limit.js').createRateLimiter>, readApi: boolean }} request
 *   `origin` is the site's as the request reached it; `limiter` the app's rate limiter; `readApi`
 *   Core's `capell.agent.read_api` (when false, every route is ResolveAgentSite's bare 404)
 */
export function handleAgentRequest(req, res, { lang, path, subpath, search, now, origin, limiter, readApi }) {
  const found = matchRoute(subpath);
  if (!found) return sendFailure(req, res, routeNotFound(path), {});
  if (!READ_METHODS.includes(req.method ?? '')) return sendFailure(req, res, methodNotAllowed(req.method ?? '', path, READ_METHODS), {});
  // ResolveAgentSite's abort(404) happens before its own headers are set: a bare Laravel 404.
  if (!readApi) return sendFailure(req, res, new ApiError(404, '', { inRoute: false }), {});

  const throttle = limiter.hit(`${req.headers.host ?? ''}|${req.socket.remoteAddress ?? ''}`);
  if (!throttle.allowed) return sendFailure(req, res, new ApiError(429, 'Too Many Attempts.'), throttle.headers);
  try {
    const input = /** @type {Record<string, unknown>} */ (toLaravelInput(parseAgentQuery(search)));
    const { data, links } = found.handler({ lang, origin, url: `${origin}${path}`, input, route: found.route, now });
    const body = encodePHPJSON({ capellAgentSchema: CAPELL_AGENT_SCHEMA_VERSION, data, links });
    send(req, res, 200, {
      'Content-Type': 'application/json',
      'Cache-Control': CACHE_OK,
      'X-Capell-Agent-Schema': String(CAPELL_AGENT_SCHEMA_VERSION),
      ...throttle.headers,
    }, body);
  } catch (error) {
    if (!isApiError(error)) throw error;
    sendFailure(req, res, error, throttle.headers);
  }
}
