/**
 * The AgentGate source: the site's declared tools manifest (AgentGate declared tools, "Find the
 * manifest"), fetched when the page names AgentGate: the options (`data-agentgate`,
 * `agentgate: true`) or a Capell tools island's top-level `agentgate` member (the member's rules:
 * agentgate/discover/agentgate-naming.ts). A row of the sources table, so only the switch is
 * here: the namings' rules, the fetch (agentgate/discover/manifest-fetch.ts: which URL, one owner
 * per manifest URL, the reading reused by later updates) and the manifest rules
 * (agentgate/discover/manifest-rules.ts) load on demand, with AgentGate's discovery chunk.
 */
import { readIslands } from '../../start/read-islands.js';
import type { ToolSource } from './source.js';

/**
 * AgentGate manifests as a source. `read(root, config)` fetches nothing without `config` (audit,
 * CLI) or when nothing names AgentGate (`[]`, synchronously: neither the option nor any island
 * with an `agentgate` member other than `false`); else resolves with `readNamedManifests`: one
 * unit per manifest named (the script tag and an island naming the same manifest: one fetch, one
 * unit), each its tools or the reason the whole manifest was refused, then one unit per island
 * whose member is refused. An island that named AgentGate and is removed, or rewritten without
 * the member, takes the manifest's tools with it unless the script tag or another island still
 * names that manifest.
 */
export const agentGateManifests: ToolSource = {
  kind: 'agentgate',
  // The runtime's own script tag names it; islands are the Capell source's units, observed already.
  selector: 'script[data-agentgate]',
  read(root, config) {
    if (!config || (!config.agentgate && !readIslands(root).some((island) => island.agentgate !== undefined && island.agentgate !== false))) return [];
    // A chunk that does not load, or a reading that fails (a page that broke `Promise.all`), is
    // the manifest's reason: never a rejection, which an update that failed first would leave
    // unhandled in the page.
    return import('../../agentgate/discover/manifest-fetch.js')
      .then(({ readNamedManifests }) => readNamedManifests(root, config))
      .catch((error: unknown) => [{
        owner: agentGateManifests, fingerprint: '', declarations: [], messages: {},
        problem: ['manifest', 'agentgateFetch', String(error)],
      }]);
  },
  normaliser: async () => (await import('../../agentgate/discover/manifest-rules.js')).normaliseAgentGateTool,
};
