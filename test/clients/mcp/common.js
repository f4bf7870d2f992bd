/**
 * What the two MCP client scripts of this folder (playwright-mcp.js, chrome-devtools-mcp.js)
 * share: starting an MCP server over stdio with `@modelcontextprotocol/sdk`, timing its calls,
 * the agent's own browser (Chromium with a DevTools endpoint that the MCP server connects to),
 * the agent companion `capell-webmcp/agent` attached to that browser in `'origins'` mode, and a
 * person who presses Send on the write proposal. Observations only; the specs assert.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import puppeteer from 'puppeteer-core';
import { createAgent } from '../../../dist/agent/index.js';
import { DEMO_AGENT_PRIVATE_JWK, DEMO_SHARED_KEY } from '../../../demo/server/agentgate/demo-keys.js';

/** Ends a client when a step hangs, before the spec's own timeout (ms). */
export const CLIENT_DEADLINE_MS = 60_000;

/** How long the MCP client waits for one tool call (ms): more than a write's wait (10 s) and what the server adds. */
const CALL_TIMEOUT_MS = 30_000;

/**
 * Reads the command line shared by both scripts:
 * `node <script> <scenario> <page URL> <key-set URL> <Chromium path> <Chromium flag>...`.
 * Exits 2 with the usage line when a part is missing.
 * @param {string} script the script's file name, for the usage line
 * @param {string[]} scenarios the scenarios the script knows
 */
export function readArguments(script, scenarios) {
  const [scenario, url, keysUrl, executablePath, ...flags] = process.argv.slice(2);
  if (!scenarios.includes(scenario) || !url || !keysUrl || !executablePath) {
    console.error(`usage: node ${script} <${scenarios.join('|')}> <page URL> <key-set URL> <Chromium path> <Chromium flag>...`);
    process.exit(2);
  }
  return { scenario, url, keysUrl, executablePath, flags };
}

/**
 * Exits 1 with `what` on stderr when the client is still running after CLIENT_DEADLINE_MS;
 * returns the function that cancels it.
 * @param {string} what the client's name
 */
export function deadline(what) {
  const timer = setTimeout(() => {
    console.error(`${what}: still running after ${CLIENT_DEADLINE_MS} ms`);
    process.exit(1);
  }, CLIENT_DEADLINE_MS);
  return () => clearTimeout(timer);
}

/** A folder of its own under the system's temporary folder, and the function that removes it. */
export function scratchFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'capell-mcp-'));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * Starts an MCP server as a child process of this Node (stdio transport) and connects an MCP
 * client to it. The server's stderr goes to ours, so a failing spec shows it.
 * @param {string} serverScript absolute path of the server's JavaScript entry
 * @param {string[]} args its command line
 * @param {{ cwd: string, env?: Record<string, string> }} options its folder and extra environment
 * @returns {Promise<{ client: Client, call: (name: string, args: object) => Promise<{ ms: number, result: object }>, close: () => Promise<void> }>}
 */
export async function startServer(serverScript, args, { cwd, env = {} }) {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [serverScript, ...args], cwd, stderr: 'inherit',
    env: { ...process.env, ...env },
  });
  const client = new Client({ name: 'capell-webmcp-e2e', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    /** Calls an MCP tool and measures its wall time, from the request to the answer, in ms. */
    async call(name, callArgs) {
      const started = performance.now();
      const result = await client.callTool({ name, arguments: callArgs }, undefined, { timeout: CALL_TIMEOUT_MS });
      return { ms: Math.round(performance.now() - started), result };
    },
    close: () => client.close(),
  };
}

/** The text of an MCP tool result: its text items, joined by newlines. */
export function textOf(result) {
  return (result?.content ?? []).filter((item) => item.type === 'text').map((item) => item.text).join('\n');
}

/**
 * The agent's own browser: Chromium launched by this script with a DevTools endpoint, which the
 * MCP server connects to instead of launching one, so that the agent's companion can attach too.
 * @param {string} executablePath
 * @param {string[]} flags Chromium's command-line flags
 * @returns {Promise<import('puppeteer-core').Browser>}
 */
export function launchAgentBrowser(executablePath, flags) {
  return puppeteer.launch({ executablePath, headless: true, args: flags });
}

/**
 * Attaches the agent companion (`capell-webmcp/agent`, mode `'origins'` for the site's origin)
 * to every page of `browser`, now and later, each through a DevTools session of its own: the MCP
 * server drives the pages, the companion only signs the AgentGate requests they send.
 * @param {import('puppeteer-core').Browser} browser
 * @param {{ origin: string, keysUrl: string }} site the site's origin and the demo agent's key-set URL
 * @returns {{ agent: ReturnType<typeof createAgent>, events: object[], attached: () => Promise<void>, detach: () => Promise<void> }}
 *   `attached()` resolves once every page seen so far has the companion's `Fetch` enabled.
 */
export function attachCompanion(browser, { origin, keysUrl }) {
  const events = [];
  const agent = createAgent({
    privateJwk: { ...DEMO_AGENT_PRIVATE_JWK },
    signatureAgent: keysUrl,
    sharedKeys: { [origin]: { ...DEMO_SHARED_KEY } },
    mode: 'origins',
    origins: [origin],
  }, { onEvent: (event) => events.push(event) });
  const attaching = [];
  const onTarget = (target) => {
    if (target.type() !== 'page') return;
    attaching.push(target.createCDPSession().then((session) => agent.attach(session)));
  };
  browser.on('targetcreated', onTarget);
  for (const target of browser.targets()) onTarget(target);
  return {
    agent,
    events,
    attached: async () => {
      await Promise.all(attaching);
    },
    detach: async () => {
      browser.off('targetcreated', onTarget);
      await agent.detach();
    },
  };
}

