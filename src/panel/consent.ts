/**
 * Whether a click on the confirmation panel can count as the person's consent (the panel's own
 * Send is the only send control, for forms too): the panel shows exactly the proposal, and the
 * panel and the control are
 * visible, unoccluded and still, as browsers require of their own permission prompts before a
 * click is accepted (docs/writes-and-consent.md, "A click counts only on what the person can
 * see"). `readRefusal` is the whole check; ClickGuard tracks visibility and stillness over time.
 * Every reading here (styles, boxes, hit-testing, visibility reports, the clock) goes through the
 * built-ins taken at start (start/primitives.ts), so a page that replaces one afterwards cannot
 * make a hidden or moving control pass.
 */
import { primitives } from '../start/primitives.js';
import { contrastOf, type RGBA } from '../write/text-legibility.js';
import { deepElementFromPoint, flatParent, type ClickPoint } from '../write/flat-tree.js';
import { readLayoutProblem } from './placement.js';
import { readComputedStyle } from '../write/computed-style.js';

/**
 * How long the panel (its box, the tracked controls' boxes, and the proposal it shows) must have
 * been visible and unchanged before a click on one of its controls counts, in ms. Browsers use
 * about 500 ms for their own permission prompts; any change restarts it.
 */
export const INPUT_PROTECTION_MS = 500;

/**
 * IntersectionObserver v2's `delay` (the smallest it allows), in ms: how often the browser may
 * report a change of `isVisible` at most.
 */
const VISIBILITY_DELAY_MS = 100;

/** Whether the browser reports IntersectionObserver v2 visibility (`isVisible`, `trackVisibility`). */
function supportsVisibilityTracking(view: Window): boolean {
  // This window's answer is taken at start: a page that deletes `isVisible` later does not turn
  // the check off.
  if ((view as unknown) === globalThis) return primitives.entryVisible !== undefined;
  const Entry = (view as Window & { IntersectionObserverEntry?: { prototype: object } }).IntersectionObserverEntry;
  return Entry !== undefined && 'isVisible' in Entry.prototype;
}

/**
 * The point of a person's pointer click, or undefined for a click made by the keyboard (Enter or
 * Space on a focused button: `detail` is 0 and the coordinates mean nothing).
 */
function readClickPoint(event: Event): ClickPoint | undefined {
  if (!(event instanceof MouseEvent) || primitives.detail(event) === 0) return undefined;
  return { x: event.clientX, y: event.clientY };
}

/**
 * Without IntersectionObserver v2 only: a page element in the top layer (an open popover, a modal
 * dialog, a fullscreen element) that overlaps `box`. It may have been opened after the panel and
 * sit above it, letting clicks through (`pointer-events: none`), which hit-testing cannot see.
 * `own` is the panel's host (skipped).
 */
function readTopLayerCover(box: Element, own: Element): Element | undefined {
  const rect = primitives.getBoundingClientRect(box);
  for (const other of primitives.documentQuerySelectorAll(box.ownerDocument, ':popover-open, dialog:modal, :fullscreen')) {
    if (other === own) continue;
    const r = primitives.getBoundingClientRect(other);
    if (r.right > rect.left && r.left < rect.right && r.bottom > rect.top && r.top < rect.bottom) return other;
  }
  return undefined;
}

/** Parses a computed `rgb()`/`rgba()` colour; other spaces (lab, oklch…) give undefined. */
export function parseComputedColour(value: string): RGBA | undefined {
  const match = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value.trim());
  if (!match) return undefined;
  const alpha = match[4] === undefined ? 1 : match[4].endsWith('%') ? Number.parseFloat(match[4]) / 100 : Number.parseFloat(match[4]);
  return { r: Number(match[1]), g: Number(match[2]), b: Number(match[3]), a: alpha };
}

/** WCAG 2 contrast ratio of two opaque colours (1–21): the form rules' own (text-legibility.ts), one formula for both. */
export const contrastRatio = contrastOf;

/**
 * The product of `opacity` over the element and its flat-tree ancestors up to the first one in
 * the top layer (an open popover is painted above the page, outside its ancestors' opacity);
 * 1 = fully opaque.
 */
