/**
 * The `execute` function every registered tool gets. It stays in the start-up chunk and loads
 * the call machinery (executors and the JSON Schema validator) on the first call only
 * (DESIGN section 6). It is also the inspector's seam (ui/inspector.ts): every tool handed to
 * WebMCP passes through `createExecute`, and so does every call.
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
 * One finished tool call, as the inspector's call log shows it.
 * - `tool`: the tool's name; `input`: the input as the agent gave it (not copied: do not change it);
 * - `outcome`: `'ok'`, or `'error'` when the result had `isError: true`; `text`: the result's
 *   first text item (the answer, or the one-line reason);
 * - `startedAt`: when the call started, in ms since the epoch; `durationMs`: how long it took
 *   until the result was ready, in ms (`performance.now()` resolution);
 * - `bytes`: the size of the CallToolResult as JSON, in UTF-8 bytes (what WebMCP serialises for
 *   the agent).
 */
export interface ToolCallRecord {
  tool: string;
  input: unknown;
  outcome: 'ok' | 'error';
  text: string;
  startedAt: number;
  durationMs: number;
  bytes: number;
}

/** A watcher of finished calls (`watchToolCalls`). */
export type ToolCallWatcher = (record: ToolCallRecord) => void;

/**
 * Who watches calls, per document: module-local, so a page script cannot listen in on what an
 * agent sends and gets. Empty unless the inspector is open; then a call costs one lookup more.
 */
const watchers = new WeakMap<Document, Set<ToolCallWatcher>>();

/** The latest ToolSpec handed to WebMCP under each name, per document (`toolSpecsOf`). */
const specs = new WeakMap<Document, Map<string, ToolSpec>>();

/**
 * Calls `watcher` after each tool call in `doc` finishes (the result is ready, before WebMCP
 * hands it to the agent), with its ToolCallRecord. A watcher that throws is ignored.
 * @returns a function that stops watching. Used by the inspector (ui/inspector.ts).
 */
export function watchToolCalls(doc: Document, watcher: ToolCallWatcher): () => void {
  let set = watchers.get(doc);
  if (!set) watchers.set(doc, set = new Set());
  set.add(watcher);
  return () => { set.delete(watcher); };
}

/**
 * The ToolSpecs this runtime handed to WebMCP in `doc`, the latest one per name. A name no longer
 * registered may still be here: read it together with the Report's `registered`. Used by the
 * inspector to show each registered tool's binding, annotations and schema.
 */
export function toolSpecsOf(doc: Document): ReadonlyMap<string, ToolSpec> {
  return specs.get(doc) ?? new Map();
}

/** Tells the watchers of `doc` about a finished call. */
function report(set: Set<ToolCallWatcher>, spec: ToolSpec, input: unknown, startedAt: number, started: number, result: CallToolResult): void {
  const durationMs = performance.now() - started;
  let bytes = 0;
  try {
    bytes = new TextEncoder().encode(JSON.stringify(result)).length;
  } catch {
    // A result that cannot be serialised is WebMCP's to refuse; the log shows 0 bytes.
  }
  const record: ToolCallRecord = {
    tool: spec.name, input, outcome: result.isError ? 'error' : 'ok', text: result.content?.[0]?.text ?? '', startedAt, durationMs, bytes,
  };
  for (const watcher of set) {
    try {
      watcher(record);
    } catch {
      // The inspector's trouble must never reach the agent's call.
    }
  }
}

/**
 * Creates a tool's `execute(input, { signal })` (WebMCP draft). See `callTool` for what a call
 * does. Resolves to a CallToolResult; never throws, also when the chunk cannot be loaded.
 * Records `spec` as its name's latest (`toolSpecsOf`), and tells the call's watchers, if any
 * (`watchToolCalls`), once it finishes.
 */
export function createExecute(
  spec: ToolSpec, config: RuntimeConfig, stopSignal: AbortSignal,
): (input: unknown, options?: ExecuteOptions) => Promise<CallToolResult> {
  const doc = config.document;
  let named = specs.get(doc);
  if (!named) specs.set(doc, named = new Map());
  named.set(spec.name, spec);
  const run = async (input: unknown, options?: ExecuteOptions): Promise<CallToolResult> => {
    try {
      const { callTool } = await loadCallModule();
      return await callTool(spec, input, options, config, stopSignal);
    } catch (error) {
      return errorResult(`${spec.name} could not run: the runtime's call module did not load (${(error as Error)?.message ?? String(error)})`);
    }
  };
  return async (input, options) => {
    const set = watchers.get(doc);
    if (!set || set.size === 0) return run(input, options);
    const startedAt = Date.now();
    const started = performance.now();
    const result = await run(input, options);
    report(set, spec, input, startedAt, started, result);
    return result;
  };
}
