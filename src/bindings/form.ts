/**
 * `form` binding, effect write: the agent fills a public form; a person checks it and sends it
 * with the form's own submit button, or cancels. The runtime never calls `submit()` or
 * `requestSubmit()` and never clicks.
 * Capell Agent Schema, "Navigation, forms, and admin tools": "Write tools use existing public
 * forms and the browser's user-mediation flow. They must declare effect: write; Core does not
 * auto-submit them."
 */
import type { ToolSpec } from '../declarations/tool-spec.js';
import { planFill } from '../forms/controls.js';
import { fillControls, restoreControls, unheldSteps, type FillRecord } from '../forms/fill.js';
import { readFormProperty } from '../forms/form-property.js';
import { nativeFormToolReason } from '../forms/native-form.js';
import { isSameItems, readFormName, readPersonKeys, readProposalItems, readSubmitControls, type ProposalItem } from '../forms/proposal-items.js';
import { sendFormRequest, toFormRequest } from '../forms/send-form.js';
import { readFormOptOutReason } from '../forms/form-opt-out.js';
import { armSubmitGuard, readUnguardableReason, type SubmitGuard, type SubmitGuardOptions } from '../forms/submit-guard.js';
import { fillPlaceholders, panelWords, readConfirmText } from '../ui/confirm-text.js';
import { createConfirmPanel } from '../ui/open-confirm-panel.js';
import { awaitDecision } from './await-decision.js';
import type { BindingExecutor, BindingOutcome, CallContext } from './binding-executor.js';
import { sessionExpiredReason, writeStatus } from './write-answer.js';

/** How long after resolving a sent form's call the page follows the site's redirect, in ms. */
export const NAVIGATE_AFTER_RESULT_MS = 250;

/** The attribute (and value) with which a form opts out of the fetch submit. */
export const NATIVE_SUBMIT_ATTRIBUTE = 'data-capell-submit';

/** How the person's submit goes out. */
type SubmitWay =
  | { way: 'fetch'; request: { url: URL; init: RequestInit } }
  | { way: 'native' }
  | { way: 'site' };

// One proposal per form at a time: a second call must not overwrite what the person is checking.
const waitingForms = new WeakSet<HTMLFormElement>();

function submitButtonText(form: HTMLFormElement): string {
  const button = [...readFormProperty(form, 'elements')].find((element) =>
    (element instanceof HTMLButtonElement && element.type === 'submit')
    || (element instanceof HTMLInputElement && (element.type === 'submit' || element.type === 'image')));
  if (button instanceof HTMLInputElement) return button.value || button.alt || 'Submit';
  return button?.textContent?.replace(/\s+/g, ' ').trim() || 'Submit';
}

/**
 * Runs a form write: re-finds `#target` at call time, checks that it is not a native WebMCP form,
 * that its action is same-origin, that the site did not opt it out (`data-agent-tools="none"`,
 * form-opt-out.ts), that it submits in this page (no other `target`, submit-guard.ts) and that
 * no earlier call for this form is still open, plans the
 * fill (controls.ts rules: protected, disabled, read-only and invisible controls, option values,
 * groups, and values a control would not hold as given), loads the panel, arms the submit guard
 * (held until one task after the last restore: no fill or restore event, `form.submit()` or
 * script submit sends the form), fills the form (native
 * setters + `input`/`change`) except the controls the person already changed from their default
 * (their value stays; the panel shows it beside the agent's with "Use the assistant's value"),
 * checks that every filled control holds what was planned (the page's own handlers may rewrite a
 * value), shows the panel (top layer, naming the form, which is scrolled into view) and waits.
 * The panel follows the form's `input`/`change` events; a person's submit counts only when it
 * passes the panel's consent check (`consentRefusal`: visible, unoccluded, still for
 * INPUT_PROTECTION_MS) and the form still holds what the panel shows; otherwise that submit is
 * prevented, the panel says why and the call keeps waiting.
 * Resolves (never throws):
 * - `{ status: 'submitted', httpStatus }` once the person's own submit was sent by fetch and
 *   answered with any status but 419 or 403: the agent reads `httpStatus` (e.g. 422 when the
 *   site refused a field) and, for a 2xx, the runtime then follows a same-origin redirect like a
 *   navigation would (e.g. to a thank-you page);
 * - `{ status: 'submitted' }` (no `httpStatus`) when the site's own script handled the submit;
 * - `{ status: 'pending' }` when the form opts out of fetch (`data-capell-submit="native"`, the
 *   browser navigates), or on `pagehide`, the call's signal aborting, or `confirmTimeoutMs`;
 * - `{ status: 'cancelled' }` on Cancel or Escape;
 * - `ok: false` with a reason naming the field or rule for anything refused before the panel
 *   opens (then the form holds the person's values, as before the call); with "form #id is
 *   already waiting…" for a second call while one is open (it changes nothing); with "the
 *   session expired or its CSRF token was refused (HTTP 419 from /path)…" when the person's
 *   fetch submit got 419 or 403 (write-answer.ts, as for write endpoints); or when the sent
 *   submit got no answer.
 * On cancel, abort and timeout the person's own values are put back (fill.ts: a control is put
 * back while it still holds what the fill stored in it).
 */
