/**
 * Drives `<capell-confirm-write>` as a person does, although its shadow root is closed (page
 * scripts and Playwright's selectors cannot see into it): Chrome DevTools Protocol reads it
 * (`DOM.getDocument` with `pierce: true` includes closed shadow roots; `DOM.resolveNode` gives a
 * handle to read text, focus and boxes), and Playwright's real mouse clicks at the button's
 * coordinates, or its keyboard types where the focus is. Nothing here changes the panel.
 */
import type { CDPSession, Page } from '@playwright/test';
import { expect } from '@playwright/test';

interface DOMNode {
  nodeName: string;
  backendNodeId: number;
  children?: DOMNode[];
  shadowRoots?: DOMNode[];
  contentDocument?: DOMNode;
}

/** What the panel shows, read through DevTools. */
export interface PanelState {
  /** The dialog's accessible name (its heading's text). */
  name: string;
  /** Every visible text of the panel (not the live region). */
  text: string;
  /** What the live region says. */
  status: string;
  /** The refusal line, or ''. */
  refusal: string;
  /** `'dialog'` when the dialog box has focus, a button's text when it has, else null. */
  focused: string | null;
  /** Whether the input protection has passed. */
  armed: boolean;
  /** The panel's buttons: text, accessible name, aria-disabled, middle point in CSS px. */
  buttons: { text: string; label: string; disabled: boolean; x: number; y: number }[];
  /** Whether the dialog is rendered (checkVisibility with opacity and visibility). */
  visible: boolean;
  /** The dialog's box in CSS px. */
  box: { x: number; y: number; width: number; height: number };
  /** Whether the panel's body has yet to be scrolled to its end before a send counts. */
  unread: boolean;
  /** The middle of the panel's scrolling body, in CSS px, and whether its end is in view (at the bottom; and at the right too). */
  body: { x: number; y: number; atBottom: boolean; atEnd: boolean };
}

function findHost(node: DOMNode): DOMNode | undefined {
  if (node.nodeName === 'CAPELL-CONFIRM-WRITE') return node;
  for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? []), ...(node.contentDocument ? [node.contentDocument] : [])]) {
    const found = findHost(child);
    if (found) return found;
  }
  return undefined;
}

const READ_STATE = `function () {
  const section = this.querySelector('section');
  if (!section) return null;
  const text = (element) => (element ? element.textContent.replace(/\\s+/g, ' ').trim() : '');
  const active = this.activeElement;
  const box = (element) => { const r = element.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; };
  const visible = [...section.querySelectorAll('.body, .footer, .actions')].map(text).join(' ');
  return {
    name: text(this.getElementById(section.getAttribute('aria-labelledby'))),
    text: visible,
    status: text(this.querySelector('[role="status"]')),
    refusal: text(this.querySelector('.refusal')),
    focused: active === section ? 'dialog' : active ? text(active) : null,
    armed: section.dataset.armed === 'true',
    buttons: [...section.querySelectorAll('button')].map((button) => ({ text: text(button), label: button.getAttribute('aria-label') || text(button), disabled: button.getAttribute('aria-disabled') === 'true', ...box(button) })),
    visible: section.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
    box: (({ x, y, width, height }) => ({ x, y, width, height }))(section.getBoundingClientRect()),
    unread: section.dataset.unread === 'true',
    body: (() => { const body = section.querySelector('.body'); const atBottom = body.scrollTop + body.clientHeight >= body.scrollHeight - 2; return { ...box(body), atBottom, atEnd: atBottom && body.scrollLeft + body.clientWidth >= body.scrollWidth - 2 }; })(),
  };
}`;

/** A box in CSS px. */
export interface Box { x: number; y: number; width: number; height: number }

/** How the panel's text is laid out (PanelDriver.layout). */
export interface PanelLayout {
  /** Each listed field's label (`dt`) and value (`dd`) boxes, in order. */
  items: { label: Box; value: Box }[];
  /**
   * Every word (a run of non-space characters within one text node) the panel renders whose
   * pieces lie on more than one line: a word broken mid-word. Read by Range client rects; text
   * that is not rendered (a closed `<details>`) is left out.
   */
  brokenWords: string[];
  /** The panel's rendered text (its text nodes that have a box, and white space), white space collapsed. */
  renderedText: string;
  /** The middle of each `<summary>` (a "show all" toggle) and its text. */
  summaries: { text: string; x: number; y: number }[];
  /** Whether the panel's body is wider than its box (a value that did not wrap). */
  overflowsSideways: boolean;
}

