import { validateEndpointTarget } from '../shared/bindings/targets.js';

/**
 * Options at the boundary (`RuntimeOptions`, loose) normalised once into `RuntimeConfig`
 * (complete). Every default is a named constant with its unit.
 */

/** Where Core's read API lives (Capell Agent Schema: "The public API uses the /agent/v1 namespace"). */
export const DEFAULT_API_BASE = '/agent/v1';

/** How long a read request may take before the call resolves `isError`, in ms. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** Longest timeout accepted, in ms (10 minutes). */
const MAX_TIMEOUT_MS = 600_000;

/**
 * How long a write's proposal stays open for the person to send or cancel, in ms (5 minutes).
 * Then it expires: the person's values are put back, the panel closes, and its writeId's status
 * becomes `expired`.
 */
export const DEFAULT_CONFIRM_TIMEOUT_MS = 300_000;

/** Longest confirmation wait accepted, in ms (1 hour). */
const MAX_CONFIRM_TIMEOUT_MS = 3_600_000;

/**
 * How long a write call itself waits for the person's decision before it answers
 * `{ status: "awaiting_person", writeId, expiresAt, next }`, in ms (10 s: below the 20–60 s after
 * which MCP clients give up on a call). The proposal stays open until `confirmTimeoutMs`.
 */
export const DEFAULT_WRITE_WAIT_MS = 10_000;

/** Longest write call wait accepted, in ms (10 minutes). */
const MAX_WRITE_WAIT_MS = 600_000;

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
 * - `agentgate`: discover the site's AgentGate tools (`/.well-known/agentgate-tools.json`, same
 *   origin); the script tag's `data-agentgate` (present, `""` or `"true"`; `"false"` for off).
 *   A tools island can also name AgentGate (`"agentgate": true` or `{ "siteKey" }`,
 *   agentgate/discover/agentgate-naming.ts), whatever this option says. @default false
 * - `agentgateSiteKey`: the AgentGate site key (1–128 of `A-Za-z0-9_-`): the manifest is then
 *   `/v1/agent-tools/{siteKey}`; `data-agentgate-site-key`. Only read when `agentgate` is on.
 * - `inspect`: open the inspector (`<capell-inspector>`, its own chunk: the live Report and a log
 *   of this page's tool calls, for the site's operator) when the runtime starts; the script tag's
 *   `data-inspect` (present, `""` or `"true"`), or, for the script tag, `?capell-webmcp=inspect`
 *   in the page's address (ignored when the tag says `data-inspect="false"`). @default false (absent)
 * - `adminRegistry`: this is an admin page of a signed-in editor: fetch the admin registry
 *   (`GET /admin/agent/v1/tools`, same origin, with the session's cookie) and register its tools
 *   (registry/sources/admin-registry.ts); the script tag's `data-admin-registry` (present, `""` or
 *   `"true"`; `"false"` for off). Never on a public page: without it nothing admin is fetched,
 *   and a page's own tools island can never declare an admin tool. @default false (absent)
 */
export interface RuntimeOptions {
  document?: Document;
  apiBase?: string;
  timeoutMs?: number;
  log?: LogLevel;
  audit?: AuditOption;
  confirmTimeoutMs?: number;
  writeWaitMs?: number;
  agentgate?: boolean;
  agentgateSiteKey?: string;
  inspect?: boolean;
  adminRegistry?: boolean;
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
  agentgate: boolean;
  /** Absent unless given. */
  agentgateSiteKey?: string;
  /** Absent unless given: the inspector opens at start. */
  inspect?: boolean;
  /** Absent unless given: the admin registry is fetched and its tools registered. */
  adminRegistry?: boolean;
}

/** Marker attribute that identifies the runtime's script element (auto.ts; the CLI's audit reads the same tag). */
export const SCRIPT_MARKER = 'data-capell-webmcp';

/** The options a `data-*` attribute of the script tag can set: every RuntimeOptions member but `document`. */
export type OptionName = Exclude<keyof RuntimeOptions, 'document'>;

/**
 * How one option is given and checked: the `data-*` attribute that sets it (its dataset name is
 * the option's name), its default, what a valid value is (range or words, with the unit), and
 * the value an attribute's text stands for.
 */
