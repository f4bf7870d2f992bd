/**
 * The MCP-B hosts (WebMCP hosts seen in the wild besides Chromium's own), installed in a demo page
 * the way a site installs them: a `<script src>` of their published browser bundle
 * (`dist/index.iife.js`, a classic script that installs itself when it runs), served from
 * node_modules by a test-only route on the demo's origin and placed in `<head>` before the
 * runtime's module script, in Chromium without the WebMCP flag. (Not `page.addInitScript`: init
 * scripts run before the page's Content-Security-Policy applies, so zod inside `@mcp-b/global`
 * would find `Function` allowed and later compile parsers the policy refuses: every MCP message
 * then fails "Invalid message ... 'unsafe-eval'".) What a client calls there, read from the
 * packages' code (5.1.0):
 *
 * - `@mcp-b/webmcp-polyfill`: `document.modelContext` (a `ModelContext` EventTarget) with
 *   `registerTool(tool, { signal })`, `getTools()` and Chromium's `executeTool(tool, inputJson)`,
 *   where the input is a JSON *string* (parseChromeToolInput: `JSON.parse(input)`) and the answer
 *   the JSON string of the tool's result; with `installTestingShim`, also
 *   `navigator.modelContextTesting.listTools()` / `.executeTool(name, inputJson)`.
 * - `@mcp-b/global`: replaces `document.modelContext` with its `BrowserMcpServer`, which mirrors
 *   each tool into the polyfill above (its `executeTool` and `getTools` go there) and into an MCP
 *   server an agent reaches over `window.postMessage` (TabServerTransport, channel `mcp-default`).
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);

/** One MCP-B host: its package, the options its bundle reads, the bundle's path. */
export interface MCPBHost {
  name: '@mcp-b/webmcp-polyfill' | '@mcp-b/global';
  /** Script run before the bundle: the testing shim is off by default in the polyfill, on in global. */
  options: string;
  /** Absolute path of the package's IIFE bundle. */
  bundle: string;
}

/** Both hosts, with the testing shim (`navigator.modelContextTesting`) installed. */
export const MCP_B_HOSTS: MCPBHost[] = [
  { name: '@mcp-b/webmcp-polyfill', options: 'window.__webMCPPolyfillOptions = { installTestingShim: true };', bundle: require.resolve('@mcp-b/webmcp-polyfill/iife') },
  { name: '@mcp-b/global', options: 'window.__webModelContextOptions = { installTestingShim: true };', bundle: require.resolve('@mcp-b/global/iife') },
];

/** Test-only paths on the demo's origin (same origin: the demo's `script-src 'self'` allows them). */
const OPTIONS_PATH = '/test-hosts/options.js';
const BUNDLE_PATH = '/test-hosts/host.js';

/**
 * Installs `host` in every demo page `page` opens from `origin`: each HTML answer gets the host's
 * options and bundle as classic scripts right after `<meta charset>`, so they run before the
 * runtime's module script, and `runtimeAttributes` (e.g. `data-write-wait-ms="60000"`) on the
 * runtime's script tag. Other requests (API calls, the form's POST) go through untouched.
 */
export async function installHost(page: Page, origin: string, host: MCPBHost, runtimeAttributes = ''): Promise<void> {
  await page.route(`${origin}/**`, async (route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    if (path === OPTIONS_PATH) return route.fulfill({ contentType: 'text/javascript', body: host.options });
    if (path === BUNDLE_PATH) return route.fulfill({ contentType: 'text/javascript', path: host.bundle });
    if (request.method() !== 'GET' || request.resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const html = await response.text();
    const withHost = html.replace('<meta charset="utf-8">', `<meta charset="utf-8"><script src="${OPTIONS_PATH}"></script><script src="${BUNDLE_PATH}"></script>`);
    await route.fulfill({ response, body: runtimeAttributes ? withHost.replace('data-capell-webmcp', `data-capell-webmcp ${runtimeAttributes}`) : withHost });
  });
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

/** What an MCP client gets back for one JSON-RPC request: its `result`, or its `error`. */
export type RPCAnswer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

/**
 * Sends JSON-RPC requests to `@mcp-b/global`'s MCP server as an MCP-B client does, over the
 * page's TabServerTransport: `window.postMessage({ channel: 'mcp-default', type: 'mcp',
 * direction: 'client-to-server', payload })`, answers coming back with direction
 * `server-to-client` (@mcp-b/transports 5.1.0, TabClientTransport). The first call on a page
 * runs the MCP handshake (`initialize`, then `notifications/initialized`). Each request waits at
 * most `timeoutMs` (then `{ error: { code: 0, message: 'timeout' } }`).
 */
export function mcpRequest(page: Page, method: string, params: object = {}, timeoutMs = 10_000): Promise<RPCAnswer> {
  return page.evaluate(async ({ method, params, timeoutMs }) => {
    type Client = { send(method: string, params: object): Promise<unknown>; ready: Promise<unknown> };
    const store = window as unknown as { mcpClient?: Client };
    if (!store.mcpClient) {
      const waiting = new Map<number, (answer: unknown) => void>();
      let lastId = 0;
      const post = (payload: object) => window.postMessage({ channel: 'mcp-default', type: 'mcp', direction: 'client-to-server', payload }, window.location.origin);
      window.addEventListener('message', (event) => {
        const data = event.data as { channel?: string; type?: string; direction?: string; payload?: { id?: number } };
        if (event.source !== window || data?.channel !== 'mcp-default' || data.type !== 'mcp' || data.direction !== 'server-to-client') return;
        if (typeof data.payload === 'object' && typeof data.payload.id === 'number') waiting.get(data.payload.id)?.(data.payload);
      });
      const send = (method: string, params: object) => new Promise((resolve) => {
        const id = ++lastId;
        waiting.set(id, resolve);
        setTimeout(() => resolve({ error: { code: 0, message: 'timeout' } }), timeoutMs);
        post({ jsonrpc: '2.0', id, method, params });
      });
      const ready = send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'capell-webmcp-e2e', version: '1' } })
        .then(() => post({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      store.mcpClient = { send, ready };
    }
    await store.mcpClient.ready;
    return store.mcpClient.send(method, params);
  }, { method, params, timeoutMs }) as Promise<RPCAnswer>;
}
