/**
 * Following the page where WebMCP exists: the live registry's updates, one after another, each
 * published as a Report once its registrations settled. A chunk of its own with the registry and
 * the rules (the unit registry/): the start-up code in the entry loads it only where
 * WebMCP exists, so a browser without it fetches the entry alone.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { PendingRejection } from '../shared/declarations/reason.js';
import { renderWarnings } from '../shared/declarations/warning-text.js';
import { callBuiltIn } from '../start/dom-builtin.js';
import type { FoundHost } from '../start/host.js';
import { LiveRegistry, type Slicer, type Snapshot } from './live-registry.js';
import { observePage } from './page-observer.js';
import { createReportLog } from './report-log.js';
import { emptyReport, runtimeFailure, type Report } from '../start/report.js';
import { SOURCES } from './sources/index.js';
import { SOURCE_CHANGE_EVENT } from './sources/source.js';
import { prefetchCallModule } from './tool-execute.js';

/**
 * Longest stretch of start-up work between yields to the main thread, in ms. Keeps a page with
 * hundreds of declarations free of long tasks (the speed budget: no task over 50 ms).
 */
const START_SLICE_MS = 10;

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
 * Renders coded reasons into text. The texts are a chunk of their own, loaded only when
 * something was rejected: a page whose declarations are all valid requests nothing before ready.
 */
async function renderRejections(pending: PendingRejection[]): Promise<Report['rejected']> {
  if (pending.every((rejection) => rejection.reasons.every((reason) => typeof reason === 'string'))) {
    return pending as Report['rejected'];
  }
  const texts = await import('../shared/declarations/reason-text.js');
  return texts.renderRejections(pending);
}

/**
 * Runs the live registry: the first update at once, then one per task in which the page changed
 * (page-observer.ts) or a source announced a change (`SOURCE_CHANGE_EVENT`). Updates run one
 * after another; a Report is published when its update's registrations settled and no later
 * update started meanwhile, and never before the first one (`ready` comes first; a slower first
 * Report never replaces a newer one as `report`).
 * @param publish called with each Report and its update's generation (1 = the first).
 * @returns a function that asks for another update. Never throws.
 */
export function follow(
  config: RuntimeConfig, found: Extract<FoundHost, { host: object }>, stopSignal: AbortSignal,
  publish: (report: Report, generation: number) => void, ready: Promise<Report>,
): () => void {
  const registry = new LiveRegistry(config, found.host, stopSignal);
  const log = createReportLog(config);
  let queue = Promise.resolve();
  let latest = 0;
  /** Tool names the call module's prefetch was asked for: each once. */
  const prefetched = new Set<string>();
  const update = () => {
    queue = queue.then(async () => {
      if (stopSignal.aborted) return;
      const generation = ++latest;
      // update() and the snapshot never fail by design; if one does (a page that breaks a DOM
      // built-in), the update still publishes, naming the failure, so `ready` settles.
      // Whatever the failed update had registered is withdrawn, so that its Report holds.
      const failed = (error: unknown): Report => {
        registry.withdraw(error);
        return runtimeFailure(found.api, 'the update failed', error);
      };
      // The next update starts once this one handed its registrations over, not when they settle.
      let snapshot: Promise<Snapshot>;
      try {
        ({ snapshot } = await registry.update(createSlicer()));
      } catch (error) {
        snapshot = Promise.reject(error);
      }
      void snapshot.then(async ({ registered, rejected, audit, disallowed, pending, warnings }: Snapshot): Promise<Report> => {
        if (disallowed) return { ...emptyReport('none'), apiReason: disallowed };
        const report: Report = { api: found.api, registered, rejected: await renderRejections(rejected), audit: warnings ? [...audit, ...renderWarnings(warnings)] : audit };
        if (pending) report.pending = pending;
        return report;
      }).catch(failed).then(async (report) => {
        // A later update that settles before the first waits for it: `ready` comes before any
        // change event, and the first Report never overwrites a newer one as `report`.
        if (generation !== 1) await ready;
        if (stopSignal.aborted) return;
        // Read before the page gets the Report: a change listener may rewrite it (registered.length = 1e5).
        const fresh = report.registered.filter((name) => !prefetched.has(name));
        if (generation === latest) log(report);
        if (generation === 1 || generation === latest) publish(report, generation);
        // With a tool to call, the call module (and the tool's executor) loads at idle, not on
        // the agent's first call; also for tools registered later (AgentGate's, once its manifest is read).
        if (fresh.length > 0) {
          for (const name of fresh) prefetched.add(name);
          prefetchCallModule(config.document, fresh, stopSignal);
        }
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
