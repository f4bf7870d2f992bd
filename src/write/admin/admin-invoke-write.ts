/**
 * The `admin-invoke` binding, effect write: Capell's admin protocol for a write (capell-app/capell
 * `packages/admin/src/Support/Agent/AgentAdminToolInvocationService.php` @2c15f27,
 * `AgentAdminConfirmationStore.php` @73e5701, its bridge `resources/js/agent/admin-bridge.js`
 * @73e5701; test/fixtures/capell/admin/SOURCES.md §3–4):
 * 1. at the call, `POST /admin/agent/v1/tools/invoke` `{ tool, payload }`: Capell authorises and
 *    previews, changes nothing, and answers `confirmation_required` with the preview (`data`), a
 *    `message` and a one-use `confirmationToken` (64 hex, 10 minutes by default, bound to the
 *    editor, their session, the tool, the session's site, the payload's hash and the preview's
 *    fingerprint);
 * 2. the panel shows Capell's preview (admin-preview.ts); only the editor's own click on Send
 *    (the panel's consent checks) sends `{ tool, confirmation_token }`: Capell runs the payload
 *    it stored, after a fresh authorisation and preview.
 * Capell's "Confirmation tokens never enter tool results" holds here too: the token lives in the
 * closure of the call that asked for it, and nowhere else (not the write's record, the agent's
 * answers, the Report, the DOM, an event, storage or a log). A page script that wrapped `fetch`
 * before the runtime still sees it arrive (docs/security.md).
 */
import type { BindingExecutor } from '../../shared/bindings/binding-executor.js';
import { ADMIN_INVOKE_PATH, invokeRefusal, postInvoke, type InvokeOutcome } from '../../admin/admin-invoke.js';
import { adminPanelWords, fillPlaceholders, readConfirmText, type ConfirmText } from '../confirm-text.js';
import { confirmTextDefaults } from './confirm-text-de.js';
import { createConfirmPanel, type ConfirmPanel } from '../open-confirm-panel.js';
import { PendingWrite } from '../pending-write.js';
import { errorMessage } from '../../shared/error-message.js';
import { toAdminPanelPreview, type AdminPanelPreview } from './admin-preview.js';
import { primitives } from '../../start/primitives.js';
import { checkOutput } from '../../call/check-output.js';
import type { JSONValue } from '../../shared/declarations/tool-spec.js';
import { crossOriginFrameReason } from '../frame-origin.js';

/** Longest list of outputSchema issues quoted in an executed write's `answerNote`, in UTF-16 units (then `…`). */
const MAX_NOTE_ISSUES_LENGTH = 400;

/** Longest confirmation token kept, in characters (Capell's is 64; its route accepts only 64). */
const MAX_TOKEN_LENGTH = 256;

/**
 * The agent's line when Capell refuses the approval with 403: Capell answers 403 with one message
 * ("The agent confirmation is missing, expired, or out of scope.") for a token already used,
 * expired, of another session, user, tool or site, or whose preview changed, and "This action is
 * unauthorized." when the editor's rights changed (`AgentAdminConfirmationStore::pull`,
 * `AgentAdminToolInvocationService`): the runtime sent this token once, so says what each means.
 */
function refusedApproval(tool: string, status: number, message: string): string {
  return `${invokeRefusal(tool, status, message)}; not executed: the runtime sent this confirmation once, on the editor's approval; Capell refuses one that was already used (then something else on this page used it first, with the editor's session, and the change may be made), expired (10 minutes by default), or whose preview or permissions changed since; read the site's state before asking again`;
}

/**
 * Runs an admin write: claims the tool's slot (write/pending-write.ts: a proposal of this tool
 * still open is superseded), invokes the tool with the input, and shows Capell's preview in the
 * panel (its `message`, then every key of `data`). Only the editor's click on Send that passes
 * the panel's consent checks (trusted, visible, unoccluded, still for INPUT_PROTECTION_MS) sends
 * `{ tool, confirmation_token }`. Nothing is retried: Capell spends a token on its first use.
 * Resolves (never throws) within `writeWaitMs`, like any write: `{ status: 'submitted',
 * httpStatus: 200, answer: <Capell's executed data> }` when Capell executed it (checked against
 * the tool's outputSchema: see `executedAnswer`); `ok: false` with
 * one line when Capell refused the preview (no panel then: `HTTP 422 … : <message>` for a rejected
 * preview or invalid payload, 403 not allowed, 404, 419 CSRF, 401 signed out, 500) or the approval
 * (refusedApproval for 403), when it answered something other than `confirmation_required` at
 * first, or when no answer came; `cancelled` / `expired` / `superseded` / `aborted` when the
 * editor did not send it; `awaiting_person` with a writeId while they have not decided.
 */
