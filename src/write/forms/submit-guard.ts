/**
 * The submit guard: while the runtime fills a form, has a proposal open, or puts the person's
 * values back, no submission of that form leaves the page except the one the panel's own Send
 * makes (`send`: the person's click on Send, checked by the panel, submits the form through its
 * named submit control). Armed before the first fill, disarmed one macrotask after the last
 * restore, so the `input`/`change` events of the fill and the restore (which a site's "submit on
 * change" handler turns into `requestSubmit()`) can never send.
 *
 * Capell Agent Schema, "Navigation, forms, and admin tools": write tools use "the browser's
 * user-mediation flow"; "Core does not auto-submit them".
 *
 * Its listeners are added, its events read (`target`, `key`, `detail`) and prevented, nodes
 * compared (`contains`) and the form submitted (`requestSubmit`) with the built-ins taken at
 * start (primitives.ts): a page that replaces `addEventListener`, `preventDefault`, an event
 * getter, `Node.prototype.contains` or `requestSubmit` afterwards changes none of what follows.
 *
 * Paths, and how each is closed while armed:
 * - a `submit` event (the person's click on a page control or Enter in a field, whatever the
 *   control draws; `requestSubmit()`, a script's `button.click()`, a dispatched `SubmitEvent`):
 *   judged on the window in the capture phase, before any handler of the page below the window
 *   can stop it (and, given the runtime's front, start/submit-front.ts, before every window
 *   capture listener the page added after the runtime started); anything but the submit that
 *   `send` makes is `preventDefault()`ed and stopped there, so the browser's native submission
 *   never happens and no site script sees it; a person's own click or Enter on the page is told
 *   why (`pageActReason`: only the panel's Send sends);
 * - `form.submit()` and `HTMLFormElement.prototype.submit.call(form)` (no submit event): the
 *   prototype's `submit` of the form's realm is replaced while at least one form of that realm
 *   is armed (reference counted, the original descriptor put back exactly); a call for an armed
 *   form does nothing and is reported, unless a handler of the panel's own submit makes it;
 * - the backstop, for whatever reached the browser's submission anyway (a window capture
 *   listener of the page that stopped the event before the guard's, an original `submit` kept by
 *   a page script or taken from another realm): the Navigation API's `navigate` event of a
 *   submission of this form is cancelled (`preventDefault()`), unless it is the panel's own
 *   native submit that the caller let through.
 * - `HTMLFormElement.prototype.submit` of another realm (a same-origin frame's, called on this
 *   form after pointing its `target` at that frame, whose navigation this window's backstop
 *   does not see): every same-origin child frame reachable through `window.frames` at arming is
 *   patched the same way, and so are frames added (or loaded) while armed, found by a
 *   MutationObserver and a capturing `load` listener; all are put back exactly at disarm;
 * - a `target`/`<base target>`/`formtarget` that points elsewhere (readUnguardableReason) is
 *   checked again whenever a submission is judged: while it does, every submission of the form
 *   is blocked, the panel's own included (reported through `onRefusedSubmit`).
 * The panel's submit goes through as the caller decides (fetch by the runtime, the browser's
 * native submission, or the site's own handler); once the site's handler has taken it over, the
 * guard stands down so the site can finish sending it its own way.
 * Not closed (docs/security.md, "What a write cannot stop"): a site's own `submit` handler that prevents default and
 * sends the data with `fetch`/XHR runs for every submit event; any page script can read the
 * filled controls and send them itself. The guard covers the browser's submission paths; of
 * those, what remains open is a hostile script of this page that registered a window capture
 * `submit` listener before the runtime, stops the event there (so the guard never judges it)
 * and has pointed the form's `target` at a frame (whose navigation this window does not see);
 * and a frame's realm used in the same task that created the frame, before the observer runs.
 * Such a script could as well read the filled controls and `fetch` them: that class is the
 * site's own code, not a path the browser takes on its own.
 */
import { callBuiltIn } from '../../start/dom-builtin.js';
import { primitives } from '../../start/primitives.js';
import { errorMessage } from '../../shared/error-message.js';
import { readFormProperty } from './form-property.js';
import type { SubmitFront } from '../../start/submit-front.js';

/**
 * The person's last click or Enter on the page, kept only until the task that carried it ends
 * (or their next key press or release, whichever comes first):
 * a submit it made is refused with a reason the person is shown (a script's is just blocked).
 */
