/**
 * Sending the person's submit with `fetch`, so the agent learns the HTTP status. Only ever
 * called from inside the person's own (trusted, consented) submit event.
 */
import { readFormProperty } from './form-property.js';

/** What came back: the final status, and where the answer came from after redirects. */
export type FormSendOutcome =
  | { ok: true; httpStatus: number; url: string; redirected: boolean }
  | { ok: false; reason: string };

/**
 * The request the browser would make for this submit (HTML "form submission"): method and
 * action from the form or the submitter (`formmethod`, `formaction`), the data set with the
 * submitter's own name/value. `multipart/form-data` forms send a FormData body; others are sent
 * URL-encoded (a file control contributes its file name, as the browser does), GET in the query.
 * Must be called during the submit event: the data set is read then.
 * @returns `undefined` for what fetch cannot reproduce faithfully (`method="dialog"`,
 *   `enctype="text/plain"`): the caller lets the browser submit natively.
 */
export function toFormRequest(form: HTMLFormElement, submitter: HTMLElement | null): { url: URL; init: RequestInit } | undefined {
  const button = submitter as HTMLButtonElement | HTMLInputElement | null;
  const method = (button?.hasAttribute('formmethod') ? button.formMethod : readFormProperty(form, 'method')).toLowerCase();
  const enctype = button?.hasAttribute('formenctype') ? button.formEnctype : readFormProperty(form, 'enctype');
  const action = button?.hasAttribute('formaction') ? button.formAction : readFormProperty(form, 'action');
  if (method === 'dialog' || enctype === 'text/plain') return undefined;
  const data = new FormData(form, submitter);
  const url = new URL(action);
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
 * Sends a form request same-origin with the person's cookies (`credentials: 'same-origin'`: it
 * is their submit, as the browser would send it), following redirects as a navigation would.
 * @param timeoutMs how long to wait for the answer, in ms.
 * @returns the final status, or a one-line reason (network error, timeout).
 */
export async function sendFormRequest(request: { url: URL; init: RequestInit }, timeoutMs: number): Promise<FormSendOutcome> {
  const where = `${request.url.pathname}${request.url.search}`;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(request.url, { ...request.init, credentials: 'same-origin', redirect: 'follow', signal: timeout });
    // The body is not needed, but reading it lets the connection be reused.
    await response.arrayBuffer().catch(() => undefined);
    return { ok: true, httpStatus: response.status, url: response.url, redirected: response.redirected };
  } catch (error) {
    if (timeout.aborted) return { ok: false, reason: `the person's submit went to ${where} but no answer came within ${timeoutMs} ms` };
    return { ok: false, reason: `the person's submit to ${where} failed: network error (${(error as Error).message})` };
  }
}
