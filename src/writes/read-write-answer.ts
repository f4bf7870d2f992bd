/**
 * Reading a site's answer to a sent write within the answer bounds (bindings/bounded-json.ts), so a
 * huge or deeply nested answer can neither fill the page's heap nor reach the agent.
 */
import { readBoundedText, parseBoundedJSON } from '../bindings/bounded-json.js';
import type { JSONValue } from '../declarations/tool-spec.js';

/** Largest site answer kept for the agent, in bytes of the response body (64 KiB). */
export const MAX_WRITE_ANSWER_BYTES = 64 * 1024;

/** Deepest nesting of arrays and objects kept in a site answer. */
export const MAX_WRITE_ANSWER_DEPTH = 64;

/**
 * What was read: `text` (the body, when it fit), and for a JSON body the parsed `answer`, or
 * `note` saying why it was left out (too large, too deep, not valid JSON).
 */
export interface WriteAnswerBody {
  text?: string;
  answer?: JSONValue;
  note?: string;
}

function isJSONType(contentType: string | null): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test((contentType ?? '').trim());
}

/**
 * Reads at most MAX_WRITE_ANSWER_BYTES of `response`'s body (a larger body is cancelled unread
 * past the bound) and, when the Content-Type is JSON (`application/json`, `application/*+json`),
 * parses it within MAX_WRITE_ANSWER_DEPTH levels.
 * @returns `{ text, answer }` for JSON within both bounds; `{ text }` for other content types;
 *   `{ note }` (no `answer`) for JSON over a bound or that does not parse; `{}` for a non-JSON
 *   body over the size bound. Rejects like `Response#text` on a network error or abort.
 */
export async function readWriteAnswer(response: Response): Promise<WriteAnswerBody> {
  const json = isJSONType(response.headers.get('content-type'));
  const what = "the site's answer";
  const read = await readBoundedText(response, what, MAX_WRITE_ANSWER_BYTES);
  if (!read.ok) return json ? { note: `${read.reason}; it was not kept` } : {};
  if (!json) return { text: read.text };
  const parsed = parseBoundedJSON(read.text, what, { maxBytes: MAX_WRITE_ANSWER_BYTES, maxDepth: MAX_WRITE_ANSWER_DEPTH });
  return parsed.ok ? { text: read.text, answer: parsed.value as JSONValue } : { text: read.text, note: `${parsed.reason}; it was not kept` };
}
