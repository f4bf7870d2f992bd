/**
 * The Capell declaration normaliser with readable reasons: what the CLI, the library and the
 * tests call, with every rule loaded up front (the `$ref` graph checks included). The runtime
 * uses `checkCapellDeclarationAsync` (check-declaration.ts), which loads the `$ref` checks and
 * the texts only when needed.
 */
import { checkCapellDeclaration, type NormaliseContext } from './check-declaration.js';
import { REF_CHECKS } from './ref-checks.js';
import { renderReason } from './reason-text.js';
import type { ToolSpec } from './tool-spec.js';

export { ALLOWED_DECLARATION_KEYS, checkCapellDeclaration, type CheckResult, type NormaliseContext } from './check-declaration.js';
export { REF_CHECKS } from './ref-checks.js';

/** The outcome of normalising one declaration; never thrown. Reasons read `<field>: <rule>`. */
export type NormaliseResult =
  | { ok: true; spec: ToolSpec; warnings: string[] }
  | { ok: false; name: string; reasons: string[] };

/**
 * Normalises one Capell tool declaration (Capell Agent Schema, "Tool declarations", and Core's
 * normaliser rules; see `checkCapellDeclaration`) and renders every reason as one line naming the
 * field and the rule. An accepted declaration's `warnings` (what Capell's packages write beside
 * the seed: ToolSpec.warnings) are rendered the same way; empty when none.
 * @example
 * normaliseCapellDeclaration({ name: 'Catalogue Lookup', … }, context)
 * // → { ok: false, name: 'Catalogue Lookup', reasons: ['name: "Catalogue Lookup" is not a lowercase dotted name matching …'] }
 */
export function normaliseCapellDeclaration(raw: unknown, context: NormaliseContext): NormaliseResult {
  const result = checkCapellDeclaration(raw, context, REF_CHECKS);
  if (result.ok) return { ok: true, spec: result.spec, warnings: (result.spec.warnings ?? []).map(renderReason) };
  return { ok: false, name: result.name, reasons: result.reasons.map(renderReason) };
}
