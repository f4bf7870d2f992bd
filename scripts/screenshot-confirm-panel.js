#!/usr/bin/env node
/**
 * Writes docs/confirm-panel.png: the demo contact page in Chromium with WebMCP on, after an agent
 * called `form.submit.contact`, so the form is filled and the confirmation panel is open.
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
  const page = await browser.newPage({ viewport: { width: 900, height: 1100 }, deviceScaleFactor: 1 });
  await page.goto(`${server.url}/contact`);
  await page.evaluate(() => window.capellWebMCP.ready);
  await page.evaluate(async () => {
    const context = document.modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === 'form.submit.contact');
    void context.executeTool(tool, {
      name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair',
      message: 'The sole of my Ridgeline trail runner came off after two weeks. Can you repair it?', newsletter: true,
    });
  });
  await page.locator('capell-confirm-write').getByRole('dialog').waitFor();
  await page.waitForTimeout(200); // the announcement timer and focus ring settle
  mkdirSync('docs', { recursive: true });
  await page.locator('main').screenshot({ path: OUTPUT });
  console.log(`wrote ${OUTPUT}`);
} finally {
  await browser.close();
  await server.close();
}
