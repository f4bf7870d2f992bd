/**
 * One start of the runtime: sources → normalise → ToolSpec[] → bind → register (DESIGN section 3),
 * and the audit of the page's interactive surfaces.
 */
import { auditSurfaces, coverageOf } from './audit.js';
import { normaliseOptions, type RuntimeConfig, type RuntimeOptions } from './config.js';
import { checkCapellDeclaration } from './declarations/check-declaration.js';
import type { PendingRejection } from './declarations/reason.js';
import { nativeFormToolReason } from './forms/native-form.js';
import type { ToolSpec } from './declarations/tool-spec.js';
import { findHost, registerWithHost, type WebMCPTool } from './host.js';
import { createExecute } from './tool-execute.js';
import type { Report } from './report.js';
import { readCapellIslands, type IslandReading } from './sources/capell-islands.js';
import { createWriteStatusTool, WRITE_STATUS_OWNER, WRITE_STATUS_TOOL } from './writes/status-tool.js';

/** A started runtime. */
export interface Runtime {
  /** Resolves once every tool is registered or rejected; never rejects. */
  readonly ready: Promise<Report>;
  /** Removes every registered tool (aborts its signal) and aborts calls in flight. Idempotent. */
  stop(): void;
}

/**
 * Longest stretch of start-up work between yields to the main thread, in ms. Keeps a page with
 * hundreds of declarations free of long tasks (DESIGN section 6: no task over 50 ms).
 */
export const START_SLICE_MS = 10;

/** Gives the main thread back: `scheduler.yield()` where the browser has it, else a macrotask. */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/** Calls `yieldToMain` once START_SLICE_MS of work has passed since the last yield. */
function createSlicer(): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < START_SLICE_MS) return undefined;
    return yieldToMain().then(() => { sliceStart = performance.now(); });
  };
}

/**
 * Where a document keeps its active runtime. A registry symbol, not module state, so that every
 * copy of the runtime on a page (the script-tag bundle and the library build) sees the same one
 * and a tool never registers twice.
 */
const ACTIVE_RUNTIME = Symbol.for('capell-webmcp.runtime');

type RuntimeHolder = Document & { [ACTIVE_RUNTIME]?: Runtime };

/**
 * Normalises every declaration read from the sources; the first declaration of a name wins, and
 * the runtime's own `capell.write.status` is always first (a declaration of it is a duplicate).
 */
