import type { Reason } from './reason.js';

/**
 * Tool name rules. A Capell name must satisfy both Core's pattern and WebMCP's, so a name the
 * normaliser accepts is never refused by `registerTool`.
 */

/** Capell Agent Schema, "Tool declarations": a stable lowercase dotted name (Core's normaliser). */
export const CAPELL_NAME_PATTERN = /^[a-z][a-z0-9]*(?:\.[a-z0-9]+)+$/;

/**
 * What Capell's own packages write beside Core's pattern: `-` or `_` inside a segment
 * (form-builder's `form.submit.capell-form-<uuid>`, the admin's `admin.page.agent_readiness.read`).
 * Such a name registers with a warning (`nameSeparator`); it is within WebMCP's pattern.
 */
export const CAPELL_PACKAGE_NAME_PATTERN = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*(?:\.[a-z0-9]+(?:[-_][a-z0-9]+)*)+$/;

/** WebMCP `registerTool`: names outside this pattern are refused with `InvalidStateError`. */
export const WEBMCP_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Longest tool name, in characters (WebMCP and MCP Tool). */
export const MAX_NAME_LENGTH = 128;

/**
 * Checks a Capell tool name: Core's pattern, or Capell's packages' (CAPELL_PACKAGE_NAME_PATTERN)
 * with a warning.
 * @returns `reasons` (the name is refused), each naming the field `name` and the rule, and
 *   `warnings` (it registers); both empty when the name is Core's.
 * @example validateCapellName('site.search') // { reasons: [], warnings: [] }
 * @example validateCapellName('form.submit.capell-form-1') // { reasons: [], warnings: [['name', 'nameSeparator', …]] }
 */
export function validateCapellName(name: unknown): { reasons: Reason[]; warnings: Reason[] } {
  if (typeof name !== 'string') return { reasons: [['name', 'nameRequired']], warnings: [] };
  const reasons: Reason[] = [];
  const warnings: Reason[] = [];
  if (name.length > MAX_NAME_LENGTH) reasons.push(['name', 'nameLength', name.length]);
  // Both patterns use only characters WebMCP allows, so with the length they imply WebMCP's.
  if (!CAPELL_NAME_PATTERN.test(name)) {
    if (CAPELL_PACKAGE_NAME_PATTERN.test(name)) warnings.push(['name', 'nameSeparator', name]);
    else reasons.push(['name', 'namePattern', name]);
  }
  return { reasons, warnings };
}
