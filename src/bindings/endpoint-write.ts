/**
 * `endpoint` binding, effect write: the agent proposes a request; the panel previews it and a
 * person sends it with the panel's own Send button (there is no form), or cancels.
 * DESIGN section 2: "write: after the user confirms, `POST /path` with the JSON input".
 * Capell Agent Schema: writes use "the browser's user-mediation flow".
 */
import type { JSONValue } from '../declarations/tool-spec.js';
import { readCapellIslands } from '../sources/capell-islands.js';
import { fillPlaceholders, readConfirmText } from '../ui/confirm-text.js';
import { createConfirmPanel } from '../ui/open-confirm-panel.js';
import { awaitDecision } from './await-decision.js';
import type { BindingExecutor, BindingOutcome } from './binding-executor.js';
import { readCSRFHeader } from './csrf-token.js';

/** HTTP statuses that mean the session or its CSRF token is no longer accepted (Laravel: 419). */
const SESSION_EXPIRED_STATUSES: ReadonlySet<number> = new Set([403, 419]);

/** Longest server message quoted in a reason, in characters. */
const MAX_SERVER_MESSAGE_LENGTH = 200;

function status(answer: { status: 'submitted' | 'cancelled' | 'pending'; httpStatus?: number }): BindingOutcome {
  const json = answer as unknown as JSONValue;
  return { ok: true, answer: json, data: json };
}

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? String(value);
}

function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed?.message === 'string') return `: ${parsed.message.slice(0, MAX_SERVER_MESSAGE_LENGTH)}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return '';
}

/**
 * Runs a write endpoint call: shows the panel with a preview (`POST /path` and every input
 * field) at the top of `<main>` (or `<body>`), and only after a person's trusted click on Send
 * POSTs the JSON input same-origin with the person's cookies (`credentials: 'same-origin'`),
 * `redirect: 'error'`, and the CSRF token read at send time (csrf-token.ts).
 * Resolves (never throws): `{ status: 'submitted', httpStatus }` for a 2xx answer;
 * `{ status: 'cancelled' }` on Cancel or Escape; `{ status: 'pending' }` on abort, timeout
 * (`confirmTimeoutMs`) or `pagehide`; `ok: false` with "the session expired…" for 419 or 403,
 * and with the status and the server's `message` for other failures.
 */
export const executeEndpointWrite: BindingExecutor = async (spec, input, { config, signal }) => {
  const doc = config.document;
  const url = new URL(spec.binding.target, config.origin);
  const text = readConfirmText(readCapellIslands(doc).messages);
  let panel: Awaited<ReturnType<typeof createConfirmPanel>>;
  try {
    panel = await createConfirmPanel(doc);
  } catch (error) {
    return { ok: false, reason: `${spec.name}: the confirmation panel did not load (${(error as Error)?.message ?? String(error)}); nothing was sent` };
  }
  if (signal.aborted) return status({ status: 'pending' });
  (doc.querySelector('main') ?? doc.body).prepend(panel);
  const decision = await awaitDecision<true>({ signal, timeoutMs: config.confirmTimeoutMs, view: doc.defaultView ?? window }, (decide, cancel) => {
    void panel.present({
      mode: 'request',
      words: { title: text.confirmTitle, intro: text.confirmRequest, send: text.confirmSend, cancel: text.confirmCancel, close: text.confirmClose },
      request: `POST ${url.pathname}`,
      items: Object.entries(input).map(([label, value]) => ({ label, value: shown(value) })),
    }, { onCancel: cancel, onSend: () => decide(true) });
    return () => undefined;
  });
  if (decision.kind !== 'decided') {
    panel.close(decision.kind === 'cancelled' ? 'cancelled' : 'withdrawn');
    return status({ status: decision.kind });
  }

  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  const csrf = readCSRFHeader(doc);
  if (csrf) headers[csrf.name] = csrf.value;
  const timeout = AbortSignal.timeout(config.timeoutMs);
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(input), credentials: 'same-origin', redirect: 'error', signal: timeout });
    body = await response.text();
  } catch (error) {
    const reason = timeout.aborted
      ? `the request to ${url.pathname} was sent but no answer came within ${config.timeoutMs} ms`
      : `the request to ${url.pathname} failed: network error or a redirect (redirects are refused) (${(error as Error).message})`;
    void panel.showOutcome(reason);
    return { ok: false, reason: `${spec.name}: ${reason}` };
  }
  const accepted = response.status >= 200 && response.status < 300;
  void panel.showOutcome(accepted ? text.confirmSent : fillPlaceholders(text.confirmFailed, { status: String(response.status) }));
  if (SESSION_EXPIRED_STATUSES.has(response.status)) {
    return { ok: false, reason: `${spec.name}: the session expired or its CSRF token was refused (HTTP ${response.status} from ${url.pathname}); the person should reload the page and try again` };
  }
  if (!accepted) return { ok: false, reason: `${spec.name}: HTTP ${response.status} from ${url.pathname}${serverMessage(body)}` };
  return status({ status: 'submitted', httpStatus: response.status });
};
