/**
 * What a person reads on a submit control, measured from what the browser renders, and why a
 * control cannot be recognised by it. A send button whose text is hidden by CSS while
 * generated content draws something else ("Next page →") would have the person send while
 * believing they turn a page: such a control is never named by the panel and never sends.
 * WCAG 2.2, 2.5.3 "Label in Name": the accessible name contains the visible label.
 */
import { clipPathBox, clipRectBox, readVisibilityProblem, type Box } from './effective-visibility.js';
import { inViewOf } from './cover-check.js';
import { readTextStyleProblem } from '../text-legibility.js';
import { primitives } from '../../start/primitives.js';
import { readComputedStyle } from '../computed-style.js';
import { flatParent } from '../flat-tree.js';

/**
 * Below this share of a text's rendered area that lies inside the control's box (after the
 * clips on the way up), the text counts as pushed out of the control (`text-indent: -9999px`).
 */
const MIN_TEXT_INSIDE_SHARE = 0.9;

/** Below this opacity (multiplied from the text's element up to the control) text is unseen. */
const MIN_TEXT_OPACITY = 0.5;

/** Elements that draw an image or icon rather than text. */
const PICTURES = 'img, svg, canvas, picture, video, object, embed, iframe';

/** Elements that can host a shadow root (DOM, "valid shadow host name"), besides custom elements. */
const SHADOW_HOSTS: ReadonlySet<string> = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

/** The distance between two points readClosedDrawing tests, in CSS px: finer than a glyph. */
const CARET_STEP_PX = 4;

/** The most points per axis readClosedDrawing tests (a larger control is tested more coarsely). */
const CARET_GRID_MAX = 48;

/** What a person reads on a control (`label`), or why it cannot be read as one (`reason`). */
type RenderedLabel = { label: string } | { reason: string };

/** Whitespace collapsed and trimmed. */
function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** How a reason names an element inside the control. */
function nameOf(element: Element, control: Element): string {
  if (element === control) return 'the button';
  const id = element.id ? `#${element.id}` : '';
  const classes = [...element.classList].slice(0, 2).map((name) => `.${name}`).join('');
  return `${element.localName}${id}${classes}`;
}

/** The flat-tree children of `node`: an open shadow root's instead of the light ones; a slot's assigned nodes. */
function childrenOf(node: Node): Node[] {
  if (node instanceof Element && node.shadowRoot) return [...node.shadowRoot.childNodes];
  if (node instanceof HTMLSlotElement) {
    const assigned = node.assignedNodes();
    return assigned.length > 0 ? assigned : [...node.childNodes];
  }
  return [...node.childNodes];
}


/**
 * Whether `node` is an element the browser does not render at all (computed `display: none`: by
 * CSS, by the `hidden` attribute, or by Livewire's injected `[wire\:loading]{display:none}` on an
 * idle `wire:loading` span). Its subtree draws nothing and is in no accessible name (accname 1.2,
 * step 2A), so it is neither part of a label nor a disguise. `visibility: hidden` and the rest
 * keep their box: such text is still judged (and refused) by readHiddenText.
 */
function isUnrendered(node: Node, control: Element): boolean {
  return node !== control && node instanceof Element && readComputedStyle(node).display === 'none';
}

/**
 * Visits `node` and its flat-tree descendants, not into a picture (an svg's `<title>` is not
 * drawn as text) and not into an element that is not rendered (isUnrendered).
 */
function walk(node: Node, visit: (node: Node) => void, control: Element = node as Element): void {
  if (isUnrendered(node, control)) return;
  visit(node);
  if (node instanceof Element && node.matches(PICTURES)) return;
  for (const child of childrenOf(node)) walk(child, visit, control);
}

function area(box: Box): number {
  return Math.max(0, box.right - box.left) * Math.max(0, box.bottom - box.top);
}

