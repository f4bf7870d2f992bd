/**
 * `form` binding, effect write: the agent fills a public form; a person checks it and sends it
 * with the form's own submit button, or cancels. The runtime never calls `submit()` or
 * `requestSubmit()` and never clicks.
 * Capell Agent Schema, "Navigation, forms, and admin tools": "Write tools use existing public
 * forms and the browser's user-mediation flow. They must declare effect: write; Core does not
 * auto-submit them."
 */
import type { RuntimeConfig } from '../../start/config.js';
import type { ToolSpec } from '../../shared/declarations/tool-spec.js';
import { planFill, type FillStep } from './controls.js';
import { fillControls, restoreControls, unheldSteps, type FillRecord } from './fill.js';
import { readFormOptOutReason } from './form-opt-out.js';
import { readFormProperty } from './form-property.js';
import { nativeFormToolReason } from '../../shared/registration-rules.js';
import { callBuiltIn } from '../../start/dom-builtin.js';
import { isSameItems, readFormName, readPersonKeys, readProposalItems, type ProposalItem } from './proposal-items.js';
import { readEntryChanges, readEntryList, toSentEntries, type FormEntry } from './entry-list.js';
import { readEntryKind } from './entry-kind.js';
import { sendFormRequest, toFormRequest } from './send-form.js';
import { describeDestination, readDestination, readSendControls, type SendControls } from './send-controls.js';
import { armSubmitGuard, readUnguardableReason, type SubmitGuard } from './submit-guard.js';
import { isSentBySiteScript, SITE_ANSWER_WAIT_MS, watchSiteRedraw } from './site-redraw.js';
import { submitFrontOf } from '../../start/submit-front.js';
import { fillPlaceholders, panelWords, readConfirmText, type ConfirmText } from '../confirm-text.js';
import { createConfirmPanel } from '../open-confirm-panel.js';
import { PendingWrite } from '../pending-write.js';
import type { BindingExecutor, CallContext } from '../../shared/bindings/binding-executor.js';
import { sessionExpiredReason } from '../write-answers.js';
import { primitives } from '../../start/primitives.js';
import { errorMessage } from '../../shared/error-message.js';
import { parseURL } from '../../shared/parse-url.js';
import { formRedrawnReason, watchFormLeaving } from './form-redraw.js';
import { keepForNextPage } from '../tab-writes.js';
import { crossOriginFrameReason } from '../frame-origin.js';
import { firstBidiControl, markInvisible } from '../invisible-characters.js';

/** How long after resolving a sent form's call the page follows the site's redirect, in ms. */
const NAVIGATE_AFTER_RESULT_MS = 250;

/** The attribute (and value) with which a form opts out of the fetch submit. */
const NATIVE_SUBMIT_ATTRIBUTE = 'data-capell-submit';

/** The panel element (loaded with the write chunk). */
type Panel = Awaited<ReturnType<typeof createConfirmPanel>>;

