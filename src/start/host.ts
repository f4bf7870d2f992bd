/**
 * The WebMCP host: finding `document.modelContext` (or a legacy `navigator.modelContext`), and
 * the shapes of what is handed to it (registry/registration.ts registers tools with it).
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
