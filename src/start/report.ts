/**
 * The Report: the one place outcomes of a start are recorded (a fixed shape other checks depend on).
 */
import { errorMessage } from '../shared/error-message.js';

/** Which WebMCP entry point the runtime used, or `'none'` when the browser has none. */
export type HostAPI = 'document.modelContext' | 'navigator.modelContext' | 'none';

/**
 * A declaration (or a whole manifest) that was not registered, with every reason found.
 * `name` is the declared name, or `'(manifest)'` when the whole source could not be read.
 * `source` labels the source, e.g. `capell-island[0]` (0-based, document order).
 */
export interface Rejection {
  name: string;
  source: string;
  reasons: string[];
}

/** An interactive public surface the audit flagged (Capell Agent Schema, "Tool declarations"). */
export interface AuditEntry {
  level: 'warning' | 'error';
  surface: string;
  message: string;
}

/**
 * What a start did. `registered` lists tool names in registration order.
 * Carried by `window.capellWebMCP.ready` and the `capell-webmcp:ready` event's `detail`.
 */
export interface Report {
  api: HostAPI;
  /**
   * Why `api` is `'none'` although the browser has WebMCP: the document's permissions policy does
   * not allow `tools` (`Permissions-Policy: tools=()`, or a frame not allowed it), or WebMCP
   * refused a registration with `NotAllowedError`. Absent otherwise.
   */
  apiReason?: string;
  /**
   * Tools handed to `registerTool` whose registration had not settled when this Report was made
   * (a host that never answers): neither registered nor rejected yet. Absent when none.
   */
  pending?: string[];
  registered: string[];
  rejected: Rejection[];
  audit: AuditEntry[];
}

/**
 * The Report of a start or update that failed as a whole (a page that broke a built-in the runtime
 * needs): nothing registered, and one Rejection named `(runtime)` saying why, so `ready` and
 * `capell-webmcp:change` still settle with a reason instead of throwing into the page.
 * @param what what failed, e.g. `the update failed`; the error's message follows in brackets.
 */
export function runtimeFailure(api: HostAPI, what: string, error: unknown): Report {
  return { ...emptyReport(api), rejected: [{ name: '(runtime)', source: 'capell-webmcp', reasons: [`${what} (${errorMessage(error)})`] }] };
}

/**
 * The Report of a start that registered, rejected and audited nothing (stopped before its first
 * update, or refused by WebMCP): `{ api, registered: [], rejected: [], audit: [] }`, new arrays
 * each time.
 */
export function emptyReport(api: HostAPI): Report {
  return { api, registered: [], rejected: [], audit: [] };
}

/** The `name` a Rejection carries when a whole manifest source is unreadable. */
export const MANIFEST_REJECTION_NAME = '(manifest)';
