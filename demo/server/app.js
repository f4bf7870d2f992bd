import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgentGate } from './agentgate/routes.js';
import { createAdmin, isAdminPath } from './admin/create-admin.js';
import { handleAgentRequest } from './api/index.js';
import { readContactSubmission } from './contact-submission.js';
import { CONTACT_ACTIONS } from './html/contact-form.js';
import { MESSAGES_PATH, renderMessagesPage } from './html/messages-page.js';
import { AGENTS_PATHS, renderAgentsPage } from './html/agents-page.js';
import { servePage } from './html/serve-page.js';
import { handleNewsletter } from './newsletter.js';
import { escapeHTML } from './html/escape-html.js';
import { languageOfPath, text } from './localisation.js';
import { checkOrigin, sendOriginRefusal } from './origin-check.js';
import { send, sendHTML, sendJSON, sendRedirect, sendText, TRUSTED_TYPES_POLICY, TRUSTED_TYPES_QUERY } from './responses.js';
import { serveStaticFile } from './static-files.js';
import { runWithPages } from './page-store.js';
import { SIGNUP_ACTION } from './html/signup-forms.js';
import { createSessions, SESSION_COOKIE } from './session.js';
import { createRateLimiter, DEMO_AGENT_RATE_LIMIT } from './api/rate-limit.js';
import { readSignup } from './signup.js';
import { createLivewireComponents, LIVEWIRE_UPDATE_PATH } from './form-builder/livewire-component.js';
import { handleLivewireUpdate } from './form-builder/livewire-update.js';
import { formIdOf } from './form-builder/forms.js';
import { serveVendorModule } from './vendor-modules.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Where `npm run build` writes the runtime bundles. */
export const DEFAULT_DIST_DIR = resolve(HERE, '../../dist');

/** The theme's static files. */
export const SITE_DIR = resolve(HERE, '../site');

/** Agent API bases and their languages, German first so its longer prefix wins. */
const API_BASES = /** @type {const} */ ([
  ['/de/agent/v1', 'de'],
  ['/agent/v1', 'en'],
]);

/** Name of the anonymous session cookie HTML pages set (session.js). */
export { SESSION_COOKIE };

/**
 * @typedef {object} AgentRequestRecord one request below an agent API base
 * @property {string} method
 * @property {string} path e.g. `/de/agent/v1/search`
 * @property {string} query the raw search string, `?` included (empty when there is none)
 * @property {{ accept: string | undefined, cookie: string | undefined, origin: string | undefined }} headers
 */

/**
 * @typedef {object} RefusedRequest a state-changing request the Origin check answered with 403
 * @property {string} method
 * @property {string} path
 * @property {string | undefined} origin the `Origin` header it came with
 * @property {string} reason the one-line reason sent back
 */

/**
 * The API base a path lies under, with its language and the rest of the path.
 * @param {string} path
 * @returns {{ lang: import('./catalogue.js').Language, subpath: string } | undefined}
 */
function matchApiBase(path) {
  for (const [base, lang] of API_BASES) {
    if (path === base || path.startsWith(`${base}/`)) return { lang, subpath: path.slice(base.length) };
  }
  return undefined;
}

/**
 * The demo server as one node `(req, res)` handler: it plays Capell Core for one site in English
 * (`/`) and German (`/de/`): HTML pages with the page graph and tools islands (and `/agents`,
 * `/de/agents`, which explain what an agent can do there: html/agents-page.js), the agent read API
 * under `/agent/v1` and `/de/agent/v1`, the contact form, the theme under `/site/` and the
 * runtime bundles under `/dist/`.
 *
 * Every visitor has a session (`capell_session` cookie, set on the first HTML page) and a CSRF
 * token bound to it (session.js), carried by `<meta name="csrf-token">` and each form's `_token`;
 * a POST whose token is not its session's is 419. Before any handler, a state-changing request
 * (not GET/HEAD/OPTIONS) must come from this origin (origin-check.js), else 403.
 *
 * @param {object} [options]
 * @param {string} [options.distDir] directory served at `/dist/` (default `<repo>/dist`)
 * @param {() => Date} [options.now] the clock publication is judged by (default the system clock)
 * @param {number} [options.adminConfirmationTtlMs] lifetime of an admin confirmation token in ms (default Capell's 10 minutes, 600 000)
 * @param {number} [options.agentRateLimit] requests a minute the agent read API answers per host and
 *   address, as Core's `capell.agent.rate_limit` (default DEMO_AGENT_RATE_LIMIT; Core's own default is 60)
 * @param {boolean} [options.agentReadApi] Core's `capell.agent.read_api`: false answers every agent
 *   read route with a bare 404 (default true)
 * @returns {{
 *   handle: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>,
 *   requests: AgentRequestRecord[],
 *   resetRequests: () => void,
 *   submissions: import('./contact-submission.js').ContactSubmission[],
 *   signups: import('./signup.js').Signup[],
 *   subscriptions: string[],
 *   formPosts: { path: string, accept: string | undefined }[],
 *   livewirePosts: import('./form-builder/livewire-update.js').LivewirePost[],
 *   refused: RefusedRequest[],
 *   agentGate: ReturnType<typeof createAgentGate>,
 *   admin: ReturnType<typeof createAdmin>['hooks'],
 * }} `requests` records every request below an agent API base (no route exposes it);
 *   `submissions` the contact messages delivered (listed at `/contact/messages`); `signups` the
 *   newsletter and back-in-stock sign-ups (`POST /signups`); `subscriptions` the addresses
 *   `POST <api-base>/newsletter` accepted; `formPosts` every POST that reached a contact form
 *   action, accepted or not (tests count them); `livewirePosts` every POST to the Livewire update
 *   endpoint (form-builder's forms on /contact and the enquiry form's product page), with its
 *   outcome and the `updates` it carried; `refused` every request the Origin check
 *   refused (those reach no handler: they are in neither `formPosts` nor `submissions`).
 *   `requests` also lists refused API requests (it is written before the check).
 *   `agentGate` is the AgentGate half (agentgate/routes.js): its `log` of signed calls, verified or
 *   refused with the reason, and its `messages` inbox.
 *   `admin` is Capell's admin (admin/create-admin.js): `/admin/…` pages and Capell's admin API
 *   (`GET /admin/agent/v1/tools`, `POST /admin/agent/v1/tools/invoke`), both for signed-in editors
 *   only; its test hooks (`revoke`, `grant`, `setDraftValue`, `read`, `page`, `capellState`,
 *   `endSession`, `confirmationRecords`, `log`, `actorIds`, `reset`).
 *   Publishing a page of site `a` there changes what this app's public pages and `/agent/v1` show.
 * @example
 * const app = createDemoApp();
 * http.createServer(app.handle).listen(5173);
 */