interface Gesture {
  kind: 'click' | 'enter';
  target: EventTarget | null;
}

/** How a blocked submission tried to leave. */
type BlockedSubmitWay = 'submit-event' | 'form.submit()' | 'navigation';

/** One submission the guard stopped, with a one-line reason. */
interface BlockedSubmit {
  way: BlockedSubmitWay;
  reason: string;
}

/**
 * What the caller adds to the guard.
 * - `pageActReason(kind)`: the one-line reason the person is shown when their own click on a
 *   page control (`'click'`) or Enter in a field (`'enter'`) submitted the form while it is
 *   held: only the panel's Send sends.
 * - `onRefusedSubmit(reason)`: the person's act was refused (a page control or Enter; the
 *   form's target pointed elsewhere since arming; the page stopped the panel's submit event
 *   before the guard could send it; a last check of a native send); show the reason (one line).
 * - `onBlockedSubmit(blocked)`: a submission that was not the person's was stopped.
 */
interface SubmitGuardOptions {
  /**
   * The runtime's window capture listener for `submit`, added when it started (start/submit-front.ts):
   * the guard judges submits there, ahead of every window capture listener the page added since.
   * Without it the guard adds its own window capture listener when armed.
   */
  front?: SubmitFront;
  pageActReason?: (kind: Gesture['kind']) => string;
  onRefusedSubmit?: (reason: string) => void;
  onBlockedSubmit?: (blocked: BlockedSubmit) => void;
}

/**
 * A native send the caller let through (SubmitGuard.letThrough): `check(navigate?)` says why it
 * must not go out now (undefined: it may), `sent` records that it went out, `navigates` whether
 * the browser navigates for it (not for `method="dialog"`).
 */
export interface NativeSend {
  check(navigate?: NavigateEvent): string | undefined;
  sent(): void;
  navigates: boolean;
}

/** One armed guard over one form. */
export interface SubmitGuard {
  readonly form: HTMLFormElement;
  /**
   * Whether the guard still blocks: true from arming until the grace after `disarm()` ends, or
   * until the site's own handler took over the person's submit.
   */
  readonly armed: boolean;
  /** Every submission stopped so far, oldest first. */
  readonly blocked: readonly BlockedSubmit[];
  /**
   * Submits the form through `submitter` (`requestSubmit`, so the browser's own validation and
   * the site's own submit handlers run as for a click on it), as the panel's Send: the one
   * submit the guard lets through to `onUserSubmit`. Call it only from the person's click on
   * Send that the panel accepted.
   * @returns undefined once the form's submit event was dispatched (what became of it is
   *   `onUserSubmit`'s); else a one-line reason why the browser did not submit it (a field it
   *   finds invalid, named with the browser's own message; the form left the page; `submitter`
   *   is no longer a submit control of the form).
   */
  send(submitter: HTMLButtonElement | HTMLInputElement | null): string | undefined;
  /**
   * Connects the panel's submit to `onUserSubmit`, called synchronously inside the submit
   * event (window, bubble phase, after the site's own handlers), so the caller may still
   * `preventDefault()` and read the form data; `event.defaultPrevented` says whether the site's
   * own handler took the submit over. When the page stopped the event's propagation, the call
   * comes one macrotask later, only if the site prevented default (it sent the form itself).
   * If the caller leaves the default alone, the browser's native submission goes out and the
   * guard lets its navigation through. When the site's own handler took the person's submit
   * over (its default was prevented before the call), the guard stands down at once: the site
   * may go on to send it with `form.submit()` or `requestSubmit()` (after an async check); a
   * `form.submit()` from a handler of the person's submit event itself also goes through. A
   * person's submit while nothing is connected is blocked.
   * One connection at a time (a new one replaces the old).
   * @returns a function that disconnects (idempotent); the guard stays armed.
   */
  connect(onUserSubmit: (event: SubmitEvent) => void): () => void;
  /**
   * Called by `onUserSubmit` when it leaves the person's submit to the browser (a native send):
   * `check` is asked again at the last moments the runtime sees the submission, after every
   * page handler that could still change it: by a window bubble listener added in the capture
   * phase of this very submit (the last listener of the event: one the page adds later, or during
   * the event, never runs for it), without a NavigateEvent; and, where the browser has the
   * Navigation API and `navigates`, at the `navigate` event of the submission, with it (what the
   * browser really requests: after the form's `formdata` listeners). A reason cancels the
   * submission (the event's default, or the navigation) and goes to `onRefusedSubmit`; `sent`
   * runs once, after the last check passed. Nothing else runs in between.
   */
  letThrough(native: NativeSend): void;
  /**
   * Stops guarding after one macrotask of grace (GUARD_GRACE_MS), so that a site handler which
   * defers `requestSubmit()` with `primitives.setTimeout(…, 0)` from the restore's events is still blocked.
   * Idempotent. @returns a promise that resolves once the guard is off.
   */
  disarm(): Promise<void>;
}

