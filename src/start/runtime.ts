/**
 * One runtime per document: sources → normalise → ToolSpec[] → bind → register,
 * kept in step with the page as it changes (live-registry.ts, page-observer.ts), and the audit of
 * the page's interactive surfaces.
 */
import { auditSurfaces, coverageOf } from './audit.js';
import { normaliseOptions, type RuntimeConfig, type RuntimeOptions } from './config.js';
import { callBuiltIn } from './dom-builtin.js';
import { findHost } from './host.js';
import { holdLoad } from './load-hold.js';
import { emptyReport, runtimeFailure, type Report } from './report.js';
import type { StartRecord } from './second-start.js';
import { readPageDeclarations } from './page-declarations.js';
import { loadInspector, loadSecondStart } from './later-units.js';
import { loadRegistryOnce } from './registry-once.js';
import { submitFrontOf } from './submit-front.js';

/** A started runtime. */
export interface Runtime {
  /**
   * Resolves with the first update's Report once every tool is registered or rejected, or with an
   * empty Report when `stop()` came first; never rejects.
   */
  readonly ready: Promise<Report>;
  /** The Report of the latest settled update; undefined until the first settles. */
  readonly report: Report | undefined;
  /**
   * Undoes everything `start()` did: the page observer and listeners, every registration, open
   * confirmation panels (the person's values are put back) and calls in flight (they answer
   * `isError`). Idempotent; a `start()` afterwards starts clean.
   */
  stop(): void;
}

/** The event fired on the document after each later update, with the new Report as `detail`. */
const CHANGE_EVENT = 'capell-webmcp:change';

/**
 * Where a document keeps its active runtime. A registry symbol, not module state, so that every
 * copy of the runtime on a page (the script-tag bundle and the library build) sees the same one
 * and a tool never registers twice.
 */
const ACTIVE_RUNTIME = Symbol.for('capell-webmcp.runtime');

type RuntimeHolder = Document & { [ACTIVE_RUNTIME]?: Runtime };

/**
 * Where a runtime keeps what a second `start()` is checked against (second-start.ts): on the
 * runtime object, non-enumerable, under a registry symbol for the same reason as ACTIVE_RUNTIME:
 * a copy of the options, never the config the runtime works with (page script can read it).
 * Only a runtime that found WebMCP has one (without it nothing is logged).
 */
const START_RECORD = Symbol.for('capell-webmcp.start-record');

type RecordedRuntime = Runtime & { [START_RECORD]?: StartRecord };

/** The Report of a browser without WebMCP: nothing read or registered, only the audit. */
function reportWithoutWebMCP(config: RuntimeConfig, reason: string | undefined): Report {
  const declarations = readPageDeclarations(config.document);
  const report: Report = { ...emptyReport('none'), audit: auditSurfaces(config.document, coverageOf(declarations), config.audit) };
  if (reason) report.apiReason = reason;
  return report;
}

/**
 * Starts the runtime for a document: reads every source (Capell tools islands), normalises every
 * declaration, registers the valid ones with WebMCP (`document.modelContext.registerTool`, one
 * AbortSignal per tool, owned by the island it came from) and reports the rest; then follows the
 * page: an island added, rewritten or removed, or a `toolname` form that appears or disappears,
 * is reflected once its registrations settle, with a `capell-webmcp:change` event on the document
 * (`detail`: the new Report). Without WebMCP no declaration is normalised, nothing is registered,
 * observed or logged, and `ready` still resolves with `api: 'none'` and the audit.
 * Makes no request when every declaration is valid; a rejection loads the reason texts chunk.
 * A second call for the same document while one runs returns the running one, also across copies
 * of the runtime (script tag and library), and, where WebMCP is present and `log` is not
 * `'silent'`, warns once (console.warn, soon after the call: the check is a chunk of its own)
 * naming each option it gave that the running one does not use; after `stop()` a call starts a new one.
 * With `inspect: true` the inspector opens (inspector/inspector.ts), also without WebMCP.
 * @throws TypeError naming the option when an option is invalid (see RuntimeOptions).
 * @example
 * const runtime = start({ apiBase: '/agent/v1' });
 * const report = await runtime.ready; // { api: 'document.modelContext', registered: ['page.get', …], … }
 * document.addEventListener('capell-webmcp:change', (event) => console.log(event.detail.registered));
 * runtime.stop();
 */
