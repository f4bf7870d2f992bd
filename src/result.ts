/**
 * What `execute` resolves to: an MCP CallToolResult (MCP spec 2026-07-28, "Tool result";
 * DESIGN section 4). The browser serialises it to a string for the agent.
 */
import type { JSONValue } from './declarations/tool-spec.js';

/**
 * `{ content: [{ type: 'text', text }], isError? }`. No `structuredContent`: WebMCP hosts serialise
 * the whole result for the agent, so a second copy of the answer would be read twice.
 */
export interface CallToolResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/** Longest reason an error result carries, in UTF-16 units; the rest is cut with an ellipsis. */
export const MAX_REASON_LENGTH = 500;

/**
 * A successful result: the JSON answer, once, as the text of the only content item (DESIGN
 * section 4). What the agent reads is then the site's JSON plus about 40 characters of wrapping.
 * @example toolResult({ capellAgentSchema: 1, data: [], links: { next: null, previous: null } })
 *   // { content: [{ type: 'text', text: '{"capellAgentSchema":1,"data":[],"links":{…}}' }] }
 */
export function toolResult(answer: JSONValue): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
}

/**
 * A failed call: `isError: true` and a one-line reason (line breaks collapsed, at most
 * MAX_REASON_LENGTH). Tool failures are results, never throws: WebMCP turns a throw into a
 * bare `UnknownError` and the agent loses the reason.
 */
export function errorResult(reason: string): CallToolResult {
  let line = reason.replace(/\s+/g, ' ').trim();
  if (line.length > MAX_REASON_LENGTH) line = `${line.slice(0, MAX_REASON_LENGTH - 1)}…`;
  return { content: [{ type: 'text', text: line }], isError: true };
}