/** The grace between `disarm()` and the guard really going off, in ms (one macrotask). */
const GUARD_GRACE_MS = 0;

/** Targets that keep the submission in this browsing context (ASCII case-insensitive). */
function isSelfTarget(target: string | null): boolean {
  const value = (target ?? '').trim().toLowerCase();
  return value === '' || value === '_self';
}

function isSubmitControl(element: Element): element is HTMLButtonElement | HTMLInputElement {
  const type = (element.getAttribute('type') ?? '').toLowerCase();
  if (element.localName === 'button') return type === '' || type === 'submit' || !['button', 'reset', 'menu'].includes(type);
  return element.localName === 'input' && (type === 'submit' || type === 'image');
}

/**
 * Why `form` cannot be guarded, or `undefined`. A submission that goes to another browsing
 * context (a `target` other than empty or `_self` on the form, else the document's
 * `<base target>`, or a `formtarget` on one of its submit controls) navigates a window whose
 * `navigate` event this page does not see, so the backstop could not stop it.
 * @returns e.g. `form #contact submits to target="_blank", another browsing context, where the
 *   runtime cannot hold its submission back; only forms that submit in this page can be filled`.
 */
export function readUnguardableReason(form: HTMLFormElement): string | undefined {
  const doc = form.ownerDocument;
  const id = callBuiltIn<string | null>(form, 'getAttribute', 'id') ?? '';
  const tail = 'another browsing context, where the runtime cannot hold its submission back; only forms that submit in this page can be filled';
  // getAttribute, not form.target: a control named "target" clobbers the property.
  const own = callBuiltIn<string | null>(form, 'getAttribute', 'target');
  const base = doc.querySelector('base[target]')?.getAttribute('target') ?? null;
  if (own !== null ? !isSelfTarget(own) : !isSelfTarget(base)) {
    const where = own !== null ? `target=${JSON.stringify(own)}` : `the page's <base target=${JSON.stringify(base)}>`;
    return `form #${id} submits to ${where}, ${tail}`;
  }
  for (const element of doc.querySelectorAll('[formtarget]')) {
    if (!isSubmitControl(element) || element.form !== form) continue;
    const target = element.getAttribute('formtarget');
    if (!isSelfTarget(target)) return `a submit control of form #${id} has formtarget=${JSON.stringify(target)}, ${tail}`;
  }
  return undefined;
}

/**
 * Why `requestSubmit` dispatched no submit event for `form`: it left the page, or the browser's
 * constraint validation stopped it (the browser shows its own message at the field too).
 * @returns e.g. `the browser finds the field “Email” not valid (Please include an '@' in the
 *   email address.), so it did not submit the form; correct it, then press Send again; nothing
 *   was sent`.
 */
function notSubmittedReason(form: HTMLFormElement): string {
  if (!form.isConnected) return 'the form is no longer on the page; nothing was sent';
  for (const element of readFormProperty(form, 'elements')) {
    const control = element as HTMLInputElement;
    if (typeof control.checkValidity !== 'function' || control.checkValidity()) continue;
    const label = (control.labels?.[0]?.textContent ?? '').replace(/\s+/g, ' ').trim() || control.name || control.localName;
    return `the browser finds the field “${label}” not valid (${control.validationMessage}), so it did not submit the form; correct it, then press Send again; nothing was sent`;
  }
  return 'the browser did not submit the form; nothing was sent';
}

/**
 * How a guard answers a `form.submit()` call for its form: `true` lets it through (it is part of
 * the person's own submit), `false` blocks it (and the guard reports it).
 */
type SubmitCallJudge = () => boolean;

/** Per realm: the armed forms and the prototype patch they share. */
interface RealmPatch {
  proto: HTMLFormElement;
  original: PropertyDescriptor;
  patched: () => void;
  guards: Map<HTMLFormElement, Set<SubmitCallJudge>>;
}

