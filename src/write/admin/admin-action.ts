/**
 * `admin-action` binding, effect write (Capell Agent Schema,
 * "Navigation, forms, and admin tools": "Writes require a one-use confirmation bound to the actor,
 * site, session, payload and preview"). Two requests to the admin API, which the runtime builds
 * from the action identifier (the binding's target), never from a URL a declaration gives:
 * `POST /admin/agent/v1/actions/{action}/preview` with the input, then, only after the person's
 * click on Send, `POST …/confirm` with `{ token, payload, previewDigest }`.
 */
import type { BindingExecutor } from '../../shared/bindings/binding-executor.js';
import { serverMessage } from '../../call/server-message.js';
import type { RuntimeConfig } from '../../start/config.js';
import type { JSONValue } from '../../shared/declarations/tool-spec.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { request } from '../../registry/request.js';
import { ADMIN_API_BASE } from '../../registry/sources/admin-registry.js';
import type { ConfirmWriteChange } from '../../panel/capell-confirm-write.js';
import { adminPanelWords, fillPlaceholders, readConfirmText, type ConfirmText } from '../confirm-text.js';
import { confirmTextDefaults } from './confirm-text-de.js';
import { createConfirmPanel, type ConfirmPanel } from '../open-confirm-panel.js';
import { readCSRFHeader } from '../csrf-token.js';
import { PendingWrite } from '../pending-write.js';
import { MAX_WRITE_ANSWER_BYTES, readWriteOutcome } from '../write-answers.js';
import { errorMessage } from '../../shared/error-message.js';
import { primitives } from '../../start/primitives.js';

/**
 * The server's preview as the panel shows it, and what the confirmation needs. `token` is the
 * one-use confirmation: the runtime holds it only in the closure of the call that asked for it
 * (never in the write's record, the Report, the DOM, storage or a log). A page script that wrapped
 * `fetch` before the runtime still sees it arrive (docs/security.md).
 */
interface AdminPreview {
  summary: string;
  site: string;
  actor: string;
  changes: ConfirmWriteChange[];
  previewDigest: string;
  token: string;
}

/** A value of a change as the person reads it: text as it is, nothing as `empty`, other JSON as JSON. */
function shown(value: unknown, empty: string): string {
  if (value === null || value === undefined) return empty;
  return typeof value === 'string' ? value : primitives.stringify(value) ?? String(value);
}

/**
 * Reads the preview answer's `data` (the admin contract: `action`, `site {key, name}`,
 * `actor {id, name}`, `summary`, `changes [{target, before, after}]`, `previewDigest`,
 * `confirmation {token, expiresAt}`).
 * @returns the preview, or what is missing (one line).
 */
function readPreview(answer: JSONValue | undefined, empty: string): AdminPreview | { missing: string } {
  const data = isPlainObject(answer) ? answer.data : undefined;
  if (!isPlainObject(data)) return { missing: 'data' };
  const { site, actor, summary, changes, previewDigest, confirmation } = data;
  if (typeof summary !== 'string') return { missing: 'data.summary' };
  if (!isPlainObject(site) || (typeof site.name !== 'string' && typeof site.key !== 'string')) return { missing: 'data.site.name' };
  if (!isPlainObject(actor) || (typeof actor.name !== 'string' && typeof actor.id !== 'string')) return { missing: 'data.actor.name' };
  if (!Array.isArray(changes) || !changes.every((change) => isPlainObject(change) && typeof change.target === 'string')) return { missing: 'data.changes' };
  if (typeof previewDigest !== 'string' || previewDigest === '') return { missing: 'data.previewDigest' };
  if (!isPlainObject(confirmation) || typeof confirmation.token !== 'string' || confirmation.token === '') return { missing: 'data.confirmation.token' };
  return {
    summary,
    site: String(site.name ?? site.key),
    actor: String(actor.name ?? actor.id),
    changes: changes.map((change) => {
      const { target, before, after } = change as { target: string; before?: unknown; after?: unknown };
      return { target, before: shown(before, empty), after: shown(after, empty) };
    }),
    previewDigest,
    token: confirmation.token,
  };
}

/** One POST to the admin API: JSON, same origin with the session's cookie and the CSRF token, no redirects. */
async function post(url: URL, body: unknown, config: RuntimeConfig, signal?: AbortSignal) {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  // Read at send time: the token can rotate while the panel is open (a new sign-in).
  const csrf = readCSRFHeader(config.document);
  if (csrf) headers[csrf.name] = csrf.value;
  return readWriteOutcome(await request(url, {
    method: 'POST', headers, body: primitives.stringify(body), credentials: 'same-origin', redirect: 'error', cache: 'no-store',
    timeoutMs: config.timeoutMs, maxAnswerBytes: MAX_WRITE_ANSWER_BYTES, ...(signal ? { signal } : {}),
  }));
}

/** The server's one-line message from an error answer, without the leading `: ` (or `''`). */
function messageOf(text: string | undefined): string {
  return serverMessage(text ?? '').replace(/^: /, '');
}

/** The admin API's error code (`{ error: { code } }`, Capell admin contract), or ''. */
function errorCodeOf(answer: unknown): string {
  const error = isPlainObject(answer) ? answer.error : undefined;
  return isPlainObject(error) && typeof error.code === 'string' ? error.code : '';
}

/** The admin API's code for a confirmation token that was already redeemed. */
const CONFIRMATION_USED = 'confirmation_used';