function intersect(a: Box, b: Box): Box {
  return { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
}

/** A computed `content` that draws nothing: `none`, `normal` or an empty string. */
function drawsNothing(content: string): boolean {
  return content === 'none' || content === 'normal' || content === '""' || content === "''";
}

/**
 * Why the text node `text` inside `control` is not read on it, or undefined: its element (or one
 * up to the control) not visible or faint (MIN_TEXT_OPACITY), its style unreadable
 * (text-legibility.ts), or its rendered boxes (`Range.getClientRects`) less than
 * MIN_TEXT_INSIDE_SHARE inside the control's box after each `clip-path`/`clip` on the way up.
 */
function readHiddenText(text: Text, control: Element): string | undefined {
  const owner = text.parentElement ?? (text.parentNode instanceof ShadowRoot ? text.parentNode.host : null);
  if (!owner) return 'it is outside any element';
  const style = readComputedStyle(owner);
  if (style.visibility !== 'visible') return `visibility: ${style.visibility} on ${nameOf(owner, control)}`;
  const legibility = readTextStyleProblem(owner);
  if (legibility) return `${legibility} on ${nameOf(owner, control)}`;
  const rect = primitives.getBoundingClientRect(control);
  let frame: Box = { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
  let opacity = 1;
  const indents: string[] = [];
  for (let at: Element | null = owner; at; at = flatParent(at)) {
    const own = readComputedStyle(at);
    opacity *= Number.parseFloat(own.opacity) || 0;
    if (own.textIndent && Number.parseFloat(own.textIndent) !== 0 && (at === owner || at === control || readComputedStyle(flatParent(at) ?? at).textIndent !== own.textIndent)) {
      indents.push(`text-indent ${own.textIndent} on ${nameOf(at, control)}`);
    }
    const border = primitives.getBoundingClientRect(at);
    const box = { left: border.left, top: border.top, right: border.right, bottom: border.bottom };
    if (own.clipPath && own.clipPath !== 'none') {
      const clip = clipPathBox(own.clipPath, box);
      if (!clip) return `clip-path ${own.clipPath} on ${nameOf(at, control)}, which the runtime cannot check`;
      frame = intersect(frame, clip);
    }
    if ((own.position === 'absolute' || own.position === 'fixed') && own.clip && own.clip !== 'auto') {
      const clip = clipRectBox(own.clip, box);
      if (clip) frame = intersect(frame, clip);
    }
    if (at === control) break;
  }
  if (opacity < MIN_TEXT_OPACITY) return `opacity ${Number(opacity.toFixed(3))} on ${nameOf(owner, control)}`;
  const range = control.ownerDocument.createRange();
  range.selectNodeContents(text);
  let total = 0;
  let inside = 0;
  for (const part of primitives.rangeRects(range)) {
    const box = { left: part.left, top: part.top, right: part.right, bottom: part.bottom };
    total += area(box);
    inside += area(intersect(box, frame));
  }
  if (total === 0) return `it has no rendered size (on ${nameOf(owner, control)})`;
  if (inside < MIN_TEXT_INSIDE_SHARE * total) {
    const cause = indents.length > 0 ? ` (${indents.join(', ')})` : '';
    return `it is drawn outside the button's box or clipped away${cause}`;
  }
  return undefined;
}

/** Whether `element` may host a shadow root: an HTML custom element, or one of SHADOW_HOSTS. */
function mayHostShadow(element: Element): boolean {
  return element.namespaceURI === 'http://www.w3.org/1999/xhtml' && (element.localName.includes('-') || SHADOW_HOSTS.has(element.localName));
}

/**
 * What `control` draws from a closed shadow root in it (a `<span>` whose closed root draws "Next
 * page →" beside or over the text the runtime reads). No DOM API tells that a closed root is
 * there; caret hit-testing does: over the content of a closed root, `caretPositionFromPoint`
 * answers a position in the host's parent just before the host (the point retargeted out of the
 * closed tree), where over an element's own text it answers that text. Points on a grid over the
 * control (every CARET_STEP_PX, at most CARET_GRID_MAX per axis) are tested on screen
 * (cover-check.ts, inViewOf); the open roots in it are passed to the browser, so only a closed
 * root retargets.
 * @param hosts the elements in the control that may host a shadow root and show no open one.
 * @param openRoots the open shadow roots in the control (and the control's own, if it is in one).
 * @returns e.g. `span.label draws content from a closed shadow root, which the runtime cannot
 *   read`; without `caretPositionFromPoint`, that the runtime cannot tell what the first host
 *   draws; undefined when no point lands on a host's closed content (or there is no host).
 */
function readClosedDrawing(control: Element, hosts: readonly Element[], openRoots: ShadowRoot[]): string | undefined {
  const [first] = hosts;
  if (!first) return undefined;
  const caret = primitives.caretPositionFromPoint;
  if (!caret) return `the browser cannot hit-test text (no caretPositionFromPoint), so the runtime cannot tell what ${nameOf(first, control)} draws`;
  return inViewOf(control, (box, view) => {
    const columns = Math.min(CARET_GRID_MAX, Math.max(1, Math.floor(box.width / CARET_STEP_PX)));
    const rows = Math.min(CARET_GRID_MAX, Math.max(1, Math.floor(box.height / CARET_STEP_PX)));
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        const x = box.left + (box.width * (column + 0.5)) / columns;
        const y = box.top + (box.height * (row + 0.5)) / rows;
        if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) continue;
        const position = caret(control.ownerDocument, x, y, { shadowRoots: openRoots });
        if (!position) continue;
        const node = primitives.caretNode(position);
        const next = node.nodeType === Node.ELEMENT_NODE ? node.childNodes[primitives.caretOffset(position)] : undefined;
        const host = hosts.find((candidate) => candidate === next);
        if (host) return `${nameOf(host, control)} draws content from a closed shadow root, which the runtime cannot read`;
      }
    }
    return undefined;
  });
}

