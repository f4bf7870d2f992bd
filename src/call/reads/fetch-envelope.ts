/**
 * One anonymous, same-origin GET to Core's read API, answered with the versioned envelope
 * `{ capellAgentSchema: 1, data, links: { next, previous } }` (Capell Agent Schema, "What is public").
 */
import type { JSONValue } from '../../shared/declarations/tool-spec.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { parseBoundedJSON } from '../../registry/bounded-json.js';
import { request } from '../../registry/request.js';
import { serverMessage } from '../server-message.js';

/** A Capell Agent Schema v1 envelope. */
export interface Envelope {
  capellAgentSchema: 1;
  data: JSONValue;
  links: { next: string | null; previous: string | null };
}

/** Outcome of `fetchEnvelope`; never thrown. */
type EnvelopeOutcome = { ok: true; envelope: Envelope } | { ok: false; reason: string };

/** Why a value is not an envelope, or `undefined` when it is one. */
export function checkEnvelope(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'the answer is not a JSON object';
  if (value.capellAgentSchema !== 1) return `capellAgentSchema is ${JSON.stringify(value.capellAgentSchema) ?? 'missing'}, expected 1`;
  if (!('data' in value)) return 'data is missing';
  const { links } = value;
  if (!isPlainObject(links)) return 'links is missing';
  for (const key of ['next', 'previous'] as const) {
    if (links[key] !== null && typeof links[key] !== 'string') return `links.${key} must be a URL or null`;
  }
  return undefined;
}


/**
 * GETs `url` (request.ts) with `Accept: application/json`, `credentials: 'omit'` (public reads are
 * anonymous by contract, so an editor's session never widens a public tool) and `redirect: 'error'`
 * (no answer from elsewhere), aborting on `signal` or after `timeoutMs`. Reasons name the path only,
 * not the query (the agent's input).
 * @param credentials `'omit'` for every public read; `'same-origin'` only for an admin registry
 *   tool (ToolSpec.session), whose read is the signed-in editor's. @default 'omit'
 * @returns the envelope, or a one-line reason: network failure or refused redirect, timeout,
 *   abort (request.ts texts), HTTP status (with the server's `message`), a body over
 *   MAX_ANSWER_BYTES or nested deeper than MAX_ANSWER_DEPTH (bounded-json.ts), a body that is not
 *   JSON, a wrong envelope.
 */
export async function fetchEnvelope(
  url: URL, signal: AbortSignal | undefined, timeoutMs: number, credentials: 'omit' | 'same-origin' = 'omit',
): Promise<EnvelopeOutcome> {
  const where = url.pathname;
  const sent = await request(url, {
    method: 'GET', headers: { Accept: 'application/json' }, credentials, redirect: 'error', timeoutMs, where,
    ...(signal ? { signal } : {}),
  });
  if (!sent.ok) return sent;
  const { response, text: body } = sent;
  if (!response.ok) return { ok: false, reason: `HTTP ${response.status} from ${where}${serverMessage(body)}` };
  const parsing = parseBoundedJSON(body, `the answer from ${where}`);
  if (!parsing.ok) {
    const type = response.headers.get('content-type') ?? 'no content type';
    return { ok: false, reason: parsing.notJSON ? `the answer from ${where} is not JSON (${type})` : parsing.reason };
  }
  const parsed = parsing.value;
  const problem = checkEnvelope(parsed);
  if (problem) return { ok: false, reason: `the answer from ${where} is not a Capell Agent Schema envelope: ${problem}` };
  return { ok: true, envelope: parsed as Envelope };
}
