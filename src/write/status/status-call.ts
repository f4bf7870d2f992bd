/**
 * One `capell.write.status` call: checks the input, optionally waits for a final status, and
 * answers the write's record.
 */
import type { RuntimeConfig } from '../../start/config.js';
import type { JSONValue } from '../../shared/declarations/tool-spec.js';
import type { ExecuteOptions } from '../../start/host.js';
import { parseToolInput } from '../../call/tool-input.js';
import { errorResult, toolResult, type CallToolResult } from '../../registry/result.js';
import { statusAnswer } from '../write-answers.js';
import { MAX_WRITE_RECORDS, writeRegistryOf } from '../write-registry.js';
import { WRITE_STATUS_TOOL } from '../../registry/write-status-tool.js';
import { MAX_TAB_WRITE_AGE_MS, MAX_TAB_WRITES } from '../tab-writes.js';
import { tabWriteAnswer } from './tab-write-answer.js';

/** Longest writeId accepted, in characters (a UUID is 36). */
const MAX_WRITE_ID_LENGTH = 100;

function parse(raw: unknown, maxWaitMs: number): { writeId: string; waitMs: number } | { reason: string } {
  const parsed = parseToolInput(raw);
  if ('reason' in parsed) return parsed;
  const value = parsed.input;
  const extra = Object.keys(value).find((key) => key !== 'writeId' && key !== 'waitMs');
  if (extra !== undefined) return { reason: `${extra.slice(0, 50)}: not an allowed property (allowed: writeId, waitMs)` };
  const { writeId, waitMs = 0 } = value;
  if (typeof writeId !== 'string' || writeId.length === 0 || writeId.length > MAX_WRITE_ID_LENGTH) {
    return { reason: `writeId: required, a string of 1 to ${MAX_WRITE_ID_LENGTH} characters` };
  }
  if (typeof waitMs !== 'number' || !Number.isInteger(waitMs) || waitMs < 0 || waitMs > maxWaitMs) {
    return { reason: `waitMs: an integer from 0 to ${maxWaitMs} (ms)` };
  }
  return { writeId, waitMs };
}

/**
 * Answers `{ writeId, waitMs? }`: the record's compact JSON (`statusAnswer`), after waiting up to
 * `waitMs` ms for it to become final (ended early by the agent's signal or the runtime stopping);
 * for a writeId this page never issued, the record an earlier page of this tab kept when its send
 * navigated here (tab-write-answer.ts: `{ status, tool, httpStatus?, navigatedTo? }`, final, no wait).
 * @returns `isError` for a bad input or an unknown writeId (never issued on this page nor kept by
 *   the tab, or one of more than MAX_WRITE_RECORDS and forgotten). Never throws.
 */
export async function callWriteStatus(
  raw: unknown, options: ExecuteOptions | undefined, config: RuntimeConfig, stopSignal: AbortSignal,
): Promise<CallToolResult> {
  const input = parse(raw, config.writeWaitMs);
  if ('reason' in input) return errorResult(`invalid input for ${WRITE_STATUS_TOOL}: ${input.reason}`);
  const registry = writeRegistryOf(config.document);
  if (!registry.get(input.writeId)) {
    const kept = tabWriteAnswer(config, input.writeId);
    if (kept) return toolResult(kept);
    return errorResult(`${WRITE_STATUS_TOOL}: no write ${JSON.stringify(input.writeId)} on this page (writeIds last as long as the page, the last ${MAX_WRITE_RECORDS} are kept; a send that navigated the tab is kept for its next pages, the last ${MAX_TAB_WRITES} for ${MAX_TAB_WRITE_AGE_MS / 60_000} minutes)`);
  }
  const signal = options?.signal ? AbortSignal.any([options.signal, stopSignal]) : stopSignal;
  await registry.waitForFinal(input.writeId, input.waitMs, signal);
  const record = registry.get(input.writeId);
  if (!record) return errorResult(`${WRITE_STATUS_TOOL}: write ${JSON.stringify(input.writeId)} was forgotten while waiting (the last ${MAX_WRITE_RECORDS} are kept)`);
  return toolResult(statusAnswer(record) as JSONValue);
}