/**
 * Runs an admin write: claims the tool's slot (write/pending-write.ts: a proposal of this tool
 * still open is superseded), POSTs the input to `…/actions/{action}/preview` (same origin with
 * the session's cookie, `X-CSRF-TOKEN` from the page's `csrf-token` meta, `redirect: 'error'`),
 * and shows the server's preview in the panel: its summary, every change before → after, the
 * site's name and the signed-in actor's name. Only a person's click on Send that passes the
 * panel's consent checks (trusted, visible, unoccluded, still for INPUT_PROTECTION_MS) POSTs
 * `{ token, payload, previewDigest }` to `…/confirm`. Nothing is retried: a refused confirmation
 * is spent (the server's rule), and the agent learns why.
 * Resolves (never throws) within `writeWaitMs`, like a write endpoint: `{ status: 'submitted',
 * httpStatus, answer }` (the server's result) when the confirmation was accepted; `ok: false` with
 * `HTTP <status> from <path>: <the server's message>` when the preview (no panel then) or the
 * confirmation was refused (401 signed out, 403 expired, used, refused or forbidden, 409 the
 * state changed since the preview, 419 CSRF), or with the request path's reason when no answer
 * came; `cancelled` / `expired` / `superseded` / `aborted` when the person did not send it;
 * `awaiting_person` with a writeId while they have not decided.
 */
export const executeAdminAction: BindingExecutor = async (spec, input, { config, signal, stopSignal, messages }) => {
  const base = `${ADMIN_API_BASE}/actions/${encodeURIComponent(spec.binding.target)}`;
  const previewURL = new primitives.URL(`${base}/preview`, config.origin);
  const confirmURL = new primitives.URL(`${base}/confirm`, config.origin);
  const text = readConfirmText(messages, confirmTextDefaults(config.document.documentElement?.lang));
  // Claimed before the first await: of two calls started together only the later one opens.
  const write = new PendingWrite({ config, tool: spec.name, slot: `admin ${spec.name}`, signal, stopSignal });
  const opened = createConfirmPanel(config.document).then(
    (panel) => ({ panel }),
    (error: unknown) => ({ reason: `${spec.name}: the confirmation panel did not load (${errorMessage(error)}); nothing was sent` }),
  );
  const asked = post(previewURL, input, config, signal);
  return primitives.race([write.answer(), (async () => {
    const previewed = await asked;
    if ('reason' in previewed) return write.failed(`${spec.name}: ${previewed.reason}`);
    const { response, body } = previewed;
    if (response.status < 200 || response.status >= 300) {
      const message = messageOf(body.text);
      return write.failed(`${spec.name}: HTTP ${response.status} from ${previewURL.pathname}${message ? `: ${message}` : ''}`, response.status);
    }
    const preview = readPreview(body.answer, text.confirmEmpty);
    if ('missing' in preview) return write.failed(`${spec.name}: the answer from ${previewURL.pathname} is not an admin preview (${preview.missing} is missing or invalid); nothing was sent`);
    const loaded = await opened;
    if ('reason' in loaded) return write.failed(loaded.reason);
    if (write.live) propose(loaded.panel, preview);
    return write.answer();
  })()]);

  function propose(panel: ConfirmPanel, preview: AdminPreview): void {
    // The token lives here alone, and is dropped once used or withdrawn.
    let token: string | undefined = preview.token;
    write.open((why) => {
      token = undefined;
      panel.close(why === 'cancelled' ? 'cancelled' : 'withdrawn');
    });
    void panel.present({
      mode: 'request',
      words: adminPanelWords(text),
      ...(write.replaced ? { notice: text.confirmReplaced } : {}),
      items: [{ label: text.confirmSite, value: preview.site }, { label: text.confirmActor, value: preview.actor }],
      preview: { summary: preview.summary, changes: preview.changes },
    }, {
      onCancel: () => write.end('cancelled'),
      onSend: () => {
        const once = token;
        token = undefined;
        if (once !== undefined && write.send()) void confirm(once, preview.previewDigest, panel);
      },
    }).then((shownOK) => { if (!shownOK) write.end('aborted'); });
  }

  async function confirm(token: string, previewDigest: string, panel: ConfirmPanel): Promise<void> {
    // Not the agent's signal: once the person sent it, the request is theirs.
    const sent = await post(confirmURL, { token, payload: input, previewDigest }, config);
    finish(sent, panel, text);
  }

  function finish(sent: Awaited<ReturnType<typeof post>>, panel: ConfirmPanel, words: ConfirmText): void {
    if ('reason' in sent) {
      void panel.showOutcome(sent.reason);
      write.failed(`${spec.name}: ${sent.reason}`);
      return;
    }
    const { response, body } = sent;
    if (response.status >= 200 && response.status < 300) {
      void panel.showOutcome(words.confirmSent);
      write.submitted({ httpStatus: response.status, ...(body.answer !== undefined ? { answer: body.answer } : {}), ...(body.note !== undefined ? { answerNote: body.note } : {}) });
      return;
    }
    const message = messageOf(body.text);
    if (errorCodeOf(body.answer) === CONFIRMATION_USED) {
      // The token left the runtime only in this request: whatever used it first read it on this
      // page (a script that wrapped fetch before the runtime, with the editor's session).
      void panel.showOutcome(words.confirmAlreadyUsed);
      write.failed(`${spec.name}: not sent by the person's click: the site says the confirmation was already used (HTTP ${response.status} ${CONFIRMATION_USED} from ${confirmURL.pathname}), so something else on this page sent it first with the editor's session; the change may already be made: read the site's state before asking again`, response.status);
      return;
    }
    void panel.showOutcome(message
      ? fillPlaceholders(words.confirmFailedMessage, { status: String(response.status), message })
      : fillPlaceholders(words.confirmFailed, { status: String(response.status) }));
    write.failed(`${spec.name}: HTTP ${response.status} from ${confirmURL.pathname}${message ? `: ${message}` : ''}`, response.status);
  }
};