// Keyed by the realm's prototype, not its window: a frame's WindowProxy stays the same object
// when the frame navigates to a new document (and realm).
const realmPatches = new WeakMap<object, RealmPatch>();

/** The `HTMLFormElement.prototype` of `view`'s realm, or undefined (cross-origin, gone). */
function formPrototypeOf(view: Window): HTMLFormElement | undefined {
  try {
    const proto = (view as Window & { HTMLFormElement?: typeof HTMLFormElement }).HTMLFormElement?.prototype;
    return proto && typeof proto === 'object' ? proto : undefined;
  } catch {
    // A cross-origin frame: its realm cannot reach this form's data through our prototype.
    return undefined;
  }
}

/**
 * Registers `form` in the `submit` patch of the realm whose prototype is `proto`, installing the
 * patch for the first form. @returns the release, which puts the original back after the last.
 */
function holdSubmitMethod(proto: HTMLFormElement, form: HTMLFormElement, judge: SubmitCallJudge): () => void {
  let patch = realmPatches.get(proto);
  if (!patch) {
    const original = Object.getOwnPropertyDescriptor(proto, 'submit');
    if (!original || typeof original.value !== 'function') return () => undefined;
    const nativeSubmit = original.value as (this: HTMLFormElement) => void;
    const guards: RealmPatch['guards'] = new Map();
    // A method (not an arrow) so `this` is the form it is called on, as with the original.
    const patched = {
      submit(this: HTMLFormElement): void {
        const judges = [...(guards.get(this) ?? [])];
        // Every guard of the form must let it through (each reports its own block).
        if (judges.map((judgeCall) => judgeCall()).every(Boolean)) return nativeSubmit.call(this);
      },
    }.submit;
    patch = { proto, original, patched, guards };
    realmPatches.set(proto, patch);
    Object.defineProperty(proto, 'submit', { ...original, value: patched });
  }
  const current = patch;
  let judges = current.guards.get(form);
  if (!judges) current.guards.set(form, judges = new Set());
  judges.add(judge);
  return () => {
    const set = current.guards.get(form);
    set?.delete(judge);
    if (set?.size === 0) current.guards.delete(form);
    if (current.guards.size > 0) return;
    realmPatches.delete(current.proto);
    // Put the original back exactly, unless the page replaced the method since (then its own
    // function stays, and ours, if it kept it, passes every call through).
    if (Object.getOwnPropertyDescriptor(current.proto, 'submit')?.value === current.patched) {
      Object.defineProperty(current.proto, 'submit', current.original);
    }
  };
}

/** At most this many frames (at any depth) get their realm's `submit` patched per guard. */
const MAX_GUARDED_FRAMES = 64;

/** Elements whose insertion may add a frame (and with it a realm). */
const FRAME_SELECTOR = 'iframe, frame, object, embed';

/**
 * Arms the guard over `form` (see the module comment for every path it closes and what counts
 * as the person's act). Call it before the first fill; `disarm()` after the last restore.
 * @param form the form the runtime fills; its document's window is guarded, and the realms of
 *   the same-origin frames under that window (MAX_GUARDED_FRAMES at most).
 * @param options the caller's consent check and callbacks (SubmitGuardOptions).
 * @returns the armed SubmitGuard. Never throws.
 */