/**
 * Runs a form write: re-finds `#target` at call time, checks that it is not a native WebMCP form,
 * that the page is not in a frame of another origin's page (frame-origin.ts: the panel could be
 * cropped there), that no value holds a bidi control (the control would draw it in another order
 * than it is sent; other invisible characters are filled and the panel shows them as `⟨U+200B⟩`),
 * that its action is same-origin, that the site did not opt it out (`data-agent-tools="none"`,
 * form-opt-out.ts) and that it submits in this page (no other `target`, submit-guard.ts), plans
 * the fill (controls.ts rules: protected, disabled, read-only and invisible controls, option
 * values, groups, and values a control would not hold as given), then claims the form
 * (write/pending-write.ts: a proposal still open for this form is superseded, its values
 * restored and its panel closed), loads the panel, arms the submit guard (held from before the
 * first fill until one task after the last restore or the person's send: no fill or restore
 * event, `form.submit()` or script submit sends the form), fills the form (native setters +
 * `input`/`change`) except the controls the person already changed from their default (their
 * value stays; the panel shows it beside the agent's with "Use the assistant's value"), checks
 * that every filled control holds what was planned (the page's own handlers may rewrite a
 * value), reads the form's send controls once (send-controls.ts: the button the panel names,
 * where the proposal goes) and its whole data set (entry-list.ts: every entry, read without
 * `formdata`), and shows the panel (top layer, naming the form, which is scrolled into view,
 * listing every entry: the agent's values, then what is "sent with it"). The panel follows the
 * form's `input`/`change` events (the data set is read again with each showing); a person's
 * submit counts only when its button is one the panel accepted as it first showed, unchanged
 * (and, for Enter, when the field it was pressed in is one the panel lists as the proposal's)
 * (a button added or changed since, sending elsewhere, or labelled like "Cancel" refuses every
 * click until a new proposal), it passes the panel's consent check (`consentRefusal`: visible,
 * unoccluded, still for INPUT_PROTECTION_MS), and the planned controls and the form's data set,
 * read from the controls (before any listener of the page: a site's own script sends at once,
 * and again after them) and as the page's `formdata` listeners leave it, are the ones the panel shows; otherwise that
 * submit is prevented, the panel says why (one line naming what changed; the write's record
 * keeps it as `refused`) and the proposal stays open. What is sent is the data set the panel
 * showed, to the destination it showed.
 * Resolves (never throws) within `writeWaitMs` (write/write-answers.ts for the shapes):
 * - `{ status: 'submitted', httpStatus, answer? }` once the person's own submit was sent by
 *   fetch and answered with any status but 419 or 403 (the agent reads `httpStatus`, e.g. 422
 *   when the site refused a field; `answer` is the site's JSON answer, bounded); for a 2xx the
 *   runtime then follows a same-origin redirect like a navigation would;
 * - `{ status: 'submitted', sentBy: 'site', siteShowed?, fieldErrors? }` (never `httpStatus`: the
 *   runtime saw no request) when the person's accepted submit went to the site's own script (it
 *   prevented the native submission: Livewire's `wire:submit`, any listener that sends by
 *   itself); the call answers once the site redrew the form's component with a status or field
 *   errors (site-redraw.ts), else after SITE_ANSWER_WAIT_MS with the writeId and a `next` step
 *   (`capell.write.status` gives the fields once seen). For a `wire:submit` form the panel names
 *   no native destination but says the site's own page script sends it; there, a submit the
 *   site's script did not take is refused (the browser would send it where the panel did not say);
 * - `{ status: 'submitted' }` (no `httpStatus`) when the form opts out of fetch
 *   (`data-capell-submit="native"`: the browser sends it and navigates);
 * - `{ status: 'cancelled' | 'expired' | 'superseded' | 'aborted', next }` (superseded with
 *   `supersededBy`) when the proposal ended without being sent;
 * - `{ status: 'awaiting_person', writeId, expiresAt, next }` when the person has not decided
 *   within `writeWaitMs` (or `sending` while the site has not answered); `capell.write.status`
 *   then tells the outcome;
 * - `ok: false` with a reason naming the field or rule for anything refused before the panel
 *   opens (then the form holds the person's values, as before the call); with "the session
 *   expired or its CSRF token was refused (HTTP 419 from /path)…" when the person's fetch submit
 *   got 419 or 403 (write-answers.ts); or when the sent submit got no answer.
 * When a proposal ends without being sent the person's own values are put back (fill.ts: a
 * control is put back while it still holds what the fill stored in it), except when the page is
 * left.
 */
