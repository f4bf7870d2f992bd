/**
 * Running a page's WebMCP tool the way an agent does: `document.modelContext.getTools()`, then
 * `executeTool(tool, input)`, whose answer is the JSON text of an MCP CallToolResult.
 */
import type { CDPSessionLike, PageLike } from './cdp-target.js';

/** An MCP CallToolResult (MCP spec 2026-07-28, "Tool result"), as the page's tool answered. */
export interface CallToolResult {
  content: { type: string; text?: string; [key: string]: unknown }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** How long `runPageTool` waits for the tool to be registered on the page, in ms. */
const TOOL_WAIT_MS = 5_000;

/** A failed call as a result: `isError` and one line. */
export function errorResult(reason: string): CallToolResult {
  return { content: [{ type: 'text', text: reason.replace(/\s+/g, ' ').trim() }], isError: true };
}

/** What the page script answers: the result's text, or why there is none. */
type PageAnswer = { text: string } | { missing: string } | { noApi: true };

/** Runs in the page: waits up to `waitMs` for `name`, then executes it. */
async function inPage({ name, input, waitMs }: { name: string; input: unknown; waitMs: number }): Promise<PageAnswer> {
  const context = (document as unknown as { modelContext?: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: unknown): Promise<string> } }).modelContext;
  if (!context) return { noApi: true };
  const end = Date.now() + waitMs;
  for (;;) {
    const tools = await context.getTools();
    const tool = tools.find((candidate) => candidate.name === name);
    if (tool) return { text: await context.executeTool(tool, input) };
    if (Date.now() > end) return { missing: tools.map((candidate) => candidate.name).join(', ') };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Evaluates `inPage` through a bare CDP session (`Runtime.evaluate`, awaiting the promise). */
async function evaluateInSession(session: CDPSessionLike, arg: { name: string; input: unknown; waitMs: number }): Promise<PageAnswer> {
  const answer = await session.send('Runtime.evaluate', {
    expression: `(${inPage.toString()})(${JSON.stringify(arg)})`, awaitPromise: true, returnByValue: true,
  }) as { result?: { value?: PageAnswer }; exceptionDetails?: { text?: string; exception?: { description?: string } } };
  if (answer.exceptionDetails) throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text ?? 'the page threw');
  return answer.result?.value as PageAnswer;
}

/**
 * Runs the page's tool `name` with `input` and parses its answer.
 * @param page a Playwright or Puppeteer Page, or a CDP session of one
 * @returns the CallToolResult; a page without WebMCP, a tool not registered within TOOL_WAIT_MS,
 *   or an answer that is not JSON is `isError` with one line. Rejects with the page's own error
 *   when the evaluation throws (e.g. the page navigated away).
 */
export async function runPageTool(page: PageLike | CDPSessionLike, name: string, input: unknown): Promise<CallToolResult> {
  const arg = { name, input, waitMs: TOOL_WAIT_MS };
  const answer = 'evaluate' in page && typeof page.evaluate === 'function' ? await (page as PageLike).evaluate(inPage, arg) : await evaluateInSession(page as CDPSessionLike, arg);
  if ('noApi' in answer) return errorResult(`${name}: this page has no document.modelContext (WebMCP is off)`);
  if ('missing' in answer) return errorResult(`${name} is not registered on this page after ${TOOL_WAIT_MS} ms (it has: ${answer.missing || 'no tools'})`);
  try {
    const result = JSON.parse(answer.text) as CallToolResult;
    if (typeof result === 'object' && result !== null && Array.isArray(result.content)) return result;
  } catch {
    // Not JSON: reported below.
  }
  return errorResult(`${name} answered something that is not a CallToolResult: ${answer.text.slice(0, 200)}`);
}