/** The control's accessible name from `aria-labelledby` or `aria-label`, or undefined when it has neither. */
function readAuthoredName(control: Element): string | undefined {
  const ids = control.getAttribute('aria-labelledby');
  if (ids) {
    const root = control.getRootNode() as Document | ShadowRoot;
    const parts = ids.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? '');
    const name = normalise(parts.join(' '));
    if (name !== '') return name;
  }
  const label = control.getAttribute('aria-label');
  return label !== null && normalise(label) !== '' ? normalise(label) : undefined;
}

/**
 * What a person reads on the submit control `control` as the browser renders it now, or why it
 * cannot be recognised. Refused, with a one-line reason naming the check:
 * - the control itself not visible to the person (effective-visibility.ts: hidden, clipped,
 *   filtered, turned away, covered…; for an `<input>`, its value's size, fill, contrast and
 *   `text-indent`);
 * - an image button (`<input type="image">`) or a button showing only an image or icon
 *   (`img`, `svg`, `canvas`…): no text to read;
 * - generated content (`::before`/`::after` with a `content` that draws something, or
 *   `content` on an element) on the button or any element in it: the browser draws words that
 *   are not its text, and the runtime does not credit them;
 * - any text of the button hidden: not visible, opacity under MIN_TEXT_OPACITY, font-size,
 *   transparent fill (`color`, `-webkit-text-fill-color`) or no contrast against what is behind
 *   it (text-legibility.ts), or drawn outside the button's box or clipped away (`text-indent`,
 *   `clip-path`, `clip`), measured on its `Range.getClientRects()`;
 * - an `aria-label`/`aria-labelledby` that does not contain what it reads (WCAG 2.5.3).
 * Content that is not rendered at all (`display: none`: CSS, `hidden`, Livewire's idle
 * `wire:loading` span) is skipped: it is neither read nor refused.
 * Open shadow roots in the button are read; content a closed one draws on the button refuses it
 * (readClosedDrawing), while a closed root that only restyles the button's own text is not seen.
 * @returns `{ label }` (whitespace collapsed), or `{ reason }`, e.g. `its text “Send message”
 *   is hidden: its text is too small to read (font-size 0px) on span`.
 */
export function readRenderedLabel(control: HTMLButtonElement | HTMLInputElement): RenderedLabel {
  const whole = readVisibilityProblem(control);
  if (whole) return { reason: `it is not visible to the person (${whole})` };
  if (control instanceof HTMLInputElement) {
    if (control.type === 'image') return { reason: 'it is an image button, with no text a person can read' };
    const label = normalise(control.value);
    if (label === '') return { reason: 'it has no text a person can read' };
    const name = readAuthoredName(control);
    if (name !== undefined && !name.toLowerCase().includes(label.toLowerCase())) return { reason: `its accessible name “${name}” is not what it reads (“${label}”)` };
    return { label };
  }
  const read: string[] = [];
  let pictured = false;
  let problem: string | undefined;
  const hosts: Element[] = [];
  const scope = control.getRootNode();
  const openRoots: ShadowRoot[] = scope instanceof ShadowRoot ? [scope] : [];
  walk(control, (node) => {
    if (problem) return;
    if (node instanceof Element) {
      if (node.shadowRoot) openRoots.push(node.shadowRoot);
      else if (node !== control && mayHostShadow(node)) hosts.push(node);
      for (const pseudo of ['::before', '::after']) {
        const content = readComputedStyle(node, pseudo).content;
        if (!drawsNothing(content)) problem = `generated content ${content} (${pseudo} on ${nameOf(node, control)}) draws words or pictures that are not its text`;
      }
      const own = readComputedStyle(node).content;
      if (!drawsNothing(own)) problem = `content ${own} on ${nameOf(node, control)} replaces what it shows`;
      if (node.matches(PICTURES)) pictured = true;
      return;
    }
    const text = node.nodeType === Node.TEXT_NODE ? primitives.textContent(node) ?? '' : '';
    if (normalise(text) === '') return;
    const hidden = readHiddenText(node as Text, control);
    if (hidden) problem = `its text “${normalise(text)}” is hidden: ${hidden}`;
    else read.push(text);
  });
  problem ??= readClosedDrawing(control, hosts, openRoots);
  if (problem) return { reason: problem };
  const label = normalise(read.join(''));
  if (label === '') return { reason: pictured ? 'it shows an image or icon with no text a person can read' : 'it has no text a person can read' };
  const name = readAuthoredName(control);
  if (name !== undefined && !name.toLowerCase().includes(label.toLowerCase())) return { reason: `its accessible name “${name}” is not what it reads (“${label}”)` };
  return { label };
}
