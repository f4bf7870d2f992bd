/**
 * Fetching the admin registry: `GET /admin/agent/v1/tools` (Capell admin, capell-app/capell
 * `packages/admin/routes/agent.php` @cdb7004: `web` + Filament `Authenticate` middleware) on the page's own
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
import { checkCapellDeclarationLazily, type CheckResult } from '../shared/declarations/check-declaration.js';
import { ADMIN_API_BASE } from '../registry/sources/admin-registry.js';
import type { Normalise, SourceUnit } from '../registry/sources/source.js';

/** Where the admin registry is served: `GET /admin/agent/v1/tools` (401 without a session). */
export const ADMIN_REGISTRY_PATH = `${ADMIN_API_BASE}/tools`;

/**
 * The binding the admin registry's normaliser gives every admin tool, as the Report says it was
 * named: `{"type":"endpoint","target":"/admin/agent/v1/page/properties"}` (compact JSON of the
 * definition's `binding`), or `no binding`.
 */
function describeBinding(binding: unknown): string {
  if (binding === undefined) return 'no binding';
  let text: string | undefined;
  try {
    text = JSON.stringify(binding);
  } catch {
    text = undefined;
  }
  return text === undefined ? 'the binding' : text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/**
 * The admin registry's rules for one definition (Capell admin, capell-app/capell packages/admin
 * `resources/js/agent/admin-bridge.js` @73e5701: the bridge registers every tool with an
 * `execute` that POSTs `{ tool, payload }` to the invoke route and never reads `binding`): the
 * definition's `binding` is replaced by `{ type: 'admin-invoke', target: <its name> }` before the
 * Capell rules run (check-declaration.ts with `adminRegistry: true`, so the admin binding is
 * allowed and the tool carries the editor's session, ToolSpec.session), whatever it named, and a
 * registered tool gets the warning `adminInvokeBinding` naming what the definition said (the
 * Report's audit, one entry per tool). Every other rule (name, description, schemas, effect) is
 * the island's. Never throws.
 */
export const normaliseAdminDeclaration: Normalise = (declaration, context) => {
  if (!isPlainObject(declaration)) return checkCapellDeclarationLazily(declaration, { ...context, adminRegistry: true });
  const named = describeBinding(declaration.binding);
  const target = typeof declaration.name === 'string' ? declaration.name : '';
  const bound = { ...declaration, binding: { type: 'admin-invoke', target } };
  const noted = (result: CheckResult): CheckResult => {
    if (!result.ok) return result;
    const warning: Reason = ['binding', 'adminInvokeBinding', named];
    return { ok: true, spec: { ...result.spec, warnings: Object.freeze([...(result.spec.warnings ?? []), warning]) } };
  };
  const checked = checkCapellDeclarationLazily(bound, { ...context, adminRegistry: true });
  return checked instanceof Promise ? checked.then(noted) : noted(checked);
};

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
 * The one-line `message` of a Laravel JSON error answer (`{ "message": "…" }`, Capell's admin: e.g.
 * 422 "The active site must come from the authenticated admin session."), cut to 200
 * characters, or `''`.
 */
function messageOf(parsed: ReturnType<typeof parseBoundedJSON>): string {
  const message = parsed.ok && isPlainObject(parsed.value) ? parsed.value.message : undefined;
  return typeof message === 'string' ? message.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
}

/**
 * Fetches the admin registry and reads it as a source unit (without its owner).
 * Capell admin (`src/Http/Agent/AgentAdminToolController.php` @73e5701, `definitions()`): the
 * answer is `{ "capellAgentSchema": 1, "tools": [definition, …] }`, each definition
 * `{ name, description, inputSchema, outputSchema, effect, binding }`, only the tools the signed-in
 * editor may use on the session's site.
 * @returns `declarations`: the answer's `tools` (checked later one by one);
 *   `fingerprint`: the answer's text. With no declarations and a `problem` (`(manifest)` in the
 *   Report): `adminSignedOut` for 401 (not signed in, or the session ended); `adminFetch` for
 *   another status (with the server's `message`, e.g. 403, or 422 "no active site") or no answer
 *   (request.ts' reason); `adminRegistry` for an answer that is not `capellAgentSchema: 1` with a
 *   `tools` array. Never rejects.
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
    const message = messageOf(parsed);
    return refused(['manifest', 'adminFetch', `${ADMIN_REGISTRY_PATH} answered ${status}${message ? `: ${message}` : ''}`]);
  }
  if (!parsed.ok) return refused(['manifest', 'adminRegistry', parsed.reason]);
  const envelope = parsed.value;
  if (!isPlainObject(envelope) || envelope.capellAgentSchema !== 1) return refused(['manifest', 'adminRegistry', 'capellAgentSchema is not 1']);
  if (!Array.isArray(envelope.tools)) return refused(['manifest', 'adminRegistry', 'tools is not an array']);
  return { fingerprint: outcome.text, declarations: envelope.tools, messages: {} };
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