export const executeForm: BindingExecutor = async (spec, input, context) => {
  const { config } = context;
  const id = spec.binding.target;
  const form = config.document.getElementById(id);
  if (!(form instanceof HTMLFormElement)) return { ok: false, reason: `${spec.name}: there is no form #${id} on this page` };
  const native = nativeFormToolReason(spec, config.document);
  if (native) return { ok: false, reason: `${spec.name}: ${native}` };
  const actionOrigin = new URL(readFormProperty(form, 'action')).origin;
  if (actionOrigin !== config.origin) {
    return { ok: false, reason: `${spec.name}: form #${id} sends to ${actionOrigin}, not this page's origin; only same-origin forms can be filled` };
  }
  const optedOut = readFormOptOutReason(form);
  if (optedOut) return { ok: false, reason: `${spec.name}: ${optedOut}` };
  const unguardable = readUnguardableReason(form);
  if (unguardable) return { ok: false, reason: `${spec.name}: ${unguardable}` };
  if (waitingForms.has(form)) return { ok: false, reason: `${spec.name}: form #${id} is already waiting for the person to check an earlier proposal` };
  // Marked before the first await: two calls started together would otherwise both pass the
  // check above while the panel loads, and both fill the form and open a panel.
  waitingForms.add(form);
  // Armed by proposeFill right before the first fill; disarmed here, after the last restore (and
  // after the person's submit was sent), so no fill or restore event can submit the form.
  let guard: SubmitGuard | undefined;
  try {
    return await proposeFill(spec, input, context, form, (options) => (guard = armSubmitGuard(form, options)));
  } finally {
    waitingForms.delete(form);
    void guard?.disarm();
  }
};

