import { readBody } from '../contact-submission.js';
import { sendJSON } from '../responses.js';
import { findAdminAction } from './actions.js';
import { findActor, GLOBAL_SCOPE } from './actors.js';
import { AdminError, forbidden, invalidPayload, isAdminError, notFound } from './admin-error.js';
import { validatePayload } from './admin-fields.js';
import { findAdminSite } from './admin-store.js';
import { ADMIN_API_BASE, listAdminTools } from './admin-tools.js';
import { toDigest } from './digests.js';

/**
 * The admin API under `/admin/agent/v1`: the admin registry, the content read, and the two-step
 * write (preview, then confirm with a one-use token). Every path needs a live admin session (else
 * 401, unknown paths too, so an anonymous request learns nothing); every POST needs the admin
 * CSRF token in `X-CSRF-TOKEN` (else 419). Answers are JSON, `Cache-Control: no-store`. Source:
 * Capell Agent Schema, "Navigation, forms, and admin tools"; admin contract, "Admin API".
 */

/** Version marker of every answer. */
const CAPELL_AGENT_SCHEMA_VERSION = 1;

/** Largest request body read, in bytes. */
export const MAX_ADMIN_BODY_BYTES = 16 * 1024;

/** `/actions/{action}/preview` and `/actions/{action}/confirm` */
const ACTION_ROUTE = /^\/actions\/([a-z][a-z0-9]*(?:\.[a-z0-9]+)*)\/(preview|confirm)$/;

/**
 * @typedef {object} AdminApiContext
 * @property {import('./admin-sessions.js').AdminSessions} sessions
 * @property {import('./actors.js').Rights} rights
 * @property {import('./admin-store.js').AdminStore} store
 * @property {ReturnType<typeof import('./confirmations.js').createConfirmations>} confirmations
 * @property {string[]} log admin log lines (never a token)
 */

/**
 * Answer with data.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {unknown} data
 */
function sendData(req, res, data) {
  sendJSON(req, res, 200, { capellAgentSchema: CAPELL_AGENT_SCHEMA_VERSION, data, links: { next: null, previous: null } });
}

/**
 * Answer with an error.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {AdminError} error
 * @param {Record<string, string>} [headers]
 */
export function sendAdminError(req, res, error, headers) {
  sendJSON(req, res, error.status, { capellAgentSchema: CAPELL_AGENT_SCHEMA_VERSION, error: { code: error.code, message: error.message } }, headers);
}

/**
 * The POSTed JSON body.
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<unknown>}
 * @throws {AdminError} 413 `too_large`, 422 `invalid_payload` for a body that is not JSON
 */
async function readJSONBody(req) {
  const body = await readBody(req, MAX_ADMIN_BODY_BYTES);
  if (body === undefined) throw new AdminError(413, 'too_large', `The body is larger than ${MAX_ADMIN_BODY_BYTES} bytes.`);
  try {
    return JSON.parse(body);
  } catch {
    throw invalidPayload('The body is not JSON.');
  }
}

/**
 * The site a payload is for: GLOBAL_SCOPE for a global action, else its `site` (a string, or undefined).
 * @param {import('./actions.js').AdminAction} action
 * @param {unknown} payload
 * @returns {string | undefined}
 */
function siteOfPayload(action, payload) {
  if (action.global) return GLOBAL_SCOPE;
  const site = payload !== null && typeof payload === 'object' ? /** @type {Record<string, unknown>} */ (payload).site : undefined;
  return typeof site === 'string' ? site : undefined;
}

/**
 * Check a payload and the actor's right to it, in the contract's order: the right first when the
 * site is known (so a crafted request learns nothing about another site), then the payload's
 * shape, then the site itself.
 * @param {AdminApiContext} context
 * @param {string} actorId
 * @param {import('./actions.js').AdminAction} action
 * @param {unknown} payload
 * @returns {{ input: Record<string, string>, site: string }}
 * @throws {AdminError} 403 `forbidden`, 422 `invalid_payload`
 */
function authorise({ rights }, actorId, action, payload) {
  const site = siteOfPayload(action, payload);
  const refusal = forbidden(action.global
    ? `${action.tool} needs the global admin capability ${action.capability}.`
    : `You may not ${action.capability} on site ${site}.`);
  if (action.global && !rights.can(actorId, GLOBAL_SCOPE, action.capability)) throw refusal;
  if (!action.global && site !== undefined && findAdminSite(site) && !rights.can(actorId, site, action.capability)) throw refusal;
  const input = validatePayload(payload, action.fields, action.required);
  if (!action.global && !findAdminSite(input.site)) throw invalidPayload(`The field site names no site; there are: a, b.`);
  return { input, site: /** @type {string} */ (site) };
}

/**
 * The preview as the token binds it (everything but the token and its expiry).
 * @param {AdminApiContext} context
 * @param {string} actorId
 * @param {import('./actions.js').AdminAction} action
 * @param {Record<string, string>} input
 * @param {string} site
 */
