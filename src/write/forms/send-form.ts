/**
 * Sending the person's submit with `fetch`, so the agent learns the HTTP status. Only ever
 * called from inside the person's own (trusted, consented) submit event.
 */
import type { JSONValue } from '../../shared/declarations/tool-spec.js';
import { MAX_WRITE_ANSWER_BYTES, readWriteOutcome } from '../write-answers.js';
import { request } from '../../registry/request.js';
import { parseURL } from '../../shared/parse-url.js';
import { primitives } from '../../start/primitives.js';
import type { Destination } from './send-controls.js';

/**
 * What came back: the final status, where the answer came from after redirects, and the site's
 * JSON answer (`answer`, bounded: write-answers.ts) or why it was not kept (`answerNote`).
 */
type FormSendOutcome =
  | { ok: true; httpStatus: number; url: string; redirected: boolean; answer?: JSONValue; answerNote?: string }
  | { ok: false; reason: string };

/**
 * The request the browser would make for a submit to `destination` (HTML "form submission") with
 * `entries` (the snapshot the panel showed, entry-list.ts, never a FormData built from the form
 * now), built with the realm's FormData, URLSearchParams and URL as they were at start
 * (primitives.ts): `multipart/form-data` sends a FormData body; others are sent URL-encoded (a
 * file contributes its file name, as the browser does), GET in the query.
 * @returns `undefined` for what fetch cannot reproduce faithfully (`method="dialog"`,
 *   `enctype="text/plain"`): the caller lets the browser submit natively.
 */
export function toFormRequest(destination: Destination, entries: readonly (readonly [string, string | File])[]): { url: URL; init: RequestInit } | undefined {
  const { method, enctype } = destination;
  if (method === 'dialog' || enctype === 'text/plain') return undefined;
  const pairs = () => new primitives.URLSearchParams(entries.map(([key, value]) => [key, typeof value === 'string' ? value : value.name]));
  if (method === 'get') {
    // The action's query is replaced and its fragment dropped, as a GET submission does.
    const { href } = parseURL(destination.action);
    return { url: new primitives.URL(`${href.split('#')[0]!.split('?')[0]}?${primitives.encode(pairs())}`), init: { method: 'GET' } };
  }
  if (enctype !== 'multipart/form-data') return { url: new primitives.URL(destination.action), init: { method: 'POST', body: pairs() } };
  const data = new primitives.FormData();
  for (const [name, value] of entries) primitives.append(data, name, value);
  return { url: new primitives.URL(destination.action), init: { method: 'POST', body: data } };
}

/**
 * Sends a form request (request.ts) same-origin with the person's cookies (`credentials:
 * 'same-origin'`: it is their submit, as the browser would send it), following redirects as a
 * navigation would.
 * @param timeoutMs how long to wait for the answer, in ms.
 * @returns the final status (with the site's JSON answer when it answered JSON within
 *   MAX_WRITE_ANSWER_BYTES), or a one-line reason naming `the person's submit to <path>` (network
 *   error, timeout).
 */
export async function sendFormRequest(form: { url: URL; init: RequestInit }, timeoutMs: number): Promise<FormSendOutcome> {
  const where = `${form.url.pathname}${form.url.search}`;
  // The answer is read (bounded) also when it is not JSON: that lets the connection be reused.
  const sent = readWriteOutcome(await request(form.url, {
    method: form.init.method ?? 'GET', body: form.init.body ?? null, credentials: 'same-origin', redirect: 'follow',
    timeoutMs, where, description: `the person's submit to ${where}`, maxAnswerBytes: MAX_WRITE_ANSWER_BYTES,
  }));
  if ('reason' in sent) return { ok: false, reason: sent.reason };
  const { response, body: { answer, note } } = sent;
  const outcome: FormSendOutcome = { ok: true, httpStatus: response.status, url: response.url, redirected: response.redirected };
  if (answer !== undefined) outcome.answer = answer;
  if (note !== undefined) outcome.answerNote = note;
  return outcome;
}
