/**
 * One runtime per document: sources → normalise → ToolSpec[] → bind → register (DESIGN section 3),
 * kept in step with the page as it changes (live-registry.ts, page-observer.ts), and the audit of
 * the page's interactive surfaces.
 */
import type { Signer } from './agentgate/signer.js';
import { auditSurfaces, coverageOf } from './audit.js';
import { normaliseOptions, type RuntimeConfig, type RuntimeOptions } from './config.js';
import type { PendingRejection } from './declarations/reason.js';
import { callBuiltIn } from './dom-builtin.js';
import { findHost, type FoundHost } from './host.js';
import type { LiveRegistry, Slicer, Snapshot } from './live-registry.js';
import { observePage } from './page-observer.js';
import type { Report } from './report.js';
import type { StartRecord } from './second-start.js';
import { readPageDeclarations, SOURCE_CHANGE_EVENT, SOURCES } from './sources/index.js';

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
  /**
   * Gives the runtime the agent's signer for AgentGate calls (the key is the agent's, never the
   * page's): it replaces the signer of the same kind (`ed25519` → web-bot-auth tools,
   * `hmac-sha256` → shared-key tools), and the tools that were waiting for it register (a new
   * update, announced with `capell-webmcp:change`). Does nothing after `stop()`.
   * @throws TypeError when `signer` is not a Signer `{ label, keyid, alg, sign, signatureAgent? }`.
   * @example runtime.setSigner((await loadStoredSigner({ alg: 'ed25519', signatureAgent })).signer)
   */
  setSigner(signer: Signer): void;
}

