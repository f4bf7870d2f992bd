import { readBody } from '../contact-submission.js';
import { encodePHPJSON } from '../php-json.js';
import { send } from '../responses.js';
import { AdminError, CAPELL_MESSAGES, isAdminError, validationFailed } from './admin-error.js';
import { findCapellTool, listCapellDefinitions, SITE_IDS } from './capell-tools.js';
import { fingerprint } from './confirmations.js';

/**
 * The admin API under `/admin/agent/v1`, as Capell's admin answers it (capell-app/capell
 * `packages/admin`: `routes/agent.php` @cdb7004, `src/Http/Agent/AgentAdminToolController.php`
 * @73e5701, `src/Support/Agent/AgentAdminToolInvocationService.php` @2c15f27; every fact in
 * test/fixtures/capell/admin/SOURCES.md): two routes behind the `web` group (session cookie, CSRF
 * on POST: 419) and the admin's authentication (401 `Unauthenticated.`):
 * - `GET /admin/agent/v1/tools`: `{ "capellAgentSchema": 1, "tools": [...] }`, the definitions
 *   the actor may use on the session's site, by name;
 * - `POST /admin/agent/v1/tools/invoke` `{ tool, payload?, confirmation_token? }`: a read answers
 *   `{ ok, mode: "executed", tool, data }`; a write without a token answers
 *   `{ ok: true, mode: "confirmation_required", tool, data: <preview>, confirmationToken, message }`
 *   (nothing changed); with a token (the payload then is the stored one) it runs after a fresh
 *   authorisation and a preview whose fingerprint must match.
 * A `site_id` anywhere in the request (query or body, even null) is refused with 422 before
 * anything else: the site follows the session. Answers are JSON as Laravel encodes them
 * (`json_encode` without flags: `/` as `\/`; exceptions pretty-printed).
 */

/** Largest request body read, in bytes. */
export const MAX_ADMIN_BODY_BYTES = 64 * 1024;

/**
 * @typedef {object} AdminApiContext
 * @property {import('./admin-sessions.js').AdminSessions} sessions
 * @property {import('./actors.js').Rights} rights
 * @property {import('./admin-store.js').AdminStore} store
 * @property {import('./capell-tools.js').CapellState} state
 * @property {ReturnType<typeof import('./confirmations.js').createConfirmations>} confirmations
 * @property {string[]} log admin log lines (never a token)
 * @property {() => Date} now
 */

/** Headers of every answer (Laravel's JsonResponse; the demo's admin never lets one be cached). */
const JSON_HEADERS = Object.freeze({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });

/**
 * Answer `body` as `response()->json()` writes it.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
function sendLaravelJSON(req, res, status, body) {
  send(req, res, status, JSON_HEADERS, encodePHPJSON(body));
}

/**
 * Answer a refusal as Laravel renders it for a JSON request.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {AdminError} error
 */
function sendAdminError(req, res, error) {
  if (error.body !== undefined) return sendLaravelJSON(req, res, error.status, error.body);
  if (error.errors) return sendLaravelJSON(req, res, error.status, { message: error.message, errors: error.errors });
  // 401 and 419 come from middleware (compact); exceptions of the app render pretty.
  if (error.status === 401) return sendLaravelJSON(req, res, 401, { message: error.message });
  send(req, res, error.status, JSON_HEADERS, encodePHPJSON({ message: error.message }, { pretty: true, unescapedSlashes: true }));
}

/**
 * The POSTed JSON body (Laravel reads a JSON body as the request's input).
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<Record<string, unknown>>}
 * @throws {AdminError} 413 for a body over MAX_ADMIN_BODY_BYTES; a body that is not a JSON object is no input
 */
