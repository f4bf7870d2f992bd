/**
 * The sites the agent knows: per origin, the manifests it read itself, from Node (site-tools.ts),
 * and the tools they declare. What a page can steer is bounded: a page's request for a manifest
 * only notes which manifest of the page's own origin it uses (`?siteKey=`, `/v1/agent-tools/{key}`),
 * at most MAX_MANIFESTS_PER_ORIGIN per origin, and nothing is fetched then; the agent reads an
 * origin's manifests only when it refreshes that origin itself (for a call of its own on a page of
 * that origin, or, in `'origins'` mode, for the origins it was given).
 */
import { MANIFEST_MAX_AGE_MS, WELL_KNOWN_MANIFEST_PATH, manifestURLOf, readSiteTools, type ManifestRead, type SiteTool } from './site-tools.js';

/** Most manifests the agent reads per origin: the well-known one and up to three a page named. */
export const MAX_MANIFESTS_PER_ORIGIN = 4;

/** A handoff id the agent signs polls for: one path segment of unreserved characters, 1–128 long, not `.` or `..`. */
export const HANDOFF_ID_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,128}$/;

/** The tool a call is bound to, or why the agent binds it to none. */
export type ToolResolution = { tool: SiteTool; problem?: undefined } | { problem: string; tool?: undefined };

/** The agent's sites. */
export interface SiteDirectory {
  /**
   * Reads (or reads again, past MANIFEST_MAX_AGE_MS) every manifest known for `origin`: the
   * well-known one and those pages of the origin named. Never rejects (a manifest that cannot be
   * read gives no tools and a problem).
   */
  refresh(origin: string): Promise<void>;
  /**
   * Notes a manifest a page asked for, when `url` names one on `pageOrigin` (the origin of the
   * document that asked) and the origin has room (MAX_MANIFESTS_PER_ORIGIN). Fetches nothing.
   * @returns whether `url` names a manifest at all (its request then goes on untouched)
   */
  note(url: string, pageOrigin: string | undefined): boolean;
  /**
   * The tool `name` of `origin` as the agent's readings give it: undefined when no manifest of
   * the origin declares it; a problem when two of them declare it differently (endpoint, method,
   * content type, auth, receipts or handoff), so the page cannot pick the endpoint.
   */
  resolve(origin: string, name: string): ToolResolution | undefined;
  /** The tool whose endpoint is this method and URL (a problem when two tools there differ), or undefined. */
  at(method: string, url: string): ToolResolution | undefined;
  /** The handoff a GET of this URL polls: the tool whose `handoff.poll` it fits and the id, or undefined. */
  poll(method: string, url: string): { tool: SiteTool; handoffId: string } | undefined;
  /** Every endpoint URL and poll template of the tools read so far. */
  targets(): { calls: string[]; polls: string[] };
  /** Why the last readings of `origin` gave no tool (one line each). */
  problems(origin: string): string[];
}

/** What decides how a tool is signed and where it goes: two declarations that differ here are two tools. */
function signingShape(tool: SiteTool): string {
  const { method, target, contentType, auth, receipts, handoffPoll } = tool.binding;
  return JSON.stringify([method, target, contentType, auth, receipts ?? null, handoffPoll ?? null]);
}

/** One tool out of several declarations, or the problem of their difference. */
function oneOf(tools: SiteTool[], what: string): ToolResolution | undefined {
  const [first] = tools;
  if (!first) return undefined;
  const other = tools.find((tool) => signingShape(tool) !== signingShape(first));
  if (!other) return { tool: first };
  const where = (tool: SiteTool) => `${tool.binding.method} ${tool.binding.target}`;
  const differ = where(first) === where(other) ? `${where(first)} with other auth, content type, receipts or handoff` : `${where(first)} and ${where(other)}`;
  return { problem: `the site's manifests declare ${what} differently (${differ}); the agent signs neither` };
}

/**
 * A site directory.
 * @param onChange called after a reading changed the known targets (the Fetch patterns follow them)
 * @param read the manifest reader (tests); default readSiteTools
 */
