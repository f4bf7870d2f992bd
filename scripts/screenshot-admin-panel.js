#!/usr/bin/env node
/**
 * Writes docs/admin-confirm-panel.png: the demo admin's dashboard in Chromium with WebMCP on, an
 * editor (ada) signed in through the sign-in form, after an agent called Capell's
 * `admin.page.terms.write`, so the panel shows Capell's preview. Run after `npm run build`:
 * `node scripts/screenshot-admin-panel.js`.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright';
import { startDemoServer } from '../demo/server/start.js';
import { launchOptions } from '../test/support/chromium.js';

const OUTPUT = 'docs/admin-confirm-panel.png';

const server = await startDemoServer({ host: '127.0.0.1', port: 0 });
const browser = await chromium.launch(launchOptions({ webmcp: true }));
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 1000 }, deviceScaleFactor: 1 });
  const base = server.url.replace(/\/$/, '');
  await page.goto(`${base}/admin/sign-in`);
  await page.selectOption('#actor', 'ada');
  await page.fill('#password', 'demo-ada');
  await Promise.all([page.waitForURL(`${base}/admin/`), page.click('button[type="submit"]')]);
  await page.evaluate(() => window.capellWebMCP.ready);
  await page.evaluate(async () => {
    const context = document.modelContext;
    const tool = (await context.getTools()).find((candidate) => candidate.name === 'admin.page.terms.write');
    void context.executeTool(tool, { page_id: 810702, term_ids: [810404] });
  });
  // The panel's shadow root is closed: wait for its host, then for the input protection (500 ms).
  await page.locator('capell-confirm-write').waitFor({ state: 'attached' });
  await page.waitForTimeout(900);
  mkdirSync('docs', { recursive: true });
  await page.screenshot({ path: OUTPUT });
  console.log(`wrote ${OUTPUT}`);
} finally {
  await browser.close();
  await server.close();
}
