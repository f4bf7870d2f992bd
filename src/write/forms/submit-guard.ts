/**
 * The submit guard: while the runtime fills a form, has a proposal open, or puts the person's
 * values back, no submission of that form leaves the page except the person's own act on the
 * form's submit control (or Enter in the form). Armed before the first fill, disarmed one
 * macrotask after the last restore, so the `input`/`change` events of the fill and the restore
 * (which a site's "submit on change" handler turns into `requestSubmit()`) can never send.
 *
 * Capell Agent Schema, "Navigation, forms, and admin tools": write tools use "the browser's
 * user-mediation flow"; "Core does not auto-submit them".
 *
 * Its listeners are added, its events read (`target`, `key`, `detail`) and prevented, and nodes
 * compared (`contains`) with the built-ins taken at start (primitives.ts): a page that replaces
 * `addEventListener`, `preventDefault`, an event getter or `Node.prototype.contains` afterwards
 * changes none of what follows.
 *
 * Paths, and how each is closed while armed:
 * - a `submit` event (`requestSubmit()`, a script's `button.click()`, a dispatched
 *   `SubmitEvent`): judged on the window in the capture phase, before any handler of the page
 *   below the window can stop it (and, given the runtime's front, start/submit-front.ts, before
 *   every window capture listener the page added after the runtime started); anything but the
 *   person's act is `preventDefault()`ed and stopped there,
 *   so the browser's native submission never happens and no site script sees it;
 * - `form.submit()` and `HTMLFormElement.prototype.submit.call(form)` (no submit event): the
 *   prototype's `submit` of the form's realm is replaced while at least one form of that realm
 *   is armed (reference counted, the original descriptor put back exactly); a call for an armed
 *   form does nothing and is reported;
 * - the backstop, for whatever reached the browser's submission anyway (a window capture
 *   listener of the page that stopped the event before the guard's, an original `submit` kept by
 *   a page script or taken from another realm): the Navigation API's `navigate` event of a
 *   submission of this form is cancelled (`preventDefault()`), unless it is the person's own
 *   native submit that the caller let through.
 * - `HTMLFormElement.prototype.submit` of another realm (a same-origin frame's, called on this
 *   form after pointing its `target` at that frame, whose navigation this window's backstop
 *   does not see): every same-origin child frame reachable through `window.frames` at arming is
 *   patched the same way, and so are frames added (or loaded) while armed, found by a
 *   MutationObserver and a capturing `load` listener; all are put back exactly at disarm;
 * - a `target`/`<base target>`/`formtarget` that points elsewhere (readUnguardableReason) is
 *   checked again whenever a submission is judged: while it does, every submission of the form
 *   is blocked, the person's own included (reported through `onRefusedSubmit`).
 * What counts as the person's act (anything else is a script's, blocked):
 * - a trusted pointer click on the form's submit control;
 * - Enter in an `<input>` of this form whose type submits implicitly (text, search, url, tel,
 *   email, password, number, date and time types), not composing (IME), without modifiers:
 *   what the browser itself submits on (never a textarea, select, checkbox, button or editable
 *   element, where a page's own keydown handler would turn Enter into `requestSubmit()`);
 * - keyboard activation of the submit control (Enter/Space, a trusted click with `detail` 0)
 *   only when the person moved the focus onto it themselves: a trusted Tab/Shift+Tab in the
 *   same task as the focus change, or a trusted pointerdown on it (in Chromium the focus event
 *   must also carry `sourceCapabilities`, which `focus()` from a script never has). A focus the
 *   page moved there makes keyboard activation of it refused until the person moves the focus.
 * The person's own submit goes through as the caller decides (fetch by the runtime, the
 * browser's native submission, or the site's own handler); once the site's handler has taken the
 * person's submit over, the guard stands down so the site can finish sending it its own way.
 * Not closed (docs/security.md, "What a write cannot stop"): a site's own `submit` handler that prevents default and
 * sends the data with `fetch`/XHR runs for every submit event; any page script can read the
 * filled controls and send them itself. The guard covers the browser's submission paths; of
 * those, what remains open is a hostile script of this page that registered a window capture
 * `submit` listener before the runtime, stops the event there (so the guard never judges it)
 * and has pointed the form's `target` at a frame (whose navigation this window does not see);
 * a frame's realm used in the same task that created the frame, before the observer runs; and a
 * page that stops the focus events before the guard sees them. Such a script could as well read
 * the filled controls and `fetch` them: that class is the site's own code, not a path the
 * browser takes on its own.
 */
