#!/usr/bin/env node
/**
 * Writes docs/confirm-panel.png: the demo contact page in Chromium with WebMCP on, after an agent
 * called `form.submit.capell-form-contact`, so the form is filled and the confirmation panel is open
 * beside it (a 1280×800 window: room beside the form; placement.ts).
 * Run after `npm run build`: `node scripts/screenshot-confirm-panel.js`.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright';
import { startDemoServer } from '../demo/server/start.js';
import { launchOptions } from '../test/support/chromium.js';

const OUTPUT = 'docs/confirm-panel.png';

const server = await startDemoServer({ host: '127.0.0.1', port: 0 });
const browser = await chromium.launch(launchOptions({ webmcp: true }));
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  await page.goto(`${server.url}/contact`);
  await page.evaluate(() => window.capellWebMCP.ready);
  await page.evaluate(async () => {
    const context = document.modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === 'form.submit.capell-form-contact');
    void context.executeTool(tool, {
      name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair',
      message: 'The sole of my Ridgeline trail runner came off after two weeks. Can you repair it?', newsletter: true,
    });
  });
  // The panel's shadow root is closed (selectors cannot see into it): wait for its host, then
  // for the input protection (500 ms) and the announcement to settle.
  await page.locator('capell-confirm-write').waitFor({ state: 'attached' });
  await page.waitForTimeout(900);
  mkdirSync('docs', { recursive: true });
  // The viewport, not <main>: the panel sits in the top layer, fixed to the viewport.
  await page.screenshot({ path: OUTPUT });
  console.log(`wrote ${OUTPUT}`);
} finally {
  await browser.close();
  await server.close();
}
