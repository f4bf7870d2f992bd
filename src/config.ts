import { validateEndpointTarget } from './bindings/targets.js';

/**
 * Options at the boundary (`RuntimeOptions`, loose) normalised once into `RuntimeConfig`
 * (complete). Every default is a named constant with its unit.
 */

/** Where Core's read API lives (Capell Agent Schema: "The public API uses the /agent/v1 namespace"). */
export const DEFAULT_API_BASE = '/agent/v1';

/** How long a read request may take before the call resolves `isError`, in ms. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** Longest timeout accepted, in ms (10 minutes). */
export const MAX_TIMEOUT_MS = 600_000;

/**
 * How long a write's proposal stays open for the person to send or cancel, in ms (5 minutes).
 * Then it expires: the person's values are put back, the panel closes, and its writeId's status
 * becomes `expired`.
 */
export const DEFAULT_CONFIRM_TIMEOUT_MS = 300_000;

/** Longest confirmation wait accepted, in ms (1 hour). */
export const MAX_CONFIRM_TIMEOUT_MS = 3_600_000;

/**
 * How long a write call itself waits for the person's decision before it answers
 * `{ status: "awaiting_person", writeId, expiresAt, next }`, in ms (10 s: below the 20–60 s after
 * which MCP clients give up on a call). The proposal stays open until `confirmTimeoutMs`.
 */
export const DEFAULT_WRITE_WAIT_MS = 10_000;

/** Longest write call wait accepted, in ms (10 minutes). */
export const MAX_WRITE_WAIT_MS = 600_000;

/** `'warn'`: rejections go to `console.warn` (only when WebMCP is present); `'silent'`: never. */
export type LogLevel = 'warn' | 'silent';

/** The level of audit entries (Capell Agent Schema: "The audit can be configured to fail as an error"). */
export type AuditOption = 'warning' | 'error';

/**
 * Options of `start()`. All optional.
 * - `document`: the document to read and register for. @default globalThis.document
 * - `apiBase`: same-origin path of Core's read API (search, property-query bindings).
 *   @default '/agent/v1'
 * - `timeoutMs`: per-request timeout of read calls, in ms, 1–600000. @default 15000
 * - `log`: `'warn'` or `'silent'`. @default 'warn'
 * - `audit`: level of the Report's audit entries, `'warning'` or `'error'`. @default 'warning'
 * - `confirmTimeoutMs`: how long a write's proposal stays open for the person to send or cancel,
 *   in ms, 1–3600000; then it expires (values restored, panel closed). @default 300000
 * - `writeWaitMs`: how long a write call waits for the person's decision before it answers
 *   `awaiting_person` with a writeId (see `capell.write.status`), in ms, 1–600000. @default 10000
 */
export interface RuntimeOptions {
  document?: Document;
  apiBase?: string;
  timeoutMs?: number;
  log?: LogLevel;
  audit?: AuditOption;
  confirmTimeoutMs?: number;
  writeWaitMs?: number;
}

/** RuntimeOptions with every default applied and checked. */
export interface RuntimeConfig {
  document: Document;
  /** The page's origin; endpoint targets must stay on it. */
  origin: string;
  /** Absolute URL of the API base, without a trailing slash. */
  apiBase: URL;
  timeoutMs: number;
  log: LogLevel;
  audit: AuditOption;
  confirmTimeoutMs: number;
  writeWaitMs: number;
}

function originOf(doc: Document): string {
  // The location, never document.baseURI: a <base> element must not move where calls go.
  return new URL(doc.location?.href ?? globalThis.location.href).origin;
}

/** The millisecond options: default and largest accepted value (the smallest is 1). */
const MS_OPTIONS = {
  timeoutMs: [DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS],
  confirmTimeoutMs: [DEFAULT_CONFIRM_TIMEOUT_MS, MAX_CONFIRM_TIMEOUT_MS],
  writeWaitMs: [DEFAULT_WRITE_WAIT_MS, MAX_WRITE_WAIT_MS],
} as const;

/** The options that take one of a few words; the first is the default. */
const WORD_OPTIONS = {
  log: ['warn', 'silent'],
  audit: ['warning', 'error'],
} as const;

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Applies defaults and checks every option.
 * @throws TypeError naming the option when a value is out of range (misuse of the API).
 */
export function normaliseOptions(options: RuntimeOptions = {}): RuntimeConfig {
  const doc = options.document ?? globalThis.document;
  if (!doc) throw new TypeError('capell-webmcp: option "document": no document to read');
  const origin = originOf(doc);
  const misuse = (option: string, value: unknown, expected: string) =>
    new TypeError(`capell-webmcp: option "${option}": ${JSON.stringify(value)} is not ${expected}`);
  const apiBasePath = options.apiBase ?? DEFAULT_API_BASE;
  // The same rule as endpoint targets (Capell Agent Schema: same-origin paths), minus a query.
  if (typeof apiBasePath !== 'string' || apiBasePath.includes('?') || validateEndpointTarget(apiBasePath, origin).length > 0) {
    throw misuse('apiBase', apiBasePath, 'a same-origin path such as "/agent/v1"');
  }
  const config = { document: doc, origin, apiBase: new URL(apiBasePath.replace(/\/+$/, ''), origin) } as Writable<RuntimeConfig>;
  for (const [option, [fallback, max]] of Object.entries(MS_OPTIONS) as [keyof typeof MS_OPTIONS, readonly [number, number]][]) {
    const value = options[option] ?? fallback;
    if (!Number.isInteger(value) || value < 1 || value > max) throw misuse(option, value, `an integer from 1 to ${max} (ms)`);
    config[option] = value;
  }
  for (const [option, words] of Object.entries(WORD_OPTIONS) as [keyof typeof WORD_OPTIONS, readonly string[]][]) {
    const value = options[option] ?? words[0];
    if (!words.includes(value as string)) throw misuse(option, value, words.map((word) => `"${word}"`).join(' or '));
    (config as Record<string, unknown>)[option] = value;
  }
  return config;
}

/**
 * Reads `data-*` configuration from the runtime's own `<script>` element:
 * `data-api-base`, `data-timeout-ms`, `data-log`, `data-audit`, `data-confirm-timeout-ms`,
 * `data-write-wait-ms` (each the dataset name of the option it sets).
 * @returns the options; values are checked later by `normaliseOptions`.
 */
export function readScriptOptions(script: HTMLScriptElement | null): RuntimeOptions {
  const options: Record<string, unknown> = {};
  const dataset = script?.dataset ?? {};
  for (const option of ['apiBase', ...Object.keys(WORD_OPTIONS)]) if (dataset[option] !== undefined) options[option] = dataset[option];
  for (const option of Object.keys(MS_OPTIONS)) if (dataset[option] !== undefined) options[option] = Number(dataset[option]);
  return options as RuntimeOptions;
}
