/**
 * Fetching an AgentGate manifest: `/.well-known/agentgate-tools.json`, or
 * with a site key `/v1/agent-tools/{siteKey}`, on the page's own origin; anonymous
 * (`credentials: 'omit'`), no redirects (`redirect: 'error'`), bounded in size and time, through
 * the one request path (request.ts). Loaded by registry/sources/agentgate.ts only on a page that names
 * AgentGate, where WebMCP exists.
 *
 * The manifest is cached only in the browser's HTTP cache, revalidated on every read
 * (`cache: 'no-cache'`: the browser sends its own copy's ETag and hands back its own body on a
 * 304), never in IndexedDB or other storage: any script of the origin can write those, and a
 * manifest forged there under the real ETag would stand on every later visit.
 */
import type { RuntimeConfig } from '../../start/config.js';
import { readAgentGateNamings, type AgentGateNaming } from './agentgate-naming.js';
import type { SourceUnit } from '../../registry/sources/source.js';
import { readAgentGateManifest } from './manifest-rules.js';

/** Path of the manifest found by host. */
const AGENTGATE_WELL_KNOWN_PATH = '/.well-known/agentgate-tools.json';

/** Prefix of the manifest found by site key: `/v1/agent-tools/{siteKey}`. */
const AGENTGATE_SITE_KEY_PREFIX = '/v1/agent-tools/';

/** Largest manifest read, in bytes. */
const MAX_MANIFEST_BYTES = 256 * 1024;

/** Longest a manifest fetch may take, in ms (or the runtime's `timeoutMs` when shorter). */
const MANIFEST_TIMEOUT_MS = 10_000;

/**
 * The manifest URL the options name, or undefined when AgentGate is off.
 * @example agentGateManifestURL({ origin: 'https://shop.example', agentgate: true, agentgateSiteKey: 'site_demo' })
 * // → URL https://shop.example/v1/agent-tools/site_demo
 */
export function agentGateManifestURL(config: Pick<RuntimeConfig, 'origin' | 'agentgate' | 'agentgateSiteKey'>): URL | undefined {
  if (!config.agentgate) return undefined;
  const path = config.agentgateSiteKey === undefined
    ? AGENTGATE_WELL_KNOWN_PATH
    : `${AGENTGATE_SITE_KEY_PREFIX}${encodeURIComponent(config.agentgateSiteKey)}`;
  return new URL(path, config.origin);
}

/** A manifest's unit (without its owner) from its text: its tools, or the reason it is refused. */
function unitOfText(text: string): Omit<SourceUnit, 'owner'> {
  const reading = readAgentGateManifest(text);
  return reading.problem
    ? { fingerprint: text, declarations: [], messages: {}, problem: reading.problem }
    : { fingerprint: text, declarations: reading.tools, messages: {} };
}

/**
 * Fetches a manifest and reads it as a source unit (without its owner), revalidated through the
 * browser's HTTP cache (`cache: 'no-cache'`: a site that serves it with an ETag answers 304 and
 * the browser hands back its own copy's body).
 * @returns `fingerprint` (the manifest's text: an unchanged manifest is not normalised again),
 *   `declarations` (its tools), and `problem` when the whole manifest is refused: not fetched
 *   (`agentgateFetch`, with the request path's reason or the status), or not a manifest
 *   (`readAgentGateManifest`'s reasons). Never rejects.
 */
async function fetchAgentGateManifest(url: URL, config: RuntimeConfig): Promise<Omit<SourceUnit, 'owner'>> {
  const failed = (reason: string): Omit<SourceUnit, 'owner'> => (
    { fingerprint: `\u0000failed ${reason}`, declarations: [], messages: {}, problem: ['manifest', 'agentgateFetch', reason] }
  );
  if (url.origin !== config.origin) return failed(`${url.href} is not on this page's origin`);
  // The request path is in the registry chunk, loaded before this one.
  const { request } = await import('../../registry/request.js');
  const outcome = await request(url, {
    credentials: 'omit',
    redirect: 'error',
    headers: { Accept: 'application/json' },
    cache: 'no-cache',
    timeoutMs: Math.min(config.timeoutMs, MANIFEST_TIMEOUT_MS),
    maxAnswerBytes: MAX_MANIFEST_BYTES,
    description: `the AgentGate manifest request to ${url.pathname}`,
  });
  if (!outcome.ok) return failed(outcome.reason);
  if (outcome.response.status !== 200) return failed(`${url.pathname} answered ${outcome.response.status}`);
  return unitOfText(outcome.text);
}

