/**
 * One start of the runtime: sources → normalise → ToolSpec[] → bind → register (DESIGN section 3).
 */
import { unsupportedBindingReason } from './bindings/supported.js';
import { normaliseOptions, type RuntimeConfig, type RuntimeOptions } from './config.js';
import { normaliseCapellDeclaration } from './declarations/normalise.js';
import { nativeFormToolReason } from './forms/native-form.js';
import type { ToolSpec } from './declarations/tool-spec.js';
import { findHost, registerWithHost, type WebMCPTool } from './host.js';
import { createExecute } from './tool-execute.js';
import type { Rejection, Report } from './report.js';
import { readCapellIslands } from './sources/capell-islands.js';

/** A started runtime. */
export interface Runtime {
  /** Resolves once every tool is registered or rejected; never rejects. */
  readonly ready: Promise<Report>;
  /** Removes every registered tool (aborts its signal) and aborts calls in flight. Idempotent. */
  stop(): void;
}

// One active runtime per document: a second start() returns the first, so no tool registers twice.
const active = new WeakMap<Document, Runtime>();

/** Reads every source and normalises it; the first declaration of a name wins. */
function collectSpecs(config: RuntimeConfig): { specs: ToolSpec[]; rejected: Rejection[] } {
  const reading = readCapellIslands(config.document);
  const rejected = [...reading.rejected];
  const specs: ToolSpec[] = [];
  const owners = new Map<string, string>();
  for (const { declaration, source, messages } of reading.declarations) {
    const result = normaliseCapellDeclaration(declaration, { source, origin: config.origin, messages });
    if (!result.ok) {
      rejected.push({ name: result.name, source, reasons: result.reasons });
      continue;
    }
    const { spec } = result;
    const owner = owners.get(spec.name);
    if (owner !== undefined) {
      rejected.push({ name: spec.name, source, reasons: [`name: ${JSON.stringify(spec.name)} is already declared by ${owner} (the first declaration wins)`] });
      continue;
    }
    owners.set(spec.name, source);
    const unsupported = unsupportedBindingReason(spec) ?? nativeFormToolReason(spec, config.document);
    if (unsupported) rejected.push({ name: spec.name, source, reasons: [unsupported] });
    else specs.push(spec);
  }
  return { specs, rejected };
}

function toWebMCPTool(spec: ToolSpec, config: RuntimeConfig, stopSignal: AbortSignal): WebMCPTool {
  const tool: WebMCPTool = {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
    annotations: spec.annotations,
    execute: createExecute(spec, config, stopSignal),
  };
  if (spec.title !== undefined) tool.title = spec.title;
  return tool;
}

async function run(config: RuntimeConfig, stopController: AbortController): Promise<Report> {
  const found = findHost(config.document);
  const { specs, rejected } = collectSpecs(config);
  const report: Report = { api: found.api, registered: [], rejected, audit: [] };
  if (found.api === 'none') return report;
  const outcomes = await Promise.all(specs.map(async (spec) => {
    const controller = new AbortController();
    stopController.signal.addEventListener('abort', () => controller.abort(stopController.signal.reason), { once: true });
    const outcome = await registerWithHost(found.host, toWebMCPTool(spec, config, stopController.signal), controller.signal);
    return { spec, outcome };
  }));
  for (const { spec, outcome } of outcomes) {
    if (outcome.ok) report.registered.push(spec.name);
    else report.rejected.push({ name: spec.name, source: spec.source, reasons: [outcome.reason] });
  }
  if (config.log === 'warn') {
    for (const rejection of report.rejected) {
      console.warn(`[capell-webmcp] ${rejection.source}: tool ${JSON.stringify(rejection.name)} not registered: ${rejection.reasons.join('; ')}`);
    }
  }
  return report;
}

/**
 * Starts the runtime for a document: reads the Capell tool islands, normalises every declaration,
 * registers the valid ones with WebMCP (`document.modelContext.registerTool`, one AbortSignal per
 * tool) and reports the rest. Without WebMCP nothing is registered and nothing is logged; `ready`
 * still resolves with `api: 'none'`. Makes no request.
 * A second call for the same document while the first is running returns the first runtime.
 * @throws TypeError naming the option when an option is invalid (see RuntimeOptions).
 * @example
 * const runtime = start({ apiBase: '/agent/v1' });
 * const report = await runtime.ready; // { api: 'document.modelContext', registered: ['page.lookup', …], … }
 * runtime.stop();
 */
export function start(options: RuntimeOptions = {}): Runtime {
  const config = normaliseOptions(options);
  const existing = active.get(config.document);
  if (existing) return existing;
  const stopController = new AbortController();
  const runtime: Runtime = {
    ready: run(config, stopController).catch((error: unknown): Report => ({
      // run() never throws by design; this keeps `ready` from ever rejecting if that breaks.
      api: 'none', registered: [], audit: [],
      rejected: [{ name: '(runtime)', source: 'capell-webmcp', reasons: [String((error as Error)?.message ?? error)] }],
    })),
    stop() {
      if (stopController.signal.aborted) return;
      stopController.abort(new DOMException('capell-webmcp stopped', 'AbortError'));
      if (active.get(config.document) === runtime) active.delete(config.document);
    },
  };
  active.set(config.document, runtime);
  return runtime;
}
