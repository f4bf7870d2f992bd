/**
 * A site's AgentGate tools as the agent reads them itself, from Node (AgentGate declared tools,
 * "Find the manifest"): `/.well-known/agentgate-tools.json` of the page's origin, or the
 * `?siteKey=` / `/v1/agent-tools/{siteKey}` manifest the page asked for, read again by the agent,
 * never taken from the page. The same rules as the runtime's (agentgate/discover/manifest-rules.ts), so
 * the agent signs for exactly the tools the runtime may register.
 */
import { normaliseAgentGateTool, readAgentGateManifest } from '../agentgate/discover/manifest-rules.js';
import type { AgentGateBinding, ToolSpec } from '../shared/declarations/tool-spec.js';
import { fetchBoundedText } from './fetch-bounded.js';

/** Path of the manifest found by host. */
export const WELL_KNOWN_MANIFEST_PATH = '/.well-known/agentgate-tools.json';

/** Prefix of the manifest found by site key. */
export const SITE_KEY_MANIFEST_PREFIX = '/v1/agent-tools/';

/** Largest manifest read, in bytes (the runtime's bound). */
const MAX_MANIFEST_BYTES = 256 * 1024;

/** Longest a manifest read may take, in ms. */
const MANIFEST_TIMEOUT_MS = 10_000;

/** How long a manifest read is reused before it is read again, in ms. */
export const MANIFEST_MAX_AGE_MS = 60_000;

/** An AgentGate tool the agent may sign for: its ToolSpec with its `agentgate` binding. */
export type SiteTool = ToolSpec & { binding: AgentGateBinding };

/** What one manifest gave: its valid tools by name, and the reason when it gave none. */
export interface ManifestRead {
  url: string;
  tools: Map<string, SiteTool>;
  /** Why the manifest (or a tool of it) was not read, one line each. */
  problems: string[];
  /** When it was read, ms since the epoch. */
  readAt: number;
}

/** A site key as the runtime reads one (`data-agentgate-site-key`): 1–128 of `A-Za-z0-9_-`. */
const SITE_KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Whether `url` names a manifest on its own origin: the well-known path (with or without
 * `?siteKey=`) or `/v1/agent-tools/{siteKey}`, the site key 1–128 of `A-Za-z0-9_-` (no escapes,
 * so no `..%2F`). The URL the agent reads is rebuilt from those parts, so nothing else of a
 * page's URL is followed.
 * @returns the manifest URL to read, or undefined.
 */
export function manifestURLOf(url: string): URL | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(parsed.protocol)) return undefined;
  if (parsed.pathname === WELL_KNOWN_MANIFEST_PATH) {
    const siteKey = parsed.searchParams.get('siteKey');
    const read = new URL(WELL_KNOWN_MANIFEST_PATH, parsed.origin);
    if (siteKey === null || siteKey === '') return read;
    if (!SITE_KEY_PATTERN.test(siteKey)) return undefined;
    read.searchParams.set('siteKey', siteKey);
    return read;
  }
  if (parsed.pathname.startsWith(SITE_KEY_MANIFEST_PREFIX)) {
    const key = parsed.pathname.slice(SITE_KEY_MANIFEST_PREFIX.length);
    if (!SITE_KEY_PATTERN.test(key)) return undefined;
    return new URL(`${SITE_KEY_MANIFEST_PREFIX}${key}`, parsed.origin);
  }
  return undefined;
}

/**
 * Reads a manifest and keeps each tool the runtime's rules accept (ToolSpec with an `agentgate`
 * binding whose endpoint is on the manifest's origin).
 * @returns the tools; a manifest that cannot be read gives none and its one-line reason in
 *   `problems`. Never rejects.
 */
export async function readSiteTools(url: URL): Promise<ManifestRead> {
  const read: ManifestRead = { url: url.href, tools: new Map(), problems: [], readAt: Date.now() };
  const fetched = await fetchBoundedText(url, { accept: 'application/json', maxBytes: MAX_MANIFEST_BYTES, timeoutMs: MANIFEST_TIMEOUT_MS });
  if (!fetched.ok) {
    read.problems.push(`the manifest ${fetched.reason}`);
    return read;
  }
  const reading = readAgentGateManifest(fetched.text);
  if (reading.problem) {
    read.problems.push(`the manifest at ${url.pathname} is refused: ${reading.problem.map((part) => String(part)).join(' ')}`);
    return read;
  }
  for (const [index, raw] of reading.tools.entries()) {
    try {
      const checked = await normaliseAgentGateTool(raw, { source: `agentgate[${index}]`, origin: url.origin, messages: {} });
      if (!checked.ok) {
        read.problems.push(`tool ${JSON.stringify(checked.name)} of ${url.pathname} is refused (${checked.reasons.map((reason) => reason[1]).join(', ')})`);
      } else if (checked.spec.binding.type === 'agentgate' && !read.tools.has(checked.spec.name)) {
        read.tools.set(checked.spec.name, checked.spec as SiteTool);
      }
    } catch (error) {
      read.problems.push(`tool ${index} of ${url.pathname} could not be checked (${(error as Error).message})`);
    }
  }
  return read;
}
