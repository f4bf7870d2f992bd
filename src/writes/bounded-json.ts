/**
 * Reading a site's answer to a sent write with a size and depth bound, so a huge or deeply
 * nested answer can neither fill the page's heap nor reach the agent. A small local reader; the
 * runtime's shared `readBoundedJSON` (read bindings) may replace it when the branches are merged.
 */
import type { JSONValue } from '../declarations/tool-spec.js';

/** Largest site answer kept for the agent, in bytes of the response body (64 KiB). */
export const MAX_WRITE_ANSWER_BYTES = 64 * 1024;

/** Deepest nesting of arrays and objects kept in a site answer. */
export const MAX_WRITE_ANSWER_DEPTH = 64;

/**
 * What was read: `text` (the body, when it fit), and for a JSON body the parsed `answer`, or
 * `note` saying why it was left out (too large, too deep, not valid JSON).
 */
export interface BoundedBody {
  text?: string;
  answer?: JSONValue;
  note?: string;
}

function isJSONType(contentType: string | null): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test((contentType ?? '').trim());
}

function depthOf(value: unknown): number {
  // Iterative: a recursive walk of a hostile answer could overflow the stack.
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > MAX_WRITE_ANSWER_DEPTH) return deepest;
    for (const child of Object.values(node as object)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Reads at most `maxBytes` of `response`'s body (then cancels the rest) and, when the
 * Content-Type is JSON (`application/json`, `application/*+json`), parses it.
 * @returns `{ text, answer }` for JSON that fits both bounds; `{ text }` for other content
 *   types; `{ note }` (no `answer`) for JSON over MAX_WRITE_ANSWER_BYTES or MAX_WRITE_ANSWER_DEPTH
 *   or that does not parse; `{}` when the body cannot be read. Never throws.
 */
export async function readBoundedJSON(response: Response, maxBytes = MAX_WRITE_ANSWER_BYTES): Promise<BoundedBody> {
  const json = isJSONType(response.headers.get('content-type'));
  const reader = response.body?.getReader();
  if (!reader) return json ? { note: 'the site answered no body' } : {};
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        void reader.cancel().catch(() => undefined);
        return json ? { note: `the site's answer was larger than ${maxBytes} bytes and was not kept` } : {};
      }
      chunks.push(value);
    }
  } catch {
    return {};
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const text = new TextDecoder().decode(bytes);
  if (!json) return { text };
  let answer: JSONValue;
  try {
    answer = JSON.parse(text) as JSONValue;
  } catch {
    return { text, note: 'the site\'s answer was not valid JSON and was not kept' };
  }
  if (depthOf(answer) > MAX_WRITE_ANSWER_DEPTH) return { text, note: `the site's answer was nested deeper than ${MAX_WRITE_ANSWER_DEPTH} levels and was not kept` };
  return { text, answer };
}
