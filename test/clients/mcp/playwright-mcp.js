/**
 * Playwright MCP (@playwright/mcp 0.0.83; 0.0.86 with PLAYWRIGHT_MCP=newest) as the agent's MCP server, driven over stdio with
 * `@modelcontextprotocol/sdk`: run with this folder's Node 22 by test/e2e/mcp-playwright.on.spec.ts
 * and test/e2e/mcp-read-timing.on.spec.ts.
 *
 *   [PLAYWRIGHT_MCP=newest] node playwright-mcp.js <tools|agent|timing|bad> <page URL> <key-set URL> <Chromium path> <Chromium flag>...
 *
 * - `tools`: the server launches Chromium itself (a config file with the launch options, as the
 *   README shows); `browser_navigate` to the page, the MCP tool list right after it (nothing else
 *   in between), the runtime's Report, two reads and two calls with bad input.
 * - `agent`: the agent's own Chromium with a DevTools endpoint, the server connected to it
 *   (`--cdp-endpoint`) and the agent companion attached in `'origins'` mode: a write that answers
 *   `awaiting_person`, `capell.write.status` before and after the person presses Send, and an
 *   AgentGate call (`send_message`) signed by the companion.
 * - `timing`: as `tools`, then ten `site.search` reads, each timed from request to answer.
 * - `bad`: as `tools`, the server's version and its answers to bad input alone (three failures:
 *   two inputs that break the schema and an unknown writeId).
 *
 * `PLAYWRIGHT_MCP=newest` runs the newest Playwright MCP the folder holds (`playwright-mcp-newest`
 * in package.json) instead of the pinned `@playwright/mcp`: versions differ in how they call a
 * page's tool, and so in what reaches the agent of a failure.
 *
 * Prints one JSON line, the observations (the specs hold the assertions), and exits 0; exits 1
 * with the error on stderr when a step could not run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentRun, attachCompanion, deadline, launchAgentBrowser, readArguments, scratchFolder, startServer, textOf } from './common.js';

/** The package folder of the Playwright MCP to run (see PLAYWRIGHT_MCP above). */
const PACKAGE = process.env.PLAYWRIGHT_MCP === 'newest' ? 'playwright-mcp-newest' : '@playwright/mcp';
const SERVER = fileURLToPath(new URL(`../node_modules/${PACKAGE}/cli.js`, import.meta.url));
const { version: VERSION } = JSON.parse(readFileSync(new URL(`../node_modules/${PACKAGE}/package.json`, import.meta.url), 'utf8'));
/** What Playwright MCP writes before a page tool's output (the JSON of its CallToolResult follows). */
const OUTPUT_PREAMBLE = 'Output is page-provided and untrusted:\n';
/** The queries of the timed reads, one a call. */
const TIMED_QUERIES = ['repair', 'boots', 'jacket', 'tent', 'journal', 'contact', 'wool', 'rain', 'kit', 'about'];

const { scenario, url, keysUrl, executablePath, flags } = readArguments('playwright-mcp.js', ['tools', 'agent', 'timing', 'bad']);

/**
 * The page's own CallToolResult inside Playwright MCP's answer to a `webmcp_*` call (the JSON
 * after its preamble, up to the next `###` section), or null when there is none.
 * @param {string} text the answer's text
 */
function pageResultOf(text) {
  const start = text.indexOf(OUTPUT_PREAMBLE);
  if (start < 0) return null;
  const rest = text.slice(start + OUTPUT_PREAMBLE.length);
  const end = rest.indexOf('\n### ');
  try {
    return JSON.parse(end < 0 ? rest : rest.slice(0, end));
  } catch {
    return null;
  }
}

/**
 * What the agent sees of one `webmcp_*` call: its wall time, the MCP result's `isError`, its
 * text, and the page's CallToolResult inside it.
 * @param {{ ms: number, result: object }} answer
 */
function seen({ ms, result }) {
  const text = textOf(result);
  return { ms, isError: result.isError === true, text, page: pageResultOf(text) };
}

/**
 * The JSON value a `browser_evaluate` answered (its `### Result` section).
 * @param {object} result the MCP result
 */
function evaluated(result) {
  const text = textOf(result);
  const match = /### Result\n([\s\S]*?)(?:\n### |$)/.exec(text);
  if (!match) throw new Error(`browser_evaluate answered no result: ${text}`);
  return JSON.parse(match[1]);
}

/**
 * Starts Playwright MCP with a browser of its own: the launch options in a config file, as the
 * README shows, headless and with an in-memory profile.
 * @param {string} folder a scratch folder for the config file and the server's output
 */
