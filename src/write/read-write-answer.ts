/**
 * Reading a site's answer to a sent write within the answer bounds (request.ts reads at most
 * MAX_WRITE_ANSWER_BYTES; bindings/bounded-json.ts parses), so a huge or deeply nested answer can
 * neither fill the page's heap nor reach the agent.
 */
import { parseBoundedJSON } from '../registry/bounded-json.js';
import type { JSONValue } from '../shared/declarations/tool-spec.js';
import type { RequestOutcome } from '../registry/request.js';

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
 * The site's answer to a sent write as the agent gets it, from a response read (request.ts) within
 * MAX_WRITE_ANSWER_BYTES: when the Content-Type is JSON (`application/json`, `application/*+json`),
 * parsed within MAX_WRITE_ANSWER_DEPTH levels.
 * @param contentType the response's `Content-Type` header, or null.
 * @param read the body text, or the reason it was over the size bound.
 * @returns `{ text, answer }` for JSON within both bounds; `{ text }` for other content types;
 *   `{ note }` (no `answer`) for JSON over a bound or that does not parse; `{}` for a non-JSON
 *   body over the size bound.
 */
export function writeAnswerBody(contentType: string | null, read: { ok: true; text: string } | { ok: false; reason: string }): WriteAnswerBody {
  const json = isJSONType(contentType);
  if (!read.ok) return json ? { note: `${read.reason}; it was not kept` } : {};
  if (!json) return { text: read.text };
  const parsed = parseBoundedJSON(read.text, "the site's answer", { maxBytes: MAX_WRITE_ANSWER_BYTES, maxDepth: MAX_WRITE_ANSWER_DEPTH });
  return parsed.ok ? { text: read.text, answer: parsed.value as JSONValue } : { text: read.text, note: `${parsed.reason}; it was not kept` };
}

/**
 * A sent write's request outcome (request.ts, read with `maxAnswerBytes: MAX_WRITE_ANSWER_BYTES`)
 * as the write executors use it: the site's response and its answer body (an answer over the size
 * bound is still an answer: its status counts, its body is left out with a note), or the reason
 * no answer came (timeout, abort, network error or refused redirect, a `beforeSend` that threw).
 */
export function readWriteOutcome(sent: RequestOutcome): { response: Response; body: WriteAnswerBody } | { reason: string } {
  if (sent.ok || sent.failure === 'tooLarge') return { response: sent.response, body: writeAnswerBody(sent.response.headers.get('content-type'), sent) };
  return { reason: sent.reason };
}
