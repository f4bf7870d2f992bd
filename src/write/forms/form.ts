/**
 * `form` binding, effect write: the agent fills a public form; a person checks it on the panel
 * and sends it with the panel's own Send, or cancels. Send submits the form through its named
 * submit control (`requestSubmit`), so the site's own handling runs as for a click on it; the
 * runtime never submits, clicks or sends without the person's click on Send, and no page
 * control sends the form while the proposal is open.
 * Capell Agent Schema, "Navigation, forms, and admin tools": "Write tools use existing public
 * forms and the browser's user-mediation flow. They must declare effect: write; Core does not
 * auto-submit them."
 */
import type { RuntimeConfig } from '../../start/config.js';
import type { ToolSpec } from '../../shared/declarations/tool-spec.js';
import { planFill, type FillStep } from './controls.js';
import { announceValue, fillControls, restoreControls, unheldSteps, type FillRecord } from './fill.js';
import { readFormOptOutReason } from './form-opt-out.js';
import { readFormProperty } from './form-property.js';
import { nativeFormToolReason } from '../../shared/registration-rules.js';
import { callBuiltIn } from '../../start/dom-builtin.js';
import { isSameItems, readFormName, readPersonKeys, readProposalItems, withSentEntries, type ProposalItem } from './proposal-items.js';
import { readChangedNames, readEntryChanges, readEntryList, toSentEntries, type FormEntry } from './entry-list.js';
import { readEntryKind } from './entry-kind.js';
import { sendFormRequest, toFormRequest } from './send-form.js';
import { describeDestination, readDestination, readSendControls } from './send-controls.js';
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
 * value), reads the form's send control once (send-controls.ts: the submit control the panel's
 * Send submits through, and where the proposal goes) and its whole data set (entry-list.ts: every
 * entry, read without `formdata`), and shows the panel (top layer, naming the form, which is
 * scrolled into view, listing every entry by the name it is sent under and its value as sent:
 * the agent's values, then what is "sent with it"). The panel follows the person's own edits
 * (trusted `input`/`change` events); nothing else re-reads the form silently: a change by the
 * page (a value, a name, a control's form owner, `dirname`, an option's or checkbox's value, an
 * added entry) is found at Send, refuses that Send and is marked on the panel as a change (so is
 * any other change found at a person's edit). A click or Enter on the page sends nothing while
 * the proposal is open (submit-guard.ts), whatever the control draws, and the panel says why.
 * The person's click on Send counts when it passes the panel's consent check (visible,
 * unoccluded, still for INPUT_PROTECTION_MS, read to the end) and the form holds what the panel
 * shows; the form's data set is compared again after the page's handlers of the submit event
 * and as the page's `formdata` listeners leave it; otherwise that submit is prevented, the panel
 * says why (one line naming what changed; the write's record keeps it as `refused`) and the
 * proposal stays open. What is sent is the data set the panel showed, to the destination it
 * showed.
 * Resolves (never throws) within `writeWaitMs` (write/write-answers.ts for the shapes):
 * - `{ status: 'submitted', httpStatus, answer? }` once the person's Send was sent by
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
  /** Every refusal of the person's act: shown on the panel, and kept for the agent's answer. */
  const refuse = (reason: string) => {
    write.refused(reason);
    panel.refuse(reason);
  };
  // The controls the panel lists (the proposal's fields); the other entries are "sent with it".
  const planned = new Set<Element>(plan.steps.map((step) => step.control));
  // Armed before the first fill: a page's submit-on-change handler fires on the fill's own events.
  // Only the panel's Send submits the form (guard.send); the person's own click on a page control
  // or Enter in a field is refused with a reason the panel shows; a script's submit is blocked.
  const guard: SubmitGuard = armSubmitGuard(form, {
    // Judged in the runtime's window capture listener, added when it started: ahead of the page's later ones.
    front: submitFrontOf(config),
    pageActReason: (kind) => (kind === 'enter' ? text.confirmReasonPageEnter : text.confirmReasonPageControl),
    onRefusedSubmit: refuse,
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
  // Read once, when the proposal first shows: the control the panel's Send submits through.
  const controls = readSendControls(form);
  const optsOut = callBuiltIn<string | null>(form, 'getAttribute', NATIVE_SUBMIT_ATTRIBUTE) === 'native';
  const request = describeDestination(controls.destination, config.origin);
  // Livewire's wire:submit: the site's script posts the form its own way; the panel names no
  // native destination (the browser would not use it) but who sends it.
  const siteSends = isSentBySiteScript(form);
  const sending = siteSends ? { sender: text.confirmSentBySiteScript } : { request };
  const words = panelWords(text, text.confirmSendHint);
  // The form's whole data set as the named control would send it, read without `formdata`.
  const readSnapshot = () => readEntryList(form, controls.named);
  const first = readSnapshot();
  if ('reason' in first) return withdrawUnshown(first.reason);
  // What the panel shows: `snapshot`, the form's data set (and what is sent), and `shown`, the
  // planned values with the names and values they are sent as. Neither is ever read again
  // silently: a person's own edit is followed (onEdit); any other change is marked on the panel
  // as a change (changedNames, changedKeys, removedNames) and refuses the Send that finds it.
  let snapshot: FormEntry[] = first.entries;
  const readItems = (entries: readonly FormEntry[]) => withSentEntries(readProposalItems(plan.steps, plan.proposed, { yes: text.confirmYes, no: text.confirmNo }), plan.steps, entries);
  let shown: ProposalItem[] = readItems(snapshot);
  const changedNames = new Set<string>();
  const removedNames = new Set<string>();
  const changedKeys = new Set<string>();
  // The controls a script of the page dispatched `input`/`change` on since the panel showed.
  const pageAnnounced = new Set<Element>();
  /** Marks what differs between `snapshot` and `entries` (and between `shown` and `items`) as changed by the page, except the change of `own` (controls the person changed). */
  const markChanges = (entries: readonly FormEntry[], items: readonly ProposalItem[], own: ReadonlySet<Element> = new Set()): void => {
    const { changed, removed } = readChangedNames(snapshot, entries, own);
    for (const name of changed) {
      changedNames.add(name);
      removedNames.delete(name);
    }
    for (const name of removed) removedNames.add(name);
    const ownKeys = new Set(plan.steps.filter((step) => own.has(step.control)).map((step) => step.key));
    for (const [index, item] of items.entries()) {
      if (!ownKeys.has(item.key) && !isSameItems([item], [shown[index]!])) changedKeys.add(item.key);
    }
  };
  // The kind (entry-kind.ts) only chooses the words the panel names an entry with.
  const alsoSent = () => snapshot.filter((entry) => !planned.has(entry.control) && !entry.point)
    .map((entry) => ({ label: entry.name, value: typeof entry.value === 'string' ? entry.value : `📎 ${entry.value.name}`, kind: readEntryKind(entry), ...(changedNames.has(entry.name) ? { changed: true } : {}) }));
  const itemsShown = () => shown.map((item) => (changedKeys.has(item.key) || item.names?.some((name) => changedNames.has(name) || removedNames.has(name)) ? { ...item, changed: true } : item));
  let filling = false;
  const notice = write.replaced ? { notice: text.confirmReplaced } : {};
  /**
   * Why the form would not send what the panel shows now (the planned controls, found by name,
   * wire:model or id, or the form's data set changed since it showed), or undefined. A change
   * refuses: the panel then shows what the form holds now, with each change marked.
   */
  const readDataRefusal = (): string | undefined => {
    const direct = readEntryList(form, controls.named);
    if ('reason' in direct) {
      const unreadable = `${direct.reason}; nothing was sent`;
      panel.refuse(unreadable);
      return unreadable;
    }
    const items = readItems(direct.entries);
    const changed = readEntryChanges(snapshot, direct.entries);
    if (changed === undefined && isSameItems(items, shown)) return undefined;
    const labels = items.filter((item, index) => !isSameItems([item], [shown[index]!])).map((item) => item.label).join(', ');
    markChanges(direct.entries, items);
    snapshot = direct.entries;
    shown = items;
    const reason = fillPlaceholders(text.confirmReasonDataChanged, { changes: changed ?? labels });
    // After the new proposal is on the panel: presenting clears an earlier refusal.
    void show().then(() => panel.refuse(reason));
    return reason;
  };
  /**
   * On a form the site's own script sends: the fields a script of the page dispatched
   * `input`/`change` on since the panel showed (the site's script took those into its own state,
   * which the controls may no longer show: a value set, announced, then put back). Their values
   * are announced again, as a fill does, so that its state holds what the controls (and the
   * panel) show, and they are marked as changed. @returns their labels and names, or undefined
   * when there are none.
   */
  const takeAnnounced = (): string | undefined => {
    const touched = [...pageAnnounced].filter((control) => control.isConnected);
    pageAnnounced.clear();
    if (touched.length === 0) return undefined;
    filling = true;
    try {
      for (const control of touched) announceValue(control);
    } finally {
      filling = false;
    }
    const keys = plan.steps.filter((step) => touched.includes(step.control)).map((step) => step.key);
    for (const key of keys) changedKeys.add(key);
    const names = [...new Set(snapshot.filter((entry) => touched.includes(entry.control)).map((entry) => entry.name))];
    for (const name of names) changedNames.add(name);
    return [...new Set([...shown.filter((item) => keys.includes(item.key)).map((item) => item.label), ...names])].join(', ') || 'a field';
  };
  const handlers = {
    onCancel: () => write.end('cancelled'),
    // The panel accepted the person's click on its Send (trusted, visible, still, read to the end).
    onSend: () => {
      // First what a page script announced to the site's own script (marked before the panel
      // shows the form again), then whether the form still holds what the panel shows.
      const announced = siteSends ? takeAnnounced() : undefined;
      const changed = readDataRefusal();
      if (changed) {
        write.refused(changed);
        return;
      }
      if (announced) {
        const reason = fillPlaceholders(text.confirmReasonDataChanged, { changes: `a script of the page announced ${announced} to this site’s own page script` });
        void show().then(() => panel.refuse(reason));
        write.refused(reason);
        return;
      }
      // The form's own submit, through the control the panel's Send stands for: the browser's
      // validation and the site's own handlers run as for a click on it; guard.connect decides.
      const notSent = guard.send(controls.named);
      if (notSent) refuse(notSent);
    },
    onUseAgentValue: (index: number) => {
      const key = plan.proposed[index]?.key;
      const steps = plan.steps.filter((step) => step.key === key);
      filling = true;
      try {
        filled.push(...fillControls(steps));
      } finally {
        filling = false;
      }
      // The person's own change (these controls); anything else that differs is marked.
      const now = readSnapshot();
      const entries = 'reason' in now ? snapshot : now.entries;
      const items = readItems(entries);
      markChanges(entries, items, new Set(steps.map((step) => step.control)));
      snapshot = entries;
      shown = items;
      void show();
    },
  };
  const show = () => panel.present({ mode: 'form', words, formName: readFormName(form), ...sending, items: itemsShown(), also: alsoSent(), removed: [...removedNames], ...notice }, handlers)
    // A panel that cannot show the proposal must not leave the form filled until expiry.
    .then((shownOK) => { if (!shownOK) write.end('aborted'); });
  // The person edits the form: the panel follows, and its input protection starts over. Only
  // the person's own (trusted) edits: an `input` event a page script dispatches re-reads
  // nothing (a change it made is found at Send, refused and marked). What else differs at a
  // person's edit than that control's own value is marked as a change too.
  const onEdit = (event: Event) => {
    if (filling) return;
    if (!event.isTrusted) {
      // Not re-read: a change it carries is found at Send. Where the site's own script sends, it
      // takes such events into its state: noted, and Send says so first (takeAnnounced).
      const target = primitives.target(event);
      if (target instanceof Element && target !== form) pageAnnounced.add(target);
      return;
    }
    const now = readSnapshot();
    if ('reason' in now) return;
    const items = readItems(now.entries);
    if (isSameItems(items, shown) && readEntryChanges(snapshot, now.entries) === undefined) return;
    markChanges(now.entries, items, editedControls(form, primitives.target(event)));
    snapshot = now.entries;
    shown = items;
    void show();
  };
  /**
   * A native send at the last listener of the panel's submit event: why it may not go out (its
   * control or destination changed, another origin, or the entries differ from the panel's), or
   * undefined.
   */
  const lastChange = (submitter: Element | null): string | undefined => {
    const own = controls.refusalFor(submitter);
    if (own) return own;
    const { origin } = parseURL(readDestination(form, submitter).action);
    if (origin !== config.origin) return `the form now sends to ${origin}, not this site; nothing was sent`;
    return readDataRefusal();
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
  // Past DOM clobbering: a control named "scrollIntoView" or "addEventListener" shadows these
  // (the listeners by the realm's own addEventListener, taken at start).
  callBuiltIn(form, 'scrollIntoView', { block: 'nearest' });
  // Then the panel stands beside (or above or below) the controls it lists, not on them.
  panel.placeBeside([...planned]);
  primitives.addEventListener(form, 'input', onEdit, true);
  primitives.addEventListener(form, 'change', onEdit, true);
  // Only the submit of the panel's Send reaches here (the guard refused every other one).
  stopWatching = guard.connect((event) => {
    // Runs inside the panel's submit event, after the page's handlers: what happens to it is decided now.
    if (event.defaultPrevented) return sentBySiteScript(write, panel, stopFollowing, guard, () => watchSiteRedraw(form, inputs, (seen) => write.siteShowed(seen)));
    const { submitter } = event;
    if (siteSends) {
      // The panel said the site's script sends it, and it did not take the submit: the browser
      // would send it natively, to a destination the panel did not show.
      primitives.preventDefault(event);
      refuse(fillPlaceholders(text.confirmReasonSiteScriptIdle, { request }));
      return;
    }
    // After the page's own handlers ran: one may have changed the control during the event.
    const own = controls.refusalFor(submitter);
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
    const changed = readDataRefusal();
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

/**
 * The controls a person's edit of `target` changes: the control itself, and for a radio button
 * every radio of its group in `form` (checking one unchecks the other).
 */
function editedControls(form: HTMLFormElement, target: EventTarget | null): Set<Element> {
  if (!(target instanceof Element)) return new Set();
  if (!(target instanceof HTMLInputElement) || target.type !== 'radio' || target.name === '') return new Set([target]);
  const group = [...readFormProperty(form, 'elements')].filter((element) => element instanceof HTMLInputElement && element.type === 'radio' && element.name === target.name);
  return new Set([target, ...group]);
}
