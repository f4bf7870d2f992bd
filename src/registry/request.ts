/**
 * The one request path: every request the runtime makes (read GETs to Core's API, the person's
 * form send, write endpoint POSTs, later signed calls) goes through `request`, with one timeout,
 * one bounded answer read and one text per failure kind. Signing is a `beforeSend` hook, not a
 * copy of this module.
 */
import { MAX_ANSWER_BYTES, readBoundedText } from './bounded-json.js';
import { errorMessage } from '../shared/error-message.js';
import { primitives } from '../start/primitives.js';

/**
 * How to send one request.
 * - `method` (default `GET`), `credentials` (default `omit`: anonymous unless the caller says
 *   otherwise), `redirect` (default `error`: an answer from elsewhere is refused), `headers`,
 *   `body`, `cache` (default the browser's): as in `fetch`;
 * - `timeoutMs`: how long the whole request may take, sending and reading the answer, in ms;
 * - `signal`: the caller's abort (the agent's or `stop()`), told apart from the timeout;
 * - `beforeSend(request)`: runs on the built Request just before it is sent; returns a Request to
 *   send instead (e.g. signed, with added headers) or nothing to send it as it is. It may be
 *   async; when it throws, nothing is sent (`notSent`);
 * - `where`: the place reasons name (default: the URL's path and query, e.g. `/hook?list=all`);
 * - `description`: the request as reasons name it (default `the request to <where>`, e.g.
 *   `the person's submit to /contact`);
 * - `maxAnswerBytes`: largest answer body read (default MAX_ANSWER_BYTES); a larger one is
 *   cancelled unread past the bound (the fetch aborted). Every other answer is read to its end, so
 *   no request whose answer was used is reported aborted to DevTools (bounded-json.ts says why).
 */
interface RequestOptions {
  method?: string;
  credentials?: RequestCredentials;
  redirect?: RequestRedirect;
  cache?: RequestCache;
  timeoutMs: number;
  signal?: AbortSignal;
  headers?: HeadersInit;
  body?: BodyInit | null;
  beforeSend?: (request: Request) => Request | void | Promise<Request | void>;
  where?: string;
  description?: string;
  maxAnswerBytes?: number;
}

/**
 * Why a request gave no answer text: no answer within `timeoutMs` (`timeout`), the caller's
 * signal aborted it (`aborted`), a network error or a refused redirect (`network`), an answer
 * over `maxAnswerBytes` (`tooLarge`), or `beforeSend` threw (`notSent`).
 */
type RequestFailure = 'timeout' | 'aborted' | 'network' | 'tooLarge' | 'notSent';

/**
 * What came back; never thrown. `response` is the site's answer (status, headers, `url`,
 * `redirected`; its body already read into `text`). A `tooLarge` failure still carries the
 * response: the site answered, only its body was not kept.
 */
export type RequestOutcome =
  | { ok: true; response: Response; text: string }
  | { ok: false; failure: 'tooLarge'; reason: string; response: Response }
  | { ok: false; failure: Exclude<RequestFailure, 'tooLarge'>; reason: string };

/**
 * Sends one request and reads its answer as text within `maxAnswerBytes`.
 * @returns the response and its text, or a failure with a one-line reason, one text per kind:
 *   - timeout: `the request to /x was sent but no answer came within 5000 ms`;
 *   - aborted: `the call was aborted before /x answered`;
 *   - network: `the request to /x failed: network error or a redirect (redirects are refused) (…)`
 *     (with `redirect` other than `error`: `… failed: network error (…)`);
 *   - tooLarge: `the answer from /x is larger than 1048576 bytes` (bounded-json.ts);
 *   - notSent: `the request to /x was not sent: <beforeSend's error>`.
 *   Never throws; HTTP error statuses are answers (`ok: true`), the caller reads `response.status`.
 */
export async function request(url: URL, options: RequestOptions): Promise<RequestOutcome> {
  const where = options.where ?? `${url.pathname}${url.search}`;
  const description = options.description ?? `the request to ${where}`;
  const redirect = options.redirect ?? 'error';
  const timedOut: RequestOutcome = { ok: false, failure: 'timeout', reason: `${description} was sent but no answer came within ${options.timeoutMs} ms` };
  // One controller, aborted by the timer, by the caller's signal or when the answer passes
  // maxAnswerBytes. The timer is the realm's setTimeout, held until the request ends, and it also
  // ends the wait itself (the race below): AbortSignal.timeout and AbortSignal.any are the page's
  // to replace, and Node.js can collect a timeout signal followed through AbortSignal.any or a
  // cloned Request before it fires (nodejs/node#57736, nodejs/undici#4068), leaving the call waiting.
  const stop = new AbortController();
  let expire!: () => void;
  const expired = new Promise<RequestOutcome>((resolve) => { expire = () => resolve(timedOut); });
  const timer = primitives.setTimeout(() => {
    expire();
    stop.abort(new DOMException(timedOut.reason, 'TimeoutError'));
  }, options.timeoutMs);
  const follow = () => stop.abort(options.signal!.reason);
  if (options.signal?.aborted) follow();
  else if (options.signal) primitives.addEventListener(options.signal, 'abort', follow, { once: true });
  const { signal } = stop;
  try {
    let sent: Request;
    try {
      // The realm's Request and fetch as they were at start, given the URL's own href: a page that
      // replaced `fetch`, `Request` or `URL.prototype.toString` since changes neither what is sent
      // nor where (primitives.ts).
      sent = new primitives.Request(primitives.href(url), {
        method: options.method ?? 'GET',
        credentials: options.credentials ?? 'omit',
        redirect,
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.body !== undefined ? { body: options.body } : {}),
        ...(options.cache !== undefined ? { cache: options.cache } : {}),
        signal,
      });
      if (options.beforeSend) sent = (await options.beforeSend(sent)) ?? sent;
    } catch (error) {
      return { ok: false, failure: 'notSent', reason: `${description} was not sent: ${errorMessage(error)}` };
    }
    const answered = (async (): Promise<RequestOutcome> => {
      try {
        // The signal again: a Request built by the hook may not carry it.
        const response = await primitives.fetch(sent, { signal });
        const read = await readBoundedText(response, `the answer from ${where}`, options.maxAnswerBytes ?? MAX_ANSWER_BYTES, () => stop.abort());
        return read.ok ? { ok: true, response, text: read.text } : { ok: false, failure: 'tooLarge', reason: read.reason, response };
      } catch (error) {
        if (options.signal?.aborted) return { ok: false, failure: 'aborted', reason: `the call was aborted before ${where} answered` };
        if (signal.aborted && signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError') return timedOut;
        const kind = redirect === 'error' ? 'network error or a redirect (redirects are refused)' : 'network error';
        return { ok: false, failure: 'network', reason: `${description} failed: ${kind} (${errorMessage(error)})` };
      }
    })();
    return await primitives.race([answered, expired]);
  } finally {
    primitives.clearTimeout(timer);
    if (options.signal) primitives.removeEventListener(options.signal, 'abort', follow);
  }
}