export const executeAdminWrite: BindingExecutor = async (spec, input, { config, signal, stopSignal, messages }) => {
  const tool = spec.binding.target;
  // In a frame of another site's page the panel may be cropped or covered unseen (frame-origin.ts).
  const framed = crossOriginFrameReason(config.document.defaultView ?? window, config.origin);
  if (framed) return { ok: false, reason: `${spec.name}: ${framed}` };
  const text = readConfirmText(messages, confirmTextDefaults(config.document.documentElement?.lang));
  // Claimed before the first await: of two calls started together only the later one opens.
  const write = new PendingWrite({ config, tool: spec.name, slot: `admin ${spec.name}`, signal, stopSignal });
  const opened = createConfirmPanel(config.document).then(
    (panel) => ({ panel }),
    (error: unknown) => ({ reason: `${spec.name}: the confirmation panel did not load (${errorMessage(error)}); nothing was sent` }),
  );
  const asked = postInvoke(config, { tool, payload: input }, signal);
  return primitives.race([write.answer(), (async () => {
    const previewed = await asked;
    if ('reason' in previewed) return write.failed(`${spec.name}: ${previewed.reason}`);
    const { status, envelope, message } = previewed;
    if (status !== 200) return write.failed(invokeRefusal(spec.name, status, message), status);
    if (!envelope) return write.failed(`${spec.name}: the answer from ${ADMIN_INVOKE_PATH} is not Capell's invoke result ({ ok, mode, tool, data }); nothing was approved`);
    if (envelope.mode !== 'confirmation_required') {
      const what = envelope.mode === 'executed' ? 'the admin executed it without asking for the editor\'s approval (mode executed): the change may be made; read the site\'s state' : `the admin answered mode ${JSON.stringify(envelope.mode)} instead of confirmation_required${message ? `: ${message}` : ''}; nothing was approved`;
      return write.failed(`${spec.name}: ${what}`, status);
    }
    const token = envelope.confirmationToken;
    if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) {
      return write.failed(`${spec.name}: the admin asked for confirmation without a usable confirmationToken; nothing was approved`);
    }
    const preview = toAdminPanelPreview(spec.name, envelope.data, envelope.message, text.confirmEmpty);
    const loaded = await opened;
    if ('reason' in loaded) return write.failed(loaded.reason);
    if (write.live) propose(loaded.panel, preview, token);
    return write.answer();
  })()]);

  function propose(panel: ConfirmPanel, preview: AdminPanelPreview, issued: string): void {
    // The token lives here alone, and is dropped once used or withdrawn.
    let token: string | undefined = issued;
    write.open((why) => {
      token = undefined;
      panel.close(why === 'cancelled' ? 'cancelled' : 'withdrawn');
    });
    void panel.present({
      mode: 'request',
      words: adminPanelWords(text),
      request: spec.name,
      ...(write.replaced ? { notice: text.confirmReplaced } : {}),
      items: preview.items,
      preview: { summary: preview.summary, changes: preview.changes },
    }, {
      onCancel: () => write.end('cancelled'),
      onSend: () => {
        const once = token;
        token = undefined;
        if (once !== undefined && write.send()) void approve(once, panel);
      },
    }).then((shownOK) => { if (!shownOK) write.end('aborted'); });
  }

  async function approve(token: string, panel: ConfirmPanel): Promise<void> {
    // Not the agent's signal: once the editor approved, the request is theirs. Capell's bridge
    // sends exactly this: the tool and the token; Capell runs the payload it stored with it.
    finish(await postInvoke(config, { tool, confirmation_token: token }), panel, text);
  }

  /**
   * Capell's executed `data` against the tool's outputSchema (call/check-output.ts): properties
   * only an `additionalProperties: false` forbids are left out (Capell's publish tools answer six
   * more than theirs describe), with a warning in the Report; any other mismatch keeps the data
   * and says so in `answerNote`: the write was executed all the same.
   */
  function executedAnswer(data: JSONValue): { answer: JSONValue; answerNote?: string } {
    if (!spec.outputSchema) return { answer: data };
    const checked = checkOutput(config, spec.name, spec.outputSchema, data, data);
    if (checked.ok) return { answer: checked.answer };
    const issues = checked.issues.length > MAX_NOTE_ISSUES_LENGTH ? `${checked.issues.slice(0, MAX_NOTE_ISSUES_LENGTH - 1)}…` : checked.issues;
    return { answer: data, answerNote: `the admin executed the write (the change is made), but its answer does not match ${spec.name}'s outputSchema (a site error, not the agent's): ${issues}` };
  }

  function finish(sent: InvokeOutcome, panel: ConfirmPanel, words: ConfirmText): void {
    if ('reason' in sent) {
      void panel.showOutcome(sent.reason);
      write.failed(`${spec.name}: ${sent.reason}`);
      return;
    }
    const { status, envelope, message } = sent;
    if (status === 200 && envelope?.ok === true && envelope.mode === 'executed') {
      void panel.showOutcome(words.confirmSent);
      write.submitted({ httpStatus: status, ...executedAnswer(envelope.data) });
      return;
    }
    void panel.showOutcome(message
      ? fillPlaceholders(words.confirmFailedMessage, { status: String(status), message })
      : fillPlaceholders(words.confirmFailed, { status: String(status) }));
    if (status === 403) {
      write.failed(refusedApproval(spec.name, status, message), status);
    } else if (status === 200) {
      write.failed(`${spec.name}: the admin answered the approval with mode ${JSON.stringify(envelope?.mode ?? null)}${message ? `: ${message}` : ''}`, status);
    } else {
      write.failed(invokeRefusal(spec.name, status, message), status);
    }
  }
};
