/**
 * The sites the agent knows: per origin, the manifests it read itself (site-tools.ts) and the
 * tools they declare, looked up by the paused request's method and URL. A page's request for a
 * manifest only tells the agent which manifest of that origin to read (`?siteKey=`); the agent
 * reads it from Node.
 */
import { MANIFEST_MAX_AGE_MS, WELL_KNOWN_MANIFEST_PATH, manifestURLOf, readSiteTools, type ManifestRead, type SiteTool } from './site-tools.js';

/** A tool endpoint or handoff poll a paused request is for. */
type EndpointMatch =
  | { kind: 'call'; tool: SiteTool }
  | { kind: 'poll'; tool: SiteTool; handoffId: string; url: string };

/** A handoff id the agent signs polls for: one path segment of unreserved characters, 1–128 long, not `.` or `..`. */
export const HANDOFF_ID_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,128}$/;

/** The agent's sites. */
export interface SiteDirectory {
  /** Reads (or reads again, past MANIFEST_MAX_AGE_MS) every manifest known for `origin`, the well-known one at least. */
  refresh(origin: string): Promise<void>;
  /** Notes a manifest URL a page asked for and reads it in the background; false when `url` names no manifest. */
  learn(url: string): boolean;
  /** The tool a request with this method and URL calls, or the handoff it polls, on the agent's reading. */
  match(method: string, url: string): EndpointMatch | undefined;
  /** The tool `name` of `origin`, or undefined. */
  tool(origin: string, name: string): SiteTool | undefined;
  /** Every endpoint URL and poll template of the tools read so far. */
  targets(): { calls: string[]; polls: string[] };
  /** Why the last readings of `origin` gave no tool (one line each). */
  problems(origin: string): string[];
}

/**
 * A site directory.
 * @param onChange called after a reading changed the known targets (the Fetch patterns follow them)
 */
export function createSiteDirectory(onChange: () => void | Promise<void>): SiteDirectory {
  const sites = new Map<string, { urls: Set<string>; reads: Map<string, ManifestRead>; reading: Map<string, Promise<void>> }>();
  const siteOf = (origin: string) => {
    let site = sites.get(origin);
    if (!site) sites.set(origin, site = { urls: new Set([new URL(WELL_KNOWN_MANIFEST_PATH, origin).href]), reads: new Map(), reading: new Map() });
    return site;
  };
  const read = (origin: string, url: string, force: boolean): Promise<void> => {
    const site = siteOf(origin);
    const done = site.reads.get(url);
    if (!force && done && Date.now() - done.readAt < MANIFEST_MAX_AGE_MS) return Promise.resolve();
    let reading = site.reading.get(url);
    if (!reading) {
      reading = readSiteTools(new URL(url)).then(async (result) => {
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
      await Promise.all([...siteOf(origin).urls].map((url) => read(origin, url, false)));
    },
    learn(url) {
      const manifest = manifestURLOf(url);
      if (!manifest) return false;
      siteOf(manifest.origin).urls.add(manifest.href);
      void read(manifest.origin, manifest.href, false).catch(() => undefined);
      return true;
    },
    match(method, url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      for (const tool of tools(parsed.origin)) {
        if (tool.binding.method === method && tool.binding.target === url) return { kind: 'call', tool };
      }
      if (method !== 'GET' || parsed.search !== '' || parsed.hash !== '') return undefined;
      for (const tool of tools(parsed.origin)) {
        const template = tool.binding.handoffPoll;
        if (!template) continue;
        const [before, after] = template.split('{id}') as [string, string];
        if (!url.startsWith(before) || !url.endsWith(after) || url.length <= before.length + after.length) continue;
        const handoffId = url.slice(before.length, url.length - after.length);
        if (HANDOFF_ID_PATTERN.test(handoffId)) return { kind: 'poll', tool, handoffId, url };
      }
      return undefined;
    },
    tool: (origin, name) => tools(origin).find((tool) => tool.name === name),
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