interface OptionRule<Value> {
  readonly attribute: `data-${string}`;
  /** The default, as `start()` would take it (e.g. `'/agent/v1'`). */
  readonly default: unknown;
  /** A valid value, for messages: `an integer from 1 to 600000 (ms)`. */
  readonly expected: string;
  /** The value an attribute's text gives (the ms options: `Number(text)`); the text itself otherwise. */
  readonly fromText?: (text: string) => unknown;
  /** The value the runtime uses, or `undefined` when `value` is not valid. */
  readonly accept: (value: unknown, origin: string) => Value | undefined;
}

function msOption(attribute: `data-${string}`, fallback: number, max: number): OptionRule<number> {
  return {
    attribute, default: fallback, expected: `an integer from 1 to ${max} (ms)`, fromText: Number,
    accept: (value) => (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max ? value as number : undefined),
  };
}

/** An option that takes one of a few words; the first is the default. */
function wordOption<Word extends string>(attribute: `data-${string}`, words: readonly [Word, ...Word[]]): OptionRule<Word> {
  return {
    attribute, default: words[0], expected: words.map((word) => `"${word}"`).join(' or '),
    accept: (value) => ((words as readonly unknown[]).includes(value) ? value as Word : undefined),
  };
}

/** AgentGate site keys: 1–128 of letters, digits, `_` and `-` (a path segment that needs no escaping). */
export const AGENTGATE_SITE_KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** A switch: `true`/`false` from `start()`; on the script tag the attribute present (`""`) or `"true"`, or `"false"`. */
function switchOption(attribute: `data-${string}`): OptionRule<boolean> {
  return {
    attribute, default: false, expected: 'present (or "true") to switch it on, "false" to leave it off',
    fromText: (text) => (text === '' || text === 'true' ? true : text === 'false' ? false : text),
    accept: (value) => (typeof value === 'boolean' ? value : undefined),
  };
}

/** Every option's rule, in the order they are checked (`start()` names the first invalid one). */
export const OPTION_RULES: { readonly [Name in OptionName]: OptionRule<RuntimeConfig[Name]> } = {
  apiBase: {
    attribute: 'data-api-base', default: DEFAULT_API_BASE, expected: 'a same-origin path such as "/agent/v1"',
    // The same rule as endpoint targets (Capell Agent Schema: same-origin paths), minus a query.
    accept: (value, origin) => (typeof value === 'string' && !value.includes('?') && validateEndpointTarget(value, origin).length === 0
      ? new URL(value.replace(/\/+$/, ''), origin)
      : undefined),
  },
  timeoutMs: msOption('data-timeout-ms', DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS),
  confirmTimeoutMs: msOption('data-confirm-timeout-ms', DEFAULT_CONFIRM_TIMEOUT_MS, MAX_CONFIRM_TIMEOUT_MS),
  writeWaitMs: msOption('data-write-wait-ms', DEFAULT_WRITE_WAIT_MS, MAX_WRITE_WAIT_MS),
  log: wordOption('data-log', ['warn', 'silent']),
  audit: wordOption('data-audit', ['warning', 'error']),
  agentgate: switchOption('data-agentgate'),
  agentgateSiteKey: {
    attribute: 'data-agentgate-site-key', default: undefined, expected: `a site key matching ${AGENTGATE_SITE_KEY_PATTERN.source}`,
    accept: (value) => (typeof value === 'string' && AGENTGATE_SITE_KEY_PATTERN.test(value) ? value : undefined),
  },
  // No default: absent from the settings unless given (off).
  inspect: { ...switchOption('data-inspect'), default: undefined },
  // No default either: a public page's settings stay as they were.
  adminRegistry: { ...switchOption('data-admin-registry'), default: undefined },
};

/** Where options come from: `start()`'s values, or the `data-*` attributes of the runtime's script element. */
type OptionInput =
  | { values: RuntimeOptions }
  | { script: { readonly dataset: DOMStringMap } | null };

/** One invalid option, left at its default. */
interface OptionProblem {
  option: OptionName;
  attribute: string;
  /** The value as given: `start()`'s value, or the attribute's text. */
  given: unknown;
  /**
   * The problem named the way the option was given: `option "timeoutMs": "fast" is not an integer
   * from 1 to 600000 (ms)` for `start()`, `data-timeout-ms="fast" is not an integer from 1 to
   * 600000 (ms)` for the script tag.
   */
  message: string;
}