export function armSubmitGuard(form: HTMLFormElement, options: SubmitGuardOptions = {}): SubmitGuard {
  const doc = form.ownerDocument;
  const view = (doc.defaultView ?? window) as Window;
  const blocked: BlockedSubmit[] = [];
  let gesture: Gesture | undefined;
  let clearing: ReturnType<typeof setTimeout> | undefined;
  let onUserSubmit: ((event: SubmitEvent) => void) | undefined;
  let armed = true;
  let disarming: Promise<void> | undefined;
  // The panel's native submit the caller let through: its navigation is not cancelled.
  let allowedNavigations = 0;
  // The native send the caller let through for the submit being dispatched, until its last check.
  let native: NativeSend | undefined;
  let nativeSubmit: Event | undefined;
  // The panel's submit event while onUserSubmit runs for it (letThrough is about that one).
  let currentSubmit: Event | undefined;
  // What the capture phase decided about each submit event of this form.
  const judged = new WeakMap<Event, { consent: boolean; delivered: boolean }>();
  // True while `send` runs requestSubmit: the submit event dispatched then is the panel's.
  let sending = false;
  // Whether the submit `send` asked for was dispatched (an invalid form or a gone one has none).
  let dispatched = false;
  // True while the panel's submit event is being dispatched: a site handler that took it over
  // (prevented its default) and then submits the form itself (validate, then `form.submit()`)
  // acts on the person's Send. `ownSubmit` is that event.
  let personSubmitting = false;
  let ownSubmit: Event | undefined;

  const block = (way: BlockedSubmitWay, reason: string) => {
    const entry = { way, reason };
    blocked.push(entry);
    options.onBlockedSubmit?.(entry);
  };
  const refuse = (reason: string, way: BlockedSubmitWay = 'submit-event') => {
    block(way, reason);
    options.onRefusedSubmit?.(reason);
  };
  /** Why the form cannot be submitted now (its target was pointed elsewhere), or undefined. */
  const retargeted = (): string | undefined => {
    const reason = readUnguardableReason(form);
    return reason === undefined ? undefined : `the page changed where the form submits: ${reason}; nothing was sent`;
  };

  // The submit a gesture causes is dispatched in the same task; after it the gesture is stale.
  const remember = (next: Gesture | undefined) => {
    gesture = next;
    primitives.clearTimeout(clearing);
    clearing = primitives.setTimeout(() => {
      gesture = undefined;
    }, 0);
  };
  const onClick = (event: MouseEvent) => {
    if (!event.isTrusted) return;
    // Implicit submission clicks the default button in the task of the person's Enter.
    if (gesture?.kind === 'enter') return;
    remember({ kind: 'click', target: primitives.target(event) });
  };
  const onKeydown = (event: KeyboardEvent) => {
    if (!event.isTrusted) return;
    remember(primitives.key(event) === 'Enter' ? { kind: 'enter', target: primitives.target(event) } : undefined);
  };
  // Enter's implicit submission happens at its keypress; at the key's release any gesture is over.
  // The timer alone is not enough: a busy renderer runs input before timers, so Enter's gesture
  // could still be there for Space's click on the button Enter was pressed on.
  const onKeyup = (event: KeyboardEvent) => {
    if (event.isTrusted) remember(undefined);
  };

  /** The person's page act that made this submit, or undefined (a script's submit). */
  const personGesture = (event: SubmitEvent): Gesture | undefined => {
    // In Chromium requestSubmit() and a script's button.click() make trusted submit events too.
    if (!event.isTrusted || !gesture) return undefined;
    const { submitter } = event;
    const target = gesture.target as Node | null;
    if (!target || typeof target.nodeType !== 'number') return undefined;
    if (gesture.kind === 'click') return submitter !== null && primitives.contains(submitter, target) ? gesture : undefined;
    return primitives.contains(form, target) ? gesture : undefined;
  };

  const deliver = (event: SubmitEvent) => {
    const state = judged.get(event);
    if (state) state.delivered = true;
    personSubmitting = false;
    if (!onUserSubmit) {
      if (!event.defaultPrevented) primitives.preventDefault(event);
      block('submit-event', 'the person submitted the form while no proposal was waiting for them; nothing was sent');
      return;
    }
    const siteTookOver = event.defaultPrevented;
    // A handler of the page pointed the form elsewhere during the event: not sent natively.
    const elsewhere = siteTookOver ? undefined : retargeted();
    if (elsewhere) {
      primitives.preventDefault(event);
      refuse(elsewhere);
      return;
    }
    currentSubmit = event;
    try {
      onUserSubmit(event);
    } finally {
      currentSubmit = undefined;
    }
    // The site's own script has the person's submit: it may go on to send it its own way
    // (`form.submit()` or `requestSubmit()` after an async check), so the guard stands down.
    if (siteTookOver) turnOff();
    else if (!event.defaultPrevented) allowedNavigations += 1;
  };
  const judgeSubmitCall: SubmitCallJudge = () => {
    if (!armed) return true;
    const elsewhere = retargeted();
    if (elsewhere) {
      if (personSubmitting) refuse(elsewhere, 'form.submit()');
      else block('form.submit()', elsewhere);
      return false;
    }
    if (personSubmitting) {
      // A `form.submit()` from a handler that did not take the Send over would go out natively
      // beside the checked send (with what the handler may just have changed): refused.
      if (!ownSubmit?.defaultPrevented) {
        refuse('a script of the page called form.submit() during the panel’s Send without taking the submit over; that call sent nothing', 'form.submit()');
        return false;
      }
      allowedNavigations += 1;
      return true;
    }
    block('form.submit()', 'form.submit() was called while the runtime holds the form for the person; nothing was sent');
    return false;
  };

  // While the panel's own submit is dispatched, a script's `input`/`change` on a control of the
  // form is stopped on the window: a site's own script that sends its own state (Livewire's
  // `wire:model`) would take it in and send it in this very submit, unchecked.
  const onAnnounceDuringSend = (event: Event) => {
    if (!personSubmitting || event.isTrusted) return;
    const target = primitives.target(event) as Element | null;
    if (!target || typeof (target as Node).nodeType !== 'number' || !primitives.contains(form, target)) return;
    primitives.stopImmediatePropagation(event);
    block('submit-event', `a script of the page dispatched ${event.type} on a field during the panel’s Send; it was stopped before the site’s own script saw it`);
  };

  // Where the panel's own submission was pointed at another window during its submit event (a
  // page listener that also stopped the event, so the guard's later checks never ran): the form's
  // place, while it is taken out of the document for the rest of that submission.
  let detached: { parent: Node; next: Node | null } | undefined;
  /**
   * `formdata` of the panel's own submission, the browser's last event before it sends: when the
   * submission now goes to another window (whose navigation this page cannot see), its entry list
   * is emptied and the event stopped (no later listener of the page adds an entry back), and the
   * form is taken out of the document, which makes Chromium drop a submission to a named frame
   * ("the form is not connected"); `send` puts it back at once. A new window (`_blank`) may still
   * open, with nothing in it to send.
   */
  const onFormdata = (event: Event) => {
    if (!sending || primitives.target(event) !== form || !armed || readUnguardableReason(form) === undefined) return;
    const parent = form.parentNode;
    if (!parent) return;
    primitives.stopImmediatePropagation(event);
    const data = (event as FormDataEvent).formData;
    for (const name of [...new Set(data.keys())]) data.delete(name);
    detached = { parent, next: form.nextSibling };
    for (const submit of ownSubmit ? [ownSubmit] : []) {
      const state = judged.get(submit);
      if (state) state.delivered = true;
    }
    callBuiltIn(form, 'remove');
  };

  const onSubmitCapture = (event: Event) => {
    if (event.type === 'formdata') return onFormdata(event);
    if (primitives.target(event) !== form || !armed) return;
    const submit = event as SubmitEvent;
    const own = sending;
    if (own) dispatched = true;
    const refusal = retargeted();
    const consent = own && refusal === undefined;
    judged.set(submit, { consent, delivered: false });
    if (!consent) {
      // Prevented before the page's handlers run: whatever they do, the browser does not submit.
      if (!submit.defaultPrevented) primitives.preventDefault(submit);
      // And stopped: a site's own submit script (Livewire's wire:submit on the form, any listener
      // that ignores defaultPrevented and sends by itself) never sees a submit the runtime refused.
      primitives.stopImmediatePropagation(submit);
      const made = own ? undefined : personGesture(submit);
      // A reason for the person only when it was their act; a script's submit is just blocked.
      if (own && refusal !== undefined) refuse(refusal);
      else if (made) refuse(options.pageActReason?.(made.kind) ?? 'only the panel’s Send sends this form while the proposal is open; nothing was sent');
      else block('submit-event', refusal ?? 'a submit that was not the panel’s Send was blocked; nothing was sent by the browser');
      return;
    }
    personSubmitting = true;
    ownSubmit = submit;
    // Added now, in the capture phase: at the window's bubble phase it runs after every listener
    // the page has (one added during this event's bubble phase is never run for it).
    primitives.addEventListener(view, 'submit', onLastLook);
    // The page may stop the event before the bubble listener: then decide one macrotask later.
    primitives.setTimeout(() => {
      personSubmitting = false;
      const state = judged.get(submit);
      if (!armed || !state || state.delivered) return;
      if (submit.defaultPrevented) deliver(submit);
      else {
        // The browser's own submission went ahead: held back by the navigate backstop when it
        // navigates this window; where the page pointed it at another window, not seen.
        refuse(readUnguardableReason(form)
          ? 'a script of the page stopped the submit event and pointed the form at another window, so the browser may have sent it there, unchecked; what it sent is not known'
          : 'the page stopped the submit event before the runtime could send it, so the browser\'s submission was held back; nothing was sent');
      }
    }, 0);
  };
  /** A native send that may not go out: its submission or navigation cancelled, the person told why. */
  const refuseNative = (reason: string) => {
    native = undefined;
    nativeSubmit = undefined;
    allowedNavigations = Math.max(0, allowedNavigations - 1);
    refuse(reason);
  };
  // The last listener of the person's submit event: the native send the caller let through is
  // checked once more, after every page handler of the event.
  const onLastLook = (event: Event) => {
    primitives.removeEventListener(view, 'submit', onLastLook);
    if (!native || nativeSubmit !== event) return;
    const pending = native;
    if (event.defaultPrevented) {
      refuseNative('the page stopped the browser\'s submission after the runtime let it through; nothing was sent by the browser');
      return;
    }
    let reason: string | undefined;
    try {
      reason = retargeted() ?? pending.check();
    } catch (error) {
      reason = `the form could not be read again (${errorMessage(error)}); nothing was sent`;
    }
    if (reason !== undefined) {
      primitives.preventDefault(event);
      refuseNative(reason);
      return;
    }
    // Where the browser shows its navigation, the last look is there.
    if (navigation && pending.navigates) return;
    native = undefined;
    nativeSubmit = undefined;
    pending.sent();
  };
  const onSubmitBubble = (event: Event) => {
    if (primitives.target(event) !== form || !armed) return;
    const submit = event as SubmitEvent;
    const state = judged.get(submit);
    if (!state) {
      // The capture listener never saw it (stopped on the window before it): not consent.
      if (!submit.defaultPrevented) primitives.preventDefault(submit);
      block('submit-event', 'a submit the runtime could not judge was blocked; nothing was sent by the browser');
      return;
    }
    if (state.consent && !state.delivered) deliver(submit);
  };

  const isThisFormSubmission = (event: NavigateEvent): boolean => {
    if ('sourceElement' in event) {
      const source = event.sourceElement;
      if (!source) return false;
      return source === form || (isSubmitControl(source) && source.form === form);
    }
    // Without sourceElement, any form POST might be this form's: hold it back.
    return (event as NavigateEvent).formData !== null;
  };
  const onNavigate = (event: Event) => {
    const navigate = event as NavigateEvent;
    if (!armed || !isThisFormSubmission(navigate)) return;
    if (allowedNavigations > 0) {
      const pending = native;
      if (pending) {
        let reason: string | undefined;
        try {
          reason = pending.check(navigate);
        } catch (error) {
          reason = `the submission could not be read (${errorMessage(error)}); nothing was sent`;
        }
        if (reason !== undefined) {
          if (navigate.cancelable) primitives.preventDefault(navigate);
          refuseNative(reason);
          return;
        }
        native = undefined;
        nativeSubmit = undefined;
        allowedNavigations -= 1;
        pending.sent();
        return;
      }
      allowedNavigations -= 1;
      return;
    }
    if (navigate.cancelable) {
      primitives.preventDefault(navigate);
      block('navigation', 'a submission of the form reached the browser without the person and was cancelled; nothing was sent');
    } else {
      block('navigation', 'a submission of the form reached the browser without the person and could not be cancelled');
    }
  };

  // The `submit` of this realm and of every same-origin frame's realm under it (another realm's
  // `submit` called on this form after pointing its target at that frame leaves no trace here).
  const releases = new Map<HTMLFormElement, () => void>();
  const holdRealm = (realm: Window): void => {
    const proto = formPrototypeOf(realm);
    if (!proto || releases.has(proto)) return;
    releases.set(proto, holdSubmitMethod(proto, form, judgeSubmitCall));
  };
  const holdFrames = (): void => {
    const pending: Window[] = [view];
    let seen = 0;
    while (pending.length > 0 && seen < MAX_GUARDED_FRAMES) {
      const parent = pending.shift()!;
      let count = 0;
      try {
        count = parent.length;
      } catch {
        continue;
      }
      for (let index = 0; index < count && seen < MAX_GUARDED_FRAMES; index++) {
        let child: Window | undefined;
        try {
          child = (parent as unknown as Record<number, Window | undefined>)[index];
        } catch {
          child = undefined;
        }
        if (!child) continue;
        seen += 1;
        // Cross-origin frames are skipped (formPrototypeOf is undefined) and not walked into.
        if (!formPrototypeOf(child)) continue;
        holdRealm(child);
        pending.push(child);
      }
    }
  };
  const addsFrame = (node: Node): boolean => node.nodeType === Node.ELEMENT_NODE
    && ((node as Element).matches(FRAME_SELECTOR) || (node as Element).querySelector(FRAME_SELECTOR) !== null);
  const frameWatcher = new primitives.MutationObserver((records) => {
    if (armed && records.some((record) => [...record.addedNodes].some(addsFrame))) holdFrames();
  });
  // A frame that loads a new document gets a new realm: patch it once it is there.
  const onLoad = (event: Event) => {
    const target = primitives.target(event) as Element | null;
    if (armed && target && typeof target.matches === 'function' && target.matches(FRAME_SELECTOR)) holdFrames();
  };

  const navigation = (view as Window & { navigation?: EventTarget }).navigation;
  primitives.addEventListener(doc, 'click', onClick, true);
  primitives.addEventListener(doc, 'keydown', onKeydown, true);
  primitives.addEventListener(doc, 'keyup', onKeyup, true);
  primitives.addEventListener(doc, 'load', onLoad, true);
  // Judged at the runtime's front when it has one (added at start, before the page's later listeners).
  const leaveFront = options.front?.(onSubmitCapture);
  if (!leaveFront) for (const type of ['submit', 'formdata']) primitives.addEventListener(view, type, onSubmitCapture, true);
  primitives.addEventListener(view, 'submit', onSubmitBubble);
  primitives.addEventListener(view, 'input', onAnnounceDuringSend, true);
  primitives.addEventListener(view, 'change', onAnnounceDuringSend, true);
  if (navigation) primitives.addEventListener(navigation, 'navigate', onNavigate);
  holdRealm(view);
  holdFrames();
  frameWatcher.observe(doc, { childList: true, subtree: true });

  function turnOff(): void {
    if (!armed) return;
    armed = false;
    personSubmitting = false;
    onUserSubmit = undefined;
    primitives.clearTimeout(clearing);
    primitives.removeEventListener(doc, 'click', onClick, true);
    primitives.removeEventListener(doc, 'keydown', onKeydown, true);
    primitives.removeEventListener(doc, 'keyup', onKeyup, true);
    primitives.removeEventListener(doc, 'load', onLoad, true);
    if (leaveFront) leaveFront();
    else for (const type of ['submit', 'formdata']) primitives.removeEventListener(view, type, onSubmitCapture, true);
    primitives.removeEventListener(view, 'submit', onSubmitBubble);
    primitives.removeEventListener(view, 'input', onAnnounceDuringSend, true);
    primitives.removeEventListener(view, 'change', onAnnounceDuringSend, true);
    primitives.removeEventListener(view, 'submit', onLastLook);
    native = undefined;
    if (navigation) primitives.removeEventListener(navigation, 'navigate', onNavigate);
    frameWatcher.disconnect();
    for (const release of releases.values()) release();
    releases.clear();
  }

  return {
    form,
    get armed() { return armed; },
    blocked,
    connect(handler) {
      onUserSubmit = handler;
      return () => {
        if (onUserSubmit === handler) onUserSubmit = undefined;
      };
    },
    send(submitter) {
      if (!armed) return 'the proposal is no longer held for the person; nothing was sent';
      sending = true;
      dispatched = false;
      let failed: string | undefined;
      try {
        primitives.requestSubmit(form, submitter);
      } catch (error) {
        failed = `the browser did not submit the form (${errorMessage(error)}); nothing was sent`;
      }
      sending = false;
      const place = detached;
      detached = undefined;
      if (place) {
        // Back where it was, in the same task (a MutationObserver of the page sees both moves).
        callBuiltIn(place.parent, 'insertBefore', form, place.next?.parentNode === place.parent ? place.next : null);
        return 'a script of the page pointed the form at another window during the panel’s Send, so the runtime held the browser’s submission back and emptied it; no value was sent';
      }
      if (failed) return failed;
      if (dispatched) return undefined;
      return notSubmittedReason(form);
    },
    letThrough(pending) {
      native = pending;
      nativeSubmit = currentSubmit;
    },
    disarm() {
      onUserSubmit = undefined;
      disarming ??= new Promise<void>((resolve) => {
        primitives.setTimeout(() => {
          turnOff();
          resolve();
        }, GUARD_GRACE_MS);
      });
      return disarming;
    },
  };
}
