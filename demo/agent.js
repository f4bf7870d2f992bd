#!/usr/bin/env node
/**
 * The demo agent: a Node program that drives Chromium with Playwright and signs the page's
 * AgentGate calls with the agent companion (`capell-webmcp/agent`, built to dist/agent), from
 * Node, with the demo agent's key (DEMO KEYS, demo/server/agentgate/demo-keys.js).
 *
 *   npm run agent -- <page URL> [--agent-keys <key-set URL>]
 *
 * e.g. `npm start` in one terminal, then `npm run agent -- http://127.0.0.1:5173/contact`. Without
 * `--agent-keys` it starts the demo agent's own origin on a free loopback port, which publishes
 * the demo agent's public key (the site's verifier fetches it from there). It calls the page's
 * AgentGate tools (send_message with a fresh id, message_status, a paid stock_report within its
 * cap, one above its cap) and prints each call, its answer and its receipt on one line each.
 * Exits 0 when every call answered as expected, 1 otherwise (2 on a usage error).
 */
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { DEMO_AGENT_PRIVATE_JWK, DEMO_SHARED_KEY } from './server/agentgate/demo-keys.js';
import { startDemoAgent } from './server/agentgate/demo-agent.js';
import { chromiumPath, QUIET_FLAGS } from '../test/support/chromium.js';

/** The demo agent's cap per call and its budget: small, so the over-cap call shows the refusal. */
const MAX_PRICE = '0.05 USD';
const BUDGET = '0.10 USD';

const AGENT_MODULE = fileURLToPath(new URL('../dist/agent/index.js', import.meta.url));

const args = process.argv.slice(2);
const keysAt = args.indexOf('--agent-keys');
const agentKeys = keysAt >= 0 ? args[keysAt + 1] : undefined;
const pageUrl = args.find((arg, index) => !arg.startsWith('--') && (keysAt < 0 || index !== keysAt + 1));
if (!pageUrl || (keysAt >= 0 && !agentKeys)) {
  console.error('usage: npm run agent -- <page URL> [--agent-keys <key-set URL>]');
  process.exit(2);
}
if (!existsSync(AGENT_MODULE)) {
  console.error(`demo agent: ${AGENT_MODULE} is missing: run \`npm run build\` first`);
  process.exit(1);
}
const { createAgent } = await import(AGENT_MODULE);

/** One line: the call, its answer, and its receipt. */
function report(name, input, result, receipt) {
  const answer = result.content?.[0]?.text ?? '';
  const mark = result.isError ? 'isError' : 'ok';
  const seal = receipt === undefined ? 'no receipt'
    : receipt.verified ? `receipt verified (${receipt.id}, key ${receipt.kid})` : `receipt NOT verified: ${receipt.reason}`;
  console.log(`${name} ${JSON.stringify(input)} → ${mark} ${answer} · ${seal}`);
}

const ownAgent = agentKeys === undefined ? await startDemoAgent({ port: 0 }) : undefined;
const signatureAgent = agentKeys ?? ownAgent.keysUrl;
const origin = new URL(pageUrl).origin;
const browser = await chromium.launch({
  executablePath: chromiumPath(), headless: true,
  args: ['--no-sandbox', ...QUIET_FLAGS, '--enable-features=WebMCPTesting,WebMCP'],
});
const agent = createAgent({
  privateJwk: { ...DEMO_AGENT_PRIVATE_JWK }, signatureAgent, sharedKeys: { [origin]: { ...DEMO_SHARED_KEY } }, maxPrice: MAX_PRICE, budget: BUDGET,
});
let failures = 0;
try {
  const context = await browser.newContext();
  await agent.attach(context);
  const page = await context.newPage();
  await page.goto(pageUrl);
  console.log(`demo agent: ${pageUrl} (Signature-Agent ${signatureAgent}; cap ${MAX_PRICE} a call, budget ${BUDGET})`);
  const id = `demo-agent-${randomBytes(6).toString('hex')}`;
  const calls = [
    ['send_message', { id, message: 'Hello from the demo agent' }, (result) => !result.isError],
    ['message_status', { id }, (result) => !result.isError],
    ['stock_report', { category: 'boots' }, (result) => !result.isError],
    ['stock_report', { category: 'archive' }, (result) => result.isError === true && /^not paid: /.test(result.content[0]?.text ?? '')],
  ];
  for (const [name, input, expected] of calls) {
    const before = agent.receipts().length;
    const result = await agent.callTool(page, name, input);
    report(name, input, result, agent.receipts().slice(before).at(-1));
    if (!expected(result)) failures += 1;
  }
} catch (error) {
  console.error(`demo agent: ${error instanceof Error ? error.message : String(error)}`);
  failures += 1;
} finally {
  await agent.detach();
  await browser.close();
  await ownAgent?.close();
}
process.exit(failures === 0 ? 0 : 1);
