/**
 * Whether a person can actually see a form control, as the page renders it now: an agent never
 * writes what the person cannot check before sending (honeypots, hidden and clipped fields).
 * `display`/`visibility` alone are not enough: a honeypot is as easily hidden off-screen, by
 * `opacity`, `clip-path`, a zero-height wrapper that clips its overflow, or `transform: scale(0)`.
 * Capell Agent Schema, "Navigation, forms, and admin tools": "Write tools use existing public
 * forms and the browser's user-mediation flow" (the person checks what is sent).
 */

import { readCoverProblem } from './cover-check.js';
import { readTextStyleProblem } from '../text-legibility.js';
import { flatParent } from '../flat-tree.js';
import { primitives } from '../../start/primitives.js';
import { readComputedStyle } from '../computed-style.js';

/** Below this effective opacity (the product over the control and its ancestors) it is unseen. */
const MIN_EFFECTIVE_OPACITY = 0.1;

/** A visible part smaller than this in width or height, in CSS px, is too small to see. */
const MIN_VISIBLE_PX = 4;

/**
 * Above this combined `filter: blur()` radius, in CSS px (the standard deviations over the control
 * and its ancestors, combined as Gaussian blurs are: the root of the sum of squares), text in the
 * control cannot be read.
 */
const MAX_BLUR_PX = 3;

/**
 * Below this share of its colour range left by `filter: brightness()`, `contrast()` and
 * `invert()` (their factors multiplied over the control and its ancestors; `invert(a)` keeps
 * |1 − 2a|), everything the control paints is flattened to one colour: `contrast(0)` turns it
 * mid grey, `brightness(0)` black, `invert(0.5)` grey.
 */
const MIN_FILTER_RANGE = 0.15;

/** A rectangle in viewport coordinates (CSS px). */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function ancestorsAndSelf(element: Element): Element[] {
  const chain: Element[] = [];
  for (let current: Element | null = element; current; current = flatParent(current)) chain.push(current);
  return chain;
}

/** How a reason names an element: `the control`, or a short selector such as `div#x.hp`. */
function nameOf(element: Element, control: Element): string {
  if (element === control) return 'the control';
  const id = element.id ? `#${element.id}` : '';
  const classes = [...element.classList].slice(0, 2).map((name) => `.${name}`).join('');
  return `${element.localName}${id}${classes}`;
}

function px(value: number): string {
  return `${Math.round(value * 10) / 10}`;
}