/** What `readOptions` found. */
export interface OptionReading {
  /** Every option, defaults applied; an invalid one is at its default. */
  settings: Omit<RuntimeConfig, 'document' | 'origin'>;
  /** The valid options that were given, as `start()` takes them (attribute texts converted: `timeoutMs: 5000`). */
  options: RuntimeOptions;
  /** One per invalid option, in OPTION_RULES order. */
  problems: OptionProblem[];
}

/**
 * The one options normaliser, shared by `start()` (`normaliseOptions`), the script tag (auto.ts)
 * and the CLI's audit: reads every option of OPTION_RULES from `start()`'s values or from the
 * script element's `data-*` attributes, applies defaults (an absent, `undefined` or `null` value
 * is the default) and checks each against its range or words. Never throws: each invalid option
 * is left at its default and reported once, named as it was given.
 * @param origin the page's origin, e.g. `https://shop.example` (`apiBase` must stay on it).
 * @example readOptions({ script }, 'https://shop.example') // script has data-timeout-ms="fast"
 * // → { settings: { timeoutMs: 15000, … }, options: {}, problems: [{ option: 'timeoutMs',
 * //     message: 'data-timeout-ms="fast" is not an integer from 1 to 600000 (ms)', … }] }
 */
export function readOptions(input: OptionInput, origin: string): OptionReading {
  const settings: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  const problems: OptionProblem[] = [];
  const dataset = 'script' in input ? input.script?.dataset ?? {} : undefined;
  const values = 'values' in input ? input.values : {};
  for (const [option, rule] of Object.entries(OPTION_RULES) as [OptionName, OptionRule<unknown>][]) {
    const given = dataset ? dataset[option] : values[option];
    const value = dataset && given !== undefined && rule.fromText ? rule.fromText(given as string) : given;
    const accepted = value == null ? undefined : rule.accept(value, origin);
    if (accepted !== undefined) options[option] = value;
    else if (value != null) {
      const message = dataset
        ? `${rule.attribute}=${JSON.stringify(given)} is not ${rule.expected}`
        : `option "${option}": ${JSON.stringify(given)} is not ${rule.expected}`;
      problems.push({ option, attribute: rule.attribute, given, message });
    }
    const setting = accepted ?? rule.accept(rule.default, origin);
    // An option without a default (the site key, the price cap) is absent from the settings unless given.
    if (setting !== undefined) settings[option] = setting;
  }
  return { settings: settings as OptionReading['settings'], options: options as RuntimeOptions, problems };
}

function originOf(doc: Document): string {
  // The location, never document.baseURI: a <base> element must not move where calls go.
  return new URL(doc.location?.href ?? globalThis.location.href).origin;
}

/**
 * Applies defaults and checks every option (`readOptions`), for `start()`.
 * @throws TypeError naming the first invalid option, e.g. `capell-webmcp: option "timeoutMs": 0
 *   is not an integer from 1 to 600000 (ms)` (misuse of the API).
 */
export function normaliseOptions(options: RuntimeOptions = {}): RuntimeConfig {
  const doc = options.document ?? globalThis.document;
  if (!doc) throw new TypeError('capell-webmcp: option "document": no document to read');
  const origin = originOf(doc);
  const { settings, problems } = readOptions({ values: options }, origin);
  if (problems[0]) throw new TypeError(`capell-webmcp: ${problems[0].message}`);
  return { document: doc, origin, ...settings };
}

/**
 * Reads the options the runtime's own `<script>` element sets in `data-*` attributes:
 * `data-api-base`, `data-timeout-ms`, `data-log`, `data-audit`, `data-confirm-timeout-ms`,
 * `data-write-wait-ms`, `data-agentgate`, `data-agentgate-site-key`, `data-inspect`,
 * `data-admin-registry` (OPTION_RULES; each the dataset name of the option it sets).
 * @param origin the page's origin; `apiBase` must stay on it. @default the current location's
 * @returns the valid options, as `start()` takes them; invalid ones are left out (`readOptions`
 *   also names them).
 */
export function readScriptOptions(script: { readonly dataset: DOMStringMap } | null, origin: string = globalThis.location?.origin ?? ''): RuntimeOptions {
  return readOptions({ script }, origin).options;
}
