/**
 * The runtime's own tools: registered by the live registry (not declared by the page) while the
 * tools they serve are registered, and removed with the last of them, unless a row `keep`s its
 * tool until `stop()` (the write status tool: writeIds outlive their tools). Each module loads only
 * when its tool is first needed. One row per tool; the registry treats every row alike.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { ToolSpec } from '../shared/declarations/tool-spec.js';
import type { WebMCPTool } from '../start/host.js';
import { HANDOFF_STATUS_TOOL, RECEIPTS_TOOL, WRITE_STATUS_TOOL } from '../shared/registration-rules.js';
import { holdsTabWrites } from './write-status-tool.js';

/**
 * One runtime tool: its `name` (reserved by registration-rules.ts' NameClaims); `wanted(registered,
 * declared, doc)`, whether it is needed now, given the ToolSpecs registered with WebMCP now, (on
 * demand) every normalised ToolSpec of the page's sources, registered or not, and the page;
 * `keep`, when once wanted it stays registered until `stop()` though it is no longer wanted; and
 * `create(config, stopSignal, declared)`, which loads its module and builds the tool (rejects when
 * the chunk cannot load); `declared` gives the ToolSpecs of the page as they are when the tool runs.
 */
export interface RuntimeTool {
  readonly name: string;
  wanted(registered: () => Iterable<ToolSpec>, declared: () => Iterable<ToolSpec>, doc: Document): boolean;
  readonly keep?: boolean;
  create(config: RuntimeConfig, stopSignal: AbortSignal, declared: () => Iterable<ToolSpec>): Promise<WebMCPTool>;
}

const some = (specs: Iterable<ToolSpec>, test: (spec: ToolSpec) => boolean): boolean => [...specs].some(test);

/** Every runtime tool, in registration order. */
export const RUNTIME_TOOLS: readonly RuntimeTool[] = [
  {
    // Answers a writeId's outcome (a write call answers before the person decides). An AgentGate write is the agent's own signed call
    // (binding row `personConfirms: false`): nothing waits for the person, so it needs none.
    // Checked by type here, so the start-up code does not hold the binding registry.
    // Also wanted where this tab keeps a write whose send navigated here (write/tab-writes.ts);
    // kept once registered: a writeId outlives the form tool that gave it (a redraw removes the form).
    name: WRITE_STATUS_TOOL,
    wanted: (registered, _declared, doc) => some(registered(), (spec) => spec.effect === 'write' && spec.binding.type !== 'agentgate') || holdsTabWrites(doc),
    keep: true,
    create: async (config, stopSignal) => (await import('./write-status-tool.js')).createWriteStatusTool(config, stopSignal),
  },
  {
    // Asks again about a handed-off AgentGate call; only where the manifest names handoff.poll.
    name: HANDOFF_STATUS_TOOL,
    wanted: (registered) => some(registered(), (spec) => spec.binding.type === 'agentgate' && spec.binding.handoffPoll !== undefined),
    create: async (config, stopSignal) => (await import('../agentgate/discover/handoff-status-tool.js')).createHandoffStatusTool(config, stopSignal),
  },
  {
    // Lists the receipts kept for this site (agentgate/discover/receipts-tool.ts), wherever an
    // AgentGate manifest declares receipts, whether or not its tools registered: receipts
    // kept on earlier visits can be listed.
    name: RECEIPTS_TOOL,
    wanted: (_registered, declared) => some(declared(), (spec) => spec.binding.type === 'agentgate' && spec.binding.receipts !== undefined),
    create: async (config, _stopSignal, declared) => (await import('../agentgate/discover/receipts-tool.js')).createReceiptsTool(config, declared),
  },
];
