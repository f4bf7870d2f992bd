/**
 * Bounds on a site's answer before it reaches the validator or the agent: its
 * size, read from the stream so an oversized body never enters the heap whole, and its nesting
 * depth, counted without recursion so a deep answer can overflow nothing.
 */

/** Largest answer read, in bytes of the (decoded) body; larger bodies are cancelled unread. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** Deepest nesting of arrays and objects accepted in an answer (the root value is level 1). */
const MAX_ANSWER_DEPTH = 64;

/** The bounds `readBoundedJSON` applies: bytes and nesting levels. */
interface AnswerLimits {
  maxBytes: number;
  maxDepth: number;
}

/** MAX_ANSWER_BYTES and MAX_ANSWER_DEPTH. */
const ANSWER_LIMITS: AnswerLimits = { maxBytes: MAX_ANSWER_BYTES, maxDepth: MAX_ANSWER_DEPTH };

/** A bounded read: the text, or a one-line reason (`the answer from /x is larger than 1048576 bytes`). */
type BoundedText = { ok: true; text: string } | { ok: false; reason: string };

/** A bounded parse: the value, or a one-line reason; `notJSON` (the parser's message) marks text that is not JSON at all. */
type BoundedJSON = { ok: true; value: unknown } | { ok: false; reason: string; notJSON?: string };

const tooLarge = (what: string, maxBytes: number): string => `${what} is larger than ${maxBytes} bytes`;

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` bytes: a `Content-Length` over the
 * bound is refused before reading; otherwise the browser reads the body to its end (`text()`)
 * while a clone of it is counted, and once the count passes the bound `stop` is called and the
 * reading cancelled.
 *
 * Why a counted clone and not a `getReader()` loop over the body itself: in Chromium a fetch whose
 * own body stream is read to its end from script is often reported to DevTools as failed
 * (`net::ERR_ABORTED`) when its answer carries `Cache-Control: no-store` (as Core's read API
 * answers do), although every byte arrived: the stream's close stops the request before the
 * network reports it complete. DevTools-driven agents (Playwright MCP) then wait seconds for a
 * request they count as unfinished. `text()` lets the request finish; the clone's count keeps the
 * bound, so an oversized body never enters the heap whole.
 * @param what what the reason names, e.g. `the answer from /agent/v1/x`.
 * @param maxBytes the bound, in bytes of the (decoded) body. @default MAX_ANSWER_BYTES
 * @param stop stops the transfer once the bound is passed (request.ts aborts the fetch's signal);
 *   `text()` cannot be cancelled otherwise, so without it an oversized body is still read to its
 *   end by the browser, though refused. @default a no-op (for in-memory answers)
 * @returns the text, or a reason (`the answer from /x is larger than 1048576 bytes`); rejects like
 *   `Response#text` on a network error or an abort that is not the bound's.
 */
export async function readBoundedText(response: Response, what: string, maxBytes = MAX_ANSWER_BYTES, stop: () => void = () => {}): Promise<BoundedText> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, reason: tooLarge(what, maxBytes) };
  }
  if (!response.body) return { ok: true, text: '' };
  const counted = response.clone().body!.getReader();
  const text = response.text();
  // Handled here so that a bound that stops it leaves no unhandled rejection; any other failure
  // reaches the counter too, which rejects, or is awaited below.
  text.catch(() => undefined);
  let total = 0;
  for (;;) {
    const { done, value } = await counted.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      stop();
      await counted.cancel().catch(() => undefined);
      return { ok: false, reason: tooLarge(what, maxBytes) };
    }
  }
  return { ok: true, text: await text };
}

/**
 * Deepest nesting of `[`/`{` in JSON text, strings skipped; one pass, no recursion. Stops
 * counting at `stopAbove + 1`.
 */
export function jsonDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { // a string: skip to its closing quote
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 91 || c === 123) {
      if (++depth > deepest && (deepest = depth) > stopAbove) return deepest;
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/**
 * Parses JSON text within the limits: at most `maxBytes` bytes of UTF-8 and `maxDepth` levels.
 * @param what what the reason names, e.g. `the answer from /agent/v1/x`.
 * @returns the value, or a one-line reason naming `what` (too large, too deep, not JSON).
 */
export function parseBoundedJSON(text: string, what: string, limits: AnswerLimits = ANSWER_LIMITS): BoundedJSON {
  // Counting UTF-8 bytes needs an encode only when the UTF-16 length leaves it in doubt.
  if (text.length > limits.maxBytes || (text.length * 3 > limits.maxBytes && new TextEncoder().encode(text).length > limits.maxBytes)) {
    return { ok: false, reason: tooLarge(what, limits.maxBytes) };
  }
  if (jsonDepth(text, limits.maxDepth) > limits.maxDepth) {
    return { ok: false, reason: `${what} is nested deeper than ${limits.maxDepth} levels` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `${what} is not JSON (${(error as Error).message})`, notJSON: (error as Error).message };
  }
}

/**
 * Reads and parses a JSON response body within `limits` (readBoundedText, then parseBoundedJSON).
 * @param stop as readBoundedText's: stops the transfer once the byte bound is passed.
 * @returns the value, or a one-line reason; rejects on a network error or abort.
 */
export async function readBoundedJSON(response: Response, what: string, limits: AnswerLimits = ANSWER_LIMITS, stop?: () => void): Promise<BoundedJSON> {
  const read = await readBoundedText(response, what, limits.maxBytes, stop);
  return read.ok ? parseBoundedJSON(read.text, what, limits) : read;
}
