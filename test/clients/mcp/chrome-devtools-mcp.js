/**
 * chrome-devtools-mcp 1.11 as the agent's MCP server (its experimental WebMCP tools
 * `list_webmcp_tools` and `execute_webmcp_tool`), driven over stdio with
 * `@modelcontextprotocol/sdk`: run with this folder's Node 22 by
 * test/e2e/mcp-chrome-devtools.on.spec.ts.
 *
 *   node chrome-devtools-mcp.js <tools|agent> <page URL> <key-set URL> <Chromium path> <Chromium flag>...
 *
 * - `tools`: the server launches Chromium itself (`--executablePath`, `--headless`, `--isolated`,
 *   one `--chromeArg` a flag); `navigate_page` to the page, `list_webmcp_tools` right after it,
 *   the runtime's Report, two reads and two calls with bad input.
 * - `agent`: the agent's own Chromium with a DevTools endpoint, the server connected to it
 *   (`--wsEndpoint`) and the agent companion attached in `'origins'` mode: a write that answers
 *   `awaiting_person`, `capell.write.status` before and after the person presses Send, and an
 *   AgentGate call (`send_message`) signed by the companion.
 *
 * `execute_webmcp_tool` answers one text, `JSON.stringify({ status, output, error })` of the
 * DevTools WebMCP invocation; the observations carry it parsed. Prints one JSON line, the
 * observations (the spec holds the assertions), and exits 0; exits 1 with the error on stderr
 * when a step could not run.
 */
import { fileURLToPath } from 'node:url';
import { agentRun, attachCompanion, deadline, launchAgentBrowser, readArguments, scratchFolder, startServer, textOf } from './common.js';

const SERVER = fileURLToPath(new URL('../node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js', import.meta.url));
/** Flags of every run: the WebMCP tools on, nothing sent to Google (usage statistics, CrUX). */
const SERVER_FLAGS = ['--categoryExperimentalWebmcp', '--no-usage-statistics', '--no-performance-crux'];
/** No usage statistics, and no daily look-up of the package's latest version on the npm registry. */
const SERVER_ENV = { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1', CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1' };

const { scenario, url, keysUrl, executablePath, flags } = readArguments('chrome-devtools-mcp.js', ['tools', 'agent']);

/**
 * What the agent sees of one `execute_webmcp_tool` call: its wall time, the MCP result's
 * `isError`, its text, and that text parsed (`{ status, output, error }`, or null when it is not JSON).
 * @param {{ ms: number, result: object }} answer
 */
function seen({ ms, result }) {
  const text = textOf(result);
  let answer = null;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = null;
  }
  return { ms, isError: result.isError === true, text, answer };
}

/** The tool names in a chrome-devtools-mcp "## WebMCP tools" listing (one `name="…"` line a tool). */
function toolNames(text) {
  const section = text.slice(text.indexOf('## WebMCP tools'));
  return text.includes('## WebMCP tools') ? [...section.matchAll(/^name="([^"]+)"/gm)].map((match) => match[1]) : [];
}

/** The id of the selected page in a `list_pages` answer (`1: about:blank [selected]`). */
function selectedPageId(text) {
  const match = /^(\d+): .*\[selected\]$/m.exec(text);
  if (!match) throw new Error(`list_pages names no selected page: ${text}`);
  return Number(match[1]);
}

/**
 * The JSON value an `evaluate_script` answered (its json code block).
 * @param {object} result the MCP result
 */
function evaluated(result) {
  const text = textOf(result);
  const match = /```json\n([\s\S]*?)\n```/.exec(text);
  if (!match) throw new Error(`evaluate_script answered no JSON: ${text}`);
  return JSON.parse(match[1]);
}

/**
 * Navigates the selected page and reads what the agent has right after: the tools named in the
 * navigation's answer, `list_webmcp_tools`, then the runtime's Report.
 * @param {Awaited<ReturnType<typeof startServer>>} server
 * @returns the observations and the page's id for the next calls
 */
async function navigateAndList(server) {
  const pageId = selectedPageId(textOf((await server.call('list_pages', {})).result));
  const navigate = await server.call('navigate_page', { pageId, type: 'url', url });
  const list = await server.call('list_webmcp_tools', { pageId });
  const report = evaluated((await server.call('evaluate_script', { pageId, function: 'async () => await window.capellWebMCP.ready' })).result);
  return {
    pageId,
    navigate: { ms: navigate.ms, isError: navigate.result.isError === true, tools: toolNames(textOf(navigate.result)) },
    listed: { ms: list.ms, isError: list.result.isError === true, tools: toolNames(textOf(list.result)), text: textOf(list.result) },
    report: { api: report.api, registered: report.registered },
  };
}

/**
 * Calls a page tool through `execute_webmcp_tool` (input as a JSON string, as the tool takes it).
 * @param {Awaited<ReturnType<typeof startServer>>} server
 * @param {number} pageId
 * @param {string} toolName
 * @param {object} input
 */
async function execute(server, pageId, toolName, input) {
  return seen(await server.call('execute_webmcp_tool', { pageId, toolName, input: JSON.stringify(input) }));
}

/** The `tools` scenario: listing, reads and bad input with the server's own browser. */
async function toolsScenario() {
  const scratch = scratchFolder();
  const server = await startServer(SERVER, [
    ...SERVER_FLAGS, '--executablePath', executablePath, '--headless', '--isolated', ...flags.map((flag) => `--chromeArg=${flag}`),
  ], { cwd: scratch.folder, env: SERVER_ENV });
  try {
    const { pageId, ...listing } = await navigateAndList(server);
    return {
      ...listing,
      reads: {
        search: await execute(server, pageId, 'site.search', { q: 'repair' }),
        lookup: await execute(server, pageId, 'page.get', {}),
      },
      bad: {
        navigationPage: await execute(server, pageId, 'site.navigation', { page: 'many' }),
        subscribeEmail: await execute(server, pageId, 'newsletter.subscribe', { email: 'not an address' }),
      },
    };
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
    server = await startServer(SERVER, [...SERVER_FLAGS, '--wsEndpoint', browser.wsEndpoint()], { cwd: scratch.folder, env: SERVER_ENV });
    const pageId = selectedPageId(textOf((await server.call('list_pages', {})).result));
    const navigate = await server.call('navigate_page', { pageId, type: 'url', url });
    await companion.attached();

    return await agentRun({
      call: (name, input) => execute(server, pageId, name, input),
      textOf: (seen) => seen.answer?.output?.content?.[0]?.text,
      browser, url, companion, navigate, label: 'chrome-devtools-mcp', slug: 'chrome-devtools-mcp',
    });
  } finally {
    await server?.close();
    await companion.detach();
    await browser.close();
    scratch.remove();
  }
}

const cancel = deadline('chrome-devtools-mcp client');
try {
  const run = { tools: toolsScenario, agent: agentScenario }[scenario];
  console.log(JSON.stringify(await run()));
} finally {
  cancel();
}
