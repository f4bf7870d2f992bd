/**
 * The texts of declaration warnings (rules.ts, "Warnings": what Capell's own packages write beside
 * the Capell Agent Schema, registered all the same). Apart from the rejection texts
 * (reason-text.ts, which takes these in): a page whose form-builder form names its tool
 * `form.submit.capell-form-<id>` warns on every load, and its Report must not wait for a chunk
 * (no request before `ready`), so these few lines ship with the registry.
 */
import { CAPELL_NAME_PATTERN } from './names.js';
import type { PendingWarning, Reason } from './reason.js';
import type { AuditEntry } from '../../start/report.js';

/** Warning code → its text, with the warning's arguments. */
export const WARNING_TEXT = {
  nameSeparator: (name: string) => `${JSON.stringify(name)} has "-" or "_" inside a segment, outside the Capell Agent Schema's lowercase dotted name (${CAPELL_NAME_PATTERN.source}); registered, as Capell's own packages name tools`,
  emptyArraySchema: () => `[] (PHP's empty array) where a JSON object is expected; read as {}`,
  adminInvokeBinding: (binding: string) => `${binding} is not used: Capell's admin runs every tool through POST /admin/agent/v1/tools/invoke (reads at once, writes after the editor's approval in the panel), as its own admin bridge does`,
  beyondCoreKeyword: (keyword: string) => `${keyword} is not in Core's keyword allow-list; registered, and checked at call time`,
} as const;

/** Renders one warning as `<field>: <text>` (a warning code of WARNING_TEXT). */
function renderWarning([field, code, ...args]: Reason): string {
  return `${field}: ${(WARNING_TEXT[code as keyof typeof WARNING_TEXT] as (...values: unknown[]) => string)(...args)}`;
}

/**
 * Renders registered tools' declaration warnings (ToolSpec.warnings) as the Report's audit
 * entries: `{ level: 'warning', surface: 'tool <name>', message: '<field>: <text>' }`, one per warning.
 */
export function renderWarnings(pending: readonly PendingWarning[]): AuditEntry[] {
  return pending.flatMap(({ name, warnings }) => warnings.map((warning) => ({ level: 'warning' as const, surface: `tool ${name}`, message: renderWarning(warning) })));
}
