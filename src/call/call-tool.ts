/**
 * One tool call from raw input to CallToolResult. Loaded as a chunk on the first call (with the
 * validator), never at start-up; the executor of the tool's binding type and effect is loaded from
 * its row in the binding registry (shared/bindings/registry.ts): reads from call/reads/, writes
 * from write/, so a read call never loads the write machinery.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { JSONSchema, ToolSpec } from '../shared/declarations/tool-spec.js';
import type { ExecuteOptions } from '../start/host.js';
import { errorResult, toolResult, type CallToolResult } from '../registry/result.js';
import { bindingRow, type ExecutorLoader } from '../shared/bindings/registry.js';
import type { BindingExecutor } from '../shared/bindings/binding-executor.js';
import { formatIssues, prepareValidator, validateValue } from './validation.js';
import { parseToolInput } from './tool-input.js';
import { checkOutput } from './check-output.js';
import { parseBoundedJSON, readBoundedText } from '../registry/bounded-json.js';
import { checkEnvelope, type Envelope } from './reads/fetch-envelope.js';
import { findBracketKey, withQuery } from './reads/query-string.js';
import { errorMessage } from '../shared/error-message.js';
import { CURSOR_INPUT, CURSOR_ONLY_SCHEMA } from '../shared/declarations/paging.js';

/**
 * Executors already loaded, by their registry loader: a dynamic `import()` costs a task's share
 * of work on every call (~0.2 ms) even for a module already there.
 */
const loadedExecutors = new Map<ExecutorLoader, BindingExecutor>();

/**
 * An executor through its registry loader, loaded on the first use and kept for later calls; a
 * failed load is not kept (the next call tries again). @returns the executor; rejects when its
 * chunk does not load.
 */
export async function loadExecutorOnce(load: ExecutorLoader): Promise<BindingExecutor> {
  const kept = loadedExecutors.get(load);
  if (kept) return kept;
  const executor = await load();
  loadedExecutors.set(load, executor);
  return executor;
}

/**
 * Runs one tool call: the input is validated against `inputSchema` (a call of a paged read that
 * gives only `cursor`, against CURSOR_ONLY_SCHEMA) before any request; the
 * binding runs; the answer (`BindingOutcome.data`: Core's whole envelope for a Core read) is
 * checked against `outputSchema` when there is one (check-output.ts: properties only an
 * `additionalProperties: false` forbids are left out, with a warning in the Report).
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
    // A call that gives only the runtime's cursor (declarations/paging.ts) is checked against
    // that alone: the link carries the query the declared `required` asks for.
    const cursorOnly = spec.pagesByLinks === true && Object.keys(parsed.input).length === 1 && Object.hasOwn(parsed.input, CURSOR_INPUT);
    const inputIssues = validateValue(cursorOnly ? CURSOR_ONLY_SCHEMA : spec.inputSchema, parsed.input);
    if (inputIssues.some((issue) => issue.schemaError)) {
      return errorResult(`${spec.name}'s inputSchema could not be checked (a site error, not the agent's): ${formatIssues(inputIssues)}`);
    }
    if (inputIssues.length > 0) return errorResult(`invalid input for ${spec.name}: ${formatIssues(inputIssues)}`);
    const signal = options?.signal ? AbortSignal.any([options.signal, stopSignal]) : stopSignal;
    if (signal.aborted) return errorResult(`${spec.name} was aborted before it ran`);
    const executor = await loadExecutorOnce(loadExecutor);
    const outcome = await executor(spec, parsed.input, { config, signal, stopSignal, messages: spec.messages });
    if (!outcome.ok) return errorResult(outcome.reason);
    // A write the person confirms answers with the runtime's own status object, not the site's
    // data: nothing to check. Other calls (reads, AgentGate's signed calls) answer with the site's.
    // (An executed admin write's answer is checked by its executor: write/admin/admin-invoke-write.ts.)
    let { answer } = outcome;
    if (spec.outputSchema && !outcome.runtimeStatus && (spec.effect === 'read' || !row!.personConfirms)) {
      const checked = checkOutput(config, spec.name, spec.outputSchema, outcome.answer, outcome.data);
      if (!checked.ok) {
        return errorResult(`the site's answer does not match ${spec.name}'s outputSchema (a site error, not the agent's): ${checked.issues}`);
      }
      ({ answer } = checked);
    }
    return toolResult(answer, outcome.added);
  } catch (error) {
    return errorResult(`${spec.name} failed: ${errorMessage(error)}`);
  }
}

/** Builds a schema's validator ahead of its first call (validation.ts), for the idle prefetch. */
export { prepareValidator };

/**
 * A small schema of the shape most tools have, with a pattern (the linear-time matcher): what
 * `warmUp` validates against.
 */
const WARM_SCHEMA: JSONSchema = {
  type: 'object',
  properties: { q: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[a-z]+$' }, limit: { type: 'integer', minimum: 1, maximum: 50 } },
  required: ['q'],
  additionalProperties: false,
};

/** Whether `warmUp` ran: once is enough, however often the prefetch runs. */
let warmed = false;

/** A small Capell Agent Schema envelope: the answer `warmUp` reads as a read call would. */
const WARM_ANSWER = '{"capellAgentSchema":1,"data":{"items":[{"title":"warm","url":"/"}]},"links":{"next":null,"previous":null}}';

/**
 * Runs a call's own code once, with no binding and no request: parsing the input, counting the
 * validation work, building a validator and validating (a pass and a failure) on a small schema,
 * building a read's query from the input (on `warm.invalid`, no URL of the page's), then reading,
 * parsing and checking a small envelope from an in-memory Response and shaping it into a
 * CallToolResult, as a read's answer is. V8 compiles that code now, while the browser is idle
 * (tool-execute.ts `prefetchCallModule`), not on an agent's first call. Runs once; a few ms;
 * resolves when done, never rejects.
 */
export async function warmUp(): Promise<void> {
  if (warmed) return;
  warmed = true;
  try {
    for (const input of [{ q: 'warm', limit: 1 }, { limit: 0 }]) {
      const parsed = parseToolInput(input);
      if ('input' in parsed) {
        formatIssues(validateValue(WARM_SCHEMA, parsed.input));
        if (findBracketKey(parsed.input) === undefined) withQuery(new URL('https://warm.invalid/agent/v1/search?page=1'), parsed.input, ['scope']);
      }
    }
    const read = await readBoundedText(new Response(WARM_ANSWER), 'the warm-up answer');
    const parsing = read.ok ? parseBoundedJSON(read.text, 'the warm-up answer') : undefined;
    if (parsing?.ok && checkEnvelope(parsing.value) === undefined) toolResult((parsing.value as Envelope).data);
  } catch {
    // A warm-up is an optimisation: the first call does the same work and reports any trouble.
  }
}
