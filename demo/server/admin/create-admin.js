import { readBody } from '../contact-submission.js';
import { parseQuery } from '../query.js';
import { send, sendHTML } from '../responses.js';
import { ACTOR_IDS, findActor, GLOBAL_SCOPE, createRights } from './actors.js';
import { handleAdminApi } from './admin-api.js';
import { ADMIN_SIGN_IN_PATH, ADMIN_SIGN_OUT_PATH, renderAdminNotice, renderDashboard, renderPageView, renderSignInPage, renderSitePage } from './admin-pages.js';
import { createAdminSessions } from './admin-sessions.js';
import { ADMIN_SITES, createAdminStore, findAdminSite } from './admin-store.js';
import { createCapellState } from './capell-tools.js';
import { createConfirmations, DEFAULT_CONFIRMATION_TTL_MS } from './confirmations.js';
import { writePageValue } from './page-values.js';

/** Base of the admin API (Capell: the admin path + `/agent/v1`). */
export const ADMIN_API_BASE = '/admin/agent/v1';

/**
 * The demo server's admin, playing Capell's (capell-app/capell `packages/admin`): sign-in for the
 * demo editors, the admin pages under `/admin/`, the admin API under `/admin/agent/v1`
 * (admin-api.js: Capell's tool list and its invoke route), and test hooks. The session's active
 * site is the actor's first site at sign-in, and a site's admin page makes it the active one
 * (Capell's `SetSitePermissionScope`). Every admin answer is `Cache-Control: no-store`.
 */

/** Largest sign-in or sign-out form body read, in bytes. */
const MAX_ADMIN_FORM_BYTES = 8 * 1024;

/** Headers of every admin answer. */
const NO_STORE = Object.freeze({ 'Cache-Control': 'no-store' });

/** `/admin/sites/{site}/` and `/admin/sites/{site}/pages/{page}` */
const SITE_ROUTE = /^\/admin\/sites\/([a-z])\/(?:pages\/([a-z0-9_-]{1,80}))?$/;

/**
 * Whether a path belongs to the admin (`/admin` and everything below it).
 * @param {string} path
 * @returns {boolean}
 */
export function isAdminPath(path) {
  return path === '/admin' || path.startsWith('/admin/');
}

/**
 * A redirect that is never cached.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} location
 * @param {Record<string, string>} [headers]
 */
function redirect(req, res, location, headers = {}) {
  send(req, res, 303, { Location: location, 'Content-Type': 'text/plain; charset=utf-8', ...NO_STORE, ...headers }, `See ${location}\n`);
}

/**
 * The admin of one demo app.
 * @param {object} options
 * @param {import('../session.js').Sessions} options.publicSessions the anonymous sessions (the
 *   sign-in form carries their CSRF token)
 * @param {() => Date} [options.now] clock
 * @param {number} [options.confirmationTtlMs] lifetime of a confirmation token in ms (default Capell's 10 minutes)
 * @example
 * const admin = createAdmin({ publicSessions });
 * if (isAdminPath(path)) return admin.handle(req, res, url);
 */
