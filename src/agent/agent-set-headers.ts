/**
 * Which covered components the agent can vouch for. A signature covers what the agent means:
 * derived components (`@authority`, `@method`, `@path`, …) come from the method and URL the agent
 * matched to the tool's endpoint; `content-digest`, `signature-agent` and `crawler-exact-price`
 * the agent writes itself; `content-type` it checks equals the manifest's (and never rewrites).
 * Any other header (a manifest that covers `x-amount`, or `accept`) would be signed with the
 * value page script put there: the agent refuses such a tool rather than sign it (RFC 9421 §3.1:
 * the signer covers each component's value as the message carries it, so it vouches for it).
 */
import type { Component } from '../agentgate/call/signature-base.js';

/** Header components whose value the agent writes or checks itself. */
const AGENT_SET_HEADERS: readonly string[] = ['content-digest', 'signature-agent', 'crawler-exact-price', 'content-type'];

/**
 * The header components among `components` the agent did not set itself.
 * @param components covered components (names lower-case, RFC 9421 §2.1)
 * @returns their names, in order, without repeats (empty when the agent vouches for all)
 * @example headersNotSetByAgent(['@authority', 'content-digest', 'x-amount']) // → ['x-amount']
 */
export function headersNotSetByAgent(components: readonly Component[]): string[] {
  const names = components.map((component) => (typeof component === 'string' ? component : component.name));
  return [...new Set(names.filter((name) => !name.startsWith('@') && !AGENT_SET_HEADERS.includes(name)))];
}

/**
 * The one-line reason a tool that covers such headers is not signed.
 * @example notSetReason('send_message', ['x-amount']) // → 'send_message is not signed: its manifest covers the header x-amount, which the agent does not set itself (it would sign the page's value)'
 */
export function notSetReason(tool: string, headers: readonly string[]): string {
  const which = headers.length === 1 ? `the header ${headers[0]}` : `the headers ${headers.join(', ')}`;
  return `${tool} is not signed: its manifest covers ${which}, which the agent does not set itself (it would sign the page's value)`;
}
