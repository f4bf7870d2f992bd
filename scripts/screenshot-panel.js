/**
 * What the panel screenshots share (screenshot-confirm-panel.js, screenshot-admin-panel.js): the
 * demo server on a free port, Chromium with WebMCP on, a page of `viewport` size opened by
 * `open`, one write tool called through `document.modelContext` with `input`, and the viewport
 * (the panel sits in the top layer, fixed to it) written to `output` once the panel's input
 * protection (500 ms) and its announcement have settled.
 * @param {{ output: string, viewport: { width: number, height: number }, tool: string, input: object,
 *   open: (page: import('playwright').Page, origin: string) => Promise<void> }} shot
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { chromium } from 'playwright';
import { startDemoServer } from '../demo/server/start.js';
import { launchOptions } from '../test/support/chromium.js';

export async function screenshotPanel({ output, viewport, tool, input, open }) {
  const server = await startDemoServer({ host: '127.0.0.1', port: 0 });
  const browser = await chromium.launch(launchOptions({ webmcp: true }));
  try {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    await open(page, server.url.replace(/\/$/, ''));
    await page.evaluate(() => window.capellWebMCP.ready);
    await page.evaluate(async ({ name, args }) => {
      const context = document.modelContext;
      const found = (await context.getTools()).find((candidate) => candidate.name === name);
      void context.executeTool(found, args);
    }, { name: tool, args: input });
    // The panel's shadow root is closed (selectors cannot see into it): wait for its host.
    await page.locator('capell-confirm-write').waitFor({ state: 'attached' });
    await page.waitForTimeout(900);
    mkdirSync(dirname(output), { recursive: true });
    await page.screenshot({ path: output });
    console.log(`wrote ${output}`);
  } finally {
    await browser.close();
    await server.close();
  }
}
