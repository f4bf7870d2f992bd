/**
 * Handing tools to the browser's WebMCP (`registerTool`): one tool (`registerWithHost`), or a
 * batch made from a promise job of its own (`registerEachWithHost`). A refusal becomes data that
 * keeps the platform error's `name`. Where WebMCP exists only: the entry (start/host.ts) finds the
 * host, the registry registers with it.
 */
import type { ModelContextHost, WebMCPTool } from '../start/host.js';

/**
 * How one `registerTool` ended: `{ ok: true }`, or `{ ok: false, reason, error }` with `reason` one
 * line for the Report (`WebMCP refused the tool: <name>: <message>`) and `error` the platform
 * error's `name` (`InvalidStateError`, `NotAllowedError`, `TypeError`, `AbortError` for a tool
 * withdrawn before its call).
 */
export type RegistrationOutcome = { ok: true } | { ok: false; reason: string; error: string };

/**
 * Registers one tool (WebMCP: `registerTool(tool, { signal })`); aborting `signal` later removes
 * it (WebMCP has no `unregisterTool`).
 * Handles both a returned promise that rejects (current Chromium) and a synchronous throw (older
 * engines).
 * @returns `{ ok: true }`, or `{ ok: false, reason, error }` with the platform error as
 *   `"<name>: <message>"`, e.g. `"InvalidStateError: Duplicate tool name"`, and its `name` as
 *   `error` (`NotAllowedError`: the page may not register tools at all; `TypeError`: the engine
 *   refused the tool's shape, e.g. a schema keyword). Never throws.
 */
export async function registerWithHost(
  host: ModelContextHost, tool: WebMCPTool, signal: AbortSignal,
): Promise<RegistrationOutcome> {
  try {
    await host.registerTool(tool, { signal });
    return REGISTERED;
  } catch (error) {
    return refusal(error);
  }
}

const REGISTERED: RegistrationOutcome = { ok: true };

/** A `registerTool` failure as data: the platform error as `"<name>: <message>"`, its `name` as `error`. */
function refusal(error: unknown): RegistrationOutcome {
  const { name, message } = error instanceof Error || (typeof error === 'object' && error !== null)
    ? (error as { name?: string; message?: string })
    : { name: 'Error', message: String(error) };
  return { ok: false, reason: `WebMCP refused the tool: ${name ?? 'Error'}: ${message ?? ''}`.trim(), error: String(name ?? 'Error') };
}

/** The outcome of a tool whose signal aborted before its turn came: it was never handed to WebMCP. */
const WITHDRAWN: RegistrationOutcome = { ok: false, reason: 'withdrawn before it was registered', error: 'AbortError' };

/**
 * Registers each tool of `batch` with `host` (WebMCP: `registerTool(tool, { signal })`), in order,
 * every call made from one promise job of its own, whose stack holds that job alone (so the calls
 * are made here, not through registerWithHost). Chromium records where each tool was registered
 * (the call's stack trace, which DevTools reports as the tool's `stackTrace`), and that made each
 * call dearer from deep in the live registry's update, a stack of awaited and optimised frames,
 * than from a fresh job: in Chromium 156, 500 registrations took 28.9 ms there against 18.4 ms
 * from a job, and the bare loop of the bench's floor 16–19 ms (docs/performance.md). A tool whose
 * signal aborted before its turn is not handed to WebMCP.
 * @returns once every call was made: one outcome per tool, in order, as registerWithHost's
 *   (`{ ok: true }`, or the platform error as data); the outcomes never reject.
 */
export async function registerEachWithHost(
  host: ModelContextHost, batch: readonly { tool: WebMCPTool; signal: AbortSignal }[],
): Promise<Promise<RegistrationOutcome>[]> {
  return Promise.resolve().then(() => {
    const outcomes: Promise<RegistrationOutcome>[] = [];
    for (let index = 0; index < batch.length; index++) {
      const { tool, signal } = batch[index]!;
      if (signal.aborted) {
        outcomes.push(Promise.resolve(WITHDRAWN));
        continue;
      }
      try {
        outcomes.push(Promise.resolve(host.registerTool(tool, { signal })).then(() => REGISTERED, refusal));
      } catch (error) {
        outcomes.push(Promise.resolve(refusal(error))); // older engines throw instead of rejecting
      }
    }
    return outcomes;
  });
}
