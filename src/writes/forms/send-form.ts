/**
 * Sending the person's submit with `fetch`, so the agent learns the HTTP status. Only ever
 * called from inside the person's own (trusted, consented) submit event.
 */
import type { JSONValue } from '../../declarations/tool-spec.js';
import { MAX_WRITE_ANSWER_BYTES, readWriteOutcome } from '../read-write-answer.js';
import { request } from '../../request.js';
import { readFormProperty } from './form-property.js';

/**
 * What came back: the final status, where the answer came from after redirects, and the site's
 * JSON answer (`answer`, bounded: writes/read-write-answer.ts) or why it was not kept (`answerNote`).
 */
export type FormSendOutcome =
  | { ok: true; httpStatus: number; url: string; redirected: boolean; answer?: JSONValue; answerNote?: string }
  | { ok: false; reason: string };

/**
 * Where a submit with `submitter` goes: its method (as written, e.g. `post`) and action (absolute
 * URL); the submitter's `formmethod`/`formaction` win over the form's, as in the browser.
 */
export function readSendTarget(form: HTMLFormElement, submitter: HTMLElement | null): { method: string; action: URL } {
  const button = submitter as HTMLButtonElement | HTMLInputElement | null;
  const method = button?.hasAttribute('formmethod') ? button.formMethod : readFormProperty(form, 'method');
  return { method, action: new URL(button?.hasAttribute('formaction') ? button.formAction : readFormProperty(form, 'action')) };
}

/**
 * The request the browser would make for this submit (HTML "form submission"): method and
 * action from the form or the submitter (`formmethod`, `formaction`), the data set with the
 * submitter's own name/value. `multipart/form-data` forms send a FormData body; others are sent
 * URL-encoded (a file control contributes its file name, as the browser does), GET in the query.
 * Must be called during the submit event: the data set is read then (`built`: the FormData the
 * caller already built and checked for this submit, so no `formdata` listener runs twice).
 * @returns `undefined` for what fetch cannot reproduce faithfully (`method="dialog"`,
 *   `enctype="text/plain"`): the caller lets the browser submit natively.
 */
export function toFormRequest(form: HTMLFormElement, submitter: HTMLElement | null, built?: FormData): { url: URL; init: RequestInit } | undefined {
  const button = submitter as HTMLButtonElement | HTMLInputElement | null;
  const target = readSendTarget(form, submitter);
  const method = target.method.toLowerCase();
  const enctype = button?.hasAttribute('formenctype') ? button.formEnctype : readFormProperty(form, 'enctype');
  if (method === 'dialog' || enctype === 'text/plain') return undefined;
  const data = built ?? new FormData(form, submitter);
  const url = target.action;
  if (method === 'get') {
    url.search = new URLSearchParams([...data].map(([key, value]) => [key, typeof value === 'string' ? value : value.name])).toString();
    return { url, init: { method: 'GET' } };
  }
  const body = enctype === 'multipart/form-data'
    ? data
    : new URLSearchParams([...data].map(([key, value]) => [key, typeof value === 'string' ? value : value.name]));
  return { url, init: { method: 'POST', body } };
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
