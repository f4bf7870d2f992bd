/**
 * Script-tag entry (`dist/capell-webmcp.js`, `dist/capell-webmcp.iife.js`): reads the data-*
 * configuration of its own `<script>`, starts once per page, publishes `window.capellWebMCP`
 * and fires `capell-webmcp:ready` on `document` with the Report (also when WebMCP is absent).
 */
import { readScriptOptions, type RuntimeOptions } from './config.js';
import { findHost } from './host.js';
import type { Report } from './report.js';
import { start, type Runtime } from './runtime.js';
import { VERSION } from './version.js';

/** The event fired on `document` when the runtime is ready; `detail` is the Report. */
export const READY_EVENT = 'capell-webmcp:ready';

/** Marker attribute that identifies the runtime's script element. */
export const SCRIPT_MARKER = 'data-capell-webmcp';

/** `window.capellWebMCP`: defined once, never overwritten. */
export interface CapellWebMCPGlobal {
  readonly version: string;
  readonly ready: Promise<Report>;
  stop(): void;
}

declare global {
  interface Window {
    capellWebMCP?: CapellWebMCPGlobal;
  }
}

// A classic script sees itself only now, synchronously; a module never does.
const current = document.currentScript as HTMLScriptElement | null;

function readOwnScript(): HTMLScriptElement | null {
  if (current) return current;
  const marked = document.querySelector<HTMLScriptElement>(`script[${SCRIPT_MARKER}]`);
  if (marked) return marked;
  const here = import.meta.url;
  return [...document.scripts].find((script) => script.src === here) ?? null;
}

function startWith(options: RuntimeOptions): Runtime {
  try {
    return start(options);
  } catch (error) {
    // A bad data-* attribute must not leave the page without its tools: fall back to defaults.
    if (findHost(document).api !== 'none' && options.log !== 'silent') {
      console.warn(`[capell-webmcp] ${(error as Error).message}; using the defaults`);
    }
    return start({});
  }
}

function boot(): void {
  if (window.capellWebMCP) return; // loaded twice: the first copy owns the page
  let runtime: Runtime | undefined;
  let resolveReady!: (report: Report) => void;
  const ready = new Promise<Report>((resolve) => { resolveReady = resolve; });
  const global: CapellWebMCPGlobal = Object.freeze({
    version: VERSION,
    ready,
    stop: () => runtime?.stop(),
  });
  Object.defineProperty(window, 'capellWebMCP', { value: global, enumerable: true });
  const options = readScriptOptions(readOwnScript());
  const launch = () => {
    runtime = startWith(options);
    void runtime.ready.then((report) => {
      resolveReady(report);
      document.dispatchEvent(new CustomEvent<Report>(READY_EVENT, { detail: report }));
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', launch, { once: true });
  else launch();
}

boot();