function readEffectiveOpacity(element: Element): number {
  let opacity = 1;
  for (let at: Element | null = element; at; at = flatParent(at)) {
    opacity *= Number.parseFloat(readComputedStyle(at).opacity) || 0;
    if (at.matches(':popover-open, dialog:modal')) break;
  }
  return opacity;
}

/**
 * Whether a click on `element` (the panel's box or a control that sends) can be one a person
 * aimed at: stricter than a form control's visibility (forms/effective-visibility.ts), as
 * it stands in for IntersectionObserver v2 where that is missing (and runs besides it, since its
 * reports may lag): the element is rendered (`checkVisibility` with `visibility` and `opacity`),
 * fully opaque with its ancestors, has a box, and, for a pointer click, is what the browser
 * hit-tests at the click point (`scope` is the tree it lives in).
 * @returns a short English reason, or undefined when the element passes.
 */
export function readClickTargetProblem(element: Element, scope: DocumentOrShadowRoot, point: ClickPoint | undefined): string | undefined {
  const check = primitives.checkVisibility;
  if (check && !check(element, { visibilityProperty: true, opacityProperty: true, contentVisibilityAuto: true })) return 'not rendered';
  if (readEffectiveOpacity(element) < 1) return 'transparent';
  const box = primitives.getBoundingClientRect(element);
  if (box.width < 1 || box.height < 1) return 'without size';
  if (point) {
    const hit = deepElementFromPoint(scope, point);
    if (!hit || !primitives.contains(element, hit)) return 'covered at the click point';
  }
  return undefined;
}

/** Why an act did not count: the key of the panel's words (ConfirmWriteWords) that says so. */
type Refusal = 'reasonPanelHidden' | 'reasonTooSoon' | 'reasonLayout' | 'reasonUnread' | 'reasonControlHidden';

/** What the consent check reads of the panel when a person acts. */
interface ConsentScene {
  /** The panel's closed shadow root (its host is the panel's element). */
  root: ShadowRoot | undefined;
  /** The panel's box. */
  section: HTMLElement | null;
  /** The panel's guard while the runtime awaits a decision; undefined when none is awaited. */
  guard: ClickGuard | undefined;
  /** Whether the body's end has yet to be in view while the panel was still. */
  unread: boolean;
  /** Whether the box shows exactly the current proposal (the view knows its own markup). */
  shows(section: HTMLElement): boolean;
}

/**
 * Why a person's act on `control` (a button of the panel) does not count as consent, or undefined
 * when it does: the gesture is trusted, the input protection has passed, the panel shows exactly
 * the proposal, is visible, uncovered and drawn wholly inside the window at a readable zoom
 * (placement.ts), all of it has been on screen when the act sends, and the control is visible
 * and hit at the click point. `sends`: the act sends the proposal (Send), so all of it must have
 * been on screen; "use the assistant's value" changes only the value shown beside it.
 */
export function readRefusal(scene: ConsentScene, control: Element, event: Event, sends: boolean): Refusal | undefined {
  const { guard, section, root } = scene;
  if (!guard || !section || !root) return 'reasonPanelHidden';
  if (!event.isTrusted) return 'reasonTooSoon';
  if (!guard.settled) return 'reasonTooSoon';
  if (!scene.shows(section)) return 'reasonPanelHidden';
  const sectionVisible = guard.isVisible(section);
  if (sectionVisible === false || readClickTargetProblem(section, root, undefined)) return 'reasonPanelHidden';
  if (sectionVisible === undefined && readTopLayerCover(section, root.host)) return 'reasonPanelHidden';
  if (readLayoutProblem(section)) return 'reasonLayout';
  if (sends && scene.unread) return 'reasonUnread';
  const hidden = guard.isVisible(control) === false || readClickTargetProblem(control, root, readClickPoint(event)) !== undefined;
  return hidden ? 'reasonControlHidden' : undefined;
}

function boxKey(element: Element): string {
  const box = primitives.getBoundingClientRect(element);
  return `${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)},${Math.round(box.height)}`;
}

