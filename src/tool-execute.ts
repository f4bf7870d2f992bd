/**
 * The `execute` function every registered tool gets. It stays in the start-up chunk and loads
 * the call machinery (executors and the JSON Schema validator) on the first call only
 * (DESIGN section 6).
 */
import type { RuntimeConfig } from './config.js';
import type { ToolSpec } from './declarations/tool-spec.js';
import type { ExecuteOptions } from './host.js';
import { errorResult, type CallToolResult } from './result.js';

type CallModule = typeof import('./bindings/index.js');

let loading: Promise<CallModule> | undefined;

function loadCallModule(): Promise<CallModule> {
  loading ??= import('./bindings/index.js').catch((error: unknown) => {
    loading = undefined; // a failed chunk load is retried on the next call
    throw error;
  });
  return loading;
}

/**
 * Creates a tool's `execute(input, { signal })` (WebMCP draft). See `callTool` for what a call
 * does. Resolves to a CallToolResult; never throws, also when the chunk cannot be loaded.
 */
export function createExecute(
  spec: ToolSpec, config: RuntimeConfig, stopSignal: AbortSignal,
): (input: unknown, options?: ExecuteOptions) => Promise<CallToolResult> {
  return async (input, options) => {
    try {
      const { callTool } = await loadCallModule();
      return await callTool(spec, input, options, config, stopSignal);
    } catch (error) {
      return errorResult(`${spec.name} could not run: the runtime's call module did not load (${(error as Error)?.message ?? String(error)})`);
    }
  };
}