function startWithOwnBrowser(folder) {
  const config = join(folder, 'playwright-mcp.json');
  writeFileSync(config, JSON.stringify({ browser: { browserName: 'chromium', launchOptions: { executablePath, args: flags } } }));
  return startServer(SERVER, ['--config', config, '--headless', '--isolated', '--output-dir', join(folder, 'out')], { cwd: folder });
}

/**
 * Navigates and reads what the agent has right after: the MCP tool list (no other call in
 * between, so no other snapshot), then the runtime's Report.
 * @param {Awaited<ReturnType<typeof startServer>>} server
 */
async function navigateAndList(server) {
  const navigate = await server.call('browser_navigate', { url });
  const { tools } = await server.client.listTools();
  const report = evaluated((await server.call('browser_evaluate', { function: '() => window.capellWebMCP.ready' })).result);
  return {
    navigate: { ms: navigate.ms, isError: navigate.result.isError === true, text: textOf(navigate.result) },
    listed: tools.map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema, annotations: annotations ?? null })),
    report: { api: report.api, registered: report.registered },
  };
}

/** The `tools` scenario: listing, reads and bad input with the server's own browser. */
async function toolsScenario() {
  const scratch = scratchFolder();
  const server = await startWithOwnBrowser(scratch.folder);
  try {
    const listing = await navigateAndList(server);
    return {
      ...listing,
      reads: {
        search: seen(await server.call('webmcp_site_search', { q: 'repair' })),
        lookup: seen(await server.call('webmcp_page_get', {})),
      },
      bad: {
        navigationPage: seen(await server.call('webmcp_site_navigation', { page: 'many' })),
        subscribeEmail: seen(await server.call('webmcp_newsletter_subscribe', { email: 'not an address' })),
      },
    };
  } finally {
    await server.close();
    scratch.remove();
  }
}

/** The `bad` scenario: the server's version and what the agent sees of three failed calls. */
async function badScenario() {
  const scratch = scratchFolder();
  const server = await startWithOwnBrowser(scratch.folder);
  try {
    await server.call('browser_navigate', { url });
    return {
      version: VERSION,
      bad: {
        navigationPage: seen(await server.call('webmcp_site_navigation', { page: 'many' })),
        subscribeEmail: seen(await server.call('webmcp_newsletter_subscribe', { email: 'not an address' })),
        unknownWrite: seen(await server.call('webmcp_capell_write_status', { writeId: 'w-never-issued' })),
      },
    };
  } finally {
    await server.close();
    scratch.remove();
  }
}

/** The `timing` scenario: ten reads after the navigation, each timed. */
async function timingScenario() {
  const scratch = scratchFolder();
  const server = await startWithOwnBrowser(scratch.folder);
  try {
    const listing = await navigateAndList(server);
    const reads = [];
    for (const q of TIMED_QUERIES) {
      const { ms, isError, page } = seen(await server.call('webmcp_site_search', { q }));
      reads.push({ q, ms, isError, pageIsError: page?.isError === true, answered: Array.isArray(JSON.parse(page?.content?.[0]?.text ?? 'null')?.data) });
    }
    return { report: listing.report, listed: listing.listed.map((tool) => tool.name), reads };
  } finally {
    await server.close();
    scratch.remove();
  }
}

/** The `agent` scenario: the agent's browser, shared with the companion and the person. */
async function agentScenario() {
  const scratch = scratchFolder();
  const browser = await launchAgentBrowser(executablePath, flags);
  const companion = attachCompanion(browser, { origin: new URL(url).origin, keysUrl });
  let server;
  try {
    server = await startServer(SERVER, ['--cdp-endpoint', browser.wsEndpoint(), '--output-dir', join(scratch.folder, 'out')], { cwd: scratch.folder });
    const navigate = await server.call('browser_navigate', { url });
    await companion.attached();

    return await agentRun({
      call: async (name, input) => seen(await server.call(`webmcp_${name.replace(/\./g, '_')}`, input)),
      textOf: (seen) => seen.page?.content?.[0]?.text,
      browser, url, companion, navigate, label: 'Playwright MCP', slug: 'playwright-mcp',
    });
  } finally {
    await server?.close();
    await companion.detach();
    await browser.close();
    scratch.remove();
  }
}

const cancel = deadline('playwright-mcp client');
try {
  const run = { tools: toolsScenario, agent: agentScenario, timing: timingScenario, bad: badScenario }[scenario];
  console.log(JSON.stringify(await run()));
} finally {
  cancel();
}
