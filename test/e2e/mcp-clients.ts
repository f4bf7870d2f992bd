/**
 * What the MCP client specs share (mcp-playwright.on.spec.ts, mcp-chrome-devtools.on.spec.ts,
 * mcp-read-timing.on.spec.ts): Playwright MCP and chrome-devtools-mcp run as MCP servers over
 * stdio, driven with `@modelcontextprotocol/sdk` by the scripts in test/clients/mcp. The clients'
 * folder test/clients has its own lockfile and Node 22 (the npm package `node`; puppeteer-core 25
 * there needs Node >= 22.12 and the project runs Node 20); npm test installs it
 * (scripts/client-folders.js) with `npm ci --prefix test/clients`. A spec spawns that Node on a script with the demo's URLs and
 * the system Chromium's flags, and asserts on the JSON line the script prints.
 */
import { existsSync } from 'node:fs';
import { clientFolder, runClientScript } from './client-script.ts';
import type { Demo } from './demo-fixture.ts';

const CLIENT = clientFolder('mcp');
const PACKAGES = ['@modelcontextprotocol/sdk', '@playwright/mcp', 'playwright-mcp-newest', 'chrome-devtools-mcp', 'puppeteer-core'];

/** Why the folder cannot run, or undefined when it is installed. */
export function notInstalled(): string | undefined {
  const missing = [CLIENT.node, ...PACKAGES.map((name) => `${CLIENT.modules}${name}/package.json`)].filter((path) => !existsSync(path));
  return missing.length ? `test/clients is not installed (${missing.join(', ')} missing): run \`npm ci --prefix test/clients\` (npm test does it itself)` : undefined;
}

/** A page tool's MCP CallToolResult, as the page answered it. */
export type CallResult = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: unknown };

/** What the demo site recorded while a client ran. */
export interface SiteLog {
  agentGate: Demo['agentGateLog'];
  subscriptions: string[];
}

/**
 * Runs `script` of test/clients/mcp with `scenario` against the demo's /contact page (with a
 * write wait of WRITE_WAIT_MS), through runClientScript (client-script.ts).
 * @param env variables added to the script's environment (`PLAYWRIGHT_MCP: 'newest'`: playwright-mcp.js).
 * @returns its last stdout line, parsed, and what the demo site recorded meanwhile.
 * @throws (rejects) with the script's stderr when it exits non-zero.
 */
export async function runMcpClient<T>(script: 'playwright-mcp.js' | 'chrome-devtools-mcp.js', scenario: string, demo: Demo, env: Record<string, string> = {}): Promise<{ run: T; site: SiteLog }> {
  const before = { agentGate: demo.agentGateLog.length, subscriptions: demo.subscriptions.length };
  const run = await runClientScript<T>(CLIENT, script, [scenario, `${demo.url}/contact?write-wait-ms=${WRITE_WAIT_MS}`, demo.agentKeysUrl], `the MCP client ${script} ${scenario}`, env);
  return { run, site: { agentGate: demo.agentGateLog.slice(before.agentGate), subscriptions: demo.subscriptions.slice(before.subscriptions) } };
}

/**
 * One run per scenario for the tests of a file, started by the first test that needs it (the
 * tests of the file share a worker and its demo server).
 */
export function sharedRuns<T extends Record<string, unknown>>(script: 'playwright-mcp.js' | 'chrome-devtools-mcp.js'): <K extends keyof T & string>(scenario: K, demo: Demo) => Promise<{ run: T[K]; site: SiteLog }> {
  const runs = new Map<string, Promise<{ run: unknown; site: SiteLog }>>();
  return (scenario, demo) => {
    let run = runs.get(scenario);
    if (!run) runs.set(scenario, run = runMcpClient(script, scenario, demo));
    return run as never;
  };
}

/** The MCP tool name Playwright MCP gives a page tool: `webmcp_` and the name with `.` as `_`. */
export function webmcpName(name: string): string {
  return `webmcp_${name.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
}

/** The runtime's answer inside a page tool's result: its only text item, parsed. */
export function answerOf(result: CallResult | null | undefined): Record<string, unknown> {
  return JSON.parse(result?.content?.[0]?.text ?? 'null') as Record<string, unknown>;
}

/**
 * The write wait of the page the clients open (`?write-wait-ms=`, demo/server/html/render-document.js):
 * a write call answers within it, in ms. Shorter than the runtime's default 10 s, which each
 * client's write would otherwise wait out before the person acts.
 */
export const WRITE_WAIT_MS = 2_000;

/**
 * What an MCP server may add to a call's wall time beyond the page's own answer, in ms (Playwright
 * MCP waits 500 ms after a call, and again after the requests it saw have finished).
 */
export const SERVER_OVERHEAD_MS = 3_000;

/** What a client script's `agent` scenario observed (test/clients/mcp/common.js, agentRun), `S` being one call as that client saw it. */
export interface AgentRun<S> {
  write: S & { email: string };
  writeId: string | null;
  statusWhileAwaiting: S | null;
  /** The person's clicks on Send: how many, what the panel refused before the last, the outcome line it showed after. */
  person: { clicks: number; refusals: string[]; outcome: string | null };
  statusAfterSend: S | null;
  agentGate: S & { id: string };
  receipts: { tool: string; verified: boolean; reason: string | null; status: number; nonce: string }[];
  signed: { url: string; tool: string }[];
}
