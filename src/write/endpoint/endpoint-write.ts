/**
 * `endpoint` binding, effect write: the agent proposes a request; the panel previews it and a
 * person sends it with the panel's own Send button (there is no form), or cancels.
 * After the person confirms, it is `POST /path` with the JSON input.
 * Capell Agent Schema: writes use "the browser's user-mediation flow".
 */
import { fillPlaceholders, panelWords, readConfirmText } from '../confirm-text.js';
import { createConfirmPanel } from '../open-confirm-panel.js';
import type { RuntimeConfig } from '../../start/config.js';
import type { ConfirmText } from '../confirm-text.js';
import { MAX_WRITE_ANSWER_BYTES, readWriteOutcome, sessionExpiredReason } from '../write-answers.js';
import { request } from '../../registry/request.js';
import { PendingWrite } from '../pending-write.js';
import type { BindingExecutor } from '../../shared/bindings/binding-executor.js';
import { readCSRFHeader } from '../csrf-token.js';
import { serverMessage } from '../../call/server-message.js';
import { errorMessage } from '../../shared/error-message.js';
import { parseURL } from '../../shared/parse-url.js';
import { primitives } from '../../start/primitives.js';
import { plainEntries, plainJSON } from '../../shared/plain-json.js';
import { crossOriginFrameReason } from '../frame-origin.js';

/** A field's value as the panel shows it: text as it is, other JSON indented (plainJSON: no page code runs). */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : plainJSON(value, '  ');
}

/**
 * What the panel shows and what is sent, both read once from the input when the proposal opens,
 * with plainJSON (no `toJSON` or getter a page adds later runs): the body is this very text.
 * @returns the panel's items and the body, or a one-line reason when the input is not plain data.
 */
function readProposal(name: string, input: Record<string, unknown>): { items: { label: string; value: string }[]; body: string } | { reason: string } {
  try {
    return { items: plainEntries(input).map(([label, value]) => ({ label, value: shown(value) })), body: plainJSON(input) };
  } catch (error) {
    return { reason: `${name}: the input ${errorMessage(error)}` };
  }
}

/**
 * Runs a write endpoint call: claims the tool's slot (write/pending-write.ts: a proposal of this
 * tool still open is superseded and its panel closed), shows the panel with a preview of exactly
 * what is sent (`POST`, the path with its query string, e.g. `POST /hook?list=all`, and every
 * top-level input field) (the panel places itself in the top layer), and only after a person's
 * click on Send that passes the panel's consent checks (visible, unoccluded, still for
 * INPUT_PROTECTION_MS) POSTs the JSON input to that same URL, same-origin with the person's cookies
 * (`credentials: 'same-origin'`), `redirect: 'error'`, and the CSRF token read at send time
 * (csrf-token.ts).
 * Resolves (never throws) within `writeWaitMs`: `{ status: 'submitted', httpStatus, answer? }`
 * for a 2xx answer (`answer`: the site's JSON, at most MAX_WRITE_ANSWER_BYTES); `{ status:
 * 'cancelled' | 'expired' | 'superseded' | 'aborted', next }` when the proposal ended unsent;
 * `{ status: 'awaiting_person', writeId, expiresAt, next }` while the person has not decided;
 * `ok: false` with "the session expired…" for 419 or 403 (write-answers.ts), and with the status
 * and the server's `message` for other failures; and, before any panel, in a frame whose
 * ancestors are of another origin (write/frame-origin.ts). Every value and name is shown with its
 * invisible and direction-changing characters made visible (panel: `⟨U+202E⟩`), as it is sent.
 */