export const executeForm: BindingExecutor = async (spec, input, context) => {
  const { config } = context;
  const id = spec.binding.target;
  const form = config.document.getElementById(id);
  if (!(form instanceof HTMLFormElement)) return { ok: false, reason: `${spec.name}: there is no form #${id} on this page` };
  const native = nativeFormToolReason(spec, config.document);
  if (native) return { ok: false, reason: `${spec.name}: ${native}` };
  const framed = crossOriginFrameReason(config.document.defaultView ?? window, config.origin);
  if (framed) return { ok: false, reason: `${spec.name}: ${framed}` };
  const actionOrigin = parseURL(readFormProperty(form, 'action')).origin;
  if (actionOrigin !== config.origin) {
    return { ok: false, reason: `${spec.name}: form #${id} sends to ${actionOrigin}, not this page's origin; only same-origin forms can be filled` };
  }
  const optedOut = readFormOptOutReason(form);
  if (optedOut) return { ok: false, reason: `${spec.name}: ${optedOut}` };
  const unguardable = readUnguardableReason(form);
  if (unguardable) return { ok: false, reason: `${spec.name}: ${unguardable}` };
  const reordered = bidiControlReason(input);
  if (reordered) return { ok: false, reason: `cannot fill form #${id} for ${spec.name}: ${reordered}` };
  const text = readConfirmText(context.messages);
  // Planned before the form is claimed: a call refused for its input leaves an open proposal alone.
  const plan = planFill(form, input, { yes: text.confirmYes, no: text.confirmNo });
  if (!plan.ok) return { ok: false, reason: `cannot fill form #${id} for ${spec.name}: ${plan.reason}` };
  // Claimed before the first await: two calls started together never both fill and open a panel.
  const write = new PendingWrite({ config, tool: spec.name, slot: form, signal: context.signal, stopSignal: context.stopSignal });
  // Raced with the write's own answer: a panel chunk that never arrives must not hold the call
  // past writeWaitMs (the proposal then expires unshown; nothing was filled).
  return primitives.race([
    proposeFill(spec, context, form, plan, write).then(
      (refused) => (refused ? write.failed(refused) : write.answer()),
      // A page that breaks what the proposal needs: the call says so, and the form holds the person's values again.
      (error: unknown) => write.failed(`${spec.name}: the proposal could not be shown (${errorMessage(error)}); nothing was sent`),
    ),
    write.answer(),
  ]);
};

/**
 * executeForm once the form is claimed: loads the panel, arms the guard, fills, shows the
 * proposal and connects the person's submit. @returns a refusal reason, or undefined once the
 * proposal is open (or the write ended while the panel loaded: then nothing was filled).
 */