export function createSiteDirectory(onChange: () => void | Promise<void>, read: (url: URL) => Promise<ManifestRead> = readSiteTools): SiteDirectory {
  const sites = new Map<string, { urls: Set<string>; reads: Map<string, ManifestRead>; reading: Map<string, Promise<void>> }>();
  const siteOf = (origin: string) => {
    let site = sites.get(origin);
    if (!site) sites.set(origin, site = { urls: new Set([new URL(WELL_KNOWN_MANIFEST_PATH, origin).href]), reads: new Map(), reading: new Map() });
    return site;
  };
  const readOne = (origin: string, url: string): Promise<void> => {
    const site = siteOf(origin);
    const done = site.reads.get(url);
    if (done && Date.now() - done.readAt < MANIFEST_MAX_AGE_MS) return Promise.resolve();
    let reading = site.reading.get(url);
    if (!reading) {
      reading = read(new URL(url)).then(async (result) => {
        const before = JSON.stringify(targetsOf(site.reads));
        site.reads.set(url, result);
        if (JSON.stringify(targetsOf(site.reads)) !== before) await onChange();
      }).finally(() => site.reading.delete(url));
      site.reading.set(url, reading);
    }
    return reading;
  };
  const tools = (origin: string): SiteTool[] => [...(sites.get(origin)?.reads.values() ?? [])].flatMap((manifest) => [...manifest.tools.values()]);
  return {
    async refresh(origin) {
      await Promise.all([...siteOf(origin).urls].map((url) => readOne(origin, url).catch(() => undefined)));
    },
    note(url, pageOrigin) {
      const manifest = manifestURLOf(url);
      if (!manifest) return false;
      if (pageOrigin === undefined || manifest.origin !== pageOrigin) return true;
      const { urls } = siteOf(manifest.origin);
      if (!urls.has(manifest.href) && urls.size < MAX_MANIFESTS_PER_ORIGIN) urls.add(manifest.href);
      return true;
    },
    resolve: (origin, name) => oneOf(tools(origin).filter((tool) => tool.name === name), name),
    at(method, url) {
      let origin: string;
      try {
        origin = new URL(url).origin;
      } catch {
        return undefined;
      }
      const here = tools(origin).filter((tool) => tool.binding.method === method && tool.binding.target === url);
      return oneOf(here, `the endpoint ${method} ${url}`);
    },
    poll(method, url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      if (method !== 'GET' || parsed.search !== '' || parsed.hash !== '') return undefined;
      for (const tool of tools(parsed.origin)) {
        const template = tool.binding.handoffPoll;
        if (!template) continue;
        const [before, after] = template.split('{id}') as [string, string];
        if (!url.startsWith(before) || !url.endsWith(after) || url.length <= before.length + after.length) continue;
        const handoffId = url.slice(before.length, url.length - after.length);
        if (HANDOFF_ID_PATTERN.test(handoffId)) return { tool, handoffId };
      }
      return undefined;
    },
    targets() {
      const calls = new Set<string>();
      const polls = new Set<string>();
      for (const site of sites.values()) {
        const known = targetsOf(site.reads);
        known.calls.forEach((url) => calls.add(url));
        known.polls.forEach((url) => polls.add(url));
      }
      return { calls: [...calls], polls: [...polls] };
    },
    problems: (origin) => [...(sites.get(origin)?.reads.values() ?? [])].flatMap((manifest) => manifest.problems),
  };
}

function targetsOf(reads: Map<string, ManifestRead>): { calls: string[]; polls: string[] } {
  const tools = [...reads.values()].flatMap((manifest) => [...manifest.tools.values()]);
  return {
    calls: [...new Set(tools.map((tool) => tool.binding.target))].sort(),
    polls: [...new Set(tools.flatMap((tool) => (tool.binding.handoffPoll ? [tool.binding.handoffPoll] : [])))].sort(),
  };
}
