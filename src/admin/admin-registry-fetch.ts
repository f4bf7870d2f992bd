/**
 * Fetching the admin registry: `GET /admin/agent/v1/tools` on the page's own
 * origin, with the signed-in editor's session (`credentials: 'same-origin'`), no redirects
 * (`redirect: 'error'`), never cached by the browser (`cache: 'no-store'`), bounded in size and
 * time, through the one request path (request.ts). Loaded by registry/sources/admin-registry.ts only on a
 * page with the `adminRegistry` option, where WebMCP exists.
 */
import { parseBoundedJSON } from '../registry/bounded-json.js';
import type { RuntimeConfig } from '../start/config.js';
import type { Reason } from '../shared/declarations/reason.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { request } from '../registry/request.js';
import { checkCapellDeclarationLazily } from '../shared/declarations/check-declaration.js';
import { ADMIN_API_BASE } from '../registry/sources/admin-registry.js';
import type { Normalise, SourceUnit } from '../registry/sources/source.js';

/** Where the admin registry is served: `GET /admin/agent/v1/tools` (401 without a session). */
export const ADMIN_REGISTRY_PATH = `${ADMIN_API_BASE}/tools`;

/**
 * The admin registry's rules for one declaration: the Capell rules (check-declaration.ts) with
 * `adminRegistry: true`, so the admin binding `admin-action` is allowed and the tool carries the
 * editor's session (ToolSpec.session). Never throws.
 */
export const normaliseAdminDeclaration: Normalise = (declaration, context) => checkCapellDeclarationLazily(declaration, { ...context, adminRegistry: true });

/** Largest admin registry answer read, in bytes. */
const MAX_ADMIN_REGISTRY_BYTES = 256 * 1024;

/** Longest the registry fetch may take, in ms (or the runtime's `timeoutMs` when shorter). */
const ADMIN_REGISTRY_TIMEOUT_MS = 10_000;

/** The registry's unit without its owner. */
type Reading = Omit<SourceUnit, 'owner'>;

function refused(problem: Reason): Reading {
  return { fingerprint: `\u0000failed ${JSON.stringify(problem)}`, declarations: [], messages: {}, problem };
}

/**
 * Fetches the admin registry and reads it as a source unit (without its owner).
 * @returns `declarations`: the envelope's `data` (Capell declarations, checked later one by one);
 *   `fingerprint`: the answer's text. With no declarations and a `problem` (`(manifest)` in the
 *   Report): `adminSignedOut` for 401 (not signed in, or the session ended); `adminFetch` for
 *   another status (with the server's one-line message) or no answer (request.ts' reason);
 *   `adminRegistry` for an answer that is not an envelope with a `data` array. Never rejects.
 */
async function fetchAdminRegistry(config: RuntimeConfig): Promise<Reading> {
  const url = new URL(ADMIN_REGISTRY_PATH, config.origin);
  const outcome = await request(url, {
    credentials: 'same-origin',
    redirect: 'error',
    cache: 'no-store',
    headers: { Accept: 'application/json' },
    timeoutMs: Math.min(config.timeoutMs, ADMIN_REGISTRY_TIMEOUT_MS),
    maxAnswerBytes: MAX_ADMIN_REGISTRY_BYTES,
    description: `the admin registry request to ${ADMIN_REGISTRY_PATH}`,
  });
  if (!outcome.ok) return refused(['manifest', 'adminFetch', outcome.reason]);
  const { status } = outcome.response;
  if (status === 401) return refused(['manifest', 'adminSignedOut']);
  const parsed = parseBoundedJSON(outcome.text, `the answer from ${ADMIN_REGISTRY_PATH}`);
  if (status !== 200) {
    // The admin API's error envelope `{ error: { code, message } }`: its one line, when there is one.
    const error = parsed.ok && isPlainObject(parsed.value) && isPlainObject(parsed.value.error) ? parsed.value.error.message : undefined;
    return refused(['manifest', 'adminFetch', `${ADMIN_REGISTRY_PATH} answered ${status}${typeof error === 'string' ? `: ${error.slice(0, 200)}` : ''}`]);
  }
  if (!parsed.ok) return refused(['manifest', 'adminRegistry', parsed.reason]);
  const envelope = parsed.value;
  if (!isPlainObject(envelope) || envelope.capellAgentSchema !== 1) return refused(['manifest', 'adminRegistry', 'capellAgentSchema is not 1']);
  if (!Array.isArray(envelope.data)) return refused(['manifest', 'adminRegistry', 'data is not an array']);
  return { fingerprint: outcome.text, declarations: envelope.data, messages: {} };
}

/** One owner per document: the registry's tools belong to it for the page's life. */
const owners = new WeakMap<Document, object>();

/** The reading per document, in flight or done; one that failed is dropped so the next update fetches again. */
const readings = new WeakMap<Document, Promise<SourceUnit>>();

/**
 * The admin source's units for a document: one unit, fetched once per document and reused by
 * later updates (so an unchanged registry is neither fetched nor checked again); a reading with a
 * problem (signed out, no answer) is fetched again by the next update. Never rejects.
 */
export async function readAdminRegistry(root: ParentNode, config: RuntimeConfig): Promise<SourceUnit[]> {
  const doc = (root as Node).ownerDocument ?? (root as Document);
  let owner = owners.get(doc);
  if (!owner) owners.set(doc, owner = Object.freeze({ adminRegistry: ADMIN_REGISTRY_PATH }));
  let reading = readings.get(doc);
  if (!reading) {
    const unitOwner = owner;
    reading = fetchAdminRegistry(config).then((unit) => ({ owner: unitOwner, ...unit }));
    readings.set(doc, reading);
  }
  const unit = await reading;
  if (unit.problem && readings.get(doc) === reading) readings.delete(doc);
  return [unit];
}
