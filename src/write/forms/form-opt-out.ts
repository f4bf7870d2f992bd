/**
 * A site's opt-out for a form: `data-agent-tools="none"` with a human-readable
 * `data-agent-tools-reason` marks it as intentionally not actionable by agents. The runtime never
 * fills such a form, even when a declaration names it (the mark is the site's last word, and it
 * may be added to a form whose declaration a cached page still carries).
 * Capell Agent Schema, "Tool declarations": "A package may use agent_tools: none with a
 * human-readable reason for an intentionally non-actionable surface."
 */
import { AGENT_TOOLS_ATTRIBUTE, AGENT_TOOLS_REASON_ATTRIBUTE } from '../../start/audit.js';
import { callBuiltIn } from '../../start/dom-builtin.js';

/**
 * Why `form` must not be filled because the site opted it out, or `undefined`.
 * @returns e.g. `form #newsletter is marked data-agent-tools="none" ("The footer sign-up is for
 *   people."); an agent never fills it`; `(no reason given)` when the reason attribute is blank.
 */
export function readFormOptOutReason(form: HTMLFormElement): string | undefined {
  if (callBuiltIn<string | null>(form, 'getAttribute', AGENT_TOOLS_ATTRIBUTE)?.trim().toLowerCase() !== 'none') return undefined;
  const reason = callBuiltIn<string | null>(form, 'getAttribute', AGENT_TOOLS_REASON_ATTRIBUTE)?.replace(/\s+/g, ' ').trim();
  const id = callBuiltIn<string | null>(form, 'getAttribute', 'id') ?? '';
  return `form #${id} is marked ${AGENT_TOOLS_ATTRIBUTE}="none" (${reason ? JSON.stringify(reason) : 'no reason given'}); an agent never fills it`;
}
