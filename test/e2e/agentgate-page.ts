/**
 * What the AgentGate e2e specs share: a page whose runtime script tag names AgentGate, and the
 * demo agent's signer given to that page's runtime.
 */
import type { Page } from '@playwright/test';
import { DEMO_AGENT_PRIVATE_JWK } from '../../demo/server/agentgate/demo-keys.js';
import type { Demo, readyReport } from './demo-fixture.ts';

/** The runtime's Report with its rejections' reasons. */
export type Report = Omit<Awaited<ReturnType<typeof readyReport>>, 'rejected'> & { rejected: { name: string; source: string; reasons: string[] }[] };

/** Serves a page at /agentgate-fixture whose runtime script tag carries `attributes`. */
export async function openFixture(page: Page, demo: Demo, attributes: string): Promise<void> {
  await page.route(`${demo.url}/agentgate-fixture`, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>AgentGate fixture</title>
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp ${attributes}></script></head><body><h1>AgentGate</h1></body></html>`,
  }));
  await page.goto(`${demo.url}/agentgate-fixture`);
}

/** Gives the page's runtime the demo agent's signer (via the library build) and waits for the update it starts. */
export function giveDemoSigner(page: Page, demo: Demo): Promise<Report> {
  return page.evaluate(async ({ agentUrl, jwk }) => {
    const library = '/dist/lib/index.js';
    const { loadStoredSigner } = await import(library);
    const { signer } = await loadStoredSigner({ alg: 'ed25519', signatureAgent: agentUrl, privateJwk: jwk, storageKey: 'capell-webmcp:e2e:demo-agent' });
    const changed = new Promise((resolve) => document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent).detail), { once: true }));
    window.capellWebMCP!.setSigner(signer);
    return changed;
  }, { agentUrl: demo.agentUrl, jwk: { ...DEMO_AGENT_PRIVATE_JWK } }) as Promise<Report>;
}