const READ_LAYOUT = `function () {
  const section = this.querySelector('section');
  if (!section) return null;
  const box = (element) => { const r = element.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  const items = [...section.querySelectorAll('dl.items > div')].map((pair) => ({ label: box(pair.querySelector('dt')), value: box(pair.querySelector('dd')) }));
  const brokenWords = [];
  const rendered = [];
  const walker = this.ownerDocument.createTreeWalker(section, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('.status, .probe') || !parent.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const whole = this.ownerDocument.createRange();
    whole.selectNodeContents(node);
    // White space between boxes has none of its own; it still separates their words.
    if (node.data.trim() === '') rendered.push(' ');
    else if ([...whole.getClientRects()].some((rect) => rect.width > 0 && rect.height > 0)) rendered.push(node.data);
    for (const match of node.data.matchAll(/\\S+/g)) {
      const range = this.ownerDocument.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0);
      if (rects.length === 0) continue;
      const lines = new Set(rects.map((rect) => Math.round(rect.top + rect.height / 2)));
      // Pieces of one word on one line share their middle; a second line lies a line height lower.
      if (Math.max(...lines) - Math.min(...lines) > rects[0].height / 2) brokenWords.push(match[0]);
    }
  }
  const summaries = [...section.querySelectorAll('summary')].map((summary) => { const r = summary.getBoundingClientRect(); return { text: summary.textContent.replace(/\\s+/g, ' ').trim(), x: r.x + Math.min(12, r.width / 2), y: r.y + r.height / 2 }; });
  const body = section.querySelector('.body');
  return { items, brokenWords, renderedText: rendered.join('').replace(/\\s+/g, ' ').trim(), summaries, overflowsSideways: body.scrollWidth > body.clientWidth + 1 };
}`;

/**
 * How often the waits below look at the panel. expect.poll's default steps (100, 250, 500, 1000 ms)
 * can see the panel open only up to a second late, past its 500 ms input protection, which the
 * tests that act inside that window cannot afford (and every other wait pays for). 15 s, not
 * expect's 5: under CI load (the unit suite beside two e2e workers) a panel whose chunk and
 * preview request are on the way once took longer than 5 s to show.
 */
const POLL = { intervals: [50], timeout: 15_000 };

/**
 * How long an armed panel must stay armed before a wait counts it armed, in ms: the longest a
 * change it has yet to notice takes to restart its input protection. IntersectionObserver v2
 * reports a visibility change after its delay (click-guard.ts VISIBILITY_DELAY_MS, 100 ms); a box
 * that moved (the panel re-rendered: a hint gone, a refusal shown) shows at the next frame.
 */
const ARMED_STAYS_MS = 100 + 2 * 17;

/**
 * One DevTools session per page, shared by every driver of it: a page that serves several tests
 * (demo-fixture.ts, sharedTabTest) would otherwise gather a session per test.
 */
