/**
 * Puppeteer 25 driving Chromium with the agent companion (`capell-webmcp/agent`, the built
 * dist/agent/index.js): run with this folder's Node 22 by test/e2e/puppeteer-client.on.spec.ts.
 *
 *   node agent-client.js <page URL> <key-set URL> <Chromium path> <Chromium flag>...
 *
 * Launches Chromium, attaches the companion to the page (`agent.attach(page)`: a CDP session of
 * the page's own), opens the page, calls `send_message` through `agent.callTool` and prints one
 * JSON line: the tool's result and the agent's receipts (the spec holds the assertions). Exits 1
 * with the error on stderr when a step could not run.
 *
 * With `AGENT_SCENARIO=new-tab`, it then opens three tabs from the page (`window.open` of the
 * page's origin + `/first-request?<n>`, a page whose first act is a call with page-set signature
 * and payment headers; the spec serves it), waits until each tab's call has settled
 * (`window.done`), attaches the agent to the first tab and calls `send_message` there: the line
 * adds `popupResult`.
 */
import puppeteer from 'puppeteer-core';
import { createAgent } from '../../../dist/agent/index.js';
import { DEMO_AGENT_PRIVATE_JWK } from '../../../demo/server/agentgate/demo-keys.js';

/** Ends the client when a step hangs, before the spec's own timeout (ms). */
const CLIENT_DEADLINE_MS = 60_000;

const [url, keysUrl, executablePath, ...args] = process.argv.slice(2);
if (!url || !keysUrl || !executablePath) {
  console.error('usage: node agent-client.js <page URL> <key-set URL> <Chromium path> <Chromium flag>...');
  process.exit(2);
}

const deadline = setTimeout(() => {
  console.error(`puppeteer agent client: still running after ${CLIENT_DEADLINE_MS} ms`);
  process.exit(1);
}, CLIENT_DEADLINE_MS);

const browser = await puppeteer.launch({ executablePath, headless: true, args });
const agent = createAgent({ privateJwk: { ...DEMO_AGENT_PRIVATE_JWK }, signatureAgent: keysUrl });
try {
  const page = await browser.newPage();
  await agent.attach(page);
  await page.goto(url, { waitUntil: 'load' });
  await page.evaluate(() => window.capellWebMCP?.ready);
  const id = `puppeteer-agent-${Date.now()}`;
  const result = await agent.callTool(page, 'send_message', { id, message: 'hello from Puppeteer' });
  let popupResult;
  if (process.env.AGENT_SCENARIO === 'new-tab') {
    const popups = [];
    for (const index of [0, 1, 2]) {
      const opened = new Promise((resolve) => page.once('popup', resolve));
      await page.evaluate((search) => { window.open(`/first-request?${search}`); }, `${Date.now()}-${index}`);
      popups.push(await opened);
    }
    for (const popup of popups) await popup.waitForFunction(() => window.done === true);
    const [first] = popups;
    await agent.attach(first);
    await first.goto(url, { waitUntil: 'load' });
    await first.evaluate(() => window.capellWebMCP?.ready);
    popupResult = await agent.callTool(first, 'send_message', { id: `puppeteer-popup-${Date.now()}`, message: 'from the new tab' });
  }
  console.log(JSON.stringify({ id, result, receipts: agent.receipts(), popupResult }));
} finally {
  clearTimeout(deadline);
  await agent.detach();
  await browser.close();
}
