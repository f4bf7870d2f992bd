#!/usr/bin/env node
/**
 * Writes the screenshots in docs/ of what a site's operator and a curious person see, in Chromium
 * with WebMCP on:
 * - docs/inspector.png: a demo product page opened with `?capell-webmcp=inspect` after an agent
 *   called two tools (one answered, one refused its input): the inspector lists the registered
 *   tools, the rejected ones, the audit and the two calls;
 * - docs/agents-page.png: the demo's `/agents` page after a person pressed "Run catalogue.lookup".
 * Run after `npm run build`: `node scripts/screenshot-inspector.js`.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright';
import { startDemoServer } from '../demo/server/start.js';
import { launchOptions } from '../test/support/chromium.js';

const INSPECTOR_OUTPUT = 'docs/inspector.png';
const AGENTS_OUTPUT = 'docs/agents-page.png';

const server = await startDemoServer({ host: '127.0.0.1', port: 0 });
const browser = await chromium.launch(launchOptions({ webmcp: true }));
try {
  mkdirSync('docs', { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 }, deviceScaleFactor: 1 });
  await page.goto(`${server.url}/products/ridgeline-trail-runner?capell-webmcp=inspect`);
  await page.evaluate(() => window.capellWebMCP.ready);
  await page.locator('capell-inspector .tool').first().waitFor();
  await page.evaluate(async () => {
    const context = document.modelContext;
    const tools = await context.getTools();
    const tool = (name) => tools.find((candidate) => candidate.name === name);
    await context.executeTool(tool('catalogue.lookup'), { sku: 'CW-1001' });
    await context.executeTool(tool('site.search'), { q: '' });
  });
  await page.locator('capell-inspector .call').nth(1).waitFor();
  await page.waitForTimeout(200);
  // The whole inspector: tools one line each, the rejections, the audit and both calls.
  await page.setViewportSize({ width: 1200, height: await page.locator('capell-inspector section.panel').evaluate((panel) => panel.scrollHeight + 8) });
  await page.screenshot({ path: INSPECTOR_OUTPUT });
  console.log(`wrote ${INSPECTOR_OUTPUT}`);

  await page.goto(`${server.url}/agents`);
  await page.evaluate(() => window.capellWebMCP.ready);
  await page.getByRole('button', { name: 'Run catalogue.lookup' }).click();
  await page.locator('.agent-tool[data-tool="catalogue.lookup"] .try-answer[data-outcome="ok"]').waitFor();
  await page.locator('.agent-tool[data-tool="catalogue.lookup"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: AGENTS_OUTPUT, fullPage: true });
  console.log(`wrote ${AGENTS_OUTPUT}`);
} finally {
  await browser.close();
  await server.close();
}