export function createDemoApp({ distDir = DEFAULT_DIST_DIR, now = () => new Date(), adminConfirmationTtlMs = undefined, agentRateLimit = DEMO_AGENT_RATE_LIMIT, agentReadApi = true } = {}) {
  /** @type {AgentRequestRecord[]} */
  const requests = [];
  /** @type {import('./contact-submission.js').ContactSubmission[]} */
  const submissions = [];
  /** @type {import('./signup.js').Signup[]} */
  const signups = [];
  /** @type {string[]} */
  const subscriptions = [];
  /** @type {{ path: string, accept: string | undefined }[]} */
  const formPosts = [];
  /** @type {import('./form-builder/livewire-update.js').LivewirePost[]} */
  const livewirePosts = [];
  /** @type {RefusedRequest[]} */
  const refused = [];
  const sessions = createSessions();
  const livewire = createLivewireComponents();
  const root = resolve(distDir);
  const agentGate = createAgentGate({ now: () => now().getTime() });
  const limiter = createRateLimiter({ limit: agentRateLimit, now: () => now().getTime() });
  const admin = createAdmin({ publicSessions: sessions, now, ...(adminConfirmationTtlMs === undefined ? {} : { confirmationTtlMs: adminConfirmationTtlMs }) });

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async function route(req, res) {
    const target = req.url ?? '/';
    // Prefixing the origin keeps a target like `//x` a path instead of a host.
    const url = new URL(target.startsWith('/') ? `http://demo.invalid${target}` : 'http://demo.invalid/');
    const path = url.pathname;
    // The site's origin as the browser reached it: Core's full URLs (page graph, API items and links) start with it.
    const origin = `http://${req.headers.host ?? 'localhost'}`;

    const api = matchApiBase(path);
    if (api) {
      const { accept, cookie, origin } = req.headers;
      requests.push({ method: req.method ?? 'GET', path, query: url.search, headers: { accept, cookie, origin } });
    }
    // AgentGate (agentgate/routes.js): the manifest, and signed calls that prove themselves by
    // their signature, not by a session or Origin, so they come before the Origin check.
    if (await agentGate.handle(req, res, url)) return;
    const refusal = checkOrigin(req);
    if (refusal) {
      refused.push({ method: req.method ?? 'POST', path, origin: req.headers.origin, reason: refusal });
      sendOriginRefusal(req, res, refusal, { json: Boolean(api) || path.startsWith('/admin/agent/'), lang: languageOfPath(path) });
      return;
    }
    if (isAdminPath(path)) return admin.handle(req, res, url);
    /** @param {unknown} token */
    const isSessionToken = (token) => sessions.isTokenOfSession(req, token);

    if (api) {
      if (api.subpath === '/newsletter') return handleNewsletter(req, res, isSessionToken, subscriptions);
      handleAgentRequest(req, res, { lang: api.lang, path, subpath: api.subpath, search: url.search, now: now(), origin, limiter, readApi: agentReadApi });
      return;
    }
    // The build names chunks by their content hash (vite.config.ts `chunks/[name]-[hash].js`).
    if (path.startsWith('/dist/')) return serveStaticFile(req, res, root, path.slice('/dist/'.length), { immutable: path.startsWith('/dist/chunks/') });
    if (path.startsWith('/site/vendor/')) return serveVendorModule(req, res, path.slice('/site/vendor/'.length));
    if (path.startsWith('/site/')) return serveStaticFile(req, res, SITE_DIR, path.slice('/site/'.length));
    if (req.method === 'POST' && path === LIVEWIRE_UPDATE_PATH) {
      await handleLivewireUpdate(req, res, {
        components: livewire,
        isSessionToken,
        log: livewirePosts,
        path,
        // The site owner reads the forms' messages at /contact/messages.
        store: ({ form, lang, values }) => submissions.push({
          lang,
          form: formIdOf(form),
          name: String(values.name ?? ''),
          email: String(values.email ?? ''),
          topic: String(values.topic ?? ''),
          message: String(values.message ?? values.question ?? ''),
          newsletter: values.newsletter === true,
          values,
        }),
      });
      return;
    }

    const contactLang = path === CONTACT_ACTIONS.en ? 'en' : path === CONTACT_ACTIONS.de ? 'de' : undefined;
    if (req.method === 'POST' && contactLang) {
      formPosts.push({ path, accept: req.headers.accept });
      const outcome = await readContactSubmission(req, contactLang, isSessionToken);
      // A script (or an agent's runtime) may ask for JSON instead of a redirect to the notice.
      if ((req.headers.accept ?? '').includes('application/json')) {
        if (outcome.status === 'sent' && outcome.submission) submissions.push(outcome.submission);
        if (outcome.status === 'sent') sendJSON(req, res, 200, { status: 'sent' });
        else if (outcome.status === 'expired') sendJSON(req, res, 419, { message: 'CSRF token mismatch.' });
        else if (outcome.status === 'too-large') sendJSON(req, res, 413, { message: 'Payload too large.' });
        else sendJSON(req, res, 422, { message: `The ${outcome.field} field is invalid.`, errors: { [outcome.field]: [`The ${outcome.field} field is invalid.`] } });
        return;
      }
      if (outcome.status === 'sent') {
        if (outcome.submission) submissions.push(outcome.submission);
        sendRedirect(req, res, 303, outcome.location);
      } else if (outcome.status === 'expired') {
        sendHTML(req, res, 419, `<!doctype html><html lang="${contactLang}"><title>419</title><p>${escapeHTML(text(contactLang, 'contact.expired'))}</p></html>`);
      } else if (outcome.status === 'too-large') {
        sendText(req, res, 413, 'Payload too large');
      } else {
        sendText(req, res, 422, `The ${outcome.field} field is invalid.`);
      }
      return;
    }
    if (req.method === 'POST' && path === SIGNUP_ACTION) {
      const outcome = await readSignup(req, isSessionToken);
      if (outcome.status === 'signed-up') {
        signups.push(outcome.signup);
        sendRedirect(req, res, 303, outcome.location);
      } else if (outcome.status === 'expired') {
        sendHTML(req, res, 419, `<!doctype html><html lang="en"><title>419</title><p>${escapeHTML(text('en', 'contact.expired'))}</p></html>`);
      } else if (outcome.status === 'too-large') {
        sendText(req, res, 413, 'Payload too large');
      } else {
        sendText(req, res, 422, outcome.message ?? `The ${outcome.field} field is invalid.`);
      }
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', contactLang || path === SIGNUP_ACTION || path === LIVEWIRE_UPDATE_PATH ? 'GET, HEAD, POST' : 'GET, HEAD');
      sendText(req, res, 405, 'Method not allowed');
      return;
    }
    // Every HTML page: the visitor's session (a first visit gets its cookie here) and its token.
    const session = sessions.startSession(req);
    const csrfToken = sessions.tokenFor(session.id);
    /** @type {Record<string, string>} */
    const headers = session.setCookie ? { 'Set-Cookie': session.setCookie } : {};
    // `?csp=trusted-types`: the same page under Trusted Types as well (responses.js).
    if (url.searchParams.get(TRUSTED_TYPES_QUERY.name) === TRUSTED_TYPES_QUERY.value) headers['Content-Security-Policy'] = TRUSTED_TYPES_POLICY;
    if (path === MESSAGES_PATH) {
      sendHTML(req, res, 200, renderMessagesPage(submissions, now(), csrfToken), headers);
      return;
    }
    const agentsLang = path === AGENTS_PATHS.en ? 'en' : path === AGENTS_PATHS.de ? 'de' : undefined;
    if (agentsLang) {
      sendHTML(req, res, 200, renderAgentsPage(agentsLang, now(), csrfToken, origin), headers);
      return;
    }
    servePage(req, res, { path, searchParams: url.searchParams, now: now(), origin, csrfToken, headers, livewire });
  }

  return {
    async handle(req, res) {
      try {
        // This app's public pages read its own copy of the catalogue, which its admin publishes into.
        await runWithPages(admin.publishedPages, () => route(req, res));
      } catch (error) {
        // A bug in the demo must be visible, not swallowed.
        console.error('capell-webmcp demo: request failed', req.method, req.url, error);
        if (!res.headersSent) sendText(req, res, 500, 'Internal server error');
        else res.destroy();
      }
    },
    requests,
    resetRequests() {
      requests.length = 0;
    },
    submissions,
    signups,
    subscriptions,
    formPosts,
    livewirePosts,
    refused,
    agentGate,
    admin: admin.hooks,
  };
}
