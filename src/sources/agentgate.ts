/**
 * The AgentGate source: the site's declared tools manifest (AgentGate declared tools, "Find the
 * manifest"), fetched when the options name AgentGate (`data-agentgate`, `agentgate: true`).
 * Start-up code, so only the switch is here: the fetch (agentgate/manifest-fetch.ts: which URL,
 * one owner per manifest URL, the reading reused by later updates) and the rules
 * (agentgate/manifest-rules.ts) load on demand.
 */
import type { ToolSource } from './source.js';

/**
 * AgentGate manifests as a source. `read(root, config)` fetches nothing without `config` or with
 * AgentGate off (`[]`, synchronously), else resolves with the manifest's one unit: its tools, or
 * the reason the whole manifest was refused (`readAgentGateUnits`).
 */
export const agentGateManifests: ToolSource = {
  kind: 'agentgate',
  // No page element holds the manifest; the runtime's own script tag names it.
  selector: 'script[data-agentgate]',
  read(root, config) {
    if (!config?.agentgate) return [];
    return import('../agentgate/manifest-fetch.js').then(
      ({ readAgentGateUnits }) => readAgentGateUnits(root, config),
      (error: unknown) => [{
        owner: agentGateManifests, fingerprint: '', declarations: [], messages: {},
        problem: ['manifest', 'agentgateFetch', String(error)],
      }],
    );
  },
  normaliser: async () => (await import('../agentgate/manifest-rules.js')).normaliseAgentGateTool,
};