async function proposeFill(
  spec: ToolSpec, { config, messages }: CallContext, form: HTMLFormElement,
  plan: { steps: FillStep[]; proposed: { key: string; label: string; value: string }[] }, write: PendingWrite,
): Promise<string | undefined> {
  const doc = config.document;
  const id = spec.binding.target;
  const text = readConfirmText(messages);
  let panel: Panel;
  try {
    panel = await createConfirmPanel(doc);
  } catch (error) {
    return `${spec.name}: the confirmation panel did not load (${errorMessage(error)}); the form was not filled`;
  }
  if (!write.live) return undefined;

  // A control the person already changed keeps their value: the panel shows theirs beside the
  // agent's, and only "Use the assistant's value" fills it.
  const personKeys = readPersonKeys(plan.steps);
  const agentSteps = plan.steps.filter((step) => !personKeys.has(step.key));
  // Read once, when the proposal first shows, and never again for this proposal: a submit
  // control added or changed afterwards, or one that sends elsewhere, refuses every click.
  let sendControls: SendControls | undefined;
  /** Every refusal of the person's act: shown on the panel, and kept for the agent's answer. */
  const refuse = (reason: string) => {
    write.refused(reason);
    panel.refuse(reason);
  };
  /** Why a submit by `submitter` cannot send this proposal (send-controls.ts), as the person reads it. */
  const controlRefusal = (submitter: Element | null): string | undefined => {
    const refusal = sendControls?.refusalFor(submitter);
    if (!refusal) return undefined;
    const template = {
      added: text.confirmReasonAddedControl,
      changed: text.confirmReasonChangedControl,
      elsewhere: text.confirmReasonOtherDestination,
      'not-sending': text.confirmReasonNotSending,
      disguised: text.confirmReasonDisguisedControl,
    }[refusal.kind];
    return fillPlaceholders(template, { ...refusal });
  };
  // Armed before the first fill: a page's submit-on-change handler fires on the fill's own events.
  // The send controls are judged first (in the capture phase, before the page's handlers); then
  // the panel judges the person's act (visible, unoccluded, still for INPUT_PROTECTION_MS); for
  // Enter the control is the field that had it, for a click the submit button.
  // The guard's own refusals (focus moved by the page, a changed target) are shown too; the
  // panel already shows the ones its consent check gave.
  // Last, whether the form still holds what the panel shows (set once it first shows): checked
  // here too, before any listener of the page, because a site's own script (Livewire's
  // wire:submit) sends what the controls hold as soon as it sees the submit.
  let consentReason: string | undefined;
  let dataRefusal: ((submitter: Element | null) => string | undefined) | undefined;
  // The controls the panel lists (the proposal's fields): the only ones whose Enter may send it.
  const planned = new Set<Element>(plan.steps.map((step) => step.control));
  const guard: SubmitGuard = armSubmitGuard(form, {
    // Judged in the runtime's window capture listener, added when it started: ahead of the page's later ones.
    front: submitFrontOf(config),
    consentCheck: (control, gesture) => {
      const submitter = control === form ? null : control;
      const own = controlRefusal(submitter);
      if (own) return own;
      const field = gesture instanceof KeyboardEvent ? primitives.target(gesture) : null;
      // Implicit submission from a control of the form the panel does not list (a search box of
      // the form drawn in the page header): the person meant that box, not this proposal.
      if (gesture instanceof KeyboardEvent && !(field instanceof Element && planned.has(field))) {
        return fillPlaceholders(text.confirmReasonEnterUnlisted, { field: describeField(field), button: sendControls?.label ?? '' });
      }
      consentReason = panel.consentRefusal(field instanceof Element ? field : control, gesture);
      return consentReason ?? (consentReason = dataRefusal?.(submitter));
    },
    onRefusedSubmit: (reason) => {
      write.refused(reason);
      if (reason !== consentReason) panel.refuse(reason);
      consentReason = undefined;
    },
  });
  const filled: FillRecord[] = fillControls(agentSteps);
  /** Takes the proposal back before it showed: the person's values again, the guard off. */
  const withdrawUnshown = (reason: string): string => {
    restoreControls(filled);
    void guard.disarm();
    return `cannot fill form #${id} for ${spec.name}: ${reason}; nothing was left filled`;
  };
  // The panel lists the plan; it may only be shown when the form holds exactly that.
  const [unheld] = unheldSteps(agentSteps);
  if (unheld) return withdrawUnshown(`${unheld.step.key}: the page changed the value to ${JSON.stringify(unheld.held)} as it was filled, so the form would not send ${JSON.stringify(unheld.step.next)}`);
  const controls = readSendControls(form);
  if ('reason' in controls) return withdrawUnshown(controls.reason);
  sendControls = controls;
  const optsOut = callBuiltIn<string | null>(form, 'getAttribute', NATIVE_SUBMIT_ATTRIBUTE) === 'native';
  const request = describeDestination(controls.destination, config.origin);
  // Livewire's wire:submit: the site's script posts the form its own way; the panel names no
  // native destination (the browser would not use it) but who sends it.
  const siteSends = isSentBySiteScript(form);
  const sending = siteSends ? { sender: text.confirmSentBySiteScript } : { request };
  const wordsFor = () => panelWords(text, fillPlaceholders(text.confirmSendHint, { button: controls.label }));
  const readItems = () => readProposalItems(plan.steps, plan.proposed, { yes: text.confirmYes, no: text.confirmNo });
  // The form's whole data set as the named button would send it, read without `formdata`.
  const readSnapshot = () => readEntryList(form, controls.named);
  const first = readSnapshot();
  if ('reason' in first) return withdrawUnshown(first.reason);
  // What the panel shows now (the planned values, and every entry that is sent); a submit is
  // refused when the form no longer holds it, and what is sent is `snapshot`.
  let shown: ProposalItem[] = readItems();
  let snapshot: FormEntry[] = first.entries;
  // The kind (entry-kind.ts) only chooses the words the panel names an entry with.
  const alsoSent = () => snapshot.filter((entry) => !planned.has(entry.control) && !entry.point)
    .map((entry) => ({ label: entry.name, value: typeof entry.value === 'string' ? entry.value : `📎 ${entry.value.name}`, kind: readEntryKind(entry) }));
  let filling = false;
  const notice = write.replaced ? { notice: text.confirmReplaced } : {};
  const handlers = {
    onCancel: () => write.end('cancelled'),
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
  const show = () => {
    // Read again with every showing: the person's own edits are what the panel then shows.
    const now = readSnapshot();
    if (!('reason' in now)) snapshot = now.entries;
    return panel.present({ mode: 'form', words: wordsFor(), formName: readFormName(form), ...sending, items: shown, also: alsoSent(), ...notice }, handlers)
      // A panel that cannot show the proposal must not leave the form filled until expiry.
      .then((shownOK) => { if (!shownOK) write.end('aborted'); });
  };
  // The person edits the form (or the page's script does, with events): the panel follows,
  // and its input protection starts over.
  const onEdit = () => {
    if (filling) return;
    const now = readItems();
    const entries = readSnapshot();
    if (isSameItems(now, shown) && !('reason' in entries) && readEntryChanges(snapshot, entries.entries) === undefined) return;
    shown = now;
    void show();
  };
  /**
   * Why a submit with `submitter` would not send what the panel shows (the planned controls, found
   * by name, wire:model or id, or the form's data set changed since it showed), or undefined. A
   * change refuses, and the panel shows what the form holds now, with the reason.
   */
  const readDataRefusal = (submitter: Element | null): string | undefined => {
    const items = readItems();
    const direct = readEntryList(form, submitter);
    const changed = 'reason' in direct ? direct.reason : readEntryChanges(snapshot, direct.entries);
    if (changed === undefined && isSameItems(items, shown)) return undefined;
    const labels = items.filter((item, index) => !isSameItems([item], [shown[index]!])).map((item) => item.label).join(', ');
    shown = items;
    const reason = fillPlaceholders(text.confirmReasonDataChanged, { changes: changed ?? labels });
    // After the new proposal is on the panel: presenting clears an earlier refusal.
    void show().then(() => panel.refuse(reason));
    return reason;
  };
  dataRefusal = readDataRefusal;
  /**
   * A native send at the last listener of the person's submit event: why it may not go out (its
   * control or destination changed, another origin, or the entries differ from the panel's), or
   * undefined.
   */
  const lastChange = (submitter: Element | null): string | undefined => {
    const own = controlRefusal(submitter);
    if (own) return own;
    const { origin } = parseURL(readDestination(form, submitter).action);
    if (origin !== config.origin) return `the form now sends to ${origin}, not this site; nothing was sent`;
    return readDataRefusal(submitter);
  };
  /**
   * A native send at its navigation (the Navigation API's `navigate` event, after the form's
   * `formdata` listeners ran): why what the browser requests is not what the panel showed (another
   * URL or method, or other entries), or undefined.
   */
  const navigationChange = (navigate: NavigateEvent): string | undefined => {
    const shownDestination = controls.destination;
    const post = shownDestination.method === 'post';
    const url = parseURL(navigate.destination.url);
    const expected = parseURL(shownDestination.action);
    const samePlace = post ? url.href === expected.href : url.href.split(/[?#]/)[0] === expected.href.split(/[?#]/)[0];
    const { formData } = navigate;
    // A POST the browser sends as text/plain may come without formData; a GET never has it.
    if (!samePlace || (!post && formData !== null)) {
      const where = url.origin === config.origin ? url.rest : url.href;
      return `the browser was about to send the form ${formData !== null ? 'POST' : 'GET'} ${where.split('?')[0]} instead of ${request}; nothing was sent`;
    }
    const entries = formData !== null
      ? [...formData]
      : snapshot.some((entry) => typeof entry.value !== 'string') ? undefined : [...new primitives.URLSearchParams(new primitives.URL(url.href).search)];
    const changes = entries && readEntryChanges(snapshot, entries);
    return changes ? fillPlaceholders(text.confirmReasonDataRewritten, { changes }) : undefined;
  };
  const inputs = plan.steps.map(({ key, control }) => ({ key, control }));
  let stopWatching = (): void => undefined;
  // The page may take the form out (a redraw puts a new one, or none, in its place): this
  // proposal then ends and says so (form-redraw.ts); a new call fills the new form.
  const stopWatchingForm = watchFormLeaving(form, () => write.end('aborted', undefined, formRedrawnReason(id)));
  const stopFollowing = () => {
    stopWatching();
    stopWatchingForm();
    primitives.removeEventListener(form, 'input', onEdit, true);
    primitives.removeEventListener(form, 'change', onEdit, true);
  };
  write.open((why) => {
    stopFollowing();
    // Also when the page is left: the back/forward cache, or the browser's form state restore on
    // a history navigation, would otherwise bring the agent's values back with no guard or panel.
    // The guard stays armed while restoring: a site's change handler may try to submit.
    restoreControls(filled);
    panel.close(why === 'cancelled' ? 'cancelled' : 'withdrawn');
    void guard.disarm();
  });
  void show();
  panel.trackControls(controls.controls);
  // Past DOM clobbering: a control named "scrollIntoView" or "addEventListener" shadows these
  // (the listeners by the realm's own addEventListener, taken at start).
  callBuiltIn(form, 'scrollIntoView', { block: 'nearest' });
  // Then the panel stands beside (or above or below) the controls it lists, not on them.
  panel.placeBeside([...planned]);
  primitives.addEventListener(form, 'input', onEdit, true);
  primitives.addEventListener(form, 'change', onEdit, true);
  // The guard already refused (and the panel showed why) any submit the consent check refused.
  stopWatching = guard.connect((event) => {
    // Runs inside the person's submit event: what happens to it is decided now.
    if (event.defaultPrevented) return sentBySiteScript(write, panel, stopFollowing, guard, () => watchSiteRedraw(form, inputs, (seen) => write.siteShowed(seen)));
    const { submitter } = event;
    if (siteSends) {
      // The panel said the site's script sends it, and it did not take the submit: the browser
      // would send it natively, to a destination the panel did not show.
      primitives.preventDefault(event);
      refuse(fillPlaceholders(text.confirmReasonSiteScriptIdle, { request }));
      return;
    }
    // Again after the page's own handlers ran: one may have changed the button during the event.
    const own = controlRefusal(submitter);
    if (own) {
      primitives.preventDefault(event);
      refuse(own);
      return;
    }
    // Also for a native send: the agent's values go only to this origin, whatever the page did
    // to the form or its button before the panel first showed (the panel names the origin).
    const { origin } = parseURL(controls.destination.action);
    if (origin !== config.origin) {
      primitives.preventDefault(event);
      refuse(`the form now sends to ${origin}, not this site; nothing was sent`);
      return;
    }
    // Again after the page's own handlers ran (they may have changed a control during the event).
    const changed = readDataRefusal(submitter);
    if (changed) {
      // Sent would be what the panel did not show: refused, and the panel shows it now.
      primitives.preventDefault(event);
      write.refused(changed);
      return;
    }
    // Built once, now, only to see what the page's `formdata` listeners make of it: a rewrite is
    // refused. What is sent is the snapshot; a native send builds its own once more, where a
    // listener could still act (docs/writes-and-consent.md).
    let built: FormData | undefined;
    let rewritten: string | undefined;
    try {
      built = new primitives.FormData(form, submitter);
      rewritten = readEntryChanges(snapshot, built);
    } catch (error) {
      rewritten = `its data could not be read: ${errorMessage(error)}`;
    }
    if (rewritten) {
      primitives.preventDefault(event);
      refuse(fillPlaceholders(text.confirmReasonDataRewritten, { changes: rewritten }));
      return;
    }
    const sent = optsOut ? undefined : toFormRequest(controls.destination, toSentEntries(snapshot, built));
    const { method } = controls.destination;
    if (!sent) {
      // The browser submits natively and navigates: checked once more after every page handler
      // of the event, and at the navigation itself (submit-guard.ts, letThrough).
      guard.letThrough({
        navigates: method !== 'dialog',
        check: (navigate) => (navigate ? navigationChange(navigate) : lastChange(submitter)),
        sent: () => {
          // Its outcome (`submitted`) is kept for the next page of this tab first (tab-writes.ts;
          // a GET's address holds the values: no query kept); the page (and this record) goes.
          if (write.live && method !== 'dialog') keepForNextPage(config, { ...write.record, status: 'submitted' }, { withQuery: method !== 'get' });
          sentNatively(write, panel, stopFollowing, guard);
        },
      });
      return;
    }
    primitives.preventDefault(event);
    if (!write.send()) return;
    stopFollowing();
    void sendPersonSubmit(spec, config, text, panel, sent, write).finally(() => guard.disarm());
  });
  return undefined;
}

/** The person's submit went out natively (`data-capell-submit="native"`): the browser sends it and navigates. */
function sentNatively(write: PendingWrite, panel: Panel, stopFollowing: () => void, guard: SubmitGuard): void {
  if (!write.send()) return;
  stopFollowing();
  panel.close('sent');
  write.submitted();
  // Within this task the guard still lets the person's own native submit through.
  void guard.disarm();
}

/**
 * The site's own script took the person's submit (it prevented the native submission and sends
 * the form its own way): recorded as `submitted` with `sentBy: 'site'`, and what the site draws
 * next is watched for (`watch`: site-redraw.ts), which the call answers with once seen, within
 * SITE_ANSWER_WAIT_MS.
 */
function sentBySiteScript(write: PendingWrite, panel: Panel, stopFollowing: () => void, guard: SubmitGuard, watch: () => void): void {
  if (!write.send()) return;
  stopFollowing();
  panel.close('sent');
  write.submittedBySite(SITE_ANSWER_WAIT_MS);
  watch();
  void guard.disarm();
}

/** Sends the person's submit with fetch and records how the site answered. */
async function sendPersonSubmit(
  spec: ToolSpec, config: RuntimeConfig, text: ConfirmText, panel: Panel,
  request: { url: URL; init: RequestInit }, write: PendingWrite,
): Promise<void> {
  const doc = config.document;
  const sent = await sendFormRequest(request, config.timeoutMs);
  if (!sent.ok) {
    void panel.showOutcome(sent.reason);
    write.failed(`${spec.name}: ${sent.reason}`);
    return;
  }
  const accepted = sent.httpStatus >= 200 && sent.httpStatus < 300;
  void panel.showOutcome(accepted ? text.confirmSent : fillPlaceholders(text.confirmFailed, { status: String(sent.httpStatus) }));
  // The site refused the person's session: the agent must not read that as "submitted".
  const expired = sessionExpiredReason(sent.httpStatus, `${request.url.pathname}${request.url.search}`);
  if (expired) {
    write.failed(`${spec.name}: ${expired}`, sent.httpStatus);
    return;
  }
  if (accepted && sent.redirected && parseURL(sent.url).origin === config.origin) {
    // Show the person the page the site sent them to, as a native submit would; a moment after
    // the result is handed back: the browser delivers it to the agent in tasks of its own, and a
    // document that is already unloading would lose it.
    // The record goes with the tab to that page (tab-writes.ts), kept just before leaving.
    primitives.setTimeout(() => {
      keepForNextPage(config, write.record, { navigatedTo: sent.url });
      (doc.defaultView ?? window).location.assign(sent.url);
    }, NAVIGATE_AFTER_RESULT_MS);
  }
  // Any other status goes back as submitted with httpStatus: the request was sent, and the agent
  // reads the status (a 422 means the site refused a field).
  write.submitted({ httpStatus: sent.httpStatus, answer: sent.answer, answerNote: sent.answerNote });
}

/**
 * Why the agent's input cannot be filled into a form as it is: a string (or a string of an array)
 * holding a bidi control (UAX #9 Bidi_Control: U+061C, U+200E/F, U+202A–E, U+2066–9), which makes
 * the page's control draw the value in another order than it is sent ("bob@\u202Emoc.knab" drawn
 * "bob@bank.com"; "refund \u202E0005" drawn "refund 5000"). Other invisible characters are filled:
 * the panel shows each of them (panel/capell-confirm-write.ts). @returns e.g. `field “email”: its
 * value holds U+202E, a character that changes the order in which text is drawn, so the form would
 * draw it otherwise than it is sent; nothing was filled`, or undefined.
 */
function bidiControlReason(input: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(input)) {
    const strings = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    for (const string of strings) {
      const found = firstBidiControl(string);
      if (found) return `field “${markInvisible(key)}”: its value holds ${found}, a character that changes the order in which text is drawn, so the form would draw it otherwise than it is sent; nothing was filled`;
    }
  }
  return undefined;
}

/** A control as the person reads it, for a reason: `the field “Search the shop”` (its label, aria-label, placeholder or name), or `a field with no name`. */
function describeField(field: EventTarget | null): string {
  if (!(field instanceof HTMLElement)) return 'a field with no name';
  const control = field as HTMLInputElement;
  const label = control.labels?.[0]?.innerText ?? '';
  const name = [label, callBuiltIn<string | null>(field, 'getAttribute', 'aria-label') ?? '', callBuiltIn<string | null>(field, 'getAttribute', 'placeholder') ?? '', callBuiltIn<string | null>(field, 'getAttribute', 'name') ?? '']
    .map((text) => text.replace(/\s+/g, ' ').trim()).find(Boolean);
  return name ? `the field “${markInvisible(name)}”` : 'a field with no name';
}
