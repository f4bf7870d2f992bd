/**
 * Script-tag entry (`dist/capell-webmcp.js`; the classic scripts `dist/capell-webmcp.iife.js`
 * and `dist/capell-webmcp.single.iife.js` are bundled from it too): reads the data-* configuration of its
 * own `<script>`, publishes `window.capellWebMCP`, starts once per page at DOMContentLoaded (so
 * the page's scripts after its tag can stop it first; see beforeContentLoaded)
 * and fires `capell-webmcp:ready` on `document` with the Report (also when WebMCP is absent).
 */
import { readOptions, SCRIPT_MARKER, type OptionReading } from './start/config.js';
import { builtIn, callBuiltIn } from './start/dom-builtin.js';
import { findHost } from './start/host.js';
import { emptyReport, runtimeFailure, type Report } from './start/report.js';
import { start, type Runtime } from './start/runtime.js';
import { VERSION } from './start/version.js';
import { primitives } from './start/primitives.js';
import { loadInspector } from './start/later-units.js';
import { loadRegistryOnce } from './start/registry-once.js';
import { holdSubmitFront } from './start/submit-front.js';

/** The event fired on `document` when the runtime is ready; `detail` is the Report. */
export const READY_EVENT = 'capell-webmcp:ready';

export { SCRIPT_MARKER } from './start/config.js';

/**
 * `window.capellWebMCP`: defined once, never overwritten.
 * - `ready`: the first Report (also fired as `capell-webmcp:ready`);
 * - `report`: the current Report, updated after each change of the page's tools (each update also
 *   fires `capell-webmcp:change` on `document` with the Report); undefined before the first;
 * - `stop()`: undoes everything the runtime did (see Runtime.stop);
 * - `inspect()`: opens the inspector (`<capell-inspector>`, loaded now: the live Report and a log
 *   of the tool calls made while it is open), or moves focus to it when it is open; also without
 *   WebMCP (it then says why there are no tools). Resolves once it is shown; rejects only when
 *   its chunk cannot be loaded. The page does the same with `data-inspect` on the script tag or
 *   `?capell-webmcp=inspect` in its address (unless the tag says `data-inspect="false"`).
 */
export interface CapellWebMCPGlobal {
  readonly version: string;
  readonly ready: Promise<Report>;
  readonly report: Report | undefined;
  stop(): void;
  inspect(): Promise<void>;
}

/** The query parameter (and its value) that opens the inspector: `?capell-webmcp=inspect`. */
const INSPECT_PARAMETER = 'capell-webmcp';
const INSPECT_VALUE = 'inspect';

/** Whether the page's address asks for the inspector (`?capell-webmcp=inspect`). */
function inspectorAsked(): boolean {
  try {
    return new URLSearchParams(location.search).getAll(INSPECT_PARAMETER).includes(INSPECT_VALUE);
  } catch {
    return false;
  }
}

declare global {
  interface Window {
    capellWebMCP?: CapellWebMCPGlobal;
  }
}

// The document's built-ins are read past DOM clobbering (an <img name="addEventListener"> would
// shadow its own; dom-builtin.ts). A classic script sees itself only now; a module never does.
const current = builtIn<HTMLScriptElement | null>(document, 'currentScript');

function readOwnScript(): HTMLScriptElement | null {
  if (current) return current;
  const marked = callBuiltIn<HTMLScriptElement | null>(document, 'querySelector', `script[${SCRIPT_MARKER}]`);
  if (marked) return marked;
  const here = import.meta.url;
  return [...builtIn<HTMLCollectionOf<HTMLScriptElement>>(document, 'scripts')].find((script) => script.src === here) ?? null;
}

/**
 * Starts with the script's options, leaving out each one that is invalid (a bad data-* attribute
 * must not cost the page its tools or its other settings), with one warning per dropped option,
 * naming its attribute and the value as written, when WebMCP is present and the log is not silenced:
 * `[capell-webmcp] data-timeout-ms="fast" is not an integer from 1 to 600000 (ms); using its default`.
 */
function startWith({ options, problems }: OptionReading): Runtime {
  if (options.log !== 'silent' && findHost(document).api !== 'none') {
    for (const problem of problems) console.warn(`[capell-webmcp] ${problem.message}; using its default`);
  }
  return start(options);
}

