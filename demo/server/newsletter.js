import { isLongerThan } from './code-points.js';
import { readBody } from './contact-submission.js';
import { EMAIL_MAX_LENGTH } from './html/contact-form.js';
import { sendJSON } from './responses.js';

/** Largest newsletter request body read, in bytes. */
export const MAX_NEWSLETTER_BODY_BYTES = 4 * 1024;

/**
 * `POST <api-base>/newsletter` with `{"email": "…"}`: the demo's write endpoint. It wants the
 * session's CSRF token in `X-CSRF-TOKEN` (or `X-XSRF-TOKEN`), as Laravel does: without it, or with
 * the token of another session, 419. The address's length is counted in code points.
 * Answers 200 `{ capellAgentSchema: 1, data: { subscribed: email }, links }`, 422 `{ message,
 * errors }` for a bad address, 405 for other methods, 413 for a large body.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {(token: unknown) => boolean} isSessionToken whether a token belongs to the request's session
 * @param {string[]} subscriptions where accepted addresses are kept (in memory)
 */
export async function handleNewsletter(req, res, isSessionToken, subscriptions) {
  if (req.method !== 'POST') {
    sendJSON(req, res, 405, { message: `The ${req.method} method is not supported here; use POST.` }, { Allow: 'POST' });
    return;
  }
  const token = req.headers['x-csrf-token'] ?? req.headers['x-xsrf-token'];
  if (!isSessionToken(token)) {
    await readBody(req, MAX_NEWSLETTER_BODY_BYTES);
    sendJSON(req, res, 419, { message: 'CSRF token mismatch.' });
    return;
  }
  const body = await readBody(req, MAX_NEWSLETTER_BODY_BYTES);
  if (body === undefined) {
    sendJSON(req, res, 413, { message: 'The request body is too large.' });
    return;
  }
  /** @type {unknown} */
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const email = /** @type {{ email?: unknown } | undefined} */ (parsed)?.email;
  if (typeof email !== 'string' || isLongerThan(email, EMAIL_MAX_LENGTH) || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    sendJSON(req, res, 422, { message: 'The email field must be a valid email address.', errors: { email: ['The email field must be a valid email address.'] } });
    return;
  }
  subscriptions.push(email);
  sendJSON(req, res, 200, { capellAgentSchema: 1, data: { subscribed: email }, links: { next: null, previous: null } });
}
