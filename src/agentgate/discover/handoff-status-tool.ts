/**
 * `agentgate.handoff.status`: the runtime's own read-only tool that asks again about an AgentGate
 * call the site handed off and that answered `pending` with the id (the call itself waits only a
 * bounded time, so the agent needs a way to ask again later). Registered by the runtime while
 * an AgentGate tool whose manifest names `handoff.poll` is registered; not a declaration. Loaded
 * with AgentGate's discovery; its call loads AgentGate's call chunk (handoff.ts).
 */
import type { RuntimeConfig } from '../../start/config.js';
import type { WebMCPTool } from '../../start/host.js';
import { HANDOFF_STATUS_TOOL } from '../../shared/registration-rules.js';
import { errorResult, toolResult, type CallToolResult } from '../../registry/result.js';
import { errorMessage } from '../../shared/error-message.js';

export { HANDOFF_STATUS_TOOL };

/** Longest `waitMs` the tool accepts, in ms: the bound of a call's own handoff wait (handoff.ts HANDOFF_MAX_WAIT_MS). */
const HANDOFF_STATUS_MAX_WAIT_MS = 10_000; // not imported: handoff.ts is in the call's chunk

/** What the tool reads of its input, or why it cannot. */
function readInput(raw: unknown): { handoffId: string; waitMs: number } | { reason: string } {
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      return { reason: 'the input is not JSON' };
    }
  }
  const input = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : undefined) as Record<string, unknown> | undefined;
  if (!input) return { reason: 'the input must be an object { handoffId, waitMs? }' };
  const extra = Object.keys(input).filter((key) => key !== 'handoffId' && key !== 'waitMs');
  if (extra.length > 0) return { reason: `unknown field ${JSON.stringify(extra[0])}` };
  const { handoffId, waitMs = 0 } = input;
  if (typeof handoffId !== 'string' || handoffId === '') return { reason: 'handoffId: required, the handoffId a pending call answered' };
  if (!Number.isInteger(waitMs) || (waitMs as number) < 0 || (waitMs as number) > HANDOFF_STATUS_MAX_WAIT_MS) {
    return { reason: `waitMs: an integer from 0 to ${HANDOFF_STATUS_MAX_WAIT_MS} (ms)` };
  }
  return { handoffId, waitMs: waitMs as number };
}

/**
 * The tool for `registerTool`: input `{ handoffId: string, waitMs?: integer 0..HANDOFF_STATUS_MAX_WAIT_MS (10000) }`,
 * annotated `readOnlyHint: true` (it only polls). `execute` polls the handoff once at once (signed
 * as its call was) and, with `waitMs`, until a final state or that many ms; it answers as the call
 * would have: `{ status, handoffId, answer }` once final, `{ status: 'pending', handoffId, next }`
 * while not. A handoff this page never saw pending (or forgot: the last 50 are kept), or a bad
 * input, is `isError` with a reason. Never throws.
 * @param stopSignal aborts a waiting call when the runtime stops.
 */
export function createHandoffStatusTool(config: RuntimeConfig, stopSignal: AbortSignal): WebMCPTool {
  return {
    name: HANDOFF_STATUS_TOOL,
    description: 'The outcome of an AgentGate call that answered pending, by its handoffId; waitMs waits for the site to finish.',
    inputSchema: {
      type: 'object',
      properties: {
        handoffId: { type: 'string', minLength: 1, maxLength: 128, description: 'The handoffId the pending call answered.' },
        waitMs: { type: 'integer', minimum: 0, maximum: HANDOFF_STATUS_MAX_WAIT_MS, description: 'Wait up to this many ms for a final state (default 0: ask once).' },
      },
      required: ['handoffId'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    async execute(raw, options): Promise<CallToolResult> {
      const input = readInput(raw);
      if ('reason' in input) return errorResult(`invalid input for ${HANDOFF_STATUS_TOOL}: ${input.reason}`);
      try {
        const { awaitHandoff, pendingHandoff } = await import('../call/handoff.js');
        const handoff = pendingHandoff(config, input.handoffId);
        if (!handoff) {
          return errorResult(`${HANDOFF_STATUS_TOOL}: no pending handoff ${JSON.stringify(input.handoffId)} on this page (ids come from a call that answered pending; the last 50 are kept)`);
        }
        const signal = options?.signal ? AbortSignal.any([options.signal, stopSignal]) : stopSignal;
        const outcome = await awaitHandoff(config, input.handoffId, handoff, { signal, maxWaitMs: input.waitMs, firstWaitMs: 0 });
        return outcome.ok ? toolResult(outcome.answer) : errorResult(outcome.reason);
      } catch (error) {
        return errorResult(`${HANDOFF_STATUS_TOOL} could not run: the runtime's AgentGate call module did not load (${errorMessage(error)})`);
      }
    },
  };
}