/** executeForm once the form is found, allowed and marked as waiting (the caller unmarks it). */
async function proposeFill(spec: ToolSpec, input: Record<string, unknown>, { config, signal, messages }: CallContext, form: HTMLFormElement, armGuard: (options: SubmitGuardOptions) => SubmitGuard): Promise<BindingOutcome> {
  const doc = config.document;
  const id = spec.binding.target;
  const text = readConfirmText(messages);
  const plan = planFill(form, input, { yes: text.confirmYes, no: text.confirmNo });
  if (!plan.ok) return { ok: false, reason: `cannot fill form #${id} for ${spec.name}: ${plan.reason}` };
  let panel: Awaited<ReturnType<typeof createConfirmPanel>>;
  try {
    panel = await createConfirmPanel(doc);
  } catch (error) {
    return { ok: false, reason: `${spec.name}: the confirmation panel did not load (${(error as Error)?.message ?? String(error)}); the form was not filled` };
  }
  if (signal.aborted) return writeStatus({ status: 'pending' });

  // A control the person already changed keeps their value (issue 7): the panel shows theirs
  // beside the agent's, and only "Use the assistant's value" fills it.
  const personKeys = readPersonKeys(plan.steps);
  const agentSteps = plan.steps.filter((step) => !personKeys.has(step.key));
  // Armed before the first fill: a page's submit-on-change handler fires on the fill's own events.
  // The panel judges the person's act (visible, unoccluded, still for INPUT_PROTECTION_MS); for
  // Enter the control is the field that had it, for a click the submit button.
  const guard = armGuard({
    consentCheck: (control, gesture) => panel.consentRefusal(
      gesture instanceof KeyboardEvent && gesture.target instanceof Element ? gesture.target : control, gesture),
  });
  const filled: FillRecord[] = fillControls(agentSteps);
  // The panel lists the plan; it may only be shown when the form holds exactly that.
  const [unheld] = unheldSteps(agentSteps);
  if (unheld) {
    restoreControls(filled);
    return {
      ok: false,
      reason: `cannot fill form #${id} for ${spec.name}: ${unheld.step.key}: the page changed the value to ${JSON.stringify(unheld.held)} as it was filled, so the form would not send ${JSON.stringify(unheld.step.next)}; nothing was left filled`,
    };
  }
  const optsOut = form.getAttribute(NATIVE_SUBMIT_ATTRIBUTE) === 'native';
  const words = panelWords(text, fillPlaceholders(text.confirmSendHint, { button: submitButtonText(form) }));
  const checkboxWords = { yes: text.confirmYes, no: text.confirmNo };
  const readItems = () => readProposalItems(plan.steps, plan.proposed, checkboxWords);
  const decision = await awaitDecision<SubmitWay>({ signal, timeoutMs: config.confirmTimeoutMs, view: doc.defaultView ?? window }, (decide, cancel) => {
    // What the panel shows now; a submit is refused when the form no longer holds it.
    let shown: ProposalItem[] = readItems();
    let filling = false;
    const show = () => panel.present({ mode: 'form', words, formName: readFormName(form), items: shown }, handlers);
    const handlers = {
      onCancel: cancel,
      onUseAgentValue: (index: number) => {
        const key = plan.proposed[index]?.key;
        filling = true;
        try {
          filled.push(...fillControls(plan.steps.filter((step) => step.key === key)));
        } finally {
          filling = false;
        }
        shown = readItems();
        void show();
      },
    };
    // The person edits the form (or the page's script does, with events): the panel follows,
    // and its input protection starts over.
    const onEdit = () => {
      if (filling) return;
      const now = readItems();
      if (isSameItems(now, shown)) return;
      shown = now;
      void show();
    };
    void show();
    panel.trackControls(readSubmitControls(form));
    form.scrollIntoView({ block: 'nearest' });
    form.addEventListener('input', onEdit, true);
    form.addEventListener('change', onEdit, true);
    // The guard already refused (and the panel showed why) any submit the consent check refused.
    const stopWatching = guard.connect((event) => {
      // Runs inside the person's submit event: what happens to it is decided now.
      if (event.defaultPrevented) return decide({ way: 'site' });
      const now = readItems();
      if (!isSameItems(now, shown)) {
        // Sent would be what the panel did not show: refused, and the panel shows it now.
        event.preventDefault();
        shown = now;
        void show();
        panel.refuse(text.confirmReasonChanged);
        return;
      }
      const request = optsOut ? undefined : toFormRequest(form, event.submitter);
      if (!request) return decide({ way: 'native' });
      event.preventDefault();
      // A submit button's own formaction may point elsewhere: that submit is blocked, not sent.
      if (request.url.origin !== config.origin) return;
      decide({ way: 'fetch', request });
    });
    return () => {
      stopWatching();
      form.removeEventListener('input', onEdit, true);
      form.removeEventListener('change', onEdit, true);
    };
  });

  if (decision.kind === 'cancelled' || decision.kind === 'pending') {
    // Leaving the page: nothing to put back, and the form may be restored by the back/forward cache.
    if (!(decision.kind === 'pending' && decision.why === 'pagehide')) restoreControls(filled);
    panel.close(decision.kind === 'cancelled' ? 'cancelled' : 'withdrawn');
    return writeStatus({ status: decision.kind });
  }
  const { value } = decision;
  if (value.way === 'native') {
    panel.close('sent');
    return writeStatus({ status: 'pending' });
  }
  if (value.way === 'site') {
    panel.close('sent');
    return writeStatus({ status: 'submitted' });
  }
  const sent = await sendFormRequest(value.request, config.timeoutMs);
  if (!sent.ok) {
    void panel.showOutcome(sent.reason);
    return { ok: false, reason: `${spec.name}: ${sent.reason}` };
  }
  const accepted = sent.httpStatus >= 200 && sent.httpStatus < 300;
  void panel.showOutcome(accepted ? text.confirmSent : fillPlaceholders(text.confirmFailed, { status: String(sent.httpStatus) }));
  // The site refused the person's session: the agent must not read that as "submitted".
  const expired = sessionExpiredReason(sent.httpStatus, `${value.request.url.pathname}${value.request.url.search}`);
  if (expired) return { ok: false, reason: `${spec.name}: ${expired}` };
  if (accepted && sent.redirected && new URL(sent.url).origin === config.origin) {
    // Show the person the page the site sent them to, as a native submit would; a moment after
    // the result is handed back: the browser delivers it to the agent in tasks of its own, and a
    // document that is already unloading would lose it.
    setTimeout(() => (doc.defaultView ?? window).location.assign(sent.url), NAVIGATE_AFTER_RESULT_MS);
  }
  // Any other status goes back as submitted with httpStatus: the request was sent, and the agent
  // reads the status (a 422 means the site refused a field).
  return writeStatus({ status: 'submitted', httpStatus: sent.httpStatus });
}
