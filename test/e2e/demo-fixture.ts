/**
 * The real demo server (demo/server/start.js, serving the built dist/) started once per worker on
 * a free port, and helpers that talk to the real WebMCP API in the page.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { startDemoServer } from '../../demo/server/start.js';

/** What the demo fixture provides. */
export interface Demo {
  url: string;
  /** The demo agent's origin (its key directory), named in Signature-Agent. */
  agentUrl: string;
  /** Every signed AgentGate call the demo site received, verified or refused, with its reason. */
  agentGateLog: { path: string; tool: string | undefined; outcome: 'verified' | 'refused'; status: number; reason?: string; keyid?: string; agent?: string }[];
  /** API requests the server received (method, path, query, headers). */
  requests: { method: string; path: string; query: string; headers: Record<string, string | undefined> }[];
  /** Contact messages the server delivered. */
  submissions: { lang: string; name: string; email: string; topic: string; message: string; newsletter: boolean }[];
  /** Every POST that reached a contact form action, accepted or not. */
  formPosts: { path: string; accept: string | undefined }[];
  /** Addresses the newsletter write endpoint accepted. */
  subscriptions: string[];
  /** Sign-ups `POST /signups` recorded (newsletter and back-in-stock forms). */
  signups: { list: string; email: string; sku: string | null }[];
  /** State-changing requests the Origin check refused with 403 (they reach no handler). */
  refused: { method: string; path: string; origin: string | undefined; reason: string }[];
  /** GETs an API URL from Node (not through the browser) and parses the JSON. */
  api(path: string): Promise<unknown>;
}

export const test = base.extend<object, { demo: Demo }>({
  demo: [async ({}, use) => {
    const server = await startDemoServer({ host: '127.0.0.1', port: 0 });
    const demo: Demo = {
      url: server.url.replace(/\/$/, ''),
      agentUrl: server.agentUrl,
      get agentGateLog() { return server.app.agentGate.log; },
      get requests() { return server.app.requests; },
      get submissions() { return server.app.submissions; },
      get formPosts() { return server.app.formPosts; },
      get subscriptions() { return server.app.subscriptions; },
      get refused() { return server.app.refused; },
      get signups() { return server.app.signups; },
      async api(path) {
        const response = await fetch(`${server.url.replace(/\/$/, '')}${path}`, { headers: { Accept: 'application/json' } });
        return response.json();
      },
    };
    await use(demo);
    await server.close();
  }, { scope: 'worker' }],
});

export { expect };

/** Waits for the runtime's Report (window.capellWebMCP.ready). */
export function readyReport(page: Page): Promise<{ api: string; apiReason?: string; registered: string[]; rejected: unknown[]; audit: unknown[] }> {
  return page.evaluate(() => window.capellWebMCP!.ready) as never;
}

/** Lists registered tools with `document.modelContext.getTools()`. */
export function listTools(page: Page): Promise<{ name: string; description: string; inputSchema: unknown }[]> {
  return page.evaluate(async () => {
    const tools = await (document as unknown as { modelContext: { getTools(): Promise<{ name: string; description: string; inputSchema: unknown }[]> } }).modelContext.getTools();
    return tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  });
}

/** Runs a tool with `document.modelContext.executeTool(tool, inputObject)` and parses the result. */
export function executeTool(page: Page, name: string, input: object): Promise<{ content: { type: string; text: string }[]; isError?: boolean }> {
  return page.evaluate(async ({ name, input }) => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`${name} is not registered`);
    return JSON.parse(await context.executeTool(tool, input));
  }, { name, input });
}
