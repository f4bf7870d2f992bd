/**
 * A write's answers: what a write call and `capell.write.status` answer the agent (the statuses of
 * a write, the one-sentence `next` step an agent can act on, the compact JSON shapes; pure, no DOM,
 * so tests and the docs, docs/writes-and-consent.md, can quote the same sentences), and how the
 * site's answer to a sent write is read: within the answer bounds (request.ts reads at most
 * MAX_WRITE_ANSWER_BYTES; bounded-json.ts parses), so a huge or deeply nested answer can neither
 * fill the page's heap nor reach the agent, and by the session-expired rule.
 */
import { parseBoundedJSON } from '../registry/bounded-json.js';
import type { RequestOutcome } from '../registry/request.js';
import type { JSONValue } from '../shared/declarations/tool-spec.js';
import { WRITE_STATUS_TOOL } from '../registry/write-status-tool.js';

/**
 * Final statuses, one word each:
 * - `submitted`: the person sent it (`httpStatus` when the runtime sent it; `answer` when the
 *   site answered JSON; `sentBy: 'site'` when the person's click went to the site's own page
 *   script, which sends the form its own way: then never `httpStatus`, and `siteShowed` /
 *   `fieldErrors` once the site redrew);
 * - `failed`: the person sent it, but the request failed or the site refused it (HTTP 419/403;
 *   a write endpoint's non-2xx); `reason` says which (the call itself answered `isError`);
 * - `cancelled`: the person pressed Cancel or Escape;
 * - `expired`: `confirmTimeoutMs` passed without a decision (values restored, panel closed);
 * - `superseded`: a newer proposal for the same form or write endpoint tool replaced it;
 * - `aborted`: the agent's call was aborted while it waited, the runtime stopped, or the page was left.
 */
export type FinalWriteStatus = 'submitted' | 'failed' | 'cancelled' | 'expired' | 'superseded' | 'aborted';

/**
 * Statuses that are not final: `awaiting_person` (the proposal is on screen) and `sending`
 * (the person sent it; the site has not answered yet).
 */
type OpenWriteStatus = 'awaiting_person' | 'sending';

/** Any status of a write. */
type WriteStatusName = FinalWriteStatus | OpenWriteStatus;

/** The one-sentence `next` step of every status but `submitted`. */
export const NEXT_STEPS = {
  awaiting_person: `The person has the proposal on screen; call ${WRITE_STATUS_TOOL} with this writeId to learn the outcome.`,
  sending: `The person sent it and the site has not answered yet; call ${WRITE_STATUS_TOOL} with this writeId to learn the outcome.`,
  failed: 'It did not go through (see reason); call the tool again only if the person asks.',
  cancelled: 'The person cancelled and nothing was sent; propose again only if the person asks.',
  expired: 'The person did not decide in time, nothing was sent and their values were restored; propose again only if they still want it.',
  superseded: `A newer proposal replaced this one and nothing was sent for it; follow supersededBy with ${WRITE_STATUS_TOOL}.`,
  aborted: 'The proposal was withdrawn before the person decided and nothing was sent; call the tool again if still needed.',
} as const satisfies Record<Exclude<WriteStatusName, 'submitted'>, string>;

/**
 * The `next` step of a write sent by the site's own script (`sentBy: 'site'`) while the site has
 * not yet shown what became of it (no `siteShowed`, no `fieldErrors`).
 */
export const SITE_SENT_NEXT = `The person's click went to this site's own page script, which sends the form its own way; call ${WRITE_STATUS_TOOL} with this writeId to learn what the site showed.`;

/**
 * Everything known about one write (what `capell.write.status` answers, with `tool`):
 * `expiresAt` is an ISO time (only while `awaiting_person`); `httpStatus` and `answer` for a
 * sent request; `answerNote` when the site's JSON answer was not kept (too large or too deep),
 * or, for an executed admin write, does not match the tool's outputSchema;
 * `reason` for `failed`; `supersededBy` the newer writeId for `superseded`; `refused` the latest
 * act of the person that was refused while the proposal was open, and why (one line: e.g. a
 * click on a submit button the page added after the panel showed; nothing was sent by it).
 */