/**
 * Tracks a set of elements (the panel's box and buttons) for
 * visibility (IntersectionObserver v2, `trackVisibility: true`, `delay: VISIBILITY_DELAY_MS`) and
 * stillness (their boxes, read every animation frame), and keeps the time since which all of it
 * has been unchanged. Any move or resize of a tracked box, a change of a tracked element's
 * visibility, the page becoming hidden, or `restart()` (a changed proposal) starts the
 * INPUT_PROTECTION_MS wait over. `onChange` is told when the wait ends or restarts (for
 * `aria-disabled`) and on every frame where a box moved (for placement).
 */
export class ClickGuard {
  readonly #view: Window;
  readonly #onChange: () => void;
  readonly #observer: IntersectionObserver | undefined;
  readonly #visible = new WeakMap<Element, boolean>();
  #tracked = new Set<Element>();
  #boxes = new Map<Element, string>();
  #since: number;
  #frame = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(view: Window, onChange: () => void) {
    this.#view = view;
    this.#onChange = onChange;
    this.#since = primitives.now();
    if (supportsVisibilityTracking(view)) {
      // The start-up realm's own, unless the panel lives in another window's document.
      const Observer = ((view as unknown) === globalThis ? primitives.IntersectionObserver : undefined) ?? (view as Window & { IntersectionObserver: typeof IntersectionObserver }).IntersectionObserver;
      this.#observer = new Observer((entries) => {
        let changed = false;
        for (const entry of entries) {
          // Read by the getters taken at start: a page's getter on the prototype cannot report
          // a covered control as visible, or one element's report as another's.
          const visible = primitives.entryVisible?.(entry) === true;
          const target = primitives.entryTarget(entry);
          if (this.#visible.get(target) !== visible) changed = true;
          this.#visible.set(target, visible);
        }
        if (changed) this.restart();
      }, { threshold: [0, 1], trackVisibility: true, delay: VISIBILITY_DELAY_MS } as IntersectionObserverInit);
    }
    primitives.addEventListener(view.document, 'visibilitychange', this.#onPageVisibility);
    this.#frame = primitives.requestAnimationFrame(this.#tick);
    this.restart();
  }

  /** Replaces the tracked elements (new ones start unknown, i.e. not yet visible). */
  track(elements: Iterable<Element>): void {
    const next = new Set(elements);
    for (const element of this.#tracked) {
      if (!next.has(element)) {
        this.#observer?.unobserve(element);
        this.#boxes.delete(element);
      }
    }
    for (const element of next) {
      if (!this.#tracked.has(element)) {
        this.#observer?.observe(element);
        this.#boxes.set(element, boxKey(element));
      }
    }
    this.#tracked = next;
  }

  /** Starts the INPUT_PROTECTION_MS wait over (e.g. the proposal changed). */
  restart(): void {
    if (this.#stopped) return;
    this.#since = primitives.now();
    primitives.clearTimeout(this.#timer);
    this.#timer = primitives.setTimeout(() => this.#onChange(), INPUT_PROTECTION_MS + 1);
    this.#onChange();
  }

  /**
   * Whether INPUT_PROTECTION_MS have passed since the last change and, with IntersectionObserver
   * v2, every tracked element has had its first visibility report (until then it is unknown).
   */
  get settled(): boolean {
    if (primitives.now() - this.#since < INPUT_PROTECTION_MS) return false;
    return !this.#observer || [...this.#tracked].every((element) => this.#visible.has(element));
  }

  /**
   * The latest IntersectionObserver v2 `isVisible` of a tracked element: false until its first
   * report; undefined where the browser has no IntersectionObserver v2.
   */
  isVisible(element: Element): boolean | undefined {
    if (!this.#observer) return undefined;
    return this.#visible.get(element) === true;
  }

  /** Stops observing (idempotent). */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#observer?.disconnect();
    primitives.cancelAnimationFrame(this.#frame);
    primitives.clearTimeout(this.#timer);
    primitives.removeEventListener(this.#view.document, 'visibilitychange', this.#onPageVisibility);
  }

  #onPageVisibility = (): void => this.restart();

  #tick = (): void => {
    if (this.#stopped) return;
    let moved = false;
    for (const element of this.#tracked) {
      const key = boxKey(element);
      if (this.#boxes.get(element) !== key) {
        this.#boxes.set(element, key);
        moved = true;
      }
    }
    if (moved) this.restart();
    this.#frame = primitives.requestAnimationFrame(this.#tick);
  };
}
