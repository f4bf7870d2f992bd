/**
 * The Capell declaration normaliser with readable reasons: what the CLI, the library and the
 * tests call. The runtime uses `checkCapellDeclaration` directly and renders reasons lazily.
 */
import { checkCapellDeclaration, type NormaliseContext } from './check-declaration.js';
import { renderReason } from './reason-text.js';
import type { ToolSpec } from './tool-spec.js';

export { ALLOWED_DECLARATION_KEYS, checkCapellDeclaration, type CheckResult, type NormaliseContext } from './check-declaration.js';

/** The outcome of normalising one declaration; never thrown. Reasons read `<field>: <rule>`. */
export type NormaliseResult =
  | { ok: true; spec: ToolSpec }
  | { ok: false; name: string; reasons: string[] };

/**
 * Normalises one Capell tool declaration (Capell Agent Schema, "Tool declarations", and Core's
 * normaliser rules; see `checkCapellDeclaration`) and renders every reason as one line naming the
 * field and the rule.
 * @example
 * normaliseCapellDeclaration({ name: 'Catalogue Lookup', … }, context)
 * // → { ok: false, name: 'Catalogue Lookup', reasons: ['name: "Catalogue Lookup" is not a lowercase dotted name matching …'] }
 */
export function normaliseCapellDeclaration(raw: unknown, context: NormaliseContext): NormaliseResult {
  const result = checkCapellDeclaration(raw, context);
  return result.ok ? result : { ok: false, name: result.name, reasons: result.reasons.map(renderReason) };
}
