/**
 * The `execute` function every registered tool gets. It stays in the start-up chunk and loads
 * the call machinery (executors and the JSON Schema validator) on the first call, or before it
 * when the browser is idle once tools are registered (`prefetchCallModule`), never at start-up
 * (which stays within its first-load budget). It is also the inspector's seam (inspector/inspector.ts):
 * every tool handed to WebMCP passes through `createExecute`, and so does every call.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { ToolSpec } from '../shared/declarations/tool-spec.js';
import type { ExecuteOptions } from '../start/host.js';
import { bindingRow, type ExecutorLoader } from '../shared/bindings/registry.js';
import { errorResult, type CallToolResult } from './result.js';
import { errorMessage } from '../shared/error-message.js';

type CallModule = typeof import('../call/call-tool.js');

let loading: Promise<CallModule> | undefined;

function loadCallModule(): Promise<CallModule> {
  loading ??= import('../call/call-tool.js').catch((error: unknown) => {
    loading = undefined; // a failed chunk load is retried on the next call
    throw error;
  });
  return loading;
}

/** How long the call module's prefetch waits for the browser to be idle, at most, in ms. */
const PREFETCH_IDLE_TIMEOUT_MS = 2000;

/**
 * The prefetch builds the validators of this many tools at most per runtime (the first
 * registered): a page with thousands of tools would otherwise hold thousands of validators an
 * agent never uses; a tool past it builds its own on its first call (about a millisecond).
 */
export const MAX_PREPARED_TOOLS = 200;

/** How many tools' validators the prefetch took on, per runtime (by its stop signal). */
const preparedTools = new WeakMap<AbortSignal, number>();

/**
 * Loads the call module before any call, when the browser is idle (`requestIdleCallback`, at most
 * PREFETCH_IDLE_TIMEOUT_MS later), with the executors of the registered tools whose calls run
 * without the person (reads, and AgentGate's signed calls: its own chunk, on pages with AgentGate
 * tools; never the write room or the panel); runs its warm-up (`warmUp` in call/call-tool.ts);
 * then builds the validators of the `registered` tools (names, as in the Report; their ToolSpecs
 * from `toolSpecsOf(doc)`; MAX_PREPARED_TOOLS per runtime over all calls), in idle periods only.
 * An agent's first call then costs about what later ones do, instead of waiting for the chunk to
 * arrive, its code to compile and its schema's validator to be built (first call ≤ 1.5×
 * a steady call). follow.ts asks for it with each tool name the first time it is registered
 * (AgentGate tools that wait for a signer come later than the page's own). Not where the person
 * asked to save data (`navigator.connection.saveData`, the Save-Data hint); stops once
 * `stopSignal` is aborted, also while the chunk loads. Never throws: a chunk that does not load is
 * loaded again by the first call, which says so in its CallToolResult.
 */
export function prefetchCallModule(doc: Document, registered: readonly string[], stopSignal: AbortSignal): void {
  try {
    startPrefetch(doc, registered, stopSignal);
  } catch {
    // A page that broke navigator or requestIdleCallback gets no prefetch; calls load the module.
  }
}

function startPrefetch(doc: Document, registered: readonly string[], stopSignal: AbortSignal): void {
  if ((navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true) return;
  const idle: Idle = typeof requestIdleCallback === 'function'
    ? (run) => { requestIdleCallback(run, { timeout: PREFETCH_IDLE_TIMEOUT_MS }); }
    : (run) => { setTimeout(run, 0); };
  idle(() => {
    if (stopSignal.aborted) return;
    // Inside the callback: loading reads the page's Promise.all (the build's chunk groups), which
    // a page script may have broken since.
    try {
      loadCallModule().then(async (calls) => prefetchWith(calls, doc, registered, stopSignal, idle)).catch(() => {
        // Not loaded, or a step failed: the first call loads the module and reports any trouble.
      });
    } catch {
      // As above: the first call tries again.
    }
  });
}

/** Runs a callback when the browser is idle (`requestIdleCallback` or, without it, a macrotask). */
type Idle = (run: (deadline?: IdleDeadline) => void) => void;

/** The prefetch once the call module is here (see `prefetchCallModule`). */
async function prefetchWith(
  calls: CallModule, doc: Document, registered: readonly string[], stopSignal: AbortSignal, idle: Idle,
): Promise<void> {
  // stop() may have come while the chunk loaded: nothing more then.
  if (stopSignal.aborted) return;
  const known = toolSpecsOf(doc);
  const specs = registered.flatMap((name) => known.get(name) ?? []);
  // The executors of the calls that run without the person (reads, AgentGate's signed calls):
  // a write waits for the person anyway, and its room and panel are the largest chunks.
  const executors = new Set<ExecutorLoader>();
  for (const spec of specs) {
    const row = bindingRow(spec.binding.type);
    const load = row?.executors[spec.effect];
    if (load && (spec.effect === 'read' || !row.personConfirms)) executors.add(load);
  }
  for (const load of executors) calls.loadExecutorOnce(load).catch(() => {});
  await calls.warmUp();
  if (stopSignal.aborted) return;
  const prepared = preparedTools.get(stopSignal) ?? 0;
  const chosen = specs.slice(0, Math.max(0, MAX_PREPARED_TOOLS - prepared));
  preparedTools.set(stopSignal, prepared + chosen.length);
  const schemas = chosen.flatMap((spec) => (spec.outputSchema ? [spec.inputSchema, spec.outputSchema] : [spec.inputSchema]));
  const prepare = (deadline?: IdleDeadline) => {
    try {
      // One schema at least per idle period, more while the period lasts (the timeout's turn has none left).
      do {
        if (stopSignal.aborted) return;
        const schema = schemas.pop();
        if (schema === undefined) return;
        calls.prepareValidator(schema);
      } while ((deadline?.timeRemaining() ?? 0) > 1);
      idle(prepare);
    } catch {
      // A page's own requestIdleCallback that misbehaves (calls back at once, throws) ends the
      // prefetch; the first call builds what is left.
    }
  };
  idle(prepare);
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
type ToolCallWatcher = (record: ToolCallRecord) => void;

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
 * @returns a function that stops watching. Used by the inspector (inspector/inspector.ts).
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
      return errorResult(`${spec.name} could not run: the runtime's call module did not load (${errorMessage(error)})`);
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