function boot(): void {
  if (window.capellWebMCP) return; // loaded twice: the first copy owns the page
  // Where WebMCP exists start() will need the registry chunk: its fetch starts once this script
  // has run (for a deferred or module script, before DOMContentLoaded; for a classic script in the
  // head, while the page is parsed).
  try {
    if (findHost(document).api !== 'none') {
      loadRegistryOnce().catch(() => {});
      // Now, not at DOMContentLoaded: a form tool's submit guard judges submits ahead of every
      // window capture listener the page adds after this script ran (start/submit-front.ts).
      holdSubmitFront(document);
    }
  } catch {
    // Only the early fetch (and the early submit listener) is lost (a page whose Promise.all throws breaks the build's chunk
    // groups); start() loads the registry itself and reports it if that fails too.
  }
  let runtime: Runtime | undefined;
  let stopped = false;
  let resolveReady!: (report: Report) => void;
  const ready = new Promise<Report>((resolve) => { resolveReady = resolve; });
  let stoppedReport: Report | undefined;
  const global: CapellWebMCPGlobal = Object.freeze({
    version: VERSION,
    ready,
    get report() { return runtime?.report ?? stoppedReport; },
    stop: () => {
      stopped = true; // also before it starts (DOMContentLoaded): then nothing starts
      runtime?.stop();
    },
    inspect: async () => {
      const openInspector = await loadInspector();
      await openInspector(document, global);
    },
  });
  Object.defineProperty(window, 'capellWebMCP', { value: global, enumerable: true });
  const announce = (report: Report) => {
    resolveReady(report);
    try {
      callBuiltIn(document, 'dispatchEvent', new CustomEvent<Report>(READY_EVENT, { detail: report }));
    } catch {
      // A page without a working CustomEvent still gets `ready`.
    }
  };
  // A built-in the page broke before this script ran (the options' URL, a DOM method): `ready`
  // settles with the reason, and nothing is thrown into the page.
  const failedStart = (error: unknown) => {
    stoppedReport = runtimeFailure(findHost(document).api, 'the runtime did not start', error);
    announce(stoppedReport);
  };
  let reading: OptionReading;
  try {
    reading = readOptions({ script: readOwnScript() }, location.origin);
    // data-inspect="false" is the site's no: the address cannot open the inspector then.
    if (reading.options.inspect !== false && inspectorAsked()) reading.options.inspect = true;
  } catch (error) {
    return failedStart(error);
  }
  const launch = () => {
    if (stopped) {
      stoppedReport = emptyReport(findHost(document).api);
      return announce(stoppedReport);
    }
    try {
      runtime = startWith(reading);
      void runtime.ready.then(announce, failedStart);
    } catch (error) {
      failedStart(error);
    }
  };
  if (!beforeContentLoaded()) return launch();
  // Once: DOMContentLoaded, or (had it passed unseen) the document completing, or, while a
  // script after the tag hangs (DOMContentLoaded waits for it), CONTENT_LOADED_WAIT_MS.
  let launched = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const once = () => {
    if (launched) return;
    launched = true;
    launch();
    primitives.clearTimeout(timer);
  };
  // The bound counts from the end of parsing: a long page still being parsed is waited for.
  const parsed = () => {
    try {
      timer ??= primitives.setTimeout(once, CONTENT_LOADED_WAIT_MS);
    } catch {
      // A page whose setTimeout throws: DOMContentLoaded or the document completing still starts it.
    }
  };
  try {
    if (builtIn<DocumentReadyState>(document, 'readyState') === 'interactive') parsed();
    callBuiltIn(document, 'addEventListener', 'DOMContentLoaded', once, { once: true });
    callBuiltIn(document, 'addEventListener', 'readystatechange', () => {
      const state = builtIn<DocumentReadyState>(document, 'readyState');
      if (state === 'interactive') parsed();
      else if (state === 'complete') once();
    });
  } catch {
    once(); // the page cannot be waited for: start now rather than never
  }
}

/**
 * Longest wait for DOMContentLoaded once the document is parsed, in ms: the page's deferred and
 * module scripts after the tag run first, but one that never finishes loading (DOMContentLoaded
 * waits for it) must not keep the tools from the agent.
 */
const CONTENT_LOADED_WAIT_MS = 1000;

/**
 * Whether DOMContentLoaded is still to come: the document is being parsed, or its deferred and
 * module scripts are running (readyState `interactive`, the event not yet started: Navigation
 * Timing's `domContentLoadedEventStart` is 0 until then). The runtime starts then (within
 * CONTENT_LOADED_WAIT_MS once parsed), so the page's own scripts after its tag (a theme that
 * stops it) run before the first update; the registry chunk is already on its way.
 */
function beforeContentLoaded(): boolean {
  const state = builtIn<DocumentReadyState>(document, 'readyState');
  if (state === 'loading') return true;
  if (state !== 'interactive') return false;
  try {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return navigation !== undefined && navigation.domContentLoadedEventStart === 0;
  } catch {
    return false;
  }
}

try {
  boot();
} catch {
  // The page broke a built-in the global itself needs (Object.freeze, defineProperty) before this
  // script ran: the runtime stays out of its way rather than throw into it.
}