export const executeEndpointWrite: BindingExecutor = async (spec, input, { config, signal, stopSignal, messages }) => {
  const doc = config.document;
  // In a frame of another site's page the panel may be cropped or covered unseen (frame-origin.ts).
  const framed = crossOriginFrameReason(doc.defaultView ?? window, config.origin);
  if (framed) return { ok: false, reason: `${spec.name}: ${framed}` };
  // Parsed by the realm's URL as it was at start (parse-url.ts): the preview and the request are
  // read from one href.
  const parts = parseURL(spec.binding.target, config.origin);
  const url = new primitives.URL(parts.href);
  // What the person checks is what is sent: the query is part of the request (a target like
  // `/hook?unsubscribe_all=1` must not preview as `/hook`). Targets are same-origin paths
  // without a fragment (binding-policy.ts), so path and query are the whole URL that matters.
  const where = parts.rest;
  const text = readConfirmText(messages);
  // Claimed before the first await: of two calls started together only the later one opens.
  const write = new PendingWrite({ config, tool: spec.name, slot: `endpoint ${spec.name}`, signal, stopSignal });
  // Raced with the write's own answer: a panel chunk that never arrives must not hold the call
  // past writeWaitMs (the proposal then expires unshown; nothing was sent).
  const opened = createConfirmPanel(doc).then(
    (panel) => ({ panel }),
    (error: unknown) => ({ reason: `${spec.name}: the confirmation panel did not load (${errorMessage(error)}); nothing was sent` }),
  );
  // Read before the panel loads: what the page changes on the input or its prototypes later is not sent.
  const proposal = readProposal(spec.name, input);
  return primitives.race([write.answer(), opened.then((loaded) => {
    if ('reason' in loaded) return write.failed(loaded.reason);
    if ('reason' in proposal) return write.failed(proposal.reason);
    if (write.live) propose(loaded.panel, proposal);
    return write.answer();
  })]);

  function propose(panel: Awaited<ReturnType<typeof createConfirmPanel>>, { items, body }: { items: { label: string; value: string }[]; body: string }): void {
    write.open((why) => panel.close(why === 'cancelled' ? 'cancelled' : 'withdrawn'));
    // A panel that cannot show the proposal must not leave it open, unseen, until expiry.
    void panel.present({
      mode: 'request',
      words: panelWords(text),
      ...(write.replaced ? { notice: text.confirmReplaced } : {}),
      request: `POST ${where}`,
      items,
    }, {
      onCancel: () => write.end('cancelled'),
      onSend: () => {
        if (write.send()) void send(spec.name, url, where, body, config, text, panel, write);
      },
    }).then((shownOK) => { if (!shownOK) write.end('aborted'); });
  }
};

/** POSTs the person's confirmed request (`body`: the JSON text read when the panel opened) and records how the site answered. */
async function send(
  name: string, url: URL, where: string, body: string, config: RuntimeConfig,
  text: ConfirmText, panel: Awaited<ReturnType<typeof createConfirmPanel>>, write: PendingWrite,
): Promise<void> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  const csrf = readCSRFHeader(config.document);
  if (csrf) headers[csrf.name] = csrf.value;
  const sent = readWriteOutcome(await request(url, {
    method: 'POST', headers, body, credentials: 'same-origin', redirect: 'error',
    timeoutMs: config.timeoutMs, where, maxAnswerBytes: MAX_WRITE_ANSWER_BYTES,
  }));
  if ('reason' in sent) {
    void panel.showOutcome(sent.reason);
    write.failed(`${name}: ${sent.reason}`);
    return;
  }
  const { response, body: answer } = sent;
  const accepted = response.status >= 200 && response.status < 300;
  void panel.showOutcome(accepted ? text.confirmSent : fillPlaceholders(text.confirmFailed, { status: String(response.status) }));
  const expired = sessionExpiredReason(response.status, where);
  if (expired) {
    write.failed(`${name}: ${expired}`, response.status);
    return;
  }
  if (!accepted) {
    write.failed(`${name}: HTTP ${response.status} from ${where}${serverMessage(answer.text ?? '')}`, response.status);
    return;
  }
  write.submitted({ httpStatus: response.status, answer: answer.answer, answerNote: answer.note });
}