const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * The panel's closed root last found on a page (a DevTools object id), kept per page like its
 * session: finding it walks the whole document through DevTools (three round trips and the
 * document's every node, about 7 ms of CPU), while reading it again through the id is one round
 * trip. The id is used only while the root's host is still the document's first panel (checked in
 * the same call); otherwise, or when the id is gone (the page navigated), the root is found anew.
 */
const roots = new WeakMap<Page, string>();

/** Wraps a root function: runs it only when `this` is still the root of the document's first panel. */
const IF_CURRENT = (fn: string) => `function () {
  if (!this.host || !this.host.isConnected || this.host.ownerDocument.querySelector('capell-confirm-write') !== this.host) return { stale: true };
  return { value: (${fn}).call(this) };
}`;

/** A person's view of the confirmation panel on `page`. */
export class PanelDriver {
  readonly #page: Page;

  constructor(page: Page) {
    this.#page = page;
  }

  #cdp(): Promise<CDPSession> {
    let session = sessions.get(this.#page);
    if (!session) sessions.set(this.#page, session = this.#page.context().newCDPSession(this.#page));
    return session;
  }

  /** Runs `fn` (source text) with `this` = the panel's closed shadow root; undefined when no panel. */
  async #onRoot<T>(fn: string): Promise<T | undefined> {
    const cdp = await this.#cdp();
    const known = roots.get(this.#page);
    if (known) {
      const answer = await cdp.send('Runtime.callFunctionOn', { objectId: known, functionDeclaration: IF_CURRENT(fn), returnByValue: true }).catch(() => undefined);
      const kept = answer?.exceptionDetails ? undefined : answer?.result.value as { stale?: true; value?: T } | undefined;
      if (kept && !kept.stale) return kept.value;
      roots.delete(this.#page);
    }
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true }) as { root: DOMNode };
    const shadow = findHost(root)?.shadowRoots?.[0];
    if (!shadow) return undefined;
    const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: shadow.backendNodeId });
    if (!object.objectId) return undefined;
    roots.set(this.#page, object.objectId);
    const { result } = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: fn, returnByValue: true });
    return result.value as T | undefined;
  }

  /** The panel's state, or undefined when no panel is on the page. */
  async state(): Promise<PanelState | undefined> {
    return (await this.#onRoot<PanelState | null>(READ_STATE)) ?? undefined;
  }

  /** How the panel's text is laid out (labels and values, words broken across lines), or undefined when no panel. */
  async layout(): Promise<PanelLayout | undefined> {
    return (await this.#onRoot<PanelLayout | null>(READ_LAYOUT)) ?? undefined;
  }

  /** How many panels are in the document (through the light DOM, which is open). */
  count(): Promise<number> {
    return this.#page.locator('capell-confirm-write').count();
  }

  /** Waits until a panel is shown and rendered visible. */
  async waitOpen(): Promise<PanelState> {
    await expect.poll(async () => (await this.state())?.visible ?? false, POLL).toBe(true);
    return (await this.state())!;
  }

  /** Waits until the panel's visible text contains `text`. */
  async waitText(text: string): Promise<void> {
    await expect.poll(async () => (await this.state())?.text ?? '', POLL).toContain(text);
  }

  /**
   * Waits, inside the page at every animation frame, until a panel element is in the document:
   * the quickest way to act within its input protection (which starts when the panel is created),
   * without the DevTools round trips of `state()`.
   */
  async waitAttached(): Promise<void> {
    await this.#page.waitForFunction(() => document.querySelector('capell-confirm-write') !== null, null, { polling: 'raf' });
  }

  /**
   * Waits until the input protection has passed and stays passed for ARMED_STAYS_MS: an armed
   * panel about to notice a change (the page uncovered it, its hint went away) would refuse the
   * click that follows as "only just appeared or changed".
   */
  async waitArmed(): Promise<void> {
    await expect.poll(async () => {
      if (!(await this.state())?.armed) return false;
      await new Promise((resolve) => setTimeout(resolve, ARMED_STAYS_MS));
      return (await this.state())?.armed ?? false;
    }, POLL).toBe(true);
  }

  /**
   * Starts keeping each armed state the panel's dialog takes from now on (its data-armed, watched
   * inside the closed root), for armedSeen(): a change of state that lasts less than a look takes
   * is kept too.
   */
  async watchArmed(): Promise<void> {
    await this.#onRoot(`function () {
      const seen = [];
      const section = this.querySelector('section');
      Object.defineProperty(this, 'armedSeen', { value: seen, configurable: true });
      new MutationObserver(() => seen.push(section.dataset.armed === 'true')).observe(section, { attributes: true, attributeFilter: ['data-armed'] });
    }`);
  }

  /** The armed states the panel's dialog took since watchArmed(), in order. */
  async armedSeen(): Promise<boolean[]> {
    return (await this.#onRoot<boolean[]>('function () { return this.armedSeen ?? []; }')) ?? [];
  }

  /** Waits until no panel is left. */
  async waitClosed(): Promise<void> {
    await expect.poll(() => this.count(), POLL).toBe(0);
  }

  /** Clicks a panel button (by accessible name) with the mouse, without waiting for anything. */
  async clickNow(name: string): Promise<void> {
    const button = (await this.state())?.buttons.find((candidate) => candidate.label === name || candidate.text === name);
    if (!button) throw new Error(`the panel has no button ${JSON.stringify(name)}`);
    await this.#page.mouse.click(button.x, button.y);
  }

  /** Waits for the button to be shown and out of its input protection, then clicks it with the mouse. */
  async click(name: string): Promise<void> {
    await expect.poll(async () => {
      const button = (await this.state())?.buttons.find((candidate) => candidate.label === name || candidate.text === name);
      return button ? !button.disabled : false;
    }, POLL).toBe(true);
    await this.clickNow(name);
  }

  /**
   * Scrolls the panel's body to its end as a person does (the mouse over the body, the wheel
   * down, then right, at most 40 notches), then waits until the panel counts it read (its end in view while
   * the panel is still: up to INPUT_PROTECTION_MS more).
   */
  async scrollToEnd(): Promise<void> {
    for (let notch = 0; ; notch++) {
      const state = await this.state();
      if (!state?.unread || state.body.atEnd) break;
      if (notch === 40) throw new Error('the panel\'s body is not at its end after 40 notches of the wheel');
      await this.#page.mouse.move(state.body.x, state.body.y);
      // Down to the bottom, then to the right (a body wider than its box).
      await this.#page.mouse.wheel(state.body.atBottom ? 400 : 0, state.body.atBottom ? 0 : 400);
    }
    await expect.poll(async () => (await this.state())?.unread ?? false, POLL).toBe(false);
  }

  /**
   * For axe-core only: lets the page's axe see the closed root by giving this one host a
   * `shadowRoot` getter (axe walks `element.shadowRoot`). The panel's own code is unchanged.
   */
  async exposeRootForAxe(): Promise<void> {
    await this.#onRoot(`function () { const root = this; Object.defineProperty(this.host, 'shadowRoot', { configurable: true, get: () => root }); }`);
  }
}

const drivers = new WeakMap<Page, PanelDriver>();

/** The person's view of the panel on `page` (one driver per page). */
export function panel(page: Page): PanelDriver {
  let driver = drivers.get(page);
  if (!driver) drivers.set(page, driver = new PanelDriver(page));
  return driver;
}
