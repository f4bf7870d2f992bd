/**
 * `<capell-confirm-write>`: the panel in which a person sees what an agent proposes to send and
 * decides. Loaded on the first write call only (never in the start-up chunk).
 *
 * What the person sees is what is sent: the panel renders in a closed shadow root with
 * no `part`s, its host is protected by `!important` declarations in the shadow tree (which win
 * over every page declaration, `!important` and inline ones included), it lives in the top layer
 * (`popover="manual"`) at the end of `<body>`, and a click only counts when the panel and the
 * control are visible, unoccluded and have been still for INPUT_PROTECTION_MS (consent.ts);
 * where it sits and how large it is drawn is placement.ts.
 */
import { LitElement, ReactiveElement, adoptStyles, css, html, nothing } from 'lit';
import { ClickGuard, readRefusal, contrastRatio, parseComputedColour, INPUT_PROTECTION_MS } from './consent.js';
import { readDock, readLayoutProblem, readMaxHeight, readRegion, readRegionScroll, readSideLayout, readSideMaxHeight, readStackedLayout, readZoom, type Dock } from './placement.js';
import { CONFIRM_TEXT_DEFAULTS, confirmKey, fillPlaceholders } from '../write/confirm-text.js';
import { deepActiveElement } from '../shared/deep-active-element.js';
import { primitives } from '../start/primitives.js';
import { readComputedStyle } from '../write/computed-style.js';
import { codePointName, hasInvisible, markInvisible, splitInvisible } from '../write/invisible-characters.js';

export { INPUT_PROTECTION_MS };

/** The element's tag. */
const CONFIRM_WRITE_TAG = 'capell-confirm-write';

/** How long after opening the panel its announcement is written to the live region, in ms. */
const ANNOUNCE_DELAY_MS = 50;

/** The accent used when a site sets none, or one that would make text unreadable. */
const DEFAULT_ACCENT = 'rgb(31, 95, 139)';
/** The panel's own background and text colours (not themeable: they carry the values). */
const PANEL_BACKGROUND = { r: 255, g: 255, b: 255, a: 1 };
const INKS = ['rgb(255, 255, 255)', 'rgb(27, 31, 35)'] as const;
/** WCAG 2 AA: text on the accent (Send's label), and the accent against the panel (its edges). */
const MIN_TEXT_CONTRAST = 4.5;
const MIN_EDGE_CONTRAST = 3;

/**
 * One line of the proposal: the field's label and `value`, what the form holds and is sent.
 * `agentValue` is set when the form holds the person's own value instead of the agent's: the
 * panel shows both and offers "Use the assistant's value".
 */
export interface ConfirmWriteItem {
  label: string;
  value: string;
  agentValue?: string;
  /**
   * Form mode, an item of `items`: the names its entries are sent under (`email`; a control sent
   * by the site's own script and not in the form's data set: its `wire:model`, `data.email`),
   * shown beside the label, and the values as sent when they read otherwise than `value` (a
   * select's option value `sales` for `Sales`, a checkbox's `1` for `Yes`).
   */
  names?: readonly string[];
  sent?: string;
  /** What the form sends here changed after the panel first showed it (not by the person's own edit): marked as such. */
  changed?: boolean;
  /** An entry of `also`: what the site's markup says it is (write/forms/entry-kind.ts), for its words only. */
  kind?: AlsoSentKind;
}

/**
 * What an entry sent besides the agent's values is: the send button's own value, a CSRF token, a
 * hidden field, an anti-spam field (honeypot), or another field the person cannot see. Changes the
 * words the panel uses for it, never what is listed or sent.
 */
export type AlsoSentKind = 'button' | 'token' | 'hidden' | 'honeypot' | 'unseen';

/** The word (ConfirmWriteWords) an entry of each kind is named with; a honeypot that is not empty: `alsoHoneypotFilled`. */
const ALSO_WORDS = { button: 'alsoButton', token: 'alsoToken', hidden: 'alsoHidden', honeypot: 'alsoHoneypot', unseen: 'alsoUnseen' } as const;

/**
 * An entry value the site added that is longer than this, in characters (code points), and has no white space
 * (a token) is shown by its start and end, with its whole text one click away.
 */
const SHORT_VALUE_MAX = 24;
/** How many characters of such a value are shown at its start and at its end. */
const SHORT_VALUE_HEAD = 8;
const SHORT_VALUE_TAIL = 6;

/**
 * The panel's words, already localised (see write/confirm-text.ts). The optional ones default to
 * CONFIRM_TEXT_DEFAULTS (`{placeholders}` as documented there).
 */
export interface ConfirmWriteWords {
  title: string;
  intro: string;
  hint?: string;
  send: string;
  cancel: string;
  close: string;
  formName?: string;
  personValue?: string;
  /** Beside a value the page (not the person) put in the control after the panel showed it. */
  formValue?: string;
  agentValue?: string;
  useAgentValue?: string;
  refused?: string;
  reasonTooSoon?: string;
  reasonPanelHidden?: string;
  reasonControlHidden?: string;
  reasonChanged?: string;
  reasonLayout?: string;
  /** Why a click did not count while part of the panel's body was never scrolled into view. */
  reasonUnread?: string;
  /** Shown above the buttons while part of the body was never scrolled into view. */
  unreadHint?: string;
  /** The heading of `also` (the entries sent besides the items), and the text of an empty value. */
  alsoSent?: string;
  emptyValue?: string;
  /** The plain words for an `also` entry of each kind (AlsoSentKind); `alsoHoneypot` when it is empty, `alsoHoneypotFilled` when not. */
  alsoButton?: string;
  alsoToken?: string;
  alsoHidden?: string;
  alsoHoneypot?: string;
  alsoHoneypotFilled?: string;
  alsoUnseen?: string;
  /** The toggle that shows a shortened value whole (`{count}`: its length in characters). */
  showWhole?: string;
  /** Before a change's old and new value (a `preview`'s changes). */
  before?: string;
  /** Said when a value holds characters that are not drawn or that reorder text (each shown as `⟨U+202E⟩`). */
  invisibleShown?: string;
  /** Before the values as sent, when they read otherwise than shown (`sent as`). */
  sentAs?: string;
  /** The mark of an entry that changed after the panel first showed it. */
  changedMark?: string;
  /** Before the names that are no longer sent (`No longer sent:`). */
  noLongerSent?: string;
  after?: string;
}

/**
 * One change of a server's preview: what it is about (`target`, e.g. `/about › title (draft)`),
 * its value now (`before`) and after the write (`after`), already as the text to show.
 */
export interface ConfirmWriteChange {
  target: string;
  before: string;
  after: string;
}