async function readInput(req) {
  const body = await readBody(req, MAX_ADMIN_BODY_BYTES);
  if (body === undefined) throw new AdminError(413, 'Payload Too Large');
  try {
    const parsed = JSON.parse(body === '' ? '{}' : body);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * The request validation of the invoke route (`$request->validate([...])`).
 * @param {Record<string, unknown>} input
 * @returns {{ tool: string, payload: Record<string, unknown>, token: string | null }}
 * @throws {AdminError} 422 `{ message, errors }`
 */
function validateInvoke(input) {
  /** @type {Record<string, string[]>} */
  const errors = {};
  const { tool, payload, confirmation_token: token } = input;
  if (tool === undefined || tool === null || tool === '') errors.tool = ['The tool field is required.'];
  else if (typeof tool !== 'string') errors.tool = ['The tool field must be a string.'];
  else if (tool.length > 191) errors.tool = ['The tool field must not be greater than 191 characters.'];
  if (payload !== undefined && (payload === null || typeof payload !== 'object')) errors.payload = ['The payload field must be an array.'];
  if (token !== undefined && token !== null) {
    if (typeof token !== 'string') errors.confirmation_token = ['The confirmation token field must be a string.'];
    else if (token.length !== 64) errors.confirmation_token = ['The confirmation token field must be 64 characters.'];
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  return { tool: /** @type {string} */ (tool), payload: /** @type {Record<string, unknown>} */ (Array.isArray(payload) ? { ...payload } : payload ?? {}), token: typeof token === 'string' ? token : null };
}

/**
 * Answer one request below `/admin/agent/v1`.
 * @param {AdminApiContext} context
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {URL} url
 */
export async function handleAdminApi(context, req, res, url) {
  const { sessions, rights, store, state, confirmations, log, now } = context;
  const method = req.method ?? 'GET';
  const path = url.pathname;
  try {
    const session = sessions.read(req);
    // The web group's CSRF check runs before authentication.
    if (method !== 'GET' && method !== 'HEAD' && (!session || !sessions.isCsrfOf(session.id, req.headers['x-csrf-token']))) {
      throw new AdminError(419, 'CSRF token mismatch.');
    }
    if (!session) throw new AdminError(401, 'Unauthenticated.');
    const route = path === '/admin/agent/v1/tools' ? 'tools' : path === '/admin/agent/v1/tools/invoke' ? 'invoke' : undefined;
    if (!route) throw new AdminError(404, `The route ${path.slice(1)} could not be found.`);
    const allowed = route === 'tools' ? ['GET', 'HEAD'] : ['POST'];
    if (!allowed.includes(method)) throw new AdminError(405, `The ${method} method is not supported for route ${path.slice(1)}. Supported methods: ${allowed.join(', ')}.`);
    const input = route === 'invoke' ? await readInput(req) : {};
    // siteId(): a site_id anywhere in the request is refused; the site is the session's.
    if (url.searchParams.has('site_id') || Object.hasOwn(input, 'site_id')) throw new AdminError(422, CAPELL_MESSAGES.siteMustFollowSession);
    const site = sessions.siteOf(session.id);
    if (!site) throw new AdminError(422, CAPELL_MESSAGES.activeSiteRequired);
    if (!rights.can(session.actor, site, 'site.view')) throw new AdminError(403, 'This action is unauthorized.');
    /** @type {import('./capell-tools.js').ToolContext} */
    const tools = { store, state, rights, actor: session.actor, site, siteId: /** @type {number} */ (SITE_IDS[site]), now };
    if (route === 'tools') {
      return sendLaravelJSON(req, res, 200, { capellAgentSchema: 1, tools: listCapellDefinitions(tools) });
    }
    const { tool: name, payload: sent, token } = validateInvoke(input);
    const tool = findCapellTool(name);
    const invocation = { actor: session.actor, sessionId: session.id, tool: name, siteId: tools.siteId };
    let payload = sent;
    /** @type {import('./confirmations.js').ConfirmationRecord | undefined} */
    let pulled;
    // With a token the stored payload runs; the request's is ignored.
    if (token !== null) {
      try {
        pulled = confirmations.pull(token, invocation);
        payload = pulled.payload;
      } catch (error) {
        log.push(`invoke ${name} by ${session.actor} on ${site}: confirmation refused`);
        throw error;
      }
    }
    if (tool.effect === 'read') {
      tool.authorize(tools, payload);
      const data = tool.execute(tools, payload);
      log.push(`invoke ${name} by ${session.actor} on ${site}: executed`);
      return sendLaravelJSON(req, res, 200, { ok: true, mode: 'executed', tool: name, data });
    }
    tool.authorize(tools, payload);
    const preview = /** @type {NonNullable<typeof tool.preview>} */ (tool.preview)(tools, payload);
    const previewArray = { ok: preview.ok, mode: 'preview', tool: name, data: preview.data, ...(preview.message ? { message: preview.message } : {}) };
    if (pulled && fingerprint(previewArray) !== pulled.preview_fingerprint) {
      log.push(`invoke ${name} by ${session.actor} on ${site}: preview changed`);
      throw new AdminError(403, CAPELL_MESSAGES.confirmationChanged);
    }
    if (!preview.ok) {
      log.push(`invoke ${name} by ${session.actor} on ${site}: rejected`);
      throw new AdminError(422, preview.message ?? '', { body: { ok: false, mode: 'rejected', tool: name, data: preview.data, ...(preview.message ? { message: preview.message } : {}) } });
    }
    if (!pulled) {
      const issued = confirmations.put(invocation, payload, previewArray);
      log.push(`invoke ${name} by ${session.actor} on ${site}: confirmation required`);
      return sendLaravelJSON(req, res, 200, { ok: true, mode: 'confirmation_required', tool: name, data: preview.data, confirmationToken: issued, message: CAPELL_MESSAGES.confirmationRequired });
    }
    const data = tool.execute(tools, payload);
    log.push(`invoke ${name} by ${session.actor} on ${site}: executed`);
    return sendLaravelJSON(req, res, 200, { ok: true, mode: 'executed', tool: name, data });
  } catch (error) {
    if (!isAdminError(error)) throw error;
    req.resume();
    sendAdminError(req, res, error);
  }
}
