/**
 * AgentGate named by a Capell tools island (a site that cannot change its script tag names its
 * manifest there), WebMCP on, against the demo site's real manifest: the island's top-level
 * `agentgate` member counts exactly like the script tag's `data-agentgate` (one manifest fetch
 * however often it is named), can name only the page origin's own manifest, and an island removed
 * takes the manifest's tools with it unless something else still names it. No page holds a signer
 * (the agent signs in its own network layer); the tools register all the same.
 */
import type { Page } from '@playwright/test';
import { expect, listTools, readyReport, sharedTabTest as test, type Demo } from './demo-fixture.ts';

type Report = Omit<Awaited<ReturnType<typeof readyReport>>, 'rejected'> & { rejected: { name: string; source: string; reasons: string[] }[] };

/** The demo manifest's tools, in its order (request_callback hands off, stock_report is priced). */
const DEMO_AGENTGATE_TOOLS = ['send_message', 'message_status', 'request_callback', 'stock_report'];

const LOOKUP = { name: 'page.get', description: 'This page as JSON-LD.', effect: 'read', binding: { type: 'inline', target: 'page' } };

function islandOf(manifest: object): string {
  return `<script type="application/json" data-capell-agent-tools>${JSON.stringify(manifest)}</script>`;
}

/** Serves /island-fixture with these islands and a runtime tag carrying `attributes`, then the demo agent script; records manifest requests. */
async function openFixture(page: Page, demo: Demo, islands: string[], attributes = ''): Promise<string[]> {
  const requested: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== demo.url && !url.href.startsWith(demo.agentUrl)) requested.push(url.href);
    else if (/agentgate-tools|^\/v1\/agent-tools\//.test(url.pathname)) requested.push(`${url.pathname}${url.search}`);
  });
  await page.route(`${demo.url}/island-fixture`, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Island fixture</title>
${islands.join('\n')}
<script type="application/ld+json" data-capell-agent-schema>{"@type":"WebPage","url":"/island-fixture"}</script>
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent" ${attributes}></script>
<script type="module" src="/site/demo-agent.js"></script></head><body></body></html>`,
  }));
  await page.goto(`${demo.url}/island-fixture`);
  return requested;
}

/** Runs `change` in the page and resolves with the Report of the update it causes. */
function afterChange(page: Page, change: () => void): Promise<Report> {
  return page.evaluate((source) => {
    const changed = new Promise((resolve) => document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent).detail), { once: true }));
    // eslint-disable-next-line no-new-func
    new Function(source)();
    return changed;
  }, `(${change.toString()})()`) as Promise<Report>;
}

test('an island\'s "agentgate": true names the well-known manifest as data-agentgate does: its tools register', async ({ page, demo }) => {
  const requested = await openFixture(page, demo, [islandOf({ capellAgentSchema: 1, tools: [LOOKUP], agentgate: true })]);
  const report = await readyReport(page) as Report;
  expect(requested).toEqual(['/.well-known/agentgate-tools.json']);
  expect(report.rejected).toEqual([]);
  expect(report.registered).toEqual(['page.get', ...DEMO_AGENTGATE_TOOLS]);
});

test('an island\'s { "siteKey" } names /v1/agent-tools/{siteKey}', async ({ page, demo }) => {
  const requested = await openFixture(page, demo, [islandOf({ capellAgentSchema: 1, tools: [], agentgate: { siteKey: 'site_demo' } })]);
  const report = await readyReport(page) as Report;
  expect(requested).toEqual(['/v1/agent-tools/site_demo']);
  expect(report.registered).toEqual(DEMO_AGENTGATE_TOOLS);
});

test('the script tag and two islands naming the same manifest: one fetch, one set of tools, no duplicate reported', async ({ page, demo }) => {
  const requested = await openFixture(page, demo, [
    islandOf({ capellAgentSchema: 1, tools: [LOOKUP], agentgate: true }),
    islandOf({ capellAgentSchema: 1, tools: [], agentgate: {} }),
  ], 'data-agentgate');
  const report = await readyReport(page) as Report;
  expect(requested).toEqual(['/.well-known/agentgate-tools.json']);
  expect(report.rejected).toEqual([]);
  expect(report.registered).toEqual(['page.get', ...DEMO_AGENTGATE_TOOLS]);
});

test('an island cannot point anywhere else: a URL, a foreign origin or a path is refused with its reason, nothing is fetched, its Capell tools still register', async ({ page, demo }) => {
  const foreign = `${demo.agentUrl}/.well-known/agentgate-tools.json`;
  const requested = await openFixture(page, demo, [
    islandOf({ capellAgentSchema: 1, tools: [LOOKUP], agentgate: foreign }),
    islandOf({ capellAgentSchema: 1, tools: [], agentgate: { siteKey: 'site_demo', origin: demo.agentUrl } }),
    islandOf({ capellAgentSchema: 1, tools: [], agentgate: { siteKey: '../../agent/submit' } }),
  ]);
  const report = await readyReport(page) as Report;
  expect(requested).toEqual([]);
  expect(report.registered).toEqual(['page.get']);
  expect(report.rejected).toEqual([
    { name: '(manifest)', source: 'agentgate[0]', reasons: [`agentgate: ${JSON.stringify(foreign)} does not name an AgentGate manifest: use true (this origin's /.well-known/agentgate-tools.json) or {"siteKey": "<1 to 128 of A-Za-z0-9_->"} (this origin's /v1/agent-tools/{siteKey}); no other value or member is read`] },
    { name: '(manifest)', source: 'agentgate[1]', reasons: [expect.stringMatching(/^agentgate: \{"siteKey":"site_demo","origin":"http:\/\/127\.0\.0\.1:\d+"\} does not name an AgentGate manifest/)] },
    { name: '(manifest)', source: 'agentgate[2]', reasons: [expect.stringMatching(/^agentgate: \{"siteKey":"\.\.\/\.\.\/agent\/submit"\} does not name/)] },
  ]);
});

test('an island refused as a whole (wrong version) names nothing', async ({ page, demo }) => {
  const requested = await openFixture(page, demo, [islandOf({ capellAgentSchema: 2, tools: [], agentgate: true })]);
  const report = await readyReport(page) as Report;
  expect(requested).toEqual([]);
  expect(report.registered).toEqual([]);
  expect(report.rejected.map((rejection) => rejection.source)).toEqual(['capell-island[0]']);
});

test('removing the island that named AgentGate removes the manifest\'s tools; adding it back restores them without a second fetch', async ({ page, demo }) => {
  const requested = await openFixture(page, demo, [islandOf({ capellAgentSchema: 1, tools: [LOOKUP], agentgate: true })]);
  await readyReport(page);
  const removed = await afterChange(page, () => document.querySelector('script[data-capell-agent-tools]')!.remove());
  expect(removed.registered).toEqual([]);
  expect(removed.rejected).toEqual([]);
  expect((await listTools(page)).map((tool) => tool.name)).toEqual([]);

  const restored = await afterChange(page, () => {
    const island = document.createElement('script');
    island.type = 'application/json';
    island.setAttribute('data-capell-agent-tools', '');
    island.textContent = JSON.stringify({ capellAgentSchema: 1, tools: [], agentgate: true });
    document.head.append(island);
  });
  expect(restored.registered).toEqual(DEMO_AGENTGATE_TOOLS);
  // The runtime's own tools come back with the manifest's: its receipts listing and, with a
  // handoff, its handoff status tool.
  expect((await listTools(page)).map((tool) => tool.name).sort()).toEqual([...DEMO_AGENTGATE_TOOLS, 'agentgate.handoff.status', 'agentgate.receipts'].sort());
  expect(requested).toEqual(['/.well-known/agentgate-tools.json']);
});

test('an island rewritten without the member stops its manifest; the script tag naming it keeps the tools', async ({ page, demo }) => {
  await openFixture(page, demo, [islandOf({ capellAgentSchema: 1, tools: [LOOKUP], agentgate: true })]);
  await readyReport(page);
  const rewritten = await afterChange(page, () => {
    document.querySelector('script[data-capell-agent-tools]')!.textContent = JSON.stringify({
      capellAgentSchema: 1, tools: [{ name: 'page.get', description: 'This page as JSON-LD.', effect: 'read', binding: { type: 'inline', target: 'page' } }],
    });
  });
  expect(rewritten.registered).toEqual(['page.get']);

  await page.unrouteAll();
  await openFixture(page, demo, [islandOf({ capellAgentSchema: 1, tools: [LOOKUP], agentgate: true })], 'data-agentgate');
  await readyReport(page);
  const kept = await afterChange(page, () => document.querySelector('script[data-capell-agent-tools]')!.remove());
  expect(kept.registered).toEqual(DEMO_AGENTGATE_TOOLS);
});