export interface WriteRecord {
  writeId: string;
  tool: string;
  status: WriteStatusName;
  expiresAt: string;
  httpStatus?: number;
  answer?: JSONValue;
  answerNote?: string;
  reason?: string;
  supersededBy?: string;
  refused?: string;
  /** `'site'`: the person's click went to the site's own page script, which sent the form (the runtime saw no request). */
  sentBy?: 'site';
  /** What the site drew in the form's component after that click (a `role="status"`/`"alert"` text, one line). */
  siteShowed?: string;
  /** Per tool input key, the error the site showed for its control after that click (one line each). */
  fieldErrors?: Record<string, string>;
}

/** The compact answer for a record: only the fields that matter for its status, plus `next`. */
function compact(record: WriteRecord, withTool: boolean): Record<string, JSONValue> {
  const out: Record<string, JSONValue> = { status: record.status };
  if (withTool) out.tool = record.tool;
  // Sent by the site's script and nothing seen of it yet: the agent asks again with the writeId.
  const siteUnseen = record.sentBy === 'site' && record.siteShowed === undefined && record.fieldErrors === undefined;
  if (record.status === 'awaiting_person' || record.status === 'sending' || siteUnseen) {
    out.writeId = record.writeId;
    if (record.status === 'awaiting_person') out.expiresAt = record.expiresAt;
  }
  if (record.httpStatus !== undefined) out.httpStatus = record.httpStatus;
  if (record.answer !== undefined) out.answer = record.answer;
  if (record.answerNote !== undefined) out.answerNote = record.answerNote;
  if (record.reason !== undefined) out.reason = record.reason;
  if (record.supersededBy !== undefined) out.supersededBy = record.supersededBy;
  if (record.sentBy !== undefined) out.sentBy = record.sentBy;
  if (record.siteShowed !== undefined) out.siteShowed = record.siteShowed;
  if (record.fieldErrors !== undefined) out.fieldErrors = { ...record.fieldErrors };
  if (record.refused !== undefined && record.status !== 'submitted') out.refused = record.refused;
  if (record.status !== 'submitted') out.next = NEXT_STEPS[record.status];
  else if (siteUnseen) out.next = SITE_SENT_NEXT;
  return out;
}

/**
 * What the write call itself answers (no `tool`: the agent knows which tool it called), e.g.
 * `{ "status": "awaiting_person", "writeId": "…", "expiresAt": "2026-…Z", "next": "…" }` or
 * `{ "status": "submitted", "httpStatus": 200, "answer": {…} }`. A `failed` write is not
 * answered with this: the call resolves `isError` with `reason` (write executors do that).
 */
export function callAnswer(record: WriteRecord): Record<string, JSONValue> {
  return compact(record, false);
}

/** What `capell.write.status` answers for a known writeId: `callAnswer` plus `tool`. */
export function statusAnswer(record: WriteRecord): Record<string, JSONValue> {
  return compact(record, true);
}

/** Largest site answer kept for the agent, in bytes of the response body (64 KiB). */
export const MAX_WRITE_ANSWER_BYTES = 64 * 1024;

/** Deepest nesting of arrays and objects kept in a site answer. */
const MAX_WRITE_ANSWER_DEPTH = 64;

/**
 * What was read: `text` (the body, when it fit), and for a JSON body the parsed `answer`, or
 * `note` saying why it was left out (too large, too deep, not valid JSON).
 */
interface WriteAnswerBody {
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
function writeAnswerBody(contentType: string | null, read: { ok: true; text: string } | { ok: false; reason: string }): WriteAnswerBody {
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

/** HTTP statuses that mean the session or its CSRF token is no longer accepted (Laravel: 419). */
const SESSION_EXPIRED_STATUSES: ReadonlySet<number> = new Set([403, 419]);

/**
 * The reason for an answer that says the session expired (SESSION_EXPIRED_STATUSES), or
 * `undefined` for any other status.
 * @param where the path (and query) the request went to, as the reason names it.
 * @returns e.g. `the session expired or its CSRF token was refused (HTTP 419 from /contact);
 *   the person should reload the page and try again`.
 */
export function sessionExpiredReason(httpStatus: number, where: string): string | undefined {
  if (!SESSION_EXPIRED_STATUSES.has(httpStatus)) return undefined;
  return `the session expired or its CSRF token was refused (HTTP ${httpStatus} from ${where}); the person should reload the page and try again`;
}
