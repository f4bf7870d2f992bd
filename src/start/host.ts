/**
 * The WebMCP host: finding `document.modelContext` (or a legacy `navigator.modelContext`) and
 * registering tools with it. Host failures become data that keeps the platform error's `name`.
 */
import { builtIn } from './dom-builtin.js';
import type { HostAPI } from './report.js';
import type { CallToolResult } from '../registry/result.js';
import type { JSONSchema, ToolAnnotations } from '../shared/declarations/tool-spec.js';

/** What WebMCP passes to `execute` (WebMCP draft: `execute(input, { signal })`). */
export interface ExecuteOptions {
  signal?: AbortSignal;
}

/** The tool object `registerTool` takes (WebMCP draft, `ModelContextTool`). */
export interface WebMCPTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: JSONSchema;
  annotations?: ToolAnnotations;
  execute(input: unknown, options?: ExecuteOptions): Promise<CallToolResult>;
}

/** The part of `ModelContext` the runtime uses. */
export interface ModelContextHost {
  registerTool(tool: WebMCPTool, options?: { signal?: AbortSignal }): Promise<void> | void;
}

/** A found host, or `api: 'none'` (with `reason` when a policy, not the browser, withholds WebMCP). */
export type FoundHost = { api: Exclude<HostAPI, 'none'>; host: ModelContextHost } | { api: 'none'; host?: undefined; reason?: string };

/** The Report's `apiReason` when the document's permissions policy does not allow `tools`. */
const POLICY_DISALLOWS_TOOLS = 'the permissions policy does not allow "tools" here; nothing was registered';

/**
 * Whether the document's permissions policy allows the `tools` feature (WebMCP: "tools" is a
 * policy-controlled feature, default allowlist `self`). Read from `document.permissionsPolicy`
 * or Chromium's `document.featurePolicy`; `true` where neither exists, where the engine does not
 * know the feature, or where it cannot be read.
 */
function policyAllowsTools(doc: Document): boolean {
  try {
    type Policy = { allowsFeature(feature: string): boolean; features(): string[] };
    const policy = builtIn<Policy | undefined>(doc, 'permissionsPolicy') ?? builtIn<Policy | undefined>(doc, 'featurePolicy');
    // An engine without WebMCP does not know the feature and answers false for it: a polyfill
    // there is not governed by the header (the browser ignored it as unrecognised). The list is
    // read first: asking `allowsFeature` for a feature the engine does not know logs a warning.
    return !policy?.features().includes('tools') || policy.allowsFeature('tools');
  } catch {
    return true;
  }
}

function isHost(value: unknown): value is ModelContextHost {
  return typeof value === 'object' && value !== null && typeof (value as ModelContextHost).registerTool === 'function';
}

/**
 * Finds the WebMCP entry point: `document.modelContext` (spec since May 2026), else
 * `navigator.modelContext` (older engines, polyfills). When both exist only the document one is
 * used, so a tool is never registered twice. Reading the properties never throws out.
 */
export function findHost(doc: Document = document, nav?: Navigator): FoundHost {
  // A polyfill installs its API whatever the policy says: a disallowed page registers nothing.
  if (!policyAllowsTools(doc)) return { api: 'none', reason: POLICY_DISALLOWS_TOOLS };
  try {
    // Past DOM clobbering: an <img name="modelContext"> would shadow the document's own (dom-builtin.ts).
    const onDocument = builtIn<unknown>(doc, 'modelContext');
    if (isHost(onDocument)) return { api: 'document.modelContext', host: onDocument };
    // Read here, not as a default parameter: a page may have made `navigator` a throwing getter.
    const onNavigator = ((nav ?? globalThis.navigator) as (Navigator & { modelContext?: unknown }) | undefined)?.modelContext;
    if (isHost(onNavigator)) return { api: 'navigator.modelContext', host: onNavigator };
  } catch {
    // A throwing getter means no usable API: degrade silently, as the contract asks.
  }
  return { api: 'none' };
}

/** How one `registerTool` ended. */
export type RegistrationOutcome = { ok: true } | { ok: false; reason: string; error: string };

/**
 * Registers one tool; aborting `signal` later removes it (WebMCP has no `unregisterTool`).
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

/** What one `registerTool` call of a batch gave: its return value, or what it threw. */
type Call = { returned: unknown } | { threw: unknown } | { withdrawn: true };

/**
 * Registers each tool of `batch` with `host`, in order, every call made from one promise job of
 * its own, whose stack holds that job alone. Chromium records where each tool was registered
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
  const calls = await Promise.resolve().then(() => {
    const made: Call[] = [];
    for (let index = 0; index < batch.length; index++) {
      const { tool, signal } = batch[index]!;
      if (signal.aborted) {
        made.push({ withdrawn: true });
        continue;
      }
      try {
        made.push({ returned: host.registerTool(tool, { signal }) });
      } catch (error) {
        made.push({ threw: error }); // older engines throw instead of rejecting
      }
    }
    return made;
  });
  return calls.map((call) => {
    if ('threw' in call) return Promise.resolve(refusal(call.threw));
    if ('withdrawn' in call) return Promise.resolve(WITHDRAWN);
    return Promise.resolve(call.returned).then(() => REGISTERED, refusal);
  });
}
