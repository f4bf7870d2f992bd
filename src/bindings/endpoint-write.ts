/**
 * `endpoint` binding, effect write: the agent proposes a request; the panel previews it and a
 * person sends it with the panel's own Send button (there is no form), or cancels.
 * DESIGN section 2: "write: after the user confirms, `POST /path` with the JSON input".
 * Capell Agent Schema: writes use "the browser's user-mediation flow".
 */
import { fillPlaceholders, panelWords, readConfirmText } from '../ui/confirm-text.js';
import { createConfirmPanel } from '../ui/open-confirm-panel.js';
import { awaitDecision } from './await-decision.js';
import type { BindingExecutor } from './binding-executor.js';
import { readCSRFHeader } from './csrf-token.js';
import { serverMessage, sessionExpiredReason, writeStatus } from './write-answer.js';

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? String(value);
}

/**
 * Runs a write endpoint call: shows the panel with a preview of exactly what is sent (`POST`,
 * the path with its query string, e.g. `POST /hook?list=all`, and every top-level input field)
 * (the panel places itself in the top layer), and only after a person's click on Send that passes
 * the panel's consent checks (visible, unoccluded, still for INPUT_PROTECTION_MS) POSTs
 * the JSON input to that same URL, same-origin with the person's cookies
 * (`credentials: 'same-origin'`), `redirect: 'error'`, and the CSRF token read at send time
 * (csrf-token.ts).
 * Resolves (never throws): `{ status: 'submitted', httpStatus }` for a 2xx answer;
 * `{ status: 'cancelled' }` on Cancel or Escape; `{ status: 'pending' }` on abort, timeout
 * (`confirmTimeoutMs`) or `pagehide`; `ok: false` with "the session expired…" for 419 or 403
 * (write-answer.ts), and with the status and the server's `message` for other failures.
 */
export const executeEndpointWrite: BindingExecutor = async (spec, input, { config, signal, messages }) => {
  const doc = config.document;
  const url = new URL(spec.binding.target, config.origin);
  // What the person checks is what is sent: the query is part of the request (a target like
  // `/hook?unsubscribe_all=1` must not preview as `/hook`). Targets are same-origin paths
  // without a fragment (binding-policy.ts), so path and query are the whole URL that matters.
  const where = `${url.pathname}${url.search}`;
  const text = readConfirmText(messages);
  let panel: Awaited<ReturnType<typeof createConfirmPanel>>;
  try {
    panel = await createConfirmPanel(doc);
  } catch (error) {
    return { ok: false, reason: `${spec.name}: the confirmation panel did not load (${(error as Error)?.message ?? String(error)}); nothing was sent` };
  }
  if (signal.aborted) return writeStatus({ status: 'pending' });
  const decision = await awaitDecision<true>({ signal, timeoutMs: config.confirmTimeoutMs, view: doc.defaultView ?? window }, (decide, cancel) => {
    void panel.present({
      mode: 'request',
      words: panelWords(text),
      request: `POST ${where}`,
      items: Object.entries(input).map(([label, value]) => ({ label, value: shown(value) })),
    }, { onCancel: cancel, onSend: () => decide(true) });
    return () => undefined;
  });
  if (decision.kind !== 'decided') {
    panel.close(decision.kind === 'cancelled' ? 'cancelled' : 'withdrawn');
    return writeStatus({ status: decision.kind });
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
      ? `the request to ${where} was sent but no answer came within ${config.timeoutMs} ms`
      : `the request to ${where} failed: network error or a redirect (redirects are refused) (${(error as Error).message})`;
    void panel.showOutcome(reason);
    return { ok: false, reason: `${spec.name}: ${reason}` };
  }
  const accepted = response.status >= 200 && response.status < 300;
  void panel.showOutcome(accepted ? text.confirmSent : fillPlaceholders(text.confirmFailed, { status: String(response.status) }));
  const expired = sessionExpiredReason(response.status, where);
  if (expired) return { ok: false, reason: `${spec.name}: ${expired}` };
  if (!accepted) return { ok: false, reason: `${spec.name}: HTTP ${response.status} from ${where}${serverMessage(body)}` };
  return writeStatus({ status: 'submitted', httpStatus: response.status });
};
