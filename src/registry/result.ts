/**
 * What `execute` resolves to: an MCP CallToolResult (MCP spec 2026-07-28, "Tool result";
 * a fixed shape other checks depend on). The browser serialises it to a string for the agent.
 */
import type { JSONValue } from '../shared/declarations/tool-spec.js';

/**
 * `{ content: [{ type: 'text', text }], structuredContent?, isError? }`. `structuredContent` never
 * repeats the answer (WebMCP hosts serialise the whole result for the agent, so a second copy
 * would be read twice): it holds only what the runtime adds beside the site's answer, e.g. an
 * AgentGate call's `receipt` (agentgate/call/receipt.ts).
 */
export interface CallToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: { [key: string]: JSONValue };
  isError?: boolean;
}

/** Longest reason an error result carries, in UTF-16 units; the rest is cut with an ellipsis. */
export const MAX_REASON_LENGTH = 500;

/**
 * A successful result: the JSON answer, once, as the text of the only content item (WebMCP hosts
 * serialise the whole result for the agent, so a second copy in `structuredContent` would be read
 * twice). What the agent reads is then the site's JSON plus about 40 characters of wrapping.
 * @param added what the runtime adds beside the answer (e.g. `{ receipt }`), as `structuredContent`.
 * @example toolResult({ capellAgentSchema: 1, data: [], links: { next: null, previous: null } })
 *   // { content: [{ type: 'text', text: '{"capellAgentSchema":1,"data":[],"links":{…}}' }] }
 */
export function toolResult(answer: JSONValue, added?: { [key: string]: JSONValue }): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  if (added) result.structuredContent = added;
  return result;
}

/**
 * A failed call: `isError: true` and a one-line reason (line breaks collapsed, at most
 * MAX_REASON_LENGTH). Executors answer failures as results and never throw, and `execute` hands
 * this result to WebMCP as it is, however the call came in: it is the one shape whose reason
 * reaches every client. A rejection's reason survives only where the caller reads the DevTools
 * `WebMCP` domain (Puppeteer, chrome-devtools-mcp: `status: "Error"`); every caller of
 * `document.modelContext.executeTool` outside the page's own script (Playwright's `page.webmcp`,
 * Playwright MCP 0.0.86, which call it from a world of their own) gets a bare `UnknownError`
 * instead, and the page cannot tell those calls from the DevTools ones. The DevTools clients
 * report this result `Completed`, with `isError: true` and the reason in its output
 * (docs/agent-clients.md has the table per client and version).
 */
export function errorResult(reason: string): CallToolResult {
  let line = reason.replace(/\s+/g, ' ').trim();
  if (line.length > MAX_REASON_LENGTH) line = `${line.slice(0, MAX_REASON_LENGTH - 1)}…`;
  return { content: [{ type: 'text', text: line }], isError: true };
}