/** One owner object per manifest URL: the unit's tools belong to it for the page's life. */
const owners = new Map<string, object>();

/** Readings in flight or done, per document and manifest URL; a failed one is dropped so the next update retries. */
const readings = new WeakMap<Document, Map<string, Promise<SourceUnit>>>();

function ownerOf(url: string): object {
  let owner = owners.get(url);
  if (!owner) {
    owner = Object.freeze({ manifest: url });
    owners.set(url, owner);
  }
  return owner;
}

/**
 * The manifest URL one naming gives, on the page's own origin: `/v1/agent-tools/{siteKey}` with a
 * site key, the well-known path without. Nothing a page writes can make it another origin or path.
 */
export function manifestURLOf(origin: string, naming: AgentGateNaming): URL {
  return agentGateManifestURL({ origin, agentgate: true, ...(naming.siteKey === undefined ? {} : { agentgateSiteKey: naming.siteKey }) })!;
}

/**
 * The AgentGate source's units for a document (registry/sources/agentgate.ts): one per distinct manifest
 * URL the namings give (the script tag's and the islands': two that name the same manifest fetch
 * it once and share one unit), in the order first named. Each is owned by one object per
 * manifest URL, read once per document and reused by later updates (a manifest that could not be
 * fetched is fetched again by the next update). A manifest no naming names any more is not
 * returned, so the registry removes its tools; named again, it comes back from the reading kept.
 * @param namings what names AgentGate on the page (agentgate/discover/agentgate-naming.ts); by default the
 *   options' naming alone.
 * @returns `[]` when nothing names AgentGate. Never rejects.
 */
async function readAgentGateUnits(
  root: ParentNode, config: RuntimeConfig,
  namings: readonly AgentGateNaming[] = config.agentgate ? [config.agentgateSiteKey === undefined ? {} : { siteKey: config.agentgateSiteKey }] : [],
): Promise<SourceUnit[]> {
  const urls = [...new Map(namings.map((naming) => {
    const url = manifestURLOf(config.origin, naming);
    return [url.href, url] as const;
  })).values()];
  const doc = (root as Node).ownerDocument ?? (root as Document);
  return Promise.all(urls.map((url) => readManifestUnit(doc, url, config)));
}

/** One owner per island whose `agentgate` member is refused, so its problem is one Report entry while it stands. */
const refusedMembers = new WeakMap<Element, object>();

/**
 * The AgentGate source's units when something may name AgentGate (registry/sources/agentgate.ts): every
 * naming on the page (`readAgentGateNamings`: the options', then each island's member), one unit
 * per manifest named (`readAgentGateUnits`), followed by one unit per island whose `agentgate`
 * member is refused (no tools; its reason, `(manifest)` in the Report). Rejects only where a page
 * broke a built-in it uses (`Promise.all`); the source (registry/sources/agentgate.ts) then gives
 * the manifest's reason instead.
 */
export async function readNamedManifests(root: ParentNode, config: RuntimeConfig): Promise<SourceUnit[]> {
  const namings: AgentGateNaming[] = [];
  const refused: SourceUnit[] = [];
  for (const entry of readAgentGateNamings(root, config)) {
    if ('naming' in entry) {
      namings.push(entry.naming);
      continue;
    }
    let owner = refusedMembers.get(entry.island);
    if (!owner) refusedMembers.set(entry.island, owner = Object.freeze({ refusedAgentGateMember: true }));
    refused.push({ owner, fingerprint: JSON.stringify(entry.problem), declarations: [], messages: {}, problem: entry.problem });
  }
  return [...await readAgentGateUnits(root, config, namings), ...refused];
}

/** One manifest's unit, read once per document (see readAgentGateUnits). */
async function readManifestUnit(doc: Document, url: URL, config: RuntimeConfig): Promise<SourceUnit> {
  const cache = readings.get(doc) ?? new Map<string, Promise<SourceUnit>>();
  readings.set(doc, cache);
  let reading = cache.get(url.href);
  if (!reading) {
    const owner = ownerOf(url.href);
    reading = fetchAgentGateManifest(url, config).then((unit) => ({ owner, ...unit }));
    cache.set(url.href, reading);
  }
  const unit = await reading;
  if (unit.problem?.[1] === 'agentgateFetch' && cache.get(url.href) === reading) cache.delete(url.href);
  return unit;
}