function boxOf(rect: DOMRect): Box {
  return { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
}

function intersect(a: Box, b: Box): Box {
  return { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
}

function tooSmall(box: Box): boolean {
  return box.right - box.left < MIN_VISIBLE_PX || box.bottom - box.top < MIN_VISIBLE_PX;
}

/**
 * A CSS length or percentage (of `basis`) in px, also a computed `calc(50% - 10px)` (sums of px
 * and %); NaN for what it cannot read.
 */
function lengthOf(token: string | undefined, basis: number): number {
  if (token === undefined) return 0;
  const calc = /^calc\((.*)\)$/i.exec(token.trim());
  if (calc) return calc[1]!.replace(/\s-\s/g, ' + -').split(' + ').reduce((sum, term) => sum + lengthOf(term, basis), 0);
  const match = /^(-?[\d.]+(?:e-?\d+)?)(px|%)?$/i.exec(token.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === '%' ? (value * basis) / 100 : value;
}

/**
 * The box a `clip-path` basic shape leaves of `box` (its border box), as a bounding rectangle,
 * or undefined for a value this cannot evaluate (`url()`, `path()`, `shape()`, other units).
 */
export function clipPathBox(value: string, box: Box): Box | undefined {
  const width = box.right - box.left;
  const height = box.bottom - box.top;
  // Computed values turn rect() and xywh() into inset() (CSS Shapes 1 §3.1).
  const shape = /^(inset|circle|ellipse|polygon)\((.*)\)/i.exec(value.trim());
  if (!shape) return undefined;
  const [, kind, args] = shape as unknown as [string, string, string];
  const body = args.split(/\s+round\s+/i)[0]!.trim();
  // Tokens split on spaces and commas outside parentheses (a computed rect() is inset(… calc(…)).
  const numbers = (text: string, basis: (index: number) => number) => (text.match(/(?:calc\([^)]*\)|[^\s,()]+)/gi) ?? []).map((token, index) => lengthOf(token, basis(index)));
  let result: Box | undefined;
  switch (kind.toLowerCase()) {
    case 'inset': {
      const [t = 0, r = t, b = t, l = r] = numbers(body, (index) => (index % 2 === 0 ? height : width));
      result = { left: box.left + l, top: box.top + t, right: box.right - r, bottom: box.bottom - b };
      break;
    }
    case 'circle':
    case 'ellipse': {
      const [radii = '', at] = body.split(/\s+at\s+/i);
      const diagonal = Math.hypot(width, height) / Math.SQRT2;
      const [rx = diagonal, ry = rx] = radii.trim() === '' ? [] : numbers(radii, (index) => (kind.toLowerCase() === 'circle' ? diagonal : index === 0 ? width : height));
      const [cx = width / 2, cy = height / 2] = at ? numbers(at, (index) => (index === 0 ? width : height)) : [];
      result = { left: box.left + cx - rx, top: box.top + cy - ry, right: box.left + cx + rx, bottom: box.top + cy + ry };
      break;
    }
    case 'polygon': {
      const points = body.replace(/^(nonzero|evenodd)\s*,/i, '').split(',').map((point) => numbers(point, (index) => (index === 0 ? width : height)));
      const xs = points.map(([x = Number.NaN]) => x);
      const ys = points.map(([, y = Number.NaN]) => y);
      result = { left: box.left + Math.min(...xs), top: box.top + Math.min(...ys), right: box.left + Math.max(...xs), bottom: box.top + Math.max(...ys) };
      break;
    }
    default:
      return undefined;
  }
  return Object.values(result).every(Number.isFinite) ? result : undefined;
}

/** The legacy `clip: rect(t, r, b, l)` of an absolutely positioned element, or undefined. */
export function clipRectBox(value: string, box: Box): Box | undefined {
  const match = /^rect\((.*)\)$/i.exec(value.trim());
  if (!match) return undefined;
  const [t = 'auto', r = 'auto', b = 'auto', l = 'auto'] = match[1]!.split(/[\s,]+/).filter(Boolean);
  const edge = (token: string, auto: number) => (token === 'auto' ? auto : lengthOf(token, 0));
  return {
    left: box.left + edge(l, 0),
    top: box.top + edge(t, 0),
    right: box.left + edge(r, box.right - box.left),
    bottom: box.top + edge(b, box.bottom - box.top),
  };
}

/** One function of a computed `filter` value, e.g. `{ name: 'opacity', args: '0.5' }`. */
interface FilterFunction {
  name: string;
  args: string;
  text: string;
}

/** The functions of a computed `filter` (`opacity(0) blur(5px) url("#x")`), in order. */
function filterFunctions(filter: string): FilterFunction[] {
  const found: FilterFunction[] = [];
  // Arguments nest one level at most (drop-shadow(rgb(…) 1px 1px 0px)); url("…") may hold ")".
  for (const match of filter.matchAll(/([a-z-]+)\(((?:"[^"]*"|'[^']*'|[^()"']|\([^()]*\))*)\)/gi)) {
    found.push({ name: match[1]!.toLowerCase(), args: match[2]!.trim(), text: match[0] });
  }
  return found;
}

/** A filter amount (`0.5` or `50%`) as a number, NaN for what it cannot read. */
function amountOf(args: string): number {
  if (args === '') return 1;
  const match = /^(-?[\d.]+(?:e-?\d+)?)(%)?$/i.exec(args);
  if (!match) return Number.NaN;
  return match[2] ? Number(match[1]) / 100 : Number(match[1]);
}

/** The 2-D scale of a computed `transform` (`matrix(…)`/`matrix3d(…)`): |det| of its 2×2 part. */
function transformScale(transform: string): number {
  const match = /^matrix(3d)?\((.*)\)$/.exec(transform.trim());
  if (!match) return 1;
  const values = match[2]!.split(',').map(Number);
  const [a, b, c, d] = match[1] ? [values[0], values[1], values[4], values[5]] : [values[0], values[1], values[2], values[3]];
  return Math.abs((a ?? 1) * (d ?? 1) - (b ?? 0) * (c ?? 0));
}

/** A computed `transform` as a 4×4 matrix in column-major order (`matrix3d` order); identity for `none`. */
function matrixOf(transform: string): number[] {
  const match = /^matrix(3d)?\((.*)\)$/.exec(transform.trim());
  if (!match) return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const v = match[2]!.split(',').map(Number);
  if (match[1]) return v;
  const [a, b, c, d, e, f] = v as [number, number, number, number, number, number];
  return [a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, e, f, 0, 1];
}

/** The product `a × b` of two column-major 4×4 matrices. */
function multiply(a: number[], b: number[]): number[] {
  const out: number[] = [];
  for (let column = 0; column < 4; column++) {
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + row]! * b[column * 4 + k]!;
      out.push(sum);
    }
  }
  return out;
}

/** The determinant of a square matrix given as rows. */
function determinant(rows: number[][]): number {
  if (rows.length === 1) return rows[0]![0]!;
  return rows[0]!.reduce((sum, value, column) => {
    const minor = rows.slice(1).map((row) => row.filter((_, index) => index !== column));
    return sum + (column % 2 === 0 ? 1 : -1) * value * determinant(minor);
  }, 0);
}

/**
 * The index in `chain` of an element with `backface-visibility: hidden` whose back faces the
 * person, or undefined. Its transform is composed with its ancestors' while they keep a 3-D
 * context (`transform-style: preserve-3d`); the back shows when the (3,3) entry of the inverse
 * of that matrix is negative, the test browsers use (CSS Transforms 2, "backface-visibility").
 * Transform origins and `perspective` are left out: they move the element, not which way it
 * faces, for the rotations a page uses to turn a control away.
 */
function readTurnedAway(chain: Element[], styles: CSSStyleDeclaration[]): number | undefined {
  for (const [index, style] of styles.entries()) {
    if (style.backfaceVisibility !== 'hidden' || style.transform === 'none') continue;
    let matrix = matrixOf(style.transform);
    for (let up = index + 1; up < chain.length && styles[up]!.transformStyle === 'preserve-3d'; up++) {
      matrix = multiply(matrixOf(styles[up]!.transform), matrix);
    }
    const rows = [0, 1, 2, 3].map((row) => [0, 1, 2, 3].map((column) => matrix[column * 4 + row]!));
    const det = determinant(rows);
    const cofactor = determinant([0, 1, 3].map((row) => [0, 1, 3].map((column) => rows[row]![column]!)));
    if (det !== 0 && cofactor / det < 0) return index;
  }
  return undefined;
}

/** Whether the `scale` property (individual transform) scales to zero. */
function scalesToZero(scale: string): boolean {
  if (!scale || scale === 'none') return false;
  return scale.split(/\s+/).some((part) => Number.parseFloat(part) === 0);
}

/**
 * Whether `element` is the containing block of absolutely (`fixed`: false) or fixed (`fixed`:
 * true) positioned descendants (CSS Position 3 §2.1; transforms, filters and paint containment
 * also make one).
 */
function containsPositioned(style: CSSStyleDeclaration, fixed: boolean): boolean {
  if (!fixed && style.position !== 'static') return true;
  if (style.transform !== 'none' || style.filter !== 'none' || (style.perspective && style.perspective !== 'none')) return true;
  if (style.scale && style.scale !== 'none') return true;
  if (/\b(paint|layout|strict|content)\b/.test(style.contain ?? '')) return true;
  return /\b(transform|filter|perspective)\b/.test(style.willChange ?? '');
}

/** The part of the overflow a scroll container lets a person reach, in viewport coordinates. */
function scrollableArea(element: Element, style: CSSStyleDeclaration, client: Box): Box {
  const rtl = style.direction === 'rtl';
  // Content origin at scroll position 0 (in RTL scrollLeft is 0 at the start and negative after).
  const originX = client.left - element.scrollLeft;
  const originY = client.top - element.scrollTop;
  const width = element.scrollWidth;
  const clientWidth = client.right - client.left;
  const left = rtl ? originX + clientWidth - width : originX;
  return { left, top: originY, right: left + width, bottom: originY + element.scrollHeight };
}

/** `box` moved the least distance that brings it inside `frame` (as scrolling would), clipped to it. */
function intoView(box: Box, frame: Box): Box {
  const shiftX = box.left < frame.left ? frame.left - box.left : box.right > frame.right ? Math.max(frame.right - box.right, frame.left - box.left) : 0;
  const shiftY = box.top < frame.top ? frame.top - box.top : box.bottom > frame.bottom ? Math.max(frame.bottom - box.bottom, frame.top - box.top) : 0;
  return intersect({ left: box.left + shiftX, right: box.right + shiftX, top: box.top + shiftY, bottom: box.bottom + shiftY }, frame);
}

/** The padding box of `element` in viewport coordinates. */
function clientBox(element: Element): Box {
  const rect = primitives.getBoundingClientRect(element);
  const left = rect.left + element.clientLeft;
  const top = rect.top + element.clientTop;
  return { left, top, right: left + element.clientWidth, bottom: top + element.clientHeight };
}

/**
 * What hides `element` from the person, or `undefined` when it is visible. Checks, first reason
 * wins: `hidden`, `inert` or `aria-hidden="true"` on it or an ancestor; `display: none`;
 * `visibility` hidden or collapse; an ancestor's `content-visibility: hidden` or a closed
 * `<details>` (and anything else `checkVisibility()` reports); an effective opacity (`opacity`
 * and `filter: opacity()` multiplied over the ancestors) below MIN_EFFECTIVE_OPACITY (0.1);
 * `filter: blur()` over MAX_BLUR_PX (3 px) combined; `filter: url()` or any `mask-image` (also
 * `-webkit-mask-image`, a mask border) on it or an ancestor, which it cannot evaluate; a
 * transform or `scale` that scales it to zero; a border box under MIN_VISIBLE_PX (4 px) wide or
 * high; `clip-path` (basic shapes; any other value counts as hiding) or `clip` that leaves less
 * than that; an ancestor that clips its overflow (`overflow` hidden or clip, paint containment)
 * with the control outside it (e.g. a zero-height wrapper); outside what a scroll container or
 * the document can be scrolled to (e.g. `left: -9999px`), or outside the viewport for a
 * fixed-position one. A control below the fold is visible: it can be scrolled to. Also:
 * `filter: brightness()`, `contrast()` or `invert()` that flatten its colours (MIN_FILTER_RANGE);
 * any `mix-blend-mode` other than normal on it or an ancestor, which it cannot evaluate; a
 * `backface-visibility: hidden` element turned away (`rotateY(180deg)`); for a control that shows
 * text, `text-indent` or padding that leaves its text outside its box, and text too small,
 * transparent or coloured like what is behind it (text-legibility.ts); and last, an opaque
 * element or a page popover over it, found by hit-testing its points (cover-check.ts). Not
 * checked: a cover that lets the pointer through (`pointer-events: none`) outside the top layer.
 * @returns e.g. `opacity 0 on div.hp`, `clipped by clip-path inset(50%) on the control`,
 *   `off-screen: outside the page's scrollable area`.
 */
export function readVisibilityProblem(element: Element): string | undefined {
  const view = element.ownerDocument.defaultView;
  if (!view) return 'it is not in a rendered document';
  const chain = ancestorsAndSelf(element);
  const styles = chain.map((node) => readComputedStyle(node));

  for (const node of chain) {
    if (node.hasAttribute('hidden')) return `hidden by the hidden attribute on ${nameOf(node, element)}`;
    if (node.hasAttribute('inert')) return `inert: the inert attribute on ${nameOf(node, element)}`;
    if (node.getAttribute('aria-hidden') === 'true') return `hidden by aria-hidden="true" on ${nameOf(node, element)}`;
  }
  for (const [index, node] of chain.entries()) {
    if (styles[index]!.display === 'none') return `display: none on ${nameOf(node, element)}`;
  }
  const visibility = styles[0]!.visibility;
  if (visibility !== 'visible') {
    // Inherited: name the outermost element in the run that has it.
    let origin = 0;
    while (origin + 1 < chain.length && styles[origin + 1]!.visibility === visibility) origin += 1;
    return `visibility: ${visibility} on ${nameOf(chain[origin]!, element)}`;
  }
  for (const [index, node] of chain.entries()) {
    if (index > 0 && styles[index]!.contentVisibility === 'hidden') return `content-visibility: hidden on ${nameOf(node, element)}`;
    if (index > 0 && node.localName === 'details' && !node.hasAttribute('open') && chain[index - 1]!.localName !== 'summary') {
      return `inside a closed <details> (${nameOf(node, element)})`;
    }
  }
  const check = (element as Element & { checkVisibility?: (options?: object) => boolean }).checkVisibility;
  if (typeof check === 'function' && !check.call(element, { visibilityProperty: true, contentVisibilityAuto: false })) {
    return 'the browser does not render it (checkVisibility)';
  }

  // `filter: opacity()` multiplies in like `opacity`; blurs combine; an SVG filter (url()) or a
  // mask can make any part transparent, which the runtime cannot evaluate: refused.
  let opacity = 1;
  let blurSquares = 0;
  const blurs: string[] = [];
  const faint: string[] = [];
  let filtered = false;
  let range = 1;
  const flattening: string[] = [];
  for (const [index, node] of chain.entries()) {
    const style = styles[index]!;
    // A blend mode mixes the control with whatever is painted behind it (`screen` over white
    // leaves white): what the person sees cannot be told from the styles.
    if (style.mixBlendMode && style.mixBlendMode !== 'normal') return `blended by mix-blend-mode: ${style.mixBlendMode} on ${nameOf(node, element)}, which the runtime cannot check`;
    const value = Number.parseFloat(style.opacity);
    if (Number.isFinite(value) && value < 1) {
      opacity *= value;
      faint.push(`${value} on ${nameOf(node, element)}`);
    }
    for (const mask of [style.maskImage, style.webkitMaskImage, style.getPropertyValue('-webkit-mask-box-image-source'), style.getPropertyValue('mask-border-source')]) {
      if (mask && mask !== 'none') return `masked by mask-image ${mask} on ${nameOf(node, element)}, which the runtime cannot check`;
    }
    if (!style.filter || style.filter === 'none') continue;
    for (const filter of filterFunctions(style.filter)) {
      if (filter.name === 'url') return `filtered by filter ${filter.text} on ${nameOf(node, element)}, which the runtime cannot check`;
      if (filter.name === 'opacity') {
        const amount = Math.min(1, amountOf(filter.args));
        if (!Number.isFinite(amount)) return `filtered by filter ${filter.text} on ${nameOf(node, element)}, which the runtime cannot check`;
        if (amount >= 1) continue;
        opacity *= Math.max(0, amount);
        filtered = true;
        faint.push(`${Math.max(0, amount)} (filter ${filter.text}) on ${nameOf(node, element)}`);
      } else if (filter.name === 'brightness' || filter.name === 'contrast' || filter.name === 'invert') {
        const amount = amountOf(filter.args);
        if (!Number.isFinite(amount)) return `filtered by filter ${filter.text} on ${nameOf(node, element)}, which the runtime cannot check`;
        const factor = filter.name === 'invert' ? Math.abs(1 - 2 * Math.min(1, Math.max(0, amount))) : Math.max(0, amount);
        if (factor >= 1) continue;
        range *= factor;
        flattening.push(`${filter.text} on ${nameOf(node, element)}`);
      } else if (filter.name === 'blur') {
        const radius = filter.args === '' ? 0 : lengthOf(filter.args, 0);
        if (!Number.isFinite(radius)) return `filtered by filter ${filter.text} on ${nameOf(node, element)}, which the runtime cannot check`;
        if (radius <= 0) continue;
        blurSquares += radius * radius;
        blurs.push(`${filter.text} on ${nameOf(node, element)}`);
      }
    }
  }
  if (opacity < MIN_EFFECTIVE_OPACITY) {
    const product = faint.length > 1 || filtered ? ` (effective ${Number(opacity.toFixed(3))})` : '';
    return `opacity ${faint.join(' × ')}${product}`;
  }
  if (range < MIN_FILTER_RANGE) return `its colours are flattened to one by filter ${flattening.join(' and ')} (${Number(range.toFixed(3))} of the range left)`;
  const blur = Math.sqrt(blurSquares);
  if (blur > MAX_BLUR_PX) {
    const combined = blurs.length > 1 ? ` (combined ${px(blur)} px)` : '';
    return `blurred beyond reading by filter ${blurs.join(' and ')}${combined}`;
  }

  for (const [index, node] of chain.entries()) {
    const style = styles[index]!;
    if (style.transform !== 'none' && transformScale(style.transform) < 1e-6) return `scaled to zero by transform ${style.transform} on ${nameOf(node, element)}`;
    if (scalesToZero(style.scale)) return `scaled to zero by scale ${style.scale} on ${nameOf(node, element)}`;
  }

  const away = readTurnedAway(chain, styles);
  if (away !== undefined) return `turned away: ${styles[away]!.transform} with backface-visibility: hidden on ${nameOf(chain[away]!, element)}`;

  const own = boxOf(primitives.getBoundingClientRect(element));
  if (tooSmall(own)) {
    return `its box is ${px(own.right - own.left)}×${px(own.bottom - own.top)} px, too small to see (under ${MIN_VISIBLE_PX} px)`;
  }

  // What is left of the control's box after each clip on the way up; overflow clips apply only
  // to the containing-block chain (an absolutely positioned control escapes a static wrapper).
  const doc = element.ownerDocument;
  let visible = own;
  let escaping: 'absolute' | 'fixed' | undefined;
  let fixedChain = false;
  for (const [index, node] of chain.entries()) {
    const style = styles[index]!;
    const border = boxOf(primitives.getBoundingClientRect(node));
    if (style.clipPath && style.clipPath !== 'none' && style.display !== 'contents') {
      const clip = clipPathBox(style.clipPath, border);
      if (!clip) return `clipped by clip-path ${style.clipPath} on ${nameOf(node, element)}, which the runtime cannot check`;
      visible = intersect(visible, clip);
      if (tooSmall(visible)) return `clipped away by clip-path ${style.clipPath} on ${nameOf(node, element)}`;
    }
    if ((style.position === 'absolute' || style.position === 'fixed') && style.clip && style.clip !== 'auto') {
      const clip = clipRectBox(style.clip, border);
      if (clip) {
        visible = intersect(visible, clip);
        if (tooSmall(visible)) return `clipped away by clip ${style.clip} on ${nameOf(node, element)}`;
      }
    }
    // The root and body's overflow belongs to the viewport: the page check below covers it.
    const isRoot = node === doc.documentElement || node === doc.body;
    if (index > 0 && !isRoot) {
      const isContainingBlock = escaping === undefined || containsPositioned(style, escaping === 'fixed');
      const hasBox = style.display !== 'contents' && style.display !== 'inline';
      if (isContainingBlock && hasBox) {
        escaping = undefined;
        const clipsX = style.overflowX === 'hidden' || style.overflowX === 'clip';
        const clipsY = style.overflowY === 'hidden' || style.overflowY === 'clip';
        const paint = /\b(paint|strict|content)\b/.test(style.contain ?? '');
        const client = clientBox(node);
        if (clipsX || clipsY || paint) {
          const limit = { left: clipsX || paint ? client.left : -Infinity, right: clipsX || paint ? client.right : Infinity, top: clipsY || paint ? client.top : -Infinity, bottom: clipsY || paint ? client.bottom : Infinity };
          visible = intersect(visible, limit);
          if (tooSmall(visible)) {
            const why = paint && !clipsX && !clipsY ? `contain: ${style.contain}` : `overflow ${style.overflow}`;
            return `clipped by ${nameOf(node, element)} (${why}, ${px(client.right - client.left)}×${px(client.bottom - client.top)} px)`;
          }
        }
        const scrollsX = style.overflowX === 'auto' || style.overflowX === 'scroll';
        const scrollsY = style.overflowY === 'auto' || style.overflowY === 'scroll';
        if (scrollsX || scrollsY) {
          const area = scrollableArea(node, style, client);
          const limit = { left: scrollsX ? area.left : client.left, right: scrollsX ? area.right : client.right, top: scrollsY ? area.top : client.top, bottom: scrollsY ? area.bottom : client.bottom };
          visible = intersect(visible, limit);
          if (tooSmall(visible)) return `outside what ${nameOf(node, element)} can be scrolled to`;
          // Scrolled into view, the reachable part sits inside the container's padding box: the
          // clips further up judge it there, not where the current scroll position puts it.
          visible = intoView(visible, client);
        }
      }
    }
    // A transformed (or filtered, contained) ancestor of a fixed element makes it scroll again.
    if (index > 0 && fixedChain && containsPositioned(style, true)) fixedChain = false;
    if (style.position === 'fixed') {
      escaping = 'fixed';
      fixedChain = true;
    } else if (style.position === 'absolute' && escaping !== 'fixed') {
      escaping = 'absolute';
    }
  }

  const root = doc.scrollingElement ?? doc.documentElement;
  if (fixedChain) {
    const viewport = { left: 0, top: 0, right: view.innerWidth, bottom: view.innerHeight };
    if (tooSmall(intersect(visible, viewport))) return 'off-screen: a fixed-position control outside the viewport';
    return readPaintProblem(element);
  }
  const rootStyle = readComputedStyle(root);
  const rtl = rootStyle.direction === 'rtl';
  const originX = -view.scrollX;
  const originY = -view.scrollY;
  const width = Math.max(root.scrollWidth, root.clientWidth);
  const left = rtl ? originX + root.clientWidth - width : originX;
  const page = { left, top: originY, right: left + width, bottom: originY + Math.max(root.scrollHeight, root.clientHeight) };
  if (tooSmall(intersect(visible, page))) {
    return `off-screen: outside the page's scrollable area (at x ${px(own.left + view.scrollX)}, y ${px(own.top + view.scrollY)} px)`;
  }
  return readPaintProblem(element);
}

/** Input types whose value is text drawn in the control (not a box, a swatch or a slider). */
const NON_TEXT_INPUTS: ReadonlySet<string> = new Set(['checkbox', 'radio', 'range', 'color', 'file', 'hidden', 'image']);

/** Whether `element` shows a value as text: a text-like input, a textarea or a select. */
function showsText(element: Element): boolean {
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(element.type);
}

/**
 * The checks that need the page painted as it is, once the box is known to be on the page: for
 * a control that shows its value as text, that the text is inside its box (`text-indent` not
 * pushing it out, room left by the padding) and readable (text-legibility.ts: size, fill,
 * contrast against what is behind it); then that nothing covers it (cover-check.ts).
 */
function readPaintProblem(element: Element): string | undefined {
  if (showsText(element)) {
    const text = readTextStyleProblem(element);
    if (text) return text;
    const style = readComputedStyle(element);
    const inner = element.clientWidth - (Number.parseFloat(style.paddingLeft) || 0) - (Number.parseFloat(style.paddingRight) || 0);
    if (inner < MIN_VISIBLE_PX) return `no room for its text: ${px(inner)} px between its padding`;
    const indent = lengthOf(style.textIndent.split(/\s+/)[0], inner);
    if (!Number.isFinite(indent)) return `its text-indent ${style.textIndent} cannot be checked by the runtime`;
    if (indent <= -inner || indent >= inner - MIN_VISIBLE_PX) return `its text is pushed out of its box by text-indent ${style.textIndent}`;
  }
  return readCoverProblem(element);
}
