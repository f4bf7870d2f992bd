/**
 * The MCP-B hosts (issue 10, item 2), installed in a page the way a site installs them: their
 * published browser bundle (`dist/index.iife.js`, a classic script that installs itself when it
 * runs) read from node_modules and run before any page script (`page.addInitScript`), in Chromium
 * without the WebMCP flag. What a client calls there, read from the packages' code (5.1.0):
 *
 * - `@mcp-b/webmcp-polyfill`: `document.modelContext` (a `ModelContext` EventTarget) with
 *   `registerTool(tool, { signal })`, `getTools()` and Chromium's `executeTool(tool, inputJson)`,
 *   where the input is a JSON *string* (parseChromeToolInput: `JSON.parse(input)`) and the answer
 *   the JSON string of the tool's result; with `installTestingShim`, also
 *   `navigator.modelContextTesting.listTools()` / `.executeTool(name, inputJson)`.
 * - `@mcp-b/global`: replaces `document.modelContext` with its `BrowserMcpServer`, which mirrors
 *   each tool into the polyfill above (its `executeTool` and `getTools` go there) and into an MCP
 *   server reached over `window.postMessage` (TabServerTransport, channel `mcp-default`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);

/** One MCP-B host: its package, the options script its bundle reads, the bundle's path. */
export interface MCPBHost {
  name: '@mcp-b/webmcp-polyfill' | '@mcp-b/global';
  /** Runs before the bundle: the testing shim is off by default in the polyfill, on in global. */
  options: string;
  /** Absolute path of the package's IIFE bundle. */
  bundle: string;
}

/** Both hosts, with the testing shim (`navigator.modelContextTesting`) installed. */
export const MCP_B_HOSTS: MCPBHost[] = [
  { name: '@mcp-b/webmcp-polyfill', options: 'window.__webMCPPolyfillOptions = { installTestingShim: true };', bundle: require.resolve('@mcp-b/webmcp-polyfill/iife') },
  { name: '@mcp-b/global', options: 'window.__webModelContextOptions = { installTestingShim: true };', bundle: require.resolve('@mcp-b/global/iife') },
];

/** Installs `host` in `page` before any of the page's scripts, on every navigation. */
export async function installHost(page: Page, host: MCPBHost): Promise<void> {
  await page.addInitScript({ content: `${host.options}\n${readFileSync(host.bundle, 'utf8')}` });
}

/** A CallToolResult as the host's executeTool hands it back, parsed. */
export type HostResult = { content: { type: string; text: string }[]; isError?: boolean };

/**
 * Calls `name` as a WebMCP client on these hosts does: `getTools()`, then
 * `document.modelContext.executeTool(tool, JSON.stringify(input))`, and parses the JSON string it
 * answers. A rejection comes back as `{ rejected: "<DOMException name>: <message>" }`.
 */
export function hostCall(page: Page, name: string, input: object): Promise<HostResult | { rejected: string }> {
  return page.evaluate(async ({ name, input }) => {
    type Context = { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, inputJson: string): Promise<string> };
    const context = (document as unknown as { modelContext: Context }).modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`${name} is not in the host's getTools()`);
    return context.executeTool(tool, JSON.stringify(input)).then((text) => JSON.parse(text), (error: Error) => ({ rejected: `${error.name}: ${error.message}` }));
  }, { name, input });
}

/** Calls `name` through the testing shim: `navigator.modelContextTesting.executeTool(name, inputJson)`. */
export function testingShimCall(page: Page, name: string, input: object): Promise<HostResult> {
  return page.evaluate(async ({ name, input }) => {
    const testing = (navigator as unknown as { modelContextTesting: { executeTool(name: string, inputJson: string): Promise<string> } }).modelContextTesting;
    return JSON.parse(await testing.executeTool(name, JSON.stringify(input)));
  }, { name, input });
}

/** The names the host itself holds: `getTools()` and the testing shim's `listTools()`. */
export function hostToolNames(page: Page): Promise<{ getTools: string[]; listTools: string[] }> {
  return page.evaluate(async () => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]> } }).modelContext;
    const testing = (navigator as unknown as { modelContextTesting: { listTools(): { name: string }[] } }).modelContextTesting;
    return { getTools: (await context.getTools()).map((tool) => tool.name).sort(), listTools: testing.listTools().map((tool) => tool.name).sort() };
  });
}
