/**
 * `agentgate.receipts`: the runtime's own read-only tool that lists the receipts this site signed
 * for the agent's calls on it (issue 12, "Receipts": "listed by a read-only runtime tool so an agent
 * can show what it did on this site"), newest first, each as the call's result reported it
 * (verified with its claims and JWS, or not verified with the reason). Registered by the runtime
 * where an AgentGate manifest declares receipts; not a declaration.
 */
import type { RuntimeConfig } from '../config.js';
import type { WebMCPTool } from '../host.js';
import { RECEIPTS_TOOL } from '../registration-rules.js';
import { errorResult, toolResult } from '../result.js';
import { listReceipts, MAX_KEPT_RECEIPTS } from './receipt-store.js';

/** The tool's name (reserved by registration-rules.ts: a site declaration of it is a duplicate). */
export { RECEIPTS_TOOL };

/** How many receipts a call lists when it names no `limit`. */
export const DEFAULT_RECEIPTS_LIMIT = 20;

/** The input's `limit` and `tool`, or the one-line reason the input is refused. */
function readInput(input: unknown): { limit: number; tool?: string } | string {
  const value = input ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) return 'the input must be an object';
  const { limit = DEFAULT_RECEIPTS_LIMIT, tool, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return `${unknown[0]} is not an input of ${RECEIPTS_TOOL} (limit, tool)`;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_KEPT_RECEIPTS) return `limit must be an integer from 1 to ${MAX_KEPT_RECEIPTS}`;
  if (tool !== undefined && (typeof tool !== 'string' || tool === '')) return 'tool must be a non-empty string';
  return tool === undefined ? { limit: limit as number } : { limit: limit as number, tool };
}

/**
 * The tool for `registerTool`: input `{ limit?: integer 1..MAX_KEPT_RECEIPTS (default 20), tool?:
 * string }`, annotated `readOnlyHint: true`. `execute` answers `{ site, kept, receipts }`: the
 * site's origin, how many receipts are kept for it (at most MAX_KEPT_RECEIPTS) and the newest
 * `limit` of them (only those of `tool` when given), each `{ receivedAt, tool, verified, … }`.
 * A bad input is `isError` with a reason. Never throws.
 */
export function createReceiptsTool(config: RuntimeConfig): WebMCPTool {
  return {
    name: RECEIPTS_TOOL,
    description: 'The receipts this site signed for your AgentGate calls on it, newest first: what it accepted (tool, action, status, time), each verified against the site\'s keys, to show what you did here.',
    inputSchema: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: MAX_KEPT_RECEIPTS, description: `How many receipts to list, newest first (default ${DEFAULT_RECEIPTS_LIMIT}).` },
        tool: { type: 'string', minLength: 1, maxLength: 128, description: 'Only the receipts of this tool, e.g. send_message.' },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    async execute(input) {
      const read = readInput(input);
      if (typeof read === 'string') return errorResult(`invalid input for ${RECEIPTS_TOOL}: ${read}`);
      try {
        const kept = await listReceipts(config.origin);
        const chosen = read.tool === undefined ? kept : kept.filter((receipt) => receipt.tool === read.tool);
        return toolResult({ site: config.origin, kept: kept.length, receipts: chosen.slice(0, read.limit) });
      } catch (error) {
        return errorResult(`${RECEIPTS_TOOL} could not read the kept receipts (${(error as Error)?.message ?? String(error)})`);
      }
    },
  };
}
