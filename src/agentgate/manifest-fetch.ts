/**
 * Fetching an AgentGate manifest (issue 9, "Discovery"): `/.well-known/agentgate-tools.json`, or
 * with a site key `/v1/agent-tools/{siteKey}`, on the page's own origin; anonymous
 * (`credentials: 'omit'`), no redirects (`redirect: 'error'`), bounded in size and time, through
 * the one request path (request.ts). Loaded by sources/agentgate.ts only on a page that names
 * AgentGate, where WebMCP exists.
 */
import type { RuntimeConfig } from '../config.js';
import { request } from '../request.js';
import type { SourceUnit } from '../sources/source.js';
import { readAgentGateManifest } from './manifest-rules.js';

/** Path of the manifest found by host. */
export const AGENTGATE_WELL_KNOWN_PATH = '/.well-known/agentgate-tools.json';

/** Prefix of the manifest found by site key: `/v1/agent-tools/{siteKey}`. */
export const AGENTGATE_SITE_KEY_PREFIX = '/v1/agent-tools/';

/** Largest manifest read, in bytes. */
export const MAX_MANIFEST_BYTES = 256 * 1024;

/** Longest a manifest fetch may take, in ms (or the runtime's `timeoutMs` when shorter). */
export const MANIFEST_TIMEOUT_MS = 10_000;

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

/**
 * Fetches a manifest and reads it as a source unit (without its owner).
 * @returns `fingerprint` (the manifest's text: an unchanged manifest is not normalised again),
 *   `declarations` (its tools), and `problem` when the whole manifest is refused: not fetched
 *   (`agentgateFetch`, with the request path's reason or the status), or not a manifest
 *   (`readAgentGateManifest`'s reasons). Never rejects.
 */
export async function fetchAgentGateManifest(url: URL, config: RuntimeConfig): Promise<Omit<SourceUnit, 'owner'>> {
  const failed = (reason: string): Omit<SourceUnit, 'owner'> => (
    { fingerprint: `\u0000failed ${reason}`, declarations: [], messages: {}, problem: ['manifest', 'agentgateFetch', reason] }
  );
  if (url.origin !== config.origin) return failed(`${url.href} is not on this page's origin`);
  const outcome = await request(url, {
    credentials: 'omit',
    redirect: 'error',
    headers: { Accept: 'application/json' },
    timeoutMs: Math.min(config.timeoutMs, MANIFEST_TIMEOUT_MS),
    maxAnswerBytes: MAX_MANIFEST_BYTES,
    description: `the AgentGate manifest request to ${url.pathname}`,
  });
  if (!outcome.ok) return failed(outcome.reason);
  if (outcome.response.status !== 200) return failed(`${url.pathname} answered ${outcome.response.status}`);
  const reading = readAgentGateManifest(outcome.text);
  return reading.problem
    ? { fingerprint: outcome.text, declarations: [], messages: {}, problem: reading.problem }
    : { fingerprint: outcome.text, declarations: reading.tools, messages: {} };
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
 * The AgentGate source's units for a document (sources/agentgate.ts): the one manifest the
 * options name, fetched on the first update and reused by later ones (a manifest that could not
 * be fetched is fetched again by the next update). Owned by one object per manifest URL.
 * @returns `[]` when AgentGate is off. Never rejects.
 */
export async function readAgentGateUnits(root: ParentNode, config: RuntimeConfig): Promise<SourceUnit[]> {
  const url = agentGateManifestURL(config);
  if (!url) return [];
  const doc = (root as Node).ownerDocument ?? (root as Document);
  let cache = readings.get(doc);
  if (!cache) {
    cache = new Map();
    readings.set(doc, cache);
  }
  let reading = cache.get(url.href);
  if (!reading) {
    const owner = ownerOf(url.href);
    reading = fetchAgentGateManifest(url, config).then((unit) => ({ owner, ...unit }));
    cache.set(url.href, reading);
  }
  const unit = await reading;
  if (unit.problem?.[1] === 'agentgateFetch') cache.delete(url.href);
  return [unit];
}
