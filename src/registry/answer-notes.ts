/**
 * Audit warnings that calls leave for the Report: what the runtime did to a site's answer (today:
 * properties an `additionalProperties: false` of the tool's outputSchema forbids, left out:
 * call/check-output.ts writes them). One entry per tool, kept for the runtime's life and listed
 * in every Report after it (live-registry.ts). Only the table is here: the call chunk fills it.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { AuditEntry } from '../start/report.js';

/** Per runtime (its config object): tool name → its warning, in the order first recorded. */
export const ANSWER_NOTES = new WeakMap<RuntimeConfig, Map<string, AuditEntry>>();

/** The warnings recorded for the tools in `registered`. */
export function answerNotes(config: RuntimeConfig, registered: readonly string[]): AuditEntry[] {
  const byTool = ANSWER_NOTES.get(config);
  return byTool ? registered.flatMap((tool) => byTool.get(tool) ?? []) : [];
}