/**
 * A site's own preview of a write (an admin write's, write/admin/admin-invoke-write.ts): its one-line
 * `summary` and every change, shown as the site computed them (the server binds its confirmation
 * to exactly this preview).
 */
interface ConfirmWritePreview {
  summary: string;
  changes: ConfirmWriteChange[];
}

/**
 * What the panel shows. Either way the panel's own Send is the only send control. `mode: 'form'`:
 * the agent filled a form, which Send submits (the runtime does, through the form's named submit
 * control); `request` or `sender` says where it goes. `mode: 'request'`: a write endpoint;
 * `request` previews it (`POST /path`).
 * `formName` names the form the proposal is for (form mode); `notice` is said first, e.g. that
 * this proposal replaces an earlier one. `preview` (request mode): the site's own preview of the
 * write, its summary and each change before → after, shown after the intro.
 */
export interface ConfirmWriteProposal {
  mode: 'form' | 'request';
  words: ConfirmWriteWords;
  items: ConfirmWriteItem[];
  request?: string;
  /**
   * Form mode, in place of `request`: who sends the form when the runtime does not know where it
   * goes (the site's own page script sends it: "This site's own page script sends it.").
   */
  sender?: string;
  preview?: ConfirmWritePreview;
  formName?: string;
  notice?: string;
  /**
   * Form mode: every other entry the submit sends (hidden fields, the button's own value, fields
   * the agent did not fill), by entry name, under the heading `alsoSent`.
   */
  also?: ConfirmWriteItem[];
  /** Form mode: names that were sent when the panel first showed and are no longer (a control renamed, moved or removed). */
  removed?: readonly string[];
}

/**
 * What the runtime is told. Kept private to the element (not events a script could fake):
 * `onSend` runs only for a person's click on Send that passes the consent checks;
 * `onUseAgentValue(index)` likewise for "Use the assistant's value" of `items[index]`;
 * `onCancel` for Cancel or Escape (they never send, so they need no check).
 */
interface ConfirmWriteHandlers {
  onCancel(): void;
  onSend?(): void;
  onUseAgentValue?(index: number): void;
}


// Comments here, not in the CSS (its text ships as written). The section is a size container: the
// item list stacks labels above values when it is narrow (a phone). Words wrap only between words
// (`overflow-wrap: break-word`, inherited); a value with no break opportunity (a URL, a token)
// wraps where it must, and never lets a column shrink below a whole word (as `anywhere` did).
// `!important` in the shadow tree's :host wins over the page's declarations for the host, its
// !important and inline ones included (CSS Cascade 4, "Context"). `all` leaves out direction,
// unicode-bidi and custom properties; the first two are set here. Nothing of the panel is drawn
// outside its box (a border, no box-shadow; the focus outline inset): Chromium's visibility
// tracking (IntersectionObserver v2) counts a shadow as covering the page's send button just
// below a panel docked at the top, and the person's click there was refused. Every length is in px
// (fonts too) or em of the panel's own px font, never rem: a page's `html { font-size: 1px }`
// squeezed a rem-sized panel to 40 px wide, and at 120px its values sat outside its box.
const PANEL_STYLES = css`
    :host {
      all: initial !important;
      display: block !important;
      position: fixed !important;
      inset: 0 auto auto 0 !important;
      width: 0 !important;
      height: 0 !important;
      margin: 0 !important;
      padding: 0 !important;
      border: 0 !important;
      overflow: visible !important;
      visibility: visible !important;
      opacity: 1 !important;
      transform: none !important;
      filter: none !important;
      clip-path: none !important;
      z-index: 2147483647 !important;
      direction: ltr !important;
      unicode-bidi: isolate !important;
    }
    :host::before, :host::after, :host::backdrop { content: none !important; display: none !important; background: transparent !important; }
    section {
      position: fixed; left: 16px; right: 16px; bottom: 16px; margin: 0 auto;
      box-sizing: border-box; max-width: 640px; max-height: min(512px, 60vh);
      display: flex; flex-direction: column;
      background: #ffffff; color: #1b1f23;
      border: 2px solid #1f5f8b;
      border-radius: clamp(0px, var(--capell-confirm-radius, 8px), 16px);
      padding: 16px 20px;
      font: 400 16px/1.45 sans-serif;
      text-align: start; letter-spacing: normal; word-spacing: normal; text-transform: none; text-indent: 0;
      pointer-events: auto;
      container-type: inline-size;
      overflow-wrap: break-word; word-break: normal; hyphens: manual;
    }
    section.top { top: 16px; bottom: auto; }
    section:focus { outline: none; }
    section:focus-visible { outline: 3px solid #1f5f8b; outline-offset: -6px; }
    /* In a short window the lines under the body give way first (they scroll), so the body
       always shows two lines or more and can be scrolled to its end; the buttons never shrink.
       Contained: a wheel past the body's end does not scroll the page (and its form) under the panel. */
    .body { overflow: auto; overscroll-behavior: contain; flex: 1 1 auto; min-height: 2.9em; }
    .footer { flex: 0 1 auto; min-height: 0; overflow: auto; }
    h2 { font: 600 18px/1.3 var(--capell-confirm-font, sans-serif); margin: 0 0 8px; }
    .prose { font-family: var(--capell-confirm-font, sans-serif); }
    p { margin: 8px 0; }
    code { font: 600 15px/1.4 monospace; }
    dl { display: grid; grid-template-columns: fit-content(45%) minmax(0, 1fr); gap: 4px 16px; margin: 12px 0; }
    dl > div { display: contents; }
    dt { font-weight: 600; }
    dd { margin: 0; white-space: pre-wrap; }
    @container (max-width: 448px) {
      dl { grid-template-columns: minmax(0, 1fr); row-gap: 0; }
      dl > div + div > dt { margin-top: 8px; }
    }
    .also { font-size: 14px; line-height: 1.35; margin: 8px 0; }
    .also p { margin: 0; }
    .also ul { list-style: none; margin: 4px 0 0; padding: 0; }
    .also li { margin: 3px 0; }
    .also code { font: 400 13px/1.35 monospace; }
    .also .value { white-space: pre-wrap; }
    .also details { margin-inline-start: 16px; }
    .also summary { cursor: pointer; }
    .also summary:focus-visible { outline: 3px solid #1f5f8b; outline-offset: 2px; }
    .who { font-style: italic; }
    .agent { display: block; margin-top: 4px; }
    dt code.name, .sent code { font: 400 13px/1.35 monospace; }
    dt code.name { display: inline-block; font-weight: 400; }
    .changed { font-size: 13px; color: #8a1c1c; }
    .removed code { font: 400 13px/1.35 monospace; }
    .notice, .refusal { font-weight: 600; }
    .footer > p { margin: 8px 0 0; }
    .actions { flex: none; display: flex; flex-wrap: wrap; gap: 8px; margin-top: 12px; }
    button {
      font: 400 16px/1.2 sans-serif; cursor: pointer; border-radius: 6px; padding: 8px 18px;
      border: 2px solid #1f5f8b; background: #ffffff; color: #1b1f23; margin: 0;
    }
    button.use { padding: 4px 10px; margin-inline-start: 8px; }
    button.primary { background: #1f5f8b; color: #ffffff; }
    /* Waiting out the input protection: no opacity (it would read as occluded), same box size. */
    button[aria-disabled="true"] { border-style: dashed; cursor: progress; }
    button:focus-visible { outline: 3px solid #1f5f8b; outline-offset: 2px; }
    /* The live region is for screen readers; what it says is also visible in the panel. */
    .status { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
    .probe { display: none; }
    .outcome { font-weight: 600; }
    .summary { font-weight: 600; white-space: pre-wrap; }
    ul.changes { list-style: none; margin: 8px 0; padding: 0; }
    ul.changes > li { margin: 8px 0; padding-inline-start: 12px; border-inline-start: 3px solid #6a737d; }
    .target { display: block; font-weight: 600; }
    .change { display: block; white-space: pre-wrap; }
    del { text-decoration: line-through; }
    .mark { font: 400 13px/1 monospace; margin: 0 1px; padding: 0 2px; border: 1px solid #8a5a00; border-radius: 2px; background: #fff3cd; color: #4d3300; white-space: nowrap; }
    ins { text-decoration: none; font-weight: 600; }
  `;

