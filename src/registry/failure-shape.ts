/**
 * How a failed call reaches the agent, per way of calling. Checked in Chromium 156 with the four
 * clients an agent developer uses (Puppeteer 25 and chrome-devtools-mcp 1.11 read the DevTools
 * `WebMCP` domain; Playwright 1.65 `page.webmcp` and Playwright MCP 0.0.83 call the page's
 * `document.modelContext.executeTool`):
 * - an `execute` that resolves a CallToolResult with `isError: true` is reported `Completed` by
 *   the DevTools domain, so Puppeteer and chrome-devtools-mcp show it as a success;
 * - an `execute` that rejects is reported `Error` with the rejection as the invocation's
 *   `exception` (its description is the reason), but `executeTool` turns every rejection into the
 *   same bare `UnknownError` ("Tool was executed but the invocation failed"): the reason is lost.
 * No one shape reaches all four with its reason, so with the browser's own WebMCP a failed call
 * rejects with an Error whose message (and one-line stack) is the reason, except a call that came
 * in through this window's `executeTool` (Playwright MCP, an in-page agent): it resolves the
 * `isError` result, which `executeTool` hands back whole. Playwright's `page.webmcp` calls
 * `executeTool` from its own isolated world, which this window cannot see: it gets the rejection,
 * and Chromium prints the reason on the page's console ("WebMCP tool execution failed: Uncaught
 * Error: <reason>"). A polyfill host always gets the `isError` result (MCP's own failure shape,
 * which its MCP transport shows as an error). docs/agent-clients.md has the table.
 */
import type { ModelContextHost, WebMCPTool } from '../start/host.js';
import type { CallToolResult } from './result.js';

/** The realm's Error and `Function.prototype.toString`, as they were when this module loaded. */
const NativeError = Error;
const functionSource = Function.prototype.toString;

/** What the runtime keeps per host: in-page `executeTool` calls in flight, by tool name. */
interface HostCalls {
  inPage: Map<string, number>;
}

const hosts = new WeakMap<object, HostCalls>();

/** The `executeTool` a native `ModelContext` has (WebMCP testing API, Chromium). */
type ExecuteTool = (this: unknown, tool: { name?: unknown } | undefined, input: unknown, ...rest: unknown[]) => Promise<unknown>;

/** Whether `fn` is the engine's own code (its source reads `[native code]`), not a polyfill's. */
function isNative(fn: unknown): boolean {
  try {
    return typeof fn === 'function' && /\{\s*\[native code\]\s*\}\s*$/.test(functionSource.call(fn));
  } catch {
    return false;
  }
}

/**
 * Counts the calls that come in through `host.executeTool` in this window, per tool name, while
 * each is in flight: replaces the host's `executeTool` with one that counts and then calls the
 * original (same arguments, same answer). Once per host. Never throws: a host whose
 * `executeTool` cannot be replaced keeps it, and its in-page callers then get the rejection.
 */
function watchInPageCalls(host: ModelContextHost & { executeTool?: unknown }, calls: HostCalls): void {
  const original = host.executeTool;
  if (typeof original !== 'function') return;
  const execute = original as ExecuteTool;
  function executeTool(this: unknown, tool: { name?: unknown } | undefined, input: unknown, ...rest: unknown[]): Promise<unknown> {
    const name = typeof tool?.name === 'string' ? tool.name : '';
    calls.inPage.set(name, (calls.inPage.get(name) ?? 0) + 1);
    const release = () => {
      const left = (calls.inPage.get(name) ?? 1) - 1;
      if (left > 0) calls.inPage.set(name, left);
      else calls.inPage.delete(name);
    };
    let answer: Promise<unknown>;
    try {
      answer = Promise.resolve(execute.call(this, tool, input, ...rest));
    } catch (error) {
      release();
      throw error;
    }
    answer.then(release, release);
    return answer;
  }
  try {
    Object.defineProperty(host, 'executeTool', { value: executeTool, writable: true, configurable: true, enumerable: false });
  } catch {
    // A frozen host keeps its own executeTool.
  }
}

/**
 * The Error a failed call rejects with: its message is the result's one-line reason, and so is
 * its stack (`Error: <reason>`), so the DevTools `exception.description` a client shows is that
 * line alone, not the runtime's chunk URLs.
 */
function failure(result: CallToolResult): Error {
  const reason = result.content?.[0]?.text || 'the call failed';
  const error = new NativeError(reason);
  try {
    error.stack = `Error: ${reason}`;
  } catch {
    // An engine with a read-only stack keeps its own.
  }
  return error;
}

/**
 * The failure shape for tools registered with `host`: a function that takes a WebMCPTool and
 * returns the one to register.
 * - A native host (its `registerTool` is the engine's own code): the returned tool's `execute`
 *   rejects with an Error carrying the reason where the original resolved `isError: true`,
 *   unless a call of that tool came in through this window's `executeTool` and is still in flight
 *   when it starts (then it resolves the `isError` result). Successful results are unchanged.
 * - Any other host (a polyfill): the tool unchanged.
 * Installs the in-page counter on the host's `executeTool` once. Never throws.
 */
export function failureShape(host: ModelContextHost): (tool: WebMCPTool) => WebMCPTool {
  if (!isNative(host.registerTool)) return (tool) => tool;
  let calls = hosts.get(host);
  if (!calls) {
    hosts.set(host, calls = { inPage: new Map() });
    watchInPageCalls(host, calls);
  }
  const { inPage } = calls;
  return (tool) => ({
    ...tool,
    async execute(input, options) {
      const viaPage = (inPage.get(tool.name) ?? 0) > 0;
      const result = await tool.execute(input, options);
      if (result?.isError !== true || viaPage) return result;
      throw failure(result);
    },
  });
}
