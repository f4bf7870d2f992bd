/**
 * AgentGate with WebMCP off: a page that names AgentGate fetches nothing (no manifest, no rules),
 * and `ready` still resolves with `api: 'none'`.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

test('WebMCP off: a page naming AgentGate fetches no manifest and loads no AgentGate chunk', async ({ page, demo }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.route(`${demo.url}/agentgate-fixture`, (route) => route.fulfill({
    contentType: 'text/html',
    body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>AgentGate fixture</title><script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-agentgate></script></head><body></body></html>',
  }));
  await page.goto(`${demo.url}/agentgate-fixture`);
  const report = await readyReport(page);
  expect(report).toEqual({ api: 'none', registered: [], rejected: [], audit: [] });
  expect(requested.filter((path) => /agentgate-tools|\/v1\/agent-tools\/|\/chunks\/agentgate/.test(path))).toEqual([]);
  expect(requested.filter((path) => path.startsWith('/dist/'))).toEqual(['/dist/capell-webmcp.js']);
});