/** The private operations, set by the class's static block; never exported. */
let panelOps!: {
  present(panel: CapellConfirmWrite, proposal: ConfirmWriteProposal, handlers: ConfirmWriteHandlers): Promise<void>;
  placeBeside(panel: CapellConfirmWrite, fields: readonly Element[]): void;
  refuse(panel: CapellConfirmWrite, reason: string): void;
  showOutcome(panel: CapellConfirmWrite, text: string): Promise<void>;
  close(panel: CapellConfirmWrite, outcome: 'cancelled' | 'sent' | 'closed' | 'withdrawn'): void;
};

/**
 * A non-modal dialog (`role="dialog"`, named by its heading) in the top layer, fixed to the
 * viewport: in form mode beside the fields it lists, or above or below them without covering them
 * (placeBeside, placement.ts); else docked at the bottom. It takes focus when
 * first shown, is keyboard operable (Tab, Enter/Space on its buttons, Escape = Cancel), announces
 * itself through a polite live region, and never submits, clicks or sends anything itself: Send
 * only tells the runtime that a person clicked it.
 *
 * Driven only through a ConfirmPanel handle (createPanelHandle): the element has no public method
 * or property that changes what it shows or whom it tells (a page script that wrapped
 * `present` on the prototype sent without the person). Its state lives in private fields, its
 * prototype chain (this class and the bundled lit's) is frozen before `customElements.define`
 * runs, and every instance carries its methods as own, non-configurable properties, so neither
 * the class a page gets from `customElements.get` nor the element it finds in the DOM can be
 * patched to show something else or to reach the runtime's handlers.
 *
 * Theming: only `--capell-confirm-accent` (a colour; ignored when Send's label or the panel's
 * edges would fall below WCAG AA contrast), `--capell-confirm-radius` (clamped to 0–16px) and
 * `--capell-confirm-font` (a font-family, for the heading and prose only: a web font can draw any
 * glyph for any character, so values, the request and the buttons use the generic families
 * `monospace` and `sans-serif`, which a page's `@font-face` cannot redefine).
 *
 * Capell Agent Schema: write tools use "the browser's user-mediation flow"; "Core does not
 * auto-submit them".
 *
 * @fires capell-webmcp:confirm-close - when the panel closes; `detail: { outcome }` with
 *   `outcome` one of `'cancelled'`, `'sent'`, `'closed'`, `'withdrawn'`. Informational only: the
 *   runtime never acts on events.
 * @cssprop --capell-confirm-accent - Send button and border colour, checked for contrast @default #1f5f8b
 * @cssprop --capell-confirm-radius - corner radius, clamped to 0–16px @default 8px
 * @cssprop --capell-confirm-font - font-family of the heading and prose @default sans-serif
 * @example
 * const panel = createPanelHandle(document);
 * if (!await panel.present({ mode: 'form', words, items }, { onCancel: () => …, onSend: () => … })) withdraw();
 * panel.placeBeside(filledControls);
 */
export class CapellConfirmWrite extends LitElement {
  #root: ShadowRoot | undefined;
  #handlers: ConfirmWriteHandlers | undefined;
  #proposal: ConfirmWriteProposal | undefined;
  #outcome: string | undefined;
  #announcement = '';
  #refusal = '';
  #armed = false;
  // Whether the body's end has not yet been in view while the panel was still: what the person
  // consents to must all have been on screen (a long value pushes lines below the fold).
  #unread = false;
  // Whether the body was taller than its box when last measured (then the hint to scroll shows).
  #overflows = false;
  #dock: Dock = 'bottom';
  #returnFocus: HTMLElement | null = null;
  #announceTimer: ReturnType<typeof setTimeout> | undefined;
  #guard: ClickGuard | undefined;
  #opened = false;
  // The panel's control that last got the focus, and when (ms, primitives.now): a key press
  // counts on a control the focus has rested on for INPUT_PROTECTION_MS.
  #focused: EventTarget | null = null;
  #focusedAt = 0;
  // Form mode: the controls the panel lists (placeBeside), and how the panel stands to them: beside
  // them (`left`, `width`) or docked with a height that leaves them free, decided for a window of
  // `size` (decided again when it changes) in the panel's own CSS px.
  #fields: Element[] = [];
  #scrollToFields = false;
  #layout: { size: string; side?: { left: number; width: number }; maxHeight?: number } | undefined;
  #accent = { accent: DEFAULT_ACCENT, ink: INKS[0] as string };

  static {
    // The only way to the private operations: module-private, handed to createPanelHandle.
    panelOps = {
      present: (panel, proposal, handlers) => panel.#present(proposal, handlers),
      placeBeside: (panel, fields) => panel.#placeBeside(fields),
      refuse: (panel, reason) => panel.#refuse(reason),
      showOutcome: (panel, text) => panel.#showOutcome(text),
      close: (panel, outcome) => panel.#close(outcome),
    };
  }