import { callBuiltIn } from '../../start/dom-builtin.js';
import { primitives } from '../../start/primitives.js';
import { errorMessage } from '../../shared/error-message.js';
import type { SubmitFront } from '../../start/submit-front.js';

/**
 * The person's last input gesture, kept only until the task that carried it ends. `refused`: a
 * trusted gesture that does not count (a keyboard activation of a control the page focused),
 * with the reason the person is shown.
 */
interface Gesture {
  kind: 'click' | 'enter';
  target: EventTarget | null;
  event: Event;
  refused?: string;
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
 * - `consentCheck(control, event)`: runs for a submit that the person's own trusted click on the
 *   submitter (or Enter in the form) made, synchronously in the submit event's capture phase,
 *   before any handler of the page sees it. `control` is the submitter (the form when there is
 *   none); `event` is the person's click (MouseEvent) or Enter (KeyboardEvent). Returns a reason
 *   to refuse (the submit is then blocked like a script's) or `undefined` to let it count. A
 *   check that throws refuses, with the error's message.
 * - `onRefusedSubmit(reason)`: the person's act was refused (by `consentCheck`; a keyboard
 *   activation of a submit control the page had focused; the form's target pointed elsewhere
 *   since arming; or the page stopped the submit event before the guard could send it); show
 *   the reason (English, one line) to the person. Also called with `consentCheck`'s own reason.
 * - `onBlockedSubmit(blocked)`: a submission that was not the person's was stopped.
 */
interface SubmitGuardOptions {
  /**
   * The runtime's window capture listener for `submit`, added when it started (start/submit-front.ts):
   * the guard judges submits there, ahead of every window capture listener the page added since.
   * Without it the guard adds its own window capture listener when armed.
   */
  front?: SubmitFront;
  consentCheck?: (control: Element, event: Event) => string | undefined;
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
   * Connects the person's submit to `onUserSubmit`, called synchronously inside the submit
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

/** Input types the browser submits implicitly on Enter (HTML, "Implicit submission"). */
const IMPLICIT_SUBMIT_TYPES: ReadonlySet<string> = new Set([
  'text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number',
]);

/** Every input type HTML knows; an unknown or missing `type` attribute is the text state. */
const INPUT_TYPES: ReadonlySet<string> = new Set([
  ...IMPLICIT_SUBMIT_TYPES, 'hidden', 'color', 'checkbox', 'radio', 'file', 'submit', 'image', 'reset', 'button', 'range',
]);

/**
 * Whether `event` is an Enter with which the browser itself would submit `form` implicitly: a
 * trusted keydown of Enter, not composing (`isComposing`, keyCode 229), without Ctrl, Alt, Meta
 * or Shift, in an `<input>` of `form` whose type submits implicitly (IMPLICIT_SUBMIT_TYPES;
 * read from the attribute, which a script cannot fake without changing the control).
 * @returns false for a textarea, select, checkbox, button, contenteditable, composition, etc.
 */
function isImplicitSubmitEnter(event: KeyboardEvent, form: HTMLFormElement): boolean {
  if (!event.isTrusted || primitives.key(event) !== 'Enter') return false;
  if (event.isComposing || event.keyCode === 229) return false;
  if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return false;
  const target = primitives.target(event) as Element | null;
  if (!target || target.localName !== 'input' || target.namespaceURI !== 'http://www.w3.org/1999/xhtml') return false;
  const input = target as HTMLInputElement;
  if (input.form !== form) return false;
  const attribute = (input.getAttribute('type') ?? '').trim().toLowerCase();
  const type = INPUT_TYPES.has(attribute) ? attribute : 'text';
  return IMPLICIT_SUBMIT_TYPES.has(type);
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
  // The person's trusted Tab keydown and pointerdown of the current task: what may move the
  // focus in their name (each used for one focus change at most).
  let tabKey: KeyboardEvent | undefined;
  let pointerDown: Event | undefined;
  // The element the person last moved the focus onto themselves; null when the last focus
  // change the guard saw was not theirs (or it saw none since arming).
  let personFocus: Element | null = null;
  let clearing: ReturnType<typeof setTimeout> | undefined;
  let onUserSubmit: ((event: SubmitEvent) => void) | undefined;
  let armed = true;
  let disarming: Promise<void> | undefined;
  // The person's native submit the caller let through: its navigation is not cancelled.
  let allowedNavigations = 0;
  // The native send the caller let through for the submit being dispatched, until its last check.
  let native: NativeSend | undefined;
  let nativeSubmit: Event | undefined;
  // The person's submit event while onUserSubmit runs for it (letThrough is about that one).
  let currentSubmit: Event | undefined;
  // What the capture phase decided about each submit event of this form.
  const judged = new WeakMap<Event, { consent: boolean; delivered: boolean }>();
  // True while the person's own submit event is being dispatched: a site handler that submits
  // the form itself from there (validate, then `form.submit()`) acts on the person's submit.
  let personSubmitting = false;

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
  const clearSoon = () => {
    primitives.clearTimeout(clearing);
    clearing = primitives.setTimeout(() => {
      gesture = undefined;
      tabKey = undefined;
      pointerDown = undefined;
    }, 0);
  };
  const remember = (next: Gesture | undefined) => {
    gesture = next;
    clearSoon();
  };
  const onClick = (event: MouseEvent) => {
    if (!event.isTrusted) return;
    // Keyboard activation (Enter/Space on a focused control) and the browser's own click on the
    // default button for implicit submission: no pointer, click count 0.
    const keyboard = primitives.detail(event) === 0 || (event as PointerEvent).pointerType === '';
    const target = primitives.target(event) as Node | null;
    if (!keyboard) return remember({ kind: 'click', target, event });
    // Implicit submission clicks the default button in the task of the person's Enter.
    if (gesture?.kind === 'enter') return;
    const focused = doc.activeElement;
    const theirs = personFocus !== null && focused === personFocus && target !== null && primitives.contains(personFocus, target);
    remember({
      kind: 'click',
      target,
      event,
      ...(theirs ? {} : { refused: 'the submit button was activated from the keyboard, but the page, not the person, had moved the focus onto it (reach it with Tab or click it); nothing was sent' }),
    });
  };
  const onKeydown = (event: KeyboardEvent) => {
    if (!event.isTrusted) return;
    pointerDown = undefined;
    const key = primitives.key(event);
    tabKey = key === 'Tab' && !event.ctrlKey && !event.altKey && !event.metaKey ? event : undefined;
    if (key !== 'Enter') return clearSoon();
    if (!isImplicitSubmitEnter(event, form)) return remember(undefined);
    // As for a keyboard-activated button: Enter counts in a field the person put the focus in
    // (the panel takes the focus when it opens), not one the page moved it to while they typed.
    const target = primitives.target(event);
    const theirs = personFocus !== null && personFocus === target;
    remember({
      kind: 'enter',
      target,
      event,
      ...(theirs ? {} : { refused: 'Enter was pressed in a field the page, not the person, had moved the focus into (click the field or reach it with Tab); nothing was sent' }),
    });
  };
  const onPointerdown = (event: Event) => {
    if (!event.isTrusted) return;
    tabKey = undefined;
    pointerDown = event;
    clearSoon();
  };
  /** Whether the person made this focus change (see the module comment). */
  const focusedByPerson = (event: FocusEvent): boolean => {
    if (!event.isTrusted) return false;
    // Chromium: a focus change by the person's input carries the device; `focus()` never does.
    if ('sourceCapabilities' in event && (event as FocusEvent & { sourceCapabilities: unknown }).sourceCapabilities === null) return false;
    const target = primitives.target(event) as Node;
    // Native Tab navigation runs after the keydown's dispatch (phase NONE), unless prevented.
    if (tabKey && tabKey.eventPhase === Event.NONE && !tabKey.defaultPrevented) {
      tabKey = undefined;
      return true;
    }
    const pressed = pointerDown && primitives.target(pointerDown) as Node | null;
    if (pressed && typeof pressed.nodeType === 'number' && primitives.contains(target, pressed)) {
      pointerDown = undefined;
      return true;
    }
    return false;
  };
  const onFocusin = (event: Event) => {
    personFocus = focusedByPerson(event as FocusEvent) ? primitives.target(event) as Element : null;
  };

  /** The person's gesture that made this submit, or undefined (a script's submit). */
  const personGesture = (event: SubmitEvent): Gesture | undefined => {
    // In Chromium requestSubmit() and a script's button.click() make trusted submit events too.
    if (!event.isTrusted || !gesture) return undefined;
    const { submitter } = event;
    const target = gesture.target as Node | null;
    if (!target || typeof target.nodeType !== 'number') return undefined;
    if (gesture.kind === 'click') return submitter !== null && primitives.contains(submitter, target) ? gesture : undefined;
    // isImplicitSubmitEnter already required an input of this form.
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
      allowedNavigations += 1;
      return true;
    }
    block('form.submit()', 'form.submit() was called while the runtime holds the form for the person; nothing was sent');
    return false;
  };