async function collectSpecs(
  config: RuntimeConfig, reading: IslandReading, slice: () => Promise<void> | undefined,
): Promise<{ specs: ToolSpec[]; rejected: PendingRejection[] }> {
  const rejected = [...reading.rejected];
  const specs: ToolSpec[] = [];
  const owners = new Map<string, string>([[WRITE_STATUS_TOOL, WRITE_STATUS_OWNER]]);
  for (const { declaration, source, messages } of reading.declarations) {
    await slice();
    let result: ReturnType<typeof checkCapellDeclaration>;
    try {
      result = checkCapellDeclaration(declaration, { source, origin: config.origin, messages });
    } catch (error) {
      // The rules never throw by design; if one does, only this declaration is lost.
      const name = typeof (declaration as { name?: unknown })?.name === 'string' ? (declaration as { name: string }).name : '';
      result = { ok: false, name, reasons: [`declaration: could not be checked (${String((error as Error)?.message ?? error)})`] as never };
    }
    if (!result.ok) {
      rejected.push({ name: result.name, source, reasons: result.reasons });
      continue;
    }
    const { spec } = result;
    const owner = owners.get(spec.name);
    if (owner !== undefined) {
      rejected.push({ name: spec.name, source, reasons: [['name', 'duplicate', spec.name, owner]] });
      continue;
    }
    owners.set(spec.name, source);
    const native = nativeFormToolReason(spec, config.document);
    if (native) rejected.push({ name: spec.name, source, reasons: [native] });
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

/**
 * Renders coded reasons into text. The texts are a chunk of their own, loaded only when
 * something was rejected: a page whose declarations are all valid requests nothing before ready.
 */
async function renderRejections(pending: PendingRejection[]): Promise<Report['rejected']> {
  if (pending.every((rejection) => rejection.reasons.every((reason) => typeof reason === 'string'))) {
    return pending as Report['rejected'];
  }
  const texts = await import('./declarations/reason-text.js');
  return texts.renderRejections(pending);
}

async function run(config: RuntimeConfig, stopController: AbortController): Promise<Report> {
  const found = findHost(config.document);
  const reading = readCapellIslands(config.document);
  // The audit counts every raw declaration, rejected ones included, as covering its surface.
  const audit = auditSurfaces(config.document, coverageOf(reading.declarations.map((raw) => raw.declaration)), config.audit);
  // Without WebMCP nothing could use a tool: normalise nothing, register nothing, stay silent.
  if (found.api === 'none') return { api: 'none', registered: [], rejected: [], audit };
  const slice = createSlicer();
  const { specs, rejected } = await collectSpecs(config, reading, slice);
  const registered: string[] = [];
  const registrations: Promise<{ spec: ToolSpec; outcome: Awaited<ReturnType<typeof registerWithHost>> }>[] = [];
  const controllers: AbortController[] = []; // one per tool: aborting it removes that tool
  stopController.signal.addEventListener('abort', () => {
    for (const controller of controllers) controller.abort(stopController.signal.reason);
  }, { once: true });
  for (const spec of specs) {
    await slice();
    if (stopController.signal.aborted) break;
    const controller = new AbortController();
    controllers.push(controller);
    registrations.push(registerWithHost(found.host, toWebMCPTool(spec, config, stopController.signal), controller.signal)
      .then((outcome) => ({ spec, outcome })));
  }
  let writes = 0;
  for (const { spec, outcome } of await Promise.all(registrations)) {
    if (outcome.ok) {
      registered.push(spec.name);
      if (spec.effect === 'write') writes += 1;
    } else rejected.push({ name: spec.name, source: spec.source, reasons: [outcome.reason] });
  }
  // The runtime's own tool, not a declaration: Report.registered lists only the site's tools.
  if (writes > 0 && !stopController.signal.aborted) {
    const controller = new AbortController();
    controllers.push(controller);
    const outcome = await registerWithHost(found.host, createWriteStatusTool(config, stopController.signal), controller.signal);
    if (!outcome.ok) rejected.push({ name: WRITE_STATUS_TOOL, source: 'capell-webmcp', reasons: [outcome.reason] });
  }
  const report: Report = { api: found.api, registered, rejected: await renderRejections(rejected), audit };
  if (config.log === 'warn') {
    for (const rejection of report.rejected) {
      console.warn(`[capell-webmcp] ${rejection.source}: tool ${JSON.stringify(rejection.name)} not registered: ${rejection.reasons.join('; ')}`);
    }
    for (const entry of audit) console.warn(`[capell-webmcp] audit ${entry.level}: ${entry.surface}: ${entry.message}`);
  }
  return report;
}

/**
 * Starts the runtime for a document: reads the Capell tool islands, normalises every declaration,
 * registers the valid ones with WebMCP (`document.modelContext.registerTool`, one AbortSignal per
 * tool) and reports the rest. Without WebMCP no declaration is read, nothing is registered or
 * logged, and `ready` still resolves with `api: 'none'` (use the CLI to validate declarations
 * outside a WebMCP browser). Makes no request when every declaration is valid; a rejection loads
 * the reason texts chunk to explain itself.
 * A second call for the same document while the first is running returns the first runtime, also
 * across copies of the runtime (script tag and library).
 * @throws TypeError naming the option when an option is invalid (see RuntimeOptions).
 * @example
 * const runtime = start({ apiBase: '/agent/v1' });
 * const report = await runtime.ready; // { api: 'document.modelContext', registered: ['page.lookup', …], … }
 * runtime.stop();
 */
export function start(options: RuntimeOptions = {}): Runtime {
  const config = normaliseOptions(options);
  const holder = config.document as RuntimeHolder;
  const existing = holder[ACTIVE_RUNTIME];
  if (existing) return existing;
  const stopController = new AbortController();
  const runtime: Runtime = {
    ready: run(config, stopController).catch((error: unknown): Report => ({
      // run() never throws by design; this keeps `ready` from ever rejecting if that breaks.
      api: findHost(config.document).api, registered: [], audit: [],
      rejected: [{ name: '(runtime)', source: 'capell-webmcp', reasons: [String((error as Error)?.message ?? error)] }],
    })),
    stop() {
      if (stopController.signal.aborted) return;
      stopController.abort(new DOMException('capell-webmcp stopped', 'AbortError'));
      if (holder[ACTIVE_RUNTIME] === runtime) delete holder[ACTIVE_RUNTIME];
    },
  };
  Object.defineProperty(holder, ACTIVE_RUNTIME, { value: runtime, configurable: true, writable: true });
  return runtime;
}