  constructor() {
    super();
    lockInstance(this);
  }

  // Closed: page scripts cannot reach in (and cannot restyle through parts: there are none). The
  // styles are this module's own constant, not the class's (patchable) `elementStyles`. The root is
  // made by the `attachShadow` taken at start: a page that replaced it later never holds the root.
  protected override createRenderRoot(): ShadowRoot {
    const root = primitives.attachShadow(this, { mode: 'closed' });
    adoptStyles(root, [PANEL_STYLES]);
    this.#root = root;
    return root;
  }

  async #present(proposal: ConfirmWriteProposal, handlers: ConfirmWriteHandlers): Promise<void> {
    // Set before the first await: a second present() while the first renders is a change, not an opening.
    const first = !this.#opened;
    this.#opened = true;
    const doc = this.ownerDocument;
    if (first) {
      this.#returnFocus = deepActiveElement(doc);
      if (!this.isConnected || this.parentNode !== doc.body) doc.body.append(this);
      this.setAttribute('popover', 'manual');
      try {
        if (!this.matches(':popover-open')) this.showPopover();
      } catch {
        // No popover support: the panel still sits fixed over the page at the highest z-index.
      }
    }
    this.#handlers = handlers;
    this.#proposal = proposal;
    this.#outcome = undefined;
    this.#refusal = '';
    this.#armed = false;
    this.#unread = true;
    this.#overflows = false;
    if (first) this.#announcement = '';
    this.requestUpdate();
    await this.updateComplete;
    // A new proposal is read from its top, even where the person had scrolled the last one.
    const body = this.#body();
    if (body) {
      body.scrollTop = 0;
      body.scrollLeft = 0;
    }
    if (!this.#guard) this.#guard = new ClickGuard(doc.defaultView ?? window, this.#onGuardChange);
    this.#readTheme();
    this.#paint();
    this.#retrack();
    this.#guard.restart();
    // Also measures the body (whether it asks to be scrolled).
    this.#place();
    if (first) this.#section()?.focus();
    // A live region announces changes, not content present when it appears: write it a moment later.
    const words = proposal.words;
    const spoken = first
      ? [proposal.notice, words.title, this.#formLine(), words.intro, proposal.sender, words.hint].filter(Boolean).join(' ')
      : proposal.notice ?? '';
    if (spoken) {
      primitives.clearTimeout(this.#announceTimer);
      this.#announceTimer = primitives.setTimeout(() => { this.#say(spoken); }, ANNOUNCE_DELAY_MS);
    }
  }

  #say(text: string): void {
    this.#announcement = text;
    this.requestUpdate();
  }

  #placeBeside(fields: readonly Element[]): void {
    this.#fields = [...fields];
    this.#scrollToFields = true;
    this.#layout = undefined;
    this.#place();
  }

  #refuse(reason: string): void {
    const text = fillPlaceholders(this.#word('refused'), { reason });
    this.#refusal = text;
    this.#say(text);
  }

  async #showOutcome(text: string): Promise<void> {
    this.#handlers = undefined;
    primitives.clearTimeout(this.#announceTimer);
    const hadFocus = this.matches(':focus-within');
    this.#outcome = text;
    this.#refusal = '';
    this.#say(text);
    await this.updateComplete;
    if (hadFocus) this.#root?.querySelector<HTMLElement>('button.close')?.focus();
  }

  #close(outcome: 'cancelled' | 'sent' | 'closed' | 'withdrawn'): void {
    this.#handlers = undefined;
    primitives.clearTimeout(this.#announceTimer);
    this.#guard?.stop();
    const hadFocus = this.matches(':focus-within');
    const returnTo = this.#returnFocus;
    this.#returnFocus = null;
    // Fired while still in the document, so it bubbles to the page's listeners.
    this.dispatchEvent(new CustomEvent('capell-webmcp:confirm-close', { detail: { outcome }, bubbles: true, composed: true }));
    try {
      if (this.matches(':popover-open')) this.hidePopover();
    } catch {
      // Not a popover (no support): removing it is enough.
    }
    this.remove();
    if (hadFocus && returnTo?.isConnected) returnTo.focus();
  }