function computePreview({ store }, actorId, action, input, site) {
  const { summary, changes } = action.preview(store, input);
  const actor = /** @type {import('./actors.js').Actor} */ (findActor(actorId));
  const siteRecord = findAdminSite(site);
  const preview = {
    action: action.id,
    site: siteRecord ? { key: siteRecord.key, name: siteRecord.name } : { key: GLOBAL_SCOPE, name: 'All sites (global settings)' },
    actor: { id: actor.id, name: actor.name },
    summary,
    changes,
  };
  return { preview, previewDigest: toDigest(preview) };
}

/**
 * Answer one request below ADMIN_API_BASE.
 * @param {AdminApiContext} context
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {URL} url
 */
export async function handleAdminApi(context, req, res, url) {
  const { sessions, rights, store, confirmations, log } = context;
  const session = sessions.read(req);
  if (!session) {
    req.resume();
    sendAdminError(req, res, new AdminError(401, 'unauthenticated', 'sign in to the admin first'));
    return;
  }
  const subpath = url.pathname.slice(ADMIN_API_BASE.length);
  const method = req.method ?? 'GET';
  try {
    // Every state-changing request here needs the session's CSRF token, whatever its path.
    if (method !== 'GET' && method !== 'HEAD' && !sessions.isCsrfOf(session.id, req.headers['x-csrf-token'])) {
      throw new AdminError(419, 'csrf_mismatch', 'CSRF token mismatch; reload the admin page.');
    }
    if (subpath === '/tools' || subpath === '/content') {
      if (method !== 'GET' && method !== 'HEAD') throw new AdminError(405, 'method_not_allowed', `Use GET for ${url.pathname}.`);
      if (subpath === '/tools') return sendData(req, res, listAdminTools(session.actor, rights));
      const site = url.searchParams.get('site') ?? '';
      const page = url.searchParams.get('page');
      if (!findAdminSite(site)) throw invalidPayload('The field site names no site; there are: a, b.');
      if (!rights.can(session.actor, site, 'content.read')) throw forbidden(`You may not read site ${site}.`);
      const siteKey = /** @type {import('./actors.js').AdminSiteKey} */ (site);
      if (page === null) return sendData(req, res, store.listPages(siteKey).map(store.toContent));
      const entry = store.findPage(siteKey, page);
      if (!entry) throw notFound(`Site ${site} has no page ${page}.`);
      return sendData(req, res, store.toContent(entry));
    }
    const match = ACTION_ROUTE.exec(subpath);
    if (!match) throw notFound(`There is no admin endpoint at ${url.pathname}.`);
    if (method !== 'POST') throw new AdminError(405, 'method_not_allowed', `Use POST for ${url.pathname}.`);
    const action = findAdminAction(/** @type {string} */ (match[1]));
    if (!action) throw notFound(`There is no admin action ${match[1]}.`);
    const body = await readJSONBody(req);

    if (match[2] === 'preview') {
      const { input, site } = authorise(context, session.actor, action, body);
      const { preview, previewDigest } = computePreview(context, session.actor, action, input, site);
      const confirmation = confirmations.issue(action.id, { actor: session.actor, site, sessionId: session.id, payloadDigest: toDigest(input), previewDigest });
      log.push(`preview ${action.id} by ${session.actor} on ${site}: ${preview.summary}`);
      return sendData(req, res, { ...preview, previewDigest, confirmation });
    }

    // confirm: 2. the token and its bindings (spent on any attempt with a known token)
    const { token, payload, previewDigest } = /** @type {Record<string, unknown>} */ (body !== null && typeof body === 'object' ? body : {});
    const site = siteOfPayload(action, payload) ?? '';
    const redemption = confirmations.redeem(token, action.id, {
      actor: session.actor,
      site,
      sessionId: session.id,
      payloadDigest: toDigest(payload ?? null),
      previewDigest: typeof previewDigest === 'string' ? previewDigest : '',
    });
    if (!redemption.ok) {
      log.push(`confirm ${action.id} by ${session.actor} on ${site}: refused (${redemption.code})`);
      throw new AdminError(403, redemption.code, redemption.message);
    }
    // 3. the right, read again now
    if (!rights.can(session.actor, site, action.capability)) {
      log.push(`confirm ${action.id} by ${session.actor} on ${site}: refused (forbidden)`);
      throw forbidden(`You may no longer ${action.capability} on ${site === GLOBAL_SCOPE ? 'the global settings' : `site ${site}`}.`);
    }
    // 4. the state the preview showed
    const input = validatePayload(payload, action.fields, action.required);
    let now;
    try {
      now = computePreview(context, session.actor, action, input, site);
    } catch (error) {
      if (!isAdminError(error)) throw error;
      now = undefined;
    }
    if (!now || now.previewDigest !== redemption.record.previewDigest) {
      log.push(`confirm ${action.id} by ${session.actor} on ${site}: refused (state_changed)`);
      throw new AdminError(409, 'state_changed', 'The content changed since the preview; preview again.');
    }
    const result = action.perform(store, input);
    log.push(`confirm ${action.id} by ${session.actor} on ${site}: done: ${now.preview.summary}`);
    return sendData(req, res, { action: action.id, done: true, summary: now.preview.summary, result });
  } catch (error) {
    if (!isAdminError(error)) throw error;
    req.resume();
    sendAdminError(req, res, error, error.status === 405 ? { Allow: ACTION_ROUTE.test(subpath) ? 'POST' : 'GET, HEAD' } : undefined);
  }
}
