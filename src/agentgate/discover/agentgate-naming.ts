/**
 * What names AgentGate on a page (the script tag, or a Capell tools island): reads only what the page already holds, fetches nothing. Not start-up
 * code: registry/sources/agentgate.ts checks only whether anything names AgentGate, and these rules load
 * with the manifest fetch (agentgate/discover/manifest-fetch.ts); the CLI's `validate` uses the member's rule.
 *
 * The Capell Agent Schema has no field for AgentGate, so an island names it with one top-level
 * member beside `capellAgentSchema`, `tools` and `messages`, which readers that do not know it
 * ignore (an older runtime, Core):
 *
 * ```json
 * { "capellAgentSchema": 1, "tools": [], "agentgate": true }
 * { "capellAgentSchema": 1, "tools": [], "agentgate": { "siteKey": "site_demo" } }
 * ```
 *
 * The member carries the same two facts as the script tag (`data-agentgate`,
 * `data-agentgate-site-key`) and nothing else, so an island can name only the page's own origin's
 * `/.well-known/agentgate-tools.json` or `/v1/agent-tools/{siteKey}`: never a URL, a host or a
 * path. `false` names nothing (it cannot switch off what the script tag names).
 */
import { AGENTGATE_SITE_KEY_PATTERN, type RuntimeConfig } from '../../start/config.js';
import type { Reason } from '../../shared/declarations/reason.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { readIslands } from '../../start/read-islands.js';

/** The island member that names AgentGate. */
const ISLAND_AGENTGATE_MEMBER = 'agentgate';

/** One naming of an AgentGate manifest: by host (no site key) or by site key. */
export interface AgentGateNaming {
  siteKey?: string;
}

/**
 * What an island's `agentgate` member says.
 * @param value the member's value (`undefined` when the island has none)
 * @returns `null` when it names nothing (absent or `false`); the naming for `true` (by host) or
 *   `{ "siteKey": "<1–128 of A-Za-z0-9_->" }` (by site key; `{}` is by host); otherwise the
 *   reason it is refused (`islandAgentGate`): any other value, an object with another member
 *   (a `url` or `origin` is never followed), or a site key outside the pattern. Never throws.
 * @example readAgentGateMember({ siteKey: 'site_demo' }) // → { siteKey: 'site_demo' }
 * @example readAgentGateMember('https://elsewhere.example/tools.json') // → ['agentgate', 'islandAgentGate', '…']
 */
export function readAgentGateMember(value: unknown): AgentGateNaming | Reason | null {
  if (value === undefined || value === false) return null;
  if (value === true) return {};
  if (isPlainObject(value)) {
    const others = Object.keys(value).filter((key) => key !== 'siteKey');
    const siteKey = value.siteKey;
    if (others.length === 0 && siteKey === undefined) return {};
    if (others.length === 0 && typeof siteKey === 'string' && AGENTGATE_SITE_KEY_PATTERN.test(siteKey)) return { siteKey };
  }
  return [ISLAND_AGENTGATE_MEMBER, 'islandAgentGate', value];
}

/** A naming found on the page, or an island whose member is refused. */
type PageNaming = { naming: AgentGateNaming } | { island: Element; problem: Reason };

/**
 * Every naming of AgentGate on the page, in order: the options' (the script tag's `data-agentgate`
 * or `start({ agentgate })`) first, then each readable tools island's member in document order.
 * An island that is refused as a whole (not JSON, wrong version) names nothing.
 * @param root the document (or a root within it) whose islands are read
 * @param config the options; without them (audit, CLI) only the islands are read
 */
export function readAgentGateNamings(root: ParentNode, config?: Pick<RuntimeConfig, 'agentgate' | 'agentgateSiteKey'>): PageNaming[] {
  const found: PageNaming[] = [];
  if (config?.agentgate) found.push({ naming: config.agentgateSiteKey === undefined ? {} : { siteKey: config.agentgateSiteKey } });
  // readIslands reuses each island's last reading (the Capell source read them this update).
  for (const reading of readIslands(root)) {
    if (reading.problem) continue;
    const member = readAgentGateMember(reading.agentgate);
    if (member === null) continue;
    found.push(Array.isArray(member) ? { island: reading.owner as Element, problem: member as Reason } : { naming: member as AgentGateNaming });
  }
  return found;
}
