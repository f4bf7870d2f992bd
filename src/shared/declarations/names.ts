import type { Reason } from './reason.js';

/**
 * Tool name rules. A Capell name must satisfy both Core's pattern and WebMCP's, so a name the
 * normaliser accepts is never refused by `registerTool`.
 */

/** Capell Agent Schema, "Tool declarations": a stable lowercase dotted name (Core's normaliser). */
export const CAPELL_NAME_PATTERN = /^[a-z][a-z0-9]*(?:\.[a-z0-9]+)+$/;

/** WebMCP `registerTool`: names outside this pattern are refused with `InvalidStateError`. */
export const WEBMCP_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Longest tool name, in characters (WebMCP and MCP Tool). */
export const MAX_NAME_LENGTH = 128;

/**
 * Checks a Capell tool name.
 * @returns reasons, empty when the name is valid; each names the field `name` and the rule.
 * @example validateCapellName('site.search') // []
 */
export function validateCapellName(name: unknown): Reason[] {
  if (typeof name !== 'string') return [['name', 'nameRequired']];
  const reasons: Reason[] = [];
  if (name.length > MAX_NAME_LENGTH) reasons.push(['name', 'nameLength', name.length]);
  // Core's pattern uses only characters WebMCP allows, so with the length it implies WebMCP's.
  if (!CAPELL_NAME_PATTERN.test(name)) reasons.push(['name', 'namePattern', name]);
  return reasons;
}
