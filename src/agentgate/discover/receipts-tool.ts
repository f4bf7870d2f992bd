/**
 * `agentgate.receipts`: the runtime's own read-only tool that lists the receipts this site signed
 * for the agent's calls on it, so an agent can show what it did on this site; newest first, each
 * as the call's result reported it
 * (verified with its claims and JWS, or not verified with the reason). Registered by the runtime
 * where an AgentGate manifest declares receipts; not a declaration.
 */
import type { RuntimeConfig } from '../../start/config.js';
import type { ToolSpec } from '../../shared/declarations/tool-spec.js';
import type { WebMCPTool } from '../../start/host.js';
import { RECEIPTS_TOOL } from '../../shared/registration-rules.js';
import { errorResult, toolResult } from '../../registry/result.js';
import type { AgentGateReceipts } from './receipt-rules.js';
import { listReceipts, MAX_KEPT_RECEIPTS, type KeptReceipt } from './receipt-store.js';
import { errorMessage } from '../../shared/error-message.js';

/** The tool's name (reserved by registration-rules.ts: a site declaration of it is a duplicate). */
export { RECEIPTS_TOOL };

/** How many receipts a call lists when it names no `limit`. */
const DEFAULT_RECEIPTS_LIMIT = 20;

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
 * Checks kept receipts that say `verified: true` again, against keys fetched from the site now:
 * the storage they come from is writable by any script of the origin, so a stored `verified`
 * proves nothing. Each must verify (receipt.ts `checkReceipt`, with its kept nonce, Content-Digest,
 * tool and status as the call) and state the same action, id, key and time; otherwise it is listed
 * `verified: false` with the reason. One key fetch per listing, and none when nothing says verified.
 */
async function checkedAgain(listed: KeptReceipt[], config: RuntimeConfig, receipts: AgentGateReceipts | undefined): Promise<KeptReceipt[]> {
  if (!listed.some((receipt) => receipt.verified === true)) return listed;
  // Loaded here: the tool registers at start-up, and the check is the signed call's own code.
  const { checkReceipt } = await import('../call/receipt.js');
  const { fetchReceiptKeys } = await import('../call/receipt-keys.js');
  const keys = receipts ? await fetchReceiptKeys({ jwks: new URL(receipts.jwks), origin: config.origin, timeoutMs: config.timeoutMs }) : 'the page declares no receipt keys now';
  return Promise.all(listed.map(async (kept) => {
    if (kept.verified !== true) return kept;
    const notNow = (why: string): KeptReceipt => ({ receivedAt: kept.receivedAt, tool: kept.tool, verified: false, reason: `kept as verified, but it does not check out now: ${why}`, jws: kept.jws as string });
    if (typeof keys === 'string') return notNow(keys);
    const sent = { tool: kept.tool, origin: config.origin, nonce: kept.nonce as string, contentDigest: kept.contentDigest as string, status: kept.status as number };
    const checked = await checkReceipt(kept.jws as string, sent, receipts!, { timeoutMs: config.timeoutMs, now: Date.parse(kept.issuedAt as string), keys });
    if (!checked.verified) return notNow(checked.reason);
    const same = checked.action === kept.action && checked.id === kept.id && checked.kid === kept.kid && checked.issuedAt === kept.issuedAt;
    return same ? kept : notNow('its action, id, key or time differ from what the site signed');
  }));
}

/**
 * The tool for `registerTool`: input `{ limit?: integer 1..MAX_KEPT_RECEIPTS (default 20), tool?:
 * string }`, annotated `readOnlyHint: true`. `execute` answers `{ site, kept, receipts }`: the
 * site's origin, how many receipts are kept for it (at most MAX_KEPT_RECEIPTS) and the newest
 * `limit` of them (only those of `tool` when given), each `{ receivedAt, tool, verified, … }`,
 * a `verified` one checked again against the site's keys (`checkedAgain`).
 * A bad input is `isError` with a reason. Never throws.
 * @param declared the page's ToolSpecs now: the receipt keys' URL is the manifest's `receipts.jwks`.
 */
export function createReceiptsTool(config: RuntimeConfig, declared: () => Iterable<ToolSpec>): WebMCPTool {
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
        const binding = [...declared()].map((spec) => spec.binding).find((candidate) => candidate.type === 'agentgate' && candidate.receipts !== undefined);
        const receipts = binding?.type === 'agentgate' ? binding.receipts : undefined;
        return toolResult({ site: config.origin, kept: kept.length, receipts: await checkedAgain(chosen.slice(0, read.limit), config, receipts) });
      } catch (error) {
        return errorResult(`${RECEIPTS_TOOL} could not read the kept receipts (${errorMessage(error)})`);
      }
    },
  };
}
