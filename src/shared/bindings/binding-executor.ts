/**
 * The seam every binding type implements: one function from a validated input to an answer.
 */
import type { RuntimeConfig } from '../../start/config.js';
import type { Messages } from '../declarations/i18n.js';
import type { JSONValue, ToolSpec } from '../declarations/tool-spec.js';

/**
 * What an executor gets besides the input. `signal` aborts when the agent or `stop()` cancels;
 * `stopSignal` only when `stop()` does (a write's proposal outlives its call: write/pending-write.ts);
 * `messages` are the translations of the tool's own source (ToolSpec.messages: panel texts).
 */
export interface CallContext {
  config: RuntimeConfig;
  signal: AbortSignal;
  stopSignal?: AbortSignal;
  messages: Messages;
}

/**
 * An executor's outcome; never thrown. `answer` is what the agent receives (the whole envelope
 * for Core API bindings, the page graph for inline); `data` is what `outputSchema` describes: the
 * same as `answer` for Capell bindings (Core's envelope, or the page graph), the site's own answer
 * for an AgentGate call whose `answer` wraps it with the payment it made;
 * `added`, what the runtime adds beside the answer (an AgentGate call's `receipt`), becomes the
 * result's `structuredContent`. `runtimeStatus: true` marks an answer that is the runtime's own
 * status of an unfinished call (an AgentGate handoff still pending), not the site's result:
 * `outputSchema` is not checked.
 */
export type BindingOutcome =
  | { ok: true; answer: JSONValue; data: JSONValue; added?: { [key: string]: JSONValue }; runtimeStatus?: true }
  | { ok: false; reason: string };

/** Runs one binding type. The input has already passed `inputSchema`. */
export type BindingExecutor = (spec: ToolSpec, input: Record<string, unknown>, context: CallContext) => Promise<BindingOutcome>;
