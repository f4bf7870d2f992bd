/**
 * What the AgentGate e2e specs share: a page whose runtime script tag names AgentGate, and the
 * demo agent: capell-webmcp/agent with the demo agent's DEMO keys, attached to the test's browser
 * context, so AgentGate calls are signed in the agent's network layer (the DevTools Fetch domain),
 * never by the page.
 */
import type { Page } from '@playwright/test';
import { DEMO_AGENT_PRIVATE_JWK, DEMO_SHARED_KEY } from '../../demo/server/agentgate/demo-keys.js';
import { createAgent } from '../../src/agent/index.ts';
import type { Demo, readyReport } from './demo-fixture.ts';

/** The runtime's Report with its rejections' reasons. */
export type Report = Omit<Awaited<ReturnType<typeof readyReport>>, 'rejected'> & { rejected: { name: string; source: string; reasons: string[] }[] };

/** The companion an agent creates (capell-webmcp/agent). */
export type Agent = ReturnType<typeof createAgent>;

/** Where an agent's key set is published on its origin (Web Bot Auth). */
export const KEY_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

/** Serves a page at /agentgate-fixture whose runtime script tag carries `attributes`. */
export async function openFixture(page: Page, demo: Demo, attributes: string): Promise<void> {
  await page.route(`${demo.url}/agentgate-fixture`, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>AgentGate fixture</title>
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp ${attributes}></script></head><body><h1>AgentGate</h1></body></html>`,
  }));
  await page.goto(`${demo.url}/agentgate-fixture`);
}

/** The demo agent's options: its DEMO Ed25519 key, its key-set URL, and the shared key the demo site issued to it. */
export function demoAgentOptions(demo: Demo): Parameters<typeof createAgent>[0] {
  return {
    privateJwk: { ...DEMO_AGENT_PRIVATE_JWK },
    signatureAgent: `${demo.agentUrl}${KEY_DIRECTORY_PATH}`,
    sharedKeys: { [demo.url]: { ...DEMO_SHARED_KEY } },
  };
}

/**
 * Runs `use` with the demo agent attached to the page's browser context, and detaches it after
 * (the shared tab outlives the test).
 * @param extra options over the demo agent's, e.g. `{ maxPrice: '0.05 USD' }`
 */
export async function withDemoAgent<T>(page: Page, demo: Demo, use: (agent: Agent) => Promise<T>, extra: Partial<Parameters<typeof createAgent>[0]> = {}): Promise<T> {
  const agent = createAgent({ ...demoAgentOptions(demo), ...extra });
  await agent.attach(page.context());
  try {
    return await use(agent);
  } finally {
    await agent.detach();
  }
}