  #word(key: 'formName' | 'personValue' | 'formValue' | 'agentValue' | 'useAgentValue' | 'refused' | 'reasonTooSoon' | 'reasonPanelHidden' | 'reasonControlHidden' | 'reasonChanged' | 'reasonLayout' | 'reasonUnread' | 'unreadHint' | 'before' | 'after' | 'alsoSent' | 'emptyValue' | 'alsoButton' | 'alsoToken' | 'alsoHidden' | 'alsoHoneypot' | 'alsoHoneypotFilled' | 'alsoUnseen' | 'showWhole' | 'invisibleShown' | 'sentAs' | 'changedMark' | 'noLongerSent'): string {
    return this.#proposal?.words[key] ?? CONFIRM_TEXT_DEFAULTS[confirmKey(key)];
  }

  /** A value as the panel writes it: an empty one as `emptyValue`, so a person sees it is sent. */
  #shownValue(value: string): string {
    return value === '' ? this.#word('emptyValue') : value;
  }

  /**
   * The text of an `also` entry's `.value`: its value as #shownValue writes it, except for an empty
   * honeypot, whose words already say it is left empty.
   */
  #alsoValue(item: ConfirmWriteItem): string {
    return item.kind === 'honeypot' && item.value === '' ? '' : this.#shownValue(item.value);
  }

  /** The mark of an item or entry that changed after the panel first showed it (not by the person's own edit). */
  #changedMark(item: ConfirmWriteItem): unknown {
    return item.changed ? html` <strong class="changed">${this.#word('changedMark')}</strong>` : nothing;
  }

  /**
   * One entry sent besides the agent's values. An ordinary field: `name = value`. One the site
   * added: its plain words (by kind), its name, and its value; a long one without spaces (a token)
   * by its start and end in a `<details>` whose body holds it whole (what is sent is unchanged).
   */
  #alsoEntry(item: ConfirmWriteItem): unknown {
    const name = html`<code class="name">${visible(item.label)}</code>`;
    const value = this.#alsoValue(item);
    if (!item.kind) return html`<li class="entry">${name} = <span class="value">${visible(value)}</span>${this.#changedMark(item)}</li>`;
    const what = html`<span class="what">${this.#word(item.kind === 'honeypot' && item.value !== '' ? 'alsoHoneypotFilled' : ALSO_WORDS[item.kind])}</span>`;
    if (item.kind === 'honeypot' && item.value === '') return html`<li class="entry" data-kind=${item.kind}>${what} (${name})<span class="value"></span>${this.#changedMark(item)}</li>`;
    const characters = [...value];
    const long = characters.length > SHORT_VALUE_MAX && !/\s/.test(value);
    const shown = long
      ? html`<details class="whole"><summary><code class="short">${visible(characters.slice(0, SHORT_VALUE_HEAD).join(''))}…${visible(characters.slice(-SHORT_VALUE_TAIL).join(''))}</code> <span class="more">(${fillPlaceholders(this.#word('showWhole'), { count: String(characters.length) })})</span></summary> <code class="value">${visible(value)}</code></details>`
      : html`<span class="value">${visible(value)}</span>`;
    return item.kind === 'token'
      ? html`<li class="entry" data-kind=${item.kind}>${what} (${name})${long ? html` ${shown}` : html`: ${shown}`}${this.#changedMark(item)}</li>`
      : html`<li class="entry" data-kind=${item.kind}>${what}: ${name} = ${shown}${this.#changedMark(item)}</li>`;
  }

  #formLine(): string {
    const name = this.#proposal?.formName;
    return name ? fillPlaceholders(this.#word('formName'), { form: name }) : '';
  }

  #section(): HTMLElement | null {
    return this.#root ? primitives.rootQuerySelector(this.#root, 'section') as HTMLElement | null : null;
  }

  #body(): HTMLElement | null {
    return this.#root ? primitives.rootQuerySelector(this.#root, 'section > .body') as HTMLElement | null : null;
  }

  /**
   * Marks the proposal read once the body's end, at the bottom and at the right, is in view while the input protection has
   * passed (as soon as it passes when the body fits). Only the person scrolls the body: the root
   * is closed, so no page script holds the element. A page can change the layout (a zoom that
   * makes everything fit for a frame), but any change of the panel's box restarts the input
   * protection, so the end must then stay in view for INPUT_PROTECTION_MS. Called on the body's
   * scroll, and from #place (each change of the guard, a new proposal).
   */
  #readScroll = (): void => {
    const body = this.#body();
    if (!this.#unread || !body) return;
    // 2 px: a zoomed layout rounds scroll positions to device pixels. Both directions: a value
    // wider than the body (a layout the page bent) is read only once its right end was in view.
    const overflows = body.scrollHeight > body.clientHeight + 2 || body.scrollWidth > body.clientWidth + 2;
    if (overflows !== this.#overflows) {
      this.#overflows = overflows;
      this.requestUpdate();
    }
    const atEnd = body.scrollTop + body.clientHeight >= body.scrollHeight - 2 && body.scrollLeft + body.clientWidth >= body.scrollWidth - 2;
    if (!atEnd || !this.#guard?.settled) return;
    this.#unread = false;
    this.requestUpdate();
  };

  #onGuardChange = (): void => {
    const section = this.#section();
    const armed = (this.#guard?.settled ?? false) && section !== null && readLayoutProblem(section) === undefined;
    if (armed !== this.#armed) {
      this.#armed = armed;
      this.requestUpdate();
    }
    this.#place();
  };

  /** Tracks the panel box and its buttons (after each render). */
  #retrack(): void {
    const section = this.#section();
    if (!this.#guard || !section) return;
    this.#guard.track([section, ...primitives.querySelectorAll(section, 'button')]);
  }

  /**
   * Places the panel (placement.ts) and bounds its height so that the whole box fits in the
   * viewport at the current zoom (its body scrolls). Form mode, once placeBeside gave it the listed
   * controls: beside them when the window has room, else docked above or below them with a height
   * that leaves them free, the page scrolled once (at the first placement) so that they are in
   * view with it; decided again when the window's size changes. Otherwise (a write endpoint, or
   * before placeBeside): docked at the bottom.
   */
  #place(): void {
    const section = this.#section();
    if (!section) return;
    const cap = readMaxHeight(section);
    if (this.#fields.length > 0 && section.offsetHeight > 0 && this.#placeByFields(section, cap)) {
      // A taller window may now show the body's end.
      this.#readScroll();
      return;
    }
    section.style.setProperty('max-height', `${cap}px`);
    this.#readScroll();
  }

  /** #place for a form's listed controls; false when none of them has a box (then docked as usual). */
  #placeByFields(section: HTMLElement, cap: number): boolean {
    const view = this.ownerDocument.defaultView ?? window;
    const zoom = readZoom(section);
    const fields = [...this.#fields, ...this.#fields.flatMap((field) => [...((field as HTMLInputElement).labels ?? [])])];
    const size = `${view.innerWidth}x${view.innerHeight}`;
    if (!this.#layout || this.#layout.size !== size) {
      const region = readRegion(fields);
      if (!region) return false;
      const side = readSideLayout(view, region, section.offsetHeight * zoom);
      let scroll = 0;
      if (side) {
        this.#layout = { size, side: { left: side.left / zoom, width: side.width / zoom } };
        if (this.#scrollToFields) scroll = readRegionScroll(view, region);
      } else {
        const body = this.#body();
        const content = section.offsetHeight + (body ? body.scrollHeight - body.clientHeight : 0);
        const stacked = readStackedLayout(view, region, Math.min(cap, content) * zoom, cap * zoom);
        this.#layout = { size, maxHeight: stacked.maxHeight / zoom };
        if (this.#scrollToFields) scroll = stacked.scroll;
        if (stacked.dock !== this.#dock) {
          this.#dock = stacked.dock;
          this.requestUpdate();
        }
      }
      this.#scrollToFields = false;
      // Instant: a smooth scroll would move the form (and so restart the input protection) for longer.
      if (Math.abs(scroll) >= 1) view.scrollBy({ top: scroll, left: 0, behavior: 'instant' });
    }
    const { side, maxHeight } = this.#layout;
    const style = section.style;
    if (side) {
      // Beside the fields, level with their top as the page scrolls, inside the window.
      const region = readRegion(fields);
      const top = readSideLayout(view, region ?? { top: 0, bottom: 0, left: 0, right: 0 }, section.offsetHeight * zoom)?.top ?? 16;
      style.setProperty('max-height', `${readSideMaxHeight(section)}px`);
      for (const [name, value] of [['left', `${side.left}px`], ['width', `${side.width}px`], ['top', `${top / zoom}px`], ['right', 'auto'], ['bottom', 'auto'], ['max-width', 'none'], ['margin', '0']] as const) style.setProperty(name, value);
    } else {
      for (const name of ['left', 'width', 'top', 'right', 'bottom', 'max-width', 'margin']) style.removeProperty(name);
      style.setProperty('max-height', `${maxHeight ?? cap}px`);
    }
    return true;
  }

  /**
   * Reads `--capell-confirm-accent` now and keeps it only when it is an opaque colour that leaves
   * Send's label (white or near-black, whichever reads better) at 4.5:1 or more and the panel's
   * edges at 3:1 or more against the white panel; else the default accent.
   */
  #readTheme(): void {
    const probe = this.#root?.querySelector<HTMLElement>('.probe');
    const raw = readComputedStyle(this).getPropertyValue('--capell-confirm-accent').trim();
    this.#accent = { accent: DEFAULT_ACCENT, ink: INKS[0] };
    if (!probe || raw === '') return;
    probe.style.color = '';
    probe.style.color = raw;
    if (probe.style.color === '') return;
    const colour = parseComputedColour(readComputedStyle(probe).color);
    if (!colour || colour.a < 1 || contrastRatio(colour, PANEL_BACKGROUND) < MIN_EDGE_CONTRAST) return;
    const [ink] = INKS.map((candidate) => ({ candidate, ratio: contrastRatio(colour, parseComputedColour(candidate)!) })).sort((a, b) => b.ratio - a.ratio);
    if (!ink || ink.ratio < MIN_TEXT_CONTRAST) return;
    this.#accent = { accent: `rgb(${colour.r}, ${colour.g}, ${colour.b})`, ink: ink.candidate };
  }

  /**
   * Whether the closed root shows exactly the current proposal: its request line, every label and
   * value, and the buttons' words. A render that did not happen (or was redirected) leaves old or
   * other content on screen; a click on that does not count.
   */
  #showsProposal(section: HTMLElement): boolean {
    const proposal = this.#proposal;
    if (!proposal) return false;
    if ((proposal.request ?? '') !== textOf(section, 'p.request > code')) return false;
    if ((proposal.sender ?? '') !== textOf(section, 'p.sender')) return false;
    const terms = primitives.querySelectorAll(section, 'dl.items dt');
    const details = primitives.querySelectorAll(section, 'dl.items dd');
    if (terms.length !== proposal.items.length || details.length !== proposal.items.length) return false;
    for (const [index, item] of proposal.items.entries()) {
      if (textOf(terms[index]!, '.label') !== markInvisible(item.label) || textOf(terms[index]!, '.name') !== markInvisible(item.names?.join(', ') ?? '')) return false;
      const shown = primitives.textContent(details[index]!) ?? '';
      if (textOf(details[index]!, '.value') !== markInvisible(item.value) || textOf(details[index]!, '.sent code') !== markInvisible(item.sent ?? '')) return false;
      if ((primitives.querySelector(details[index]!, '.changed') !== null) !== (item.changed === true)) return false;
      if (item.agentValue !== undefined && !shown.includes(markInvisible(item.agentValue))) return false;
    }
    const also = proposal.also ?? [];
    const entries = primitives.querySelectorAll(section, 'div.also > ul > .entry');
    if (entries.length !== also.length) return false;
    for (const [index, item] of also.entries()) {
      const entry = entries[index]!;
      if (textOf(entry, '.name') !== markInvisible(item.label) || textOf(entry, '.value') !== markInvisible(this.#alsoValue(item))) return false;
      if ((primitives.querySelector(entry, '.changed') !== null) !== (item.changed === true)) return false;
    }
    if (textOf(section, '.removed code') !== markInvisible(proposal.removed?.join(', ') ?? '')) return false;
    if (!this.#showsPreview(section, proposal.preview)) return false;
    if (this.#outcome === undefined && textOf(section, 'button.send') !== proposal.words.send) return false;
    if (this.#outcome === undefined && textOf(section, 'button.cancel') !== proposal.words.cancel) return false;
    return true;
  }

  /** Whether the root shows exactly `preview` (its summary, every change's target, before and after), or no preview when there is none. */
  #showsPreview(section: HTMLElement, preview: ConfirmWritePreview | undefined): boolean {
    const items = primitives.querySelectorAll(section, 'ul.changes > li');
    if (!preview) return items.length === 0 && primitives.querySelector(section, '.summary') === null;
    if (textOf(section, '.summary') !== markInvisible(preview.summary) || items.length !== preview.changes.length) return false;
    return preview.changes.every((change, index) => {
      const item = items[index]!;
      return textOf(item, '.target') === markInvisible(change.target) && textOf(item, 'del') === markInvisible(change.before) && textOf(item, 'ins') === markInvisible(change.after);
    });
  }

  /**
   * Why a click on `control` (a button of the panel) does not count, or undefined (consent.ts,
   * readRefusal). `sends`: the act sends the proposal (Send).
   */
  #refusalFor(control: Element, event: Event, sends: boolean): string | undefined {
    const refusal = readRefusal({
      root: this.#root,
      section: this.#section(),
      // No decision awaited: nothing counts.
      guard: this.#handlers && this.#guard,
      unread: this.#unread,
      shows: (section) => this.#showsProposal(section),
    }, control, event, sends);
    // `{control}`: the control reasons name the control by its text.
    return refusal && fillPlaceholders(this.#word(refusal), { control: controlText(control) });
  }

  #act(event: MouseEvent, action: ((handlers: ConfirmWriteHandlers) => void), sends = false): void {
    // Consent is a person's click on one of this panel's own buttons: a script-made click
    // (`button.click()`, dispatchEvent) is not. Read by the getters taken at start: a page that
    // wrapped addEventListener holds lit's listener and may call it itself, with an object of its
    // own (the getter throws: not an Event) or with the trusted event of a click elsewhere (its
    // target is not in the panel).
    let control: EventTarget | null;
    try {
      control = primitives.target(event);
    } catch {
      return;
    }
    const section = this.#section();
    if (!event.isTrusted || !section || !(control instanceof Element) || !primitives.contains(section, control)) return;
    // A keyboard activation (Enter or Space: no click count) counts only on a control the focus
    // has rested on for the input protection: a page that focused the panel's host, or anything
    // before Send, must not turn the person's keys aimed at the page into consent.
    const keyboard = primitives.detail(event) === 0;
    const reason = this.#refusalFor(control, event, sends)
      ?? (keyboard && (this.#focused !== control || primitives.now() - this.#focusedAt < INPUT_PROTECTION_MS) ? this.#word('reasonTooSoon') : undefined);
    if (reason) {
      this.#refuse(reason);
      return;
    }
    this.#refusal = '';
    this.requestUpdate();
    if (this.#handlers) action(this.#handlers);
  }

  #cancel = (): void => {
    const handlers = this.#handlers;
    if (handlers) handlers.onCancel();
    else if (this.#outcome !== undefined) this.#close('closed');
  };

  #send = (event: MouseEvent): void => this.#act(event, (handlers) => handlers.onSend?.(), true);

  #noteFocus = (event: FocusEvent): void => {
    this.#focused = primitives.target(event);
    this.#focusedAt = primitives.now();
  };

  #keydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    this.#cancel();
  };

  protected override render(): unknown {
    const proposal = this.#proposal;
    if (!proposal) return nothing;
    const { words } = proposal;
    const done = this.#outcome !== undefined;
    const waiting = String(!this.#armed);
    // data-armed: whether the input protection has passed; data-unread: whether the body's end
    // has yet to be scrolled into view (tests read both through DevTools).
    return html`<section role="dialog" aria-labelledby="heading" tabindex="-1" class=${this.#dock} data-armed=${String(this.#armed)} data-unread=${String(this.#unread)} @keydown=${this.#keydown} @focusin=${this.#noteFocus}>
      <div class="body" tabindex=${this.#overflows ? '0' : nothing} @scroll=${this.#readScroll}>
        ${proposal.notice ? html`<p class="notice prose">${proposal.notice}</p>` : nothing}
        <h2 id="heading">${words.title}</h2>
        <p class="prose">${proposal.formName ? html`${this.#formLine()} ` : nothing}${words.intro}</p>
        ${proposal.request ? html`<p class="request"><code>${proposal.request}</code></p>` : nothing}
        ${proposal.sender ? html`<p class="sender">${proposal.sender}</p>` : nothing}
        ${proposal.preview ? html`<p class="summary">${visible(proposal.preview.summary)}</p>
        <ul class="changes">${proposal.preview.changes.map((change) => html`<li><span class="target">${visible(change.target)}</span><span class="change"><span class="who">${this.#word('before')}</span> <del>${visible(change.before)}</del></span><span class="change"><span class="who">${this.#word('after')}</span> <ins>${visible(change.after)}</ins></span></li>`)}</ul>` : nothing}
        <dl class="items">${proposal.items.map((item, index) => html`<div><dt><span class="label">${visible(item.label)}</span>${item.names?.length ? html` <code class="name">${visible(item.names.join(', '))}</code>` : nothing}</dt><dd><span class="value">${visible(item.value)}</span>${item.sent === undefined ? nothing : html` <span class="sent"><span class="who">${this.#word('sentAs')}</span> <code>${visible(item.sent)}</code></span>`}${this.#changedMark(item)}${item.agentValue === undefined
          ? nothing
          : html` <span class="who">(${this.#word(item.changed ? 'formValue' : 'personValue')})</span><span class="agent"><span class="who">${this.#word('agentValue')}</span> ${visible(item.agentValue)}${done ? nothing : html`<button type="button" class="use" aria-disabled=${waiting} aria-label=${`${this.#word('useAgentValue')}: ${item.label}`} @click=${(event: MouseEvent) => this.#act(event, (handlers) => handlers.onUseAgentValue?.(index))}>${this.#word('useAgentValue')}</button>`}</span>`}</dd></div>`)}</dl>
        ${proposal.also?.length ? html`<div class="also"><p class="who">${this.#word('alsoSent')}</p> <ul>${proposal.also.map((item) => html`${this.#alsoEntry(item)} `)}</ul></div>` : nothing}
        ${proposal.removed?.length ? html`<p class="removed"><span class="who">${this.#word('noLongerSent')}</span> <code>${visible(proposal.removed.join(', '))}</code></p>` : nothing}
        ${showsInvisible(proposal) ? html`<p class="prose invisible">${this.#word('invisibleShown')}</p>` : nothing}
        ${words.hint && !done ? html`<p class="prose">${words.hint}</p>` : nothing}
      </div>
      <div class="footer">${done
        ? html`<p class="outcome">${this.#outcome}</p>`
        : this.#refusal ? html`<p class="refusal">${this.#refusal}</p>` : this.#unread && this.#overflows ? html`<p class="unread prose">${this.#word('unreadHint')}</p>` : nothing}</div>
      <div class="actions">${done
        ? html`<button type="button" class="close" @click=${() => this.#close('closed')}>${words.close}</button>`
        : html`<button type="button" class="primary send" aria-disabled=${String(!this.#armed || this.#unread)} @click=${this.#send}>${words.send}</button>
          <button type="button" class="cancel" @click=${this.#cancel}>${words.cancel}</button>`}</div>
      <p class="status" role="status" aria-live="polite">${this.#announcement}</p>
      <span class="probe"></span>
    </section>`;
  }

  protected override updated(): void {
    this.#paint();
    this.#retrack();
  }

  #paint(): void {
    // Colours through the CSSOM on the elements themselves: no custom property inside the shadow
    // tree that a page's @property registration could re-type, and allowed under a strict CSP.
    const section = this.#section();
    if (section) {
      section.style.setProperty('border-color', this.#accent.accent);
      for (const button of section.querySelectorAll<HTMLElement>('button')) button.style.setProperty('border-color', this.#accent.accent);
      const send = section.querySelector<HTMLElement>('button.primary');
      send?.style.setProperty('background-color', this.#accent.accent);
      send?.style.setProperty('color', this.#accent.ink);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    primitives.clearTimeout(this.#announceTimer);
    this.#guard?.stop();
  }
}


/** The prototypes whose methods lit calls on the element (this class and the bundled lit's). */
const LOCKED_PROTOTYPES: readonly object[] = [CapellConfirmWrite.prototype, LitElement.prototype, ReactiveElement.prototype];

/**
 * Gives `panel` its prototype chain's methods and accessors as own, non-configurable properties,
 * so that a page cannot shadow one (e.g. `render`) with `Object.defineProperty` on the element.
 */
function lockInstance(panel: CapellConfirmWrite): void {
  // Lit's constructor gives each element its own `enableUpdating` (see the freezing below).
  if (Object.hasOwn(panel, 'enableUpdating')) Object.defineProperty(panel, 'enableUpdating', { writable: false, configurable: false });
  for (const proto of LOCKED_PROTOTYPES) {
    for (const key of Reflect.ownKeys(proto)) {
      if (key === 'constructor' || Object.hasOwn(panel, key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (!descriptor || ('value' in descriptor && typeof descriptor.value !== 'function')) continue;
      Object.defineProperty(panel, key, { ...descriptor, configurable: false, ...('value' in descriptor ? { writable: false } : {}) });
    }
  }
}

/**
 * The runtime's handle on one panel: the only way to show a proposal in it, check consent and
 * close it. Held by the write executors (write/forms/form.ts, write/endpoint/endpoint-write.ts) in their
 * closures, never reachable from the element, its class or the DOM. No method throws or rejects.
 */
export interface ConfirmPanel {
  /**
   * Shows a proposal, or replaces the one shown (a new proposal, a refill, a changed value): the
   * input protection starts over either way. The first call places the panel at the end of
   * `<body>` in the top layer, moves focus into it and announces it; later calls leave focus
   * where it is (the person may be typing in the form) and announce only `notice`.
   * @param handlers see ConfirmWriteHandlers; replaced by each call; kept in the element's private
   *   state, never exposed.
   * @returns true once the proposal is on screen; false when showing it failed (the caller
   *   withdraws the proposal: nothing the person sees can be trusted). Never rejects.
   */
  present(proposal: ConfirmWriteProposal, handlers: ConfirmWriteHandlers): Promise<boolean>;
  /**
   * Form mode: the controls the panel lists. The panel is placed so that it does not cover them
   * or their labels (placement.ts: beside them when the window has room, else above or below them,
   * its height bounded to leave them free) and the page is scrolled once so that they and the
   * panel are in view together when they fit. Placement only:
   * every consent check still runs on the panel wherever it is.
   */
  placeBeside(fields: readonly Element[]): void;
  /**
   * Shows (and announces) that an act did not count, with `reason`; the proposal stays open.
   * Used for consent refusals and for a submit refused because the form changed.
   */
  refuse(reason: string): void;
  /**
   * Shows how sending ended (`text`, e.g. "Sent.") with a Close button that gets focus when the
   * focus was in the panel. The runtime's handlers are dropped: the decision is made.
   */
  showOutcome(text: string): Promise<void>;
  /**
   * Removes the panel. When the focus was in it, focus goes back to where it was before the panel
   * opened. `outcome` is reported in the `capell-webmcp:confirm-close` event.
   */
  close(outcome: 'cancelled' | 'sent' | 'closed' | 'withdrawn'): void;
  /** The element (for tests and placement only; it has no methods that act). */
  readonly element: CapellConfirmWrite;
}

/**
 * Creates a panel in `doc` (not yet placed) and the runtime's handle on it.
 * @throws when the element cannot be created (its tag could not be defined); callers turn that
 *   into an `isError` result before they change the page.
 */
export function createPanelHandle(doc: Document): ConfirmPanel {
  const panel = new CapellConfirmWrite();
  if (panel.ownerDocument !== doc) doc.adoptNode(panel);
  const ops = panelOps;
  return Object.freeze({
    element: panel,
    present: async (proposal: ConfirmWriteProposal, handlers: ConfirmWriteHandlers) => {
      try {
        await ops.present(panel, proposal, handlers);
        return true;
      } catch {
        return false;
      }
    },
    placeBeside: (fields: readonly Element[]) => {
      try {
        ops.placeBeside(panel, fields);
      } catch {
        // Docked as for a write endpoint: the consent checks do not depend on where it stands.
      }
    },
    refuse: (reason: string) => {
      try {
        ops.refuse(panel, reason);
      } catch {
        // Nothing to show it in; the act was refused all the same.
      }
    },
    showOutcome: async (text: string) => {
      try {
        await ops.showOutcome(panel, text);
      } catch {
        // The outcome reaches the agent regardless.
      }
    },
    close: (outcome: 'cancelled' | 'sent' | 'closed' | 'withdrawn') => {
      try {
        ops.close(panel, outcome);
      } catch {
        panel.remove();
      }
    },
  });
}




/**
 * The text of the first element under `scope` that matches `selector` ('' when none), read by the
 * DOM methods taken at start: what the panel checks it shows is what the browser holds, whatever
 * a page later puts on `Element.prototype` or `Node.prototype`.
 */
function textOf(scope: Element, selector: string): string {
  const found = primitives.querySelector(scope, selector);
  return found ? primitives.textContent(found) ?? '' : '';
}

/**
 * `text` as the panel draws a value or a name: in an isolated left-to-right run (`<bdi dir="ltr">`:
 * nothing outside it reorders it, and it reorders nothing outside), with every character a person
 * could not see, or that would change the order it is drawn in (write/invisible-characters.ts),
 * drawn as a boxed `⟨U+202E⟩` in its place. Its text content is markInvisible(text).
 */
function visible(text: string): unknown {
  const parts = splitInvisible(text);
  if (parts.length === 1 && typeof parts[0] === 'string') return html`<bdi dir="ltr">${text}</bdi>`;
  return html`<bdi dir="ltr">${parts.map((part) => (typeof part === 'string' ? part : html`<span class="mark">⟨${codePointName(part.codePoint)}⟩</span>`))}</bdi>`;
}

/** Whether any value or name the proposal shows holds a character visible() draws as a marker. */
function showsInvisible(proposal: ConfirmWriteProposal): boolean {
  const texts = [
    ...proposal.items.flatMap((item) => [item.label, item.value, item.agentValue ?? '', ...(item.names ?? []), item.sent ?? '']),
    ...(proposal.also ?? []).flatMap((item) => [item.label, item.value]),
    ...(proposal.removed ?? []),
    ...(proposal.preview ? [proposal.preview.summary, ...proposal.preview.changes.flatMap((change) => [change.target, change.before, change.after])] : []),
  ];
  return texts.some(hasInvisible);
}

/** A control's visible text, for a reason. */
function controlText(control: Element): string {
  if (control instanceof HTMLInputElement) return control.value || control.alt || control.name;
  // As drawn: text that is not rendered (Livewire's idle "Submitting..." span, display: none) is no part of it.
  const text = control instanceof HTMLElement ? control.innerText : control.textContent;
  return text?.replace(/\s+/g, ' ').trim() || control.localName;
}

declare global {
  interface HTMLElementTagNameMap {
    'capell-confirm-write': CapellConfirmWrite;
  }
}

// Lit finalises the class (static properties, styles) on first use; done here so that the class
// and the prototypes lit calls into can be frozen before `customElements.define` hands the class
// to any page code that wrapped it.
(CapellConfirmWrite as unknown as { finalize(): void }).finalize();
// Lit's constructor assigns `this.enableUpdating`, which an inherited read-only method would forbid.
delete (ReactiveElement.prototype as unknown as { enableUpdating?: unknown }).enableUpdating;
for (const frozen of [...LOCKED_PROTOTYPES, CapellConfirmWrite]) Object.freeze(frozen);
// A page that took the tag first keeps it; the panel then lives under a tag of its own.
customElements.define(customElements.get(CONFIRM_WRITE_TAG) ? `${CONFIRM_WRITE_TAG}-${Math.random().toString(36).slice(2)}` : CONFIRM_WRITE_TAG, CapellConfirmWrite);
