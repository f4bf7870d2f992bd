/**
 * The warning of a second `start()` on a document whose runtime runs (runtime.ts): which options
 * it gave that the running runtime does not use. Loaded only when that happens, where WebMCP is
 * present, so the entry stays within its first-load budget.
 */
import type { RuntimeConfig, RuntimeOptions } from './config.js';

/**
 * What a running runtime keeps for this check, on the runtime object under a registry symbol (so
 * a copy of the runtime on the same page, script tag or library, finds it): the configuration it
 * started with, and the warnings already given (added here on the first).
 */
export interface StartRecord {
  /** The running runtime's options, a copy with `apiBase` as text (page script can reach the record). */
  readonly config: RecordedOptions;
  warned?: Set<string>;
}

/** The running runtime's config as a start record holds it: a copy, with `apiBase` as its `href`. */
export type RecordedOptions = Omit<RuntimeConfig, 'apiBase'> & { apiBase: string | undefined };

/** An option's effective value as text, for comparison and messages: `"https://shop.example/agent/v1"`, `15000`. */
function optionText(config: RuntimeConfig | RecordedOptions, name: Exclude<keyof RuntimeOptions, 'document'>): string {
  const value = config[name];
  return JSON.stringify(value instanceof URL ? value.href : value) ?? 'unset';
}

/**
 * The options a second `start()` gave that differ from the running runtime's, each as
 * `name <given> (running: <value>)`, compared after normalisation (so `apiBase: '/agent/v1/'` and
 * the default are the same). An option not given, or given as `undefined`, is never named;
 * `document` is the running one's by construction.
 */
function ignoredOptions(options: RuntimeOptions, config: RuntimeConfig, running: RecordedOptions): string[] {
  const ignored: string[] = [];
  for (const name of Object.keys(options) as (keyof RuntimeOptions)[]) {
    if (name === 'document' || options[name] === undefined) continue;
    const given = optionText(config, name);
    const kept = optionText(running, name);
    if (given !== kept) ignored.push(`${name} ${given} (running: ${kept})`);
  }
  return ignored;
}

/**
 * Warns (console.warn), once per distinct text over the running runtime's life, that a second
 * `start()` gave options the running runtime does not use:
 * `[capell-webmcp] start() was called again on this document; the running runtime keeps its
 * options, ignoring: timeoutMs 5000 (running: 15000). Call stop() first to start with other options.`
 * Silent when either call's `log` is `'silent'`, as the runtime's other warnings are.
 * @param options the second call's options as given; `config` the same normalised.
 */
export function warnIgnoredOptions(options: RuntimeOptions, config: RuntimeConfig, record: StartRecord): void {
  if (record.config.log === 'silent' || config.log === 'silent') return;
  const ignored = ignoredOptions(options, config, record.config);
  if (ignored.length === 0) return;
  const line = `[capell-webmcp] start() was called again on this document; the running runtime keeps its options, ignoring: ${ignored.join(', ')}. Call stop() first to start with other options.`;
  record.warned ??= new Set();
  if (record.warned.has(line)) return;
  record.warned.add(line);
  console.warn(line);
}