  const onSubmitCapture = (event: Event) => {
    if (primitives.target(event) !== form || !armed) return;
    const submit = event as SubmitEvent;
    const made = personGesture(submit);
    let refusal = made?.refused ?? retargeted();
    if (made && refusal === undefined && options.consentCheck) {
      try {
        refusal = options.consentCheck(submit.submitter ?? form, made.event);
      } catch (error) {
        refusal = `the consent check failed (${errorMessage(error)})`;
      }
    }
    const consent = made !== undefined && refusal === undefined;
    judged.set(submit, { consent, delivered: false });
    if (!consent) {
      // Prevented before the page's handlers run: whatever they do, the browser does not submit.
      if (!submit.defaultPrevented) primitives.preventDefault(submit);
      // And stopped: a site's own submit script (Livewire's wire:submit on the form, any listener
      // that ignores defaultPrevented and sends by itself) never sees a submit the runtime refused.
      primitives.stopImmediatePropagation(submit);
      // A reason for the person only when it was their act; a script's submit is just blocked.
      if (made && refusal !== undefined) refuse(refusal);
      else if (refusal !== undefined) block('submit-event', refusal);
      else block('submit-event', 'a submit that was not the person\'s own act was blocked; nothing was sent by the browser');
      return;
    }
    personSubmitting = true;
    // Added now, in the capture phase: at the window's bubble phase it runs after every listener
    // the page has (one added during this event's bubble phase is never run for it).
    primitives.addEventListener(view, 'submit', onLastLook);
    // The page may stop the event before the bubble listener: then decide one macrotask later.
    primitives.setTimeout(() => {
      personSubmitting = false;
      const state = judged.get(submit);
      if (!armed || !state || state.delivered) return;
      if (submit.defaultPrevented) deliver(submit);
      else refuse('the page stopped the submit event before the runtime could send it, so the browser\'s submission was held back; nothing was sent');
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
  primitives.addEventListener(doc, 'pointerdown', onPointerdown, true);
  primitives.addEventListener(doc, 'focusin', onFocusin, true);
  primitives.addEventListener(doc, 'load', onLoad, true);
  // Judged at the runtime's front when it has one (added at start, before the page's later listeners).
  const leaveFront = options.front?.(onSubmitCapture);
  if (!leaveFront) primitives.addEventListener(view, 'submit', onSubmitCapture, true);
  primitives.addEventListener(view, 'submit', onSubmitBubble);
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
    primitives.removeEventListener(doc, 'pointerdown', onPointerdown, true);
    primitives.removeEventListener(doc, 'focusin', onFocusin, true);
    primitives.removeEventListener(doc, 'load', onLoad, true);
    if (leaveFront) leaveFront();
    else primitives.removeEventListener(view, 'submit', onSubmitCapture, true);
    primitives.removeEventListener(view, 'submit', onSubmitBubble);
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
