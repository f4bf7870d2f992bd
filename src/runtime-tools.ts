/**
 * The runtime's own tools: registered by the live registry (not declared by the page) while the
 * tools they serve are registered, and removed with the last of them. Each module loads only
 * when its tool is first needed. One row per tool; the registry treats every row alike.
 */
import type { RuntimeConfig } from './config.js';
import type { ToolSpec } from './declarations/tool-spec.js';
import type { WebMCPTool } from './host.js';
import { HANDOFF_STATUS_TOOL, WRITE_STATUS_TOOL } from './registration-rules.js';

/**
 * One runtime tool: its `name` (reserved by registration-rules.ts' NameClaims), `neededBy(spec)`
 * (whether a registered tool needs it), and `create(config, stopSignal)`, which loads its module
 * and builds the tool (rejects when the chunk cannot load).
 */
export interface RuntimeTool {
  readonly name: string;
  neededBy(spec: ToolSpec): boolean;
  create(config: RuntimeConfig, stopSignal: AbortSignal): Promise<WebMCPTool>;
}

/** Every runtime tool, in registration order. */
export const RUNTIME_TOOLS: readonly RuntimeTool[] = [
  {
    // Issue 7: answers a writeId's outcome. An AgentGate write is the agent's own signed call
    // (binding row `personConfirms: false`): nothing waits for the person, so it needs none.
    // Checked by type here, so the start-up code does not hold the binding registry.
    name: WRITE_STATUS_TOOL,
    neededBy: (spec) => spec.effect === 'write' && spec.binding.type !== 'agentgate',
    create: async (config, stopSignal) => (await import('./writes/status-tool.js')).createWriteStatusTool(config, stopSignal),
  },
  {
    // Issue 12: asks again about a handed-off AgentGate call; only where the manifest names handoff.poll.
    name: HANDOFF_STATUS_TOOL,
    neededBy: (spec) => spec.binding.type === 'agentgate' && spec.binding.handoffPoll !== undefined,
    create: async (config, stopSignal) => (await import('./agentgate/handoff-status-tool.js')).createHandoffStatusTool(config, stopSignal),
  },
];