export function start(options: RuntimeOptions = {}): Runtime {
  const config = normaliseOptions(options);
  const holder = config.document as RuntimeHolder;
  const existing: RecordedRuntime | undefined = holder[ACTIVE_RUNTIME];
  if (existing) {
    const record = existing[START_RECORD];
    if (record) void loadSecondStart().then((warnIgnoredOptions) => warnIgnoredOptions(options, config, record), () => {});
    return existing;
  }
  const stopController = new AbortController();
  let current: Report | undefined;
  let resolveReady!: (report: Report) => void;
  const ready = new Promise<Report>((resolve) => { resolveReady = resolve; });
  let shown = 0;
  /** Update `generation` (1 = the first) settled with `report`. */
  const publish = (report: Report, generation: number) => {
    if (generation === 1) resolveReady(report);
    // An older update that settles late (its registrations were slower) never replaces a newer Report.
    if (generation <= shown) return;
    shown = generation;
    current = report;
    if (generation > 1) callBuiltIn(config.document, 'dispatchEvent', new CustomEvent<Report>(CHANGE_EVENT, { detail: report }));
  };
  const found = findHost(config.document);
  const failed = (what: string, error: unknown) => publish(runtimeFailure(found.api, what, error), 1);
  try {
    // Without WebMCP nothing could use a tool: normalise nothing, register nothing, stay silent.
    if (found.api === 'none') publish(reportWithoutWebMCP(config, found.reason), 1);
    else {
      // Agent clients read the tools at load: load waits for the first update (load-hold.ts).
      holdLoad(config.document, ready);
      // The registry, the rules and the page observer load only here, where WebMCP exists: a
      // browser without it fetches the entry alone.
      loadRegistryOnce().then((follow) => {
        if (!stopController.signal.aborted) follow(config, found, stopController.signal, publish, ready);
      }).catch((error: unknown) => failed('the registry did not load; nothing was registered', error));
      // A form tool's submit guard judges submits on the window before any listener the page adds
      // from now on (start/submit-front.ts).
      try {
        if (coverageOf(readPageDeclarations(config.document)).formIds.size > 0) submitFrontOf(config);
      } catch {
        // Nothing else depends on it.
      }
    }
  } catch (error) {
    // Neither path throws by design; this keeps `ready` from ever rejecting if that breaks.
    failed('the runtime did not start', error);
  }
  const runtime: Runtime = {
    ready,
    get report() { return current; },
    stop() {
      if (stopController.signal.aborted) return;
      stopController.abort(new DOMException('capell-webmcp stopped', 'AbortError'));
      if (holder[ACTIVE_RUNTIME] === runtime) delete holder[ACTIVE_RUNTIME];
      // Stopped before the first update settled: `ready` still settles, with nothing registered.
      if (current === undefined) publish(emptyReport(found.api), 1);
    },
  };
  // A copy (apiBase as text; none for a document without an http(s) origin): the record is reachable from page script through the document's
  // registry symbol, and the config the runtime works with must not be.
  if (found.api !== 'none') Object.defineProperty(runtime, START_RECORD, { value: { config: { ...config, apiBase: (config.apiBase as URL | undefined)?.href } } satisfies StartRecord });
  Object.defineProperty(holder, ACTIVE_RUNTIME, { value: runtime, configurable: true, writable: true });
  // Asked for (`inspect`, data-inspect, ?capell-webmcp=inspect): the inspector is a chunk of its own.
  if (config.inspect) void loadInspector().then((openInspector) => openInspector(config.document, runtime), () => {});
  return runtime;
}
