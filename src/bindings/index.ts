/**
 * One tool call from raw input to CallToolResult. Loaded as a chunk on the first call (with the
 * validator), never at start-up; the executor of the tool's binding type and effect is loaded from
 * its row in the binding registry (registry.ts): reads from src/reads/, writes from src/writes/, so
 * a read call never loads the write machinery.
 */
import type { RuntimeConfig } from '../config.js';
import type { ToolSpec } from '../declarations/tool-spec.js';
import type { ExecuteOptions } from '../host.js';
import { errorResult, toolResult, type CallToolResult } from '../result.js';
import { bindingRow } from './registry.js';
import { formatIssues, validateValue } from '../validation.js';
import { parseToolInput } from '../tool-input.js';

/**
 * Runs one tool call: the input is validated against `inputSchema` before any request; the
 * binding runs; the answer's `data` is checked against `outputSchema` when there is one.
 * @param stopSignal aborts the call when the runtime stops; `options.signal` when the agent does.
 * @returns a CallToolResult: `isError: true` with a one-line reason for bad input, a failed
 *   request or an answer that breaks `outputSchema`. Never throws.
 */
export async function callTool(
  spec: ToolSpec, rawInput: unknown, options: ExecuteOptions | undefined, config: RuntimeConfig, stopSignal: AbortSignal,
): Promise<CallToolResult> {
  try {
    // The runtime registers only allowed bindings; this guards the table, not the agent.
    const row = bindingRow(spec.binding.type);
    const loadExecutor = row?.executors[spec.effect];
    if (!loadExecutor) return errorResult(`${spec.name}: binding type "${spec.binding.type}" has no ${spec.effect} executor`);
    const parsed = parseToolInput(rawInput);
    if ('reason' in parsed) return errorResult(`invalid input for ${spec.name}: ${parsed.reason}`);
    const inputIssues = validateValue(spec.inputSchema, parsed.input);
    if (inputIssues.some((issue) => issue.schemaError)) {
      return errorResult(`${spec.name}'s inputSchema could not be checked (a site error, not the agent's): ${formatIssues(inputIssues)}`);
    }
    if (inputIssues.length > 0) return errorResult(`invalid input for ${spec.name}: ${formatIssues(inputIssues)}`);
    const signal = options?.signal ? AbortSignal.any([options.signal, stopSignal]) : stopSignal;
    if (signal.aborted) return errorResult(`${spec.name} was aborted before it ran`);
    const executor = await loadExecutor();
    const outcome = await executor(spec, parsed.input, { config, signal, stopSignal, messages: spec.messages });
    if (!outcome.ok) return errorResult(outcome.reason);
    // A write the person confirms answers with the runtime's own status object, not the site's
    // data: nothing to check. Other calls (reads, AgentGate's signed calls) answer with the site's.
    if (spec.outputSchema && !outcome.runtimeStatus && (spec.effect === 'read' || !row!.personConfirms)) {
      const outputIssues = validateValue(spec.outputSchema, outcome.data);
      if (outputIssues.length > 0) {
        return errorResult(`the site's answer does not match ${spec.name}'s outputSchema (a site error, not the agent's): ${formatIssues(outputIssues)}`);
      }
    }
    return toolResult(outcome.answer, outcome.added);
  } catch (error) {
    return errorResult(`${spec.name} failed: ${(error as Error)?.message ?? String(error)}`);
  }
}