/**
 * The companion's receipts, once it has checked at least `count` (it verifies each receipt in Node
 * after the answer reached the page, against the site's key set, which it may still be fetching
 * when the MCP call answers): what it holds after `ms` at most.
 * @param {ReturnType<typeof createAgent>} agent
 */
export async function checkedReceipts(agent, count = 1, ms = 5_000) {
  await until(() => agent.receipts().length >= count, `the companion's ${count} receipt check(s)`, ms).catch(() => undefined);
  return agent.receipts().map(({ tool, verified, reason, status, nonce }) => ({ tool, verified, reason: reason ?? null, status, nonce }));
}

/** Waits until `check()` is truthy, polling every 50 ms; throws naming `what` after `ms`. */
export async function until(check, what, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reads the confirmation panel (`this`: its closed shadow root): its buttons, refusal line and outcome line, or null without one. */
const READ_PANEL = `function () {
  const section = this.querySelector('section');
  if (!section) return null;
  const text = (element) => (element ? element.textContent.replace(/\\s+/g, ' ').trim() : '');
  return {
    refusal: text(this.querySelector('.refusal')),
    outcome: text(this.querySelector('.outcome')),
    buttons: [...section.querySelectorAll('button')].map((button) => {
      const box = button.getBoundingClientRect();
      return { label: button.getAttribute('aria-label') || text(button), disabled: button.getAttribute('aria-disabled') === 'true', x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }),
  };
}`;

/** The `<capell-confirm-write>` element in a DevTools DOM tree (closed shadow roots pierced). */
function findPanel(node) {
  if (node.nodeName === 'CAPELL-CONFIRM-WRITE') return node;
  for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) {
    const found = findPanel(child);
    if (found) return found;
  }
  return undefined;
}

/** How many times the person clicks before giving up: a click the panel refuses is clicked again, as a person would. */
const PERSON_CLICKS = 4;

/**
 * The person at the agent's browser presses the proposal panel's button `label` with the mouse,
 * as a person does: waits for the panel on the page whose address starts with `url`, reads its
 * closed shadow root through DevTools (nothing in the page is changed), waits until the button is
 * out of its input protection, and clicks its middle. A click the panel refuses (its layout
 * settled again just then, on a loaded machine: "too soon") is clicked again once the button is
 * out of its protection again, up to PERSON_CLICKS times.
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} url
 * @param {string} label the button's accessible name, e.g. 'Send'
 * @returns {Promise<{ clicks: number, refusals: string[], outcome: string | null }>} what it refused before the last click, and the outcome
 *   line the panel showed after it (e.g. "Sent."; '' when the panel closed; null when it showed none within 5 s)
 */
export async function personPresses(browser, url, label) {
  const page = await until(async () => (await browser.pages()).find((candidate) => candidate.url().startsWith(url)), `a page at ${url}`);
  const session = await page.createCDPSession();
  try {
    const panel = async () => {
      const { root } = await session.send('DOM.getDocument', { depth: -1, pierce: true });
      const shadow = findPanel(root)?.shadowRoots?.[0];
      if (!shadow) return null;
      const { object } = await session.send('DOM.resolveNode', { backendNodeId: shadow.backendNodeId });
      const { result } = await session.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: READ_PANEL, returnByValue: true });
      return result.value;
    };
    const refusals = [];
    for (let clicks = 1; ; clicks += 1) {
      const button = await until(async () => (await panel())?.buttons.find((candidate) => candidate.label === label && !candidate.disabled), `the panel's ${label} button, out of its input protection`);
      await page.mouse.click(button.x, button.y);
      const after = await until(async () => {
        const state = await panel();
        if (!state) return { outcome: '' };
        if (state.outcome) return { outcome: state.outcome };
        return state.refusal ? { outcome: null, refusal: state.refusal } : undefined;
      }, `the panel to answer the click on ${label}`, 5_000).catch(() => ({ outcome: null }));
      if (!after.refusal || clicks === PERSON_CLICKS) return { clicks, refusals, outcome: after.outcome };
      refusals.push(after.refusal);
    }
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/**
 * What both MCP clients' `agent` scenarios do once the agent's browser is on the page: a write,
 * its status while the person has not acted, the person's Send, the status after it, and one
 * AgentGate call, then the receipts the companion checked and the requests it signed.
 * @param call runs one page tool through the client (`name` as the page declares it) and
 *   resolves what the script observed of it, with the page's CallToolResult text at `textOf(seen)`.
 * @param textOf the page answer's text in what `call` resolved, or undefined.
 * @param label the client's name, in the write's email and the AgentGate message.
 */
export async function agentRun({ call, textOf: answerText, browser, url, companion, navigate, label, slug }) {
  const email = `${slug}@example.test`;
  const write = await call('newsletter.subscribe', { email });
  const writeId = JSON.parse(answerText(write) ?? '{}').writeId;
  const statusWhileAwaiting = writeId ? await call('capell.write.status', { writeId }) : null;
  const person = await personPresses(browser, url, 'Send');
  // At most the page's own write wait (the tests open it with ?write-wait-ms=2000): the status tool's bound.
  const statusAfterSend = writeId ? await call('capell.write.status', { writeId, waitMs: 2_000 }) : null;
  const id = `${slug}-${Date.now()}`;
  const agentGate = await call('send_message', { id, message: `hello from ${label}` });
  return {
    navigate: { ms: navigate.ms, isError: navigate.result.isError === true },
    write: { ...write, email },
    writeId: writeId ?? null,
    statusWhileAwaiting,
    person,
    statusAfterSend,
    agentGate: { ...agentGate, id },
    receipts: await checkedReceipts(companion.agent),
    signed: companion.events.filter((event) => event.type === 'signed').map(({ url: signedUrl, tool }) => ({ url: signedUrl, tool })),
  };
}