export function createAdmin({ publicSessions, now = () => new Date(), confirmationTtlMs = DEFAULT_CONFIRMATION_TTL_MS }) {
  const clock = () => now().getTime();
  const sessions = createAdminSessions({ now: clock });
  const rights = createRights();
  const store = createAdminStore({ now });
  const confirmations = createConfirmations({ ttlMs: confirmationTtlMs, now: clock });
  const state = createCapellState();
  /** @type {string[]} */
  const log = [];
  const context = { sessions, rights, store, state, confirmations, log, now };

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {URL} url
   */
  async function handle(req, res, url) {
    const path = url.pathname;
    if (path === ADMIN_API_BASE || path.startsWith(`${ADMIN_API_BASE}/`)) return handleAdminApi(context, req, res, url);
    const method = req.method ?? 'GET';

    if (path === ADMIN_SIGN_IN_PATH) {
      const anonymous = publicSessions.startSession(req);
      /** @type {Record<string, string>} */
      const headers = { ...NO_STORE, ...(anonymous.setCookie ? { 'Set-Cookie': anonymous.setCookie } : {}) };
      if (method === 'POST') {
        const body = await readBody(req, MAX_ADMIN_FORM_BYTES);
        const fields = parseQuery(body ?? '');
        if (body === undefined || !publicSessions.isTokenOfSession(req, fields._token)) {
          return sendHTML(req, res, 419, renderAdminNotice('Page expired', 'The sign-in form expired; load it again.'), headers);
        }
        const started = sessions.signIn(fields.actor, fields.password);
        if (!started) {
          log.push('sign-in refused');
          return sendHTML(req, res, 401, renderSignInPage(publicSessions.tokenFor(anonymous.id), 'Unknown editor or wrong password.'), headers);
        }
        log.push(`sign-in ${/** @type {string} */ (fields.actor)}`);
        const first = ADMIN_SITES.find((site) => rights.can(String(fields.actor), site.key, 'site.view'));
        if (first) sessions.setSite(started.id, first.key);
        return redirect(req, res, '/admin/', { 'Set-Cookie': started.setCookie });
      }
      if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(req, res, 'GET, HEAD, POST');
      return sendHTML(req, res, 200, renderSignInPage(publicSessions.tokenFor(anonymous.id)), headers);
    }

    const session = sessions.read(req);
    if (path === ADMIN_SIGN_OUT_PATH && method === 'POST') {
      const body = await readBody(req, MAX_ADMIN_FORM_BYTES);
      if (!session) return redirect(req, res, ADMIN_SIGN_IN_PATH);
      const token = req.headers['x-csrf-token'] ?? parseQuery(body ?? '')._token;
      if (!sessions.isCsrfOf(session.id, token)) return sendHTML(req, res, 419, renderAdminNotice('Page expired', 'The sign-out form expired; load the page again.'), NO_STORE);
      sessions.end(session.id);
      log.push(`sign-out ${session.actor}`);
      return redirect(req, res, ADMIN_SIGN_IN_PATH, { 'Set-Cookie': sessions.clearCookie });
    }
    // Everything else needs a session; without one nothing about it is told.
    if (!session) {
      req.resume();
      return redirect(req, res, ADMIN_SIGN_IN_PATH);
    }
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(req, res, 'GET, HEAD');
    const actor = /** @type {import('./actors.js').Actor} */ (findActor(session.actor));
    const viewer = { actor: { id: actor.id, name: actor.name }, csrfToken: sessions.csrfFor(session.id) };
    if (path === '/admin' || path === '/admin/') {
      const sites = ADMIN_SITES.filter((site) => rights.can(actor.id, site.key, 'site.view'))
        .map((site) => ({ key: site.key, name: site.name, pages: store.listPages(site.key).map(store.toContent) }));
      return sendHTML(req, res, 200, renderDashboard(viewer, sites, rights.can(actor.id, GLOBAL_SCOPE, 'global.admin')), NO_STORE);
    }
    const match = SITE_ROUTE.exec(path);
    const site = match ? findAdminSite(match[1]) : undefined;
    if (match && site) {
      if (!rights.can(actor.id, site.key, 'site.view')) return sendHTML(req, res, 403, renderAdminNotice('Forbidden', `You may not read ${site.name}.`), NO_STORE);
      // Capell's SetSitePermissionScope: the site the editor opens becomes the session's active site.
      sessions.setSite(session.id, site.key);
      if (match[2] === undefined) return sendHTML(req, res, 200, renderSitePage(viewer, site, store.listPages(site.key).map(store.toContent)), NO_STORE);
      const entry = store.findPage(site.key, match[2]);
      if (entry) return sendHTML(req, res, 200, renderPageView(viewer, site, store.toContent(entry)), NO_STORE);
    }
    return sendHTML(req, res, 404, renderAdminNotice('Not found', `There is no admin page at ${path}.`), NO_STORE);
  }

  return {
    handle,
    /** The pages this app's public site reads (publishing on site `a` writes here). */
    publishedPages: store.publishedPages,
    /** Test hooks (in-process only; no route exposes them). */
    hooks: {
      actorIds: ACTOR_IDS,
      log,
      /** @type {(actorId: string, site: string, capability: string) => void} */
      revoke: rights.revoke,
      /** @type {(actorId: string, site: string, capability: string) => void} */
      grant: rights.grant,
      /**
       * A concurrent edit by someone else: write a value into a page's draft.
       * @param {string} site
       * @param {string} page
       * @param {string} property
       * @param {string} value
       */
      setDraftValue(site, page, property, value) {
        const siteKey = /** @type {import('./actors.js').AdminSiteKey} */ (site);
        const entry = store.findPage(siteKey, page);
        if (!entry) throw new Error(`Site ${site} has no page ${page}.`);
        const draft = store.draftOf(entry);
        writePageValue(draft, property, value);
        store.saveDraft(siteKey, draft);
      },
      /**
       * A page's stored record and draft (copies), by site and page key.
       * @param {string} site
       * @param {string} page
       */
      page(site, page) {
        const entry = store.findPage(/** @type {import('./actors.js').AdminSiteKey} */ (site), page);
        return entry ? structuredClone(entry) : undefined;
      },
      /** The settings, blueprints and structures (a copy). */
      capellState: () => structuredClone(state),
      /**
       * What the admin's page view shows of a page (or the site's pages).
       * @param {string} site
       * @param {string} [page]
       */
      read(site, page) {
        const siteKey = /** @type {import('./actors.js').AdminSiteKey} */ (site);
        if (page === undefined) return store.listPages(siteKey).map(store.toContent);
        const entry = store.findPage(siteKey, page);
        return entry ? store.toContent(entry) : undefined;
      },
      /** @param {string} sessionId */
      endSession: (sessionId) => sessions.end(sessionId),
      /** The stored confirmation records (keyed by a hash; never a token). */
      confirmationRecords: () => confirmations.records(),
      /** The global property sets, live. */
      get globalSets() {
        return store.globalSets;
      },
      /** Put the store back as first stored (pages, drafts, global sets, settings, blueprints, structures). Sessions and rights stay. */
      reset() {
        store.reset();
        Object.assign(state, createCapellState());
      },
    },
  };
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} allow
 */
function methodNotAllowed(req, res, allow) {
  req.resume();
  send(req, res, 405, { Allow: allow, 'Content-Type': 'text/plain; charset=utf-8', ...NO_STORE }, 'Method not allowed\n');
}
