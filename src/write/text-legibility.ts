/**
 * Whether text drawn with an element's computed style can be read against what is painted behind
 * it: a size a person can read, a fill that is not transparent, and some contrast against the
 * backdrop (the background colours and gradient stops of the element and its ancestors, down to
 * the first opaque one). Used for the values of the controls an agent fills (a field whose text
 * is coloured like its background is a honeypot) and for the label of the send button a person
 * is told to press (text hidden by colour is a disguise).
 * WCAG 2.2, 1.4.3 "Contrast (Minimum)": the contrast ratio and relative luminance used here.
 */
import { readComputedStyle } from './computed-style.js';
import { flatParent } from './flat-tree.js';

/** Below this computed `font-size`, in CSS px, text is too small to read. */
const MIN_TEXT_FONT_PX = 6;

/**
 * Below this WCAG contrast ratio between the text's fill and every colour behind it, the text
 * counts as coloured like its background (1 = the same colour, 21 = black on white).
 */
const MIN_TEXT_CONTRAST = 1.5;

/** Below this alpha (0–1) a text fill counts as transparent. */
const MIN_TEXT_ALPHA = 0.5;

/** An sRGB colour, channels 0–255, alpha 0–1. */
export interface RGBA {
  r: number;
  g: number;
  b: number;
  a: number;
}

const WHITE: RGBA = { r: 255, g: 255, b: 255, a: 1 };

/** A computed `rgb()`/`rgba()` colour, or undefined for another notation. */
function parseRGB(value: string): RGBA | undefined {
  const match = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value.trim());
  if (!match) return undefined;
  const alpha = match[4] === undefined ? 1 : match[4].endsWith('%') ? Number.parseFloat(match[4]) / 100 : Number.parseFloat(match[4]);
  return { r: Number(match[1]), g: Number(match[2]), b: Number(match[3]), a: alpha };
}

/**
 * A computed colour in sRGB. `rgb()` is read directly; any other space (`oklch()`, `color()`,
 * `lab()`) is painted on a 1×1 canvas of `doc` and read back, which is how the browser would
 * show it on an sRGB screen. @returns undefined when neither works (no canvas).
 */
export function readColour(value: string, doc: Document): RGBA | undefined {
  const direct = parseRGB(value);
  if (direct) return direct;
  const context = doc.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!context) return undefined;
  context.clearRect(0, 0, 1, 1);
  context.fillStyle = value;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
  return { r: r!, g: g!, b: b!, a: a! / 255 };
}

function luminance({ r, g, b }: RGBA): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG contrast ratio of two opaque colours (1–21). */
export function contrastOf(a: RGBA, b: RGBA): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `top` painted over the opaque `bottom` (source-over). */
function over(top: RGBA, bottom: RGBA): RGBA {
  const mix = (t: number, b: number) => t * top.a + b * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}


/** The colour stops of a computed gradient list (`linear-gradient(rgb(…) 0%, …)`), or undefined for `url()` or another image. */
function gradientColours(image: string, doc: Document): RGBA[] | undefined {
  if (/\burl\(|\bimage-set\(|\bcross-fade\(|\belement\(|\bpaint\(/i.test(image)) return undefined;
  if (!/gradient\(/i.test(image)) return undefined;
  const colours: RGBA[] = [];
  for (const match of image.matchAll(/(?:rgba?|color|oklch|oklab|lab|lch|hsla?|hwb)\([^()]*\)/gi)) {
    const colour = readColour(match[0], doc);
    if (!colour) return undefined;
    colours.push(colour);
  }
  return colours.length > 0 ? colours : undefined;
}

/**
 * The colours that can be painted behind `element`'s text: its own and its ancestors' background
 * colours and gradient stops, composited down to the first opaque background colour (white when
 * none is found: the canvas of a light page).
 * @returns the candidate backdrops (several for a gradient), or `{ reason }` when one layer is an
 *   image whose colours cannot be read (`url()`).
 */
function readBackdrops(element: Element): RGBA[] | { reason: string } {
  const layers: RGBA[][] = [];
  let base = WHITE;
  for (let at: Element | null = element; at; at = flatParent(at)) {
    const style = readComputedStyle(at);
    const colour = readColour(style.backgroundColor, element.ownerDocument);
    if (colour && colour.a >= 0.99) {
      base = colour;
      break;
    }
    if (style.backgroundImage && style.backgroundImage !== 'none') {
      const stops = gradientColours(style.backgroundImage, element.ownerDocument);
      if (!stops) return { reason: `its text is drawn over a background image (${style.backgroundImage.slice(0, 60)}) whose colours the runtime cannot check` };
      layers.push(stops);
    }
    if (colour && colour.a > 0) layers.push([colour]);
  }
  let backdrops = [base];
  for (const layer of layers.reverse()) backdrops = layer.flatMap((top) => backdrops.map((bottom) => over(top, bottom)));
  return backdrops;
}

function describe(colour: RGBA): string {
  const rgb = `${Math.round(colour.r)}, ${Math.round(colour.g)}, ${Math.round(colour.b)}`;
  return colour.a < 1 ? `rgba(${rgb}, ${Number(colour.a.toFixed(2))})` : `rgb(${rgb})`;
}

/**
 * Why text drawn in `element`'s own computed style cannot be read, or undefined: `font-size`
 * under MIN_TEXT_FONT_PX (6 px); a fill (`-webkit-text-fill-color`, which defaults to `color`)
 * with alpha under MIN_TEXT_ALPHA (0.5); or a contrast under MIN_TEXT_CONTRAST (1.5) against
 * every backdrop readBackdrops finds (the best one counts: over a gradient, text that stands
 * out from any part of it is read there). A backdrop that cannot be read refuses, saying so.
 * `text-shadow` and `-webkit-text-stroke` are not credited.
 * @returns e.g. `its text is transparent (-webkit-text-fill-color rgba(0, 0, 0, 0))`,
 *   `its text rgb(255, 255, 255) has no contrast against rgb(255, 255, 255) behind it (1:1)`.
 */
export function readTextStyleProblem(element: Element): string | undefined {
  const style = readComputedStyle(element);
  const size = Number.parseFloat(style.fontSize);
  if (!(size >= MIN_TEXT_FONT_PX)) return `its text is too small to read (font-size ${style.fontSize})`;
  const fillValue = style.getPropertyValue('-webkit-text-fill-color') || style.color;
  const fill = readColour(fillValue, element.ownerDocument);
  if (!fill) return `its text colour ${fillValue} cannot be read by the runtime`;
  const property = fillValue === style.color ? 'color' : '-webkit-text-fill-color';
  if (fill.a < MIN_TEXT_ALPHA) return `its text is transparent (${property} ${describe(fill)})`;
  const backdrops = readBackdrops(element);
  if ('reason' in backdrops) return backdrops.reason;
  const ratios = backdrops.map((backdrop) => ({ backdrop, ratio: contrastOf(over(fill, backdrop), backdrop) }));
  const best = ratios.sort((a, b) => b.ratio - a.ratio)[0]!;
  if (best.ratio < MIN_TEXT_CONTRAST) {
    return `its text ${describe(fill)} has no contrast against ${describe(best.backdrop)} behind it (${Number(best.ratio.toFixed(2))}:1)`;
  }
  return undefined;
}