/** The event fired on the document after each later update, with the new Report as `detail`. */
export const CHANGE_EVENT = 'capell-webmcp:change';

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
function createSlicer(): Slicer {
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
 * Where a runtime keeps what a second `start()` is checked against (second-start.ts): on the
 * runtime object, non-enumerable, under a registry symbol for the same reason as ACTIVE_RUNTIME.
 * Only a runtime that found WebMCP has one (without it nothing is logged).
 */
const START_RECORD = Symbol.for('capell-webmcp.start-record');

type RecordedRuntime = Runtime & { [START_RECORD]?: StartRecord };

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

/** The Report of a browser without WebMCP: nothing read or registered, only the audit. */
function reportWithoutWebMCP(config: RuntimeConfig, reason: string | undefined): Report {
  const declarations = readPageDeclarations(config.document);
  const report: Report = { api: 'none', registered: [], rejected: [], audit: auditSurfaces(config.document, coverageOf(declarations), config.audit) };
  if (reason) report.apiReason = reason;
  return report;
}

/** Logs what a Report newly rejects or flags (once per distinct line over the runtime's life). */
function createLogger(config: RuntimeConfig): (report: Report) => void {
  const logged = new Set<string>();
  const warn = (line: string) => {
    if (logged.has(line)) return;
    logged.add(line);
    console.warn(line);
  };
  return (report) => {
    if (config.log !== 'warn') return;
    for (const rejection of report.rejected) {
      warn(`[capell-webmcp] ${rejection.source}: tool ${JSON.stringify(rejection.name)} not registered: ${rejection.reasons.join('; ')}`);
    }
    for (const entry of report.audit) warn(`[capell-webmcp] audit ${entry.level}: ${entry.surface}: ${entry.message}`);
  };
}

/**
 * Runs the live registry: the first update at once, then one per task in which the page changed
 * (page-observer.ts). Updates run one after another; a Report is published when its update's
 * registrations settled and no later update started meanwhile, and never before the first one
 * (`ready` comes first; a slower first Report never replaces a newer one as `report`).
 */
function follow(
  config: RuntimeConfig, found: Extract<FoundHost, { host: object }>, stopSignal: AbortSignal,
  publish: (report: Report, generation: number) => void, ready: Promise<Report>,
): () => void {
  // The registry and the rules load only here, where WebMCP exists: a browser without it fetches
  // the entry alone. A chunk that does not load is retried by the next update.
  let loading: Promise<LiveRegistry> | undefined;
  const loadRegistry = () => {
    loading ??= import('./live-registry.js').then(
      ({ LiveRegistry }) => new LiveRegistry(config, found.host, stopSignal),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const log = createLogger(config);
  let queue = Promise.resolve();
  let latest = 0;
  const update = () => {
    queue = queue.then(async () => {
      if (stopSignal.aborted) return;
      const generation = ++latest;
      let registry: LiveRegistry;
      try {
        registry = await loadRegistry();
      } catch (error) {
        publish({
          api: found.api, registered: [], audit: [],
          rejected: [{ name: '(runtime)', source: 'capell-webmcp', reasons: [`the registry did not load (${String((error as Error)?.message ?? error)}); nothing was registered`] }],
        }, generation);
        return;
      }
      if (stopSignal.aborted) return;
      // update() and the snapshot never fail by design; if one does (a page that breaks a DOM
      // built-in), the update still publishes, naming the failure, so `ready` settles.
      const failed = (error: unknown): Report => ({
        api: found.api, registered: [], audit: [],
        rejected: [{ name: '(runtime)', source: 'capell-webmcp', reasons: [`the update failed (${String((error as Error)?.message ?? error)})`] }],
      });
      // The next update starts once this one handed its registrations over, not when they settle.
      let snapshot: Promise<Snapshot>;
      try {
        ({ snapshot } = await registry.update(createSlicer()));
      } catch (error) {
        snapshot = Promise.reject(error);
      }
      void snapshot.then(async ({ registered, rejected, audit, disallowed, pending }: Snapshot): Promise<Report> => {
        if (disallowed) return { api: 'none', apiReason: disallowed, registered: [], rejected: [], audit: [] };
        const report: Report = { api: found.api, registered, rejected: await renderRejections(rejected), audit };
        if (pending) report.pending = pending;
        return report;
      }).catch(failed).then(async (report) => {
        // A later update that settles before the first waits for it: `ready` comes before any
        // change event, and the first Report never overwrites a newer one as `report`.
        if (generation !== 1) await ready;
        if (stopSignal.aborted) return;
        if (generation === 1 || generation === latest) publish(report, generation);
        if (generation === latest) log(report);
      });
    }).catch(() => {
      // A broken update must not stop the ones after it.
    });
  };
  observePage(config.document, SOURCES.map((source) => source.selector), update, stopSignal);
  // A fetching source (AgentGate) announces a change it found outside the page.
  callBuiltIn(config.document, 'addEventListener', SOURCE_CHANGE_EVENT, update, { signal: stopSignal });
  update();
  return update;
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
 * @throws TypeError naming the option when an option is invalid (see RuntimeOptions).
 * @example
 * const runtime = start({ apiBase: '/agent/v1' });
 * const report = await runtime.ready; // { api: 'document.modelContext', registered: ['page.lookup', …], … }
 * document.addEventListener('capell-webmcp:change', (event) => console.log(event.detail.registered));
 * runtime.stop();
 */
export function start(options: RuntimeOptions = {}): Runtime {
  const config = normaliseOptions(options);
  const holder = config.document as RuntimeHolder;
  const existing: RecordedRuntime | undefined = holder[ACTIVE_RUNTIME];
  if (existing) {
    const record = existing[START_RECORD];
    if (record) void import('./second-start.js').then((check) => check.warnIgnoredOptions(options, config, record), () => {});
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
  let update: (() => void) | undefined;
  try {
    // Without WebMCP nothing could use a tool: normalise nothing, register nothing, stay silent.
    if (found.api === 'none') publish(reportWithoutWebMCP(config, found.reason), 1);
    else update = follow(config, found, stopController.signal, publish, ready);
  } catch (error) {
    // Neither path throws by design; this keeps `ready` from ever rejecting if that breaks.
    publish({
      api: found.api, registered: [], audit: [],
      rejected: [{ name: '(runtime)', source: 'capell-webmcp', reasons: [String((error as Error)?.message ?? error)] }],
    }, 1);
  }
  const runtime: Runtime = {
    ready,
    get report() { return current; },
    stop() {
      if (stopController.signal.aborted) return;
      stopController.abort(new DOMException('capell-webmcp stopped', 'AbortError'));
      if (holder[ACTIVE_RUNTIME] === runtime) delete holder[ACTIVE_RUNTIME];
      // Stopped before the first update settled: `ready` still settles, with nothing registered.
      if (current === undefined) publish({ api: found.api, registered: [], rejected: [], audit: [] }, 1);
    },
    setSigner(signer) {
      config.signers.set(signer, 'setSigner');
      if (!stopController.signal.aborted) update?.();
    },
  };
  if (found.api !== 'none') Object.defineProperty(runtime, START_RECORD, { value: { config } satisfies StartRecord });
  Object.defineProperty(holder, ACTIVE_RUNTIME, { value: runtime, configurable: true, writable: true });
  return runtime;
}
