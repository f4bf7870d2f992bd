/**
 * Runs the MCP recipes of docs/recipes.md as they are written (test/support/doc-recipes.js reads
 * them), with the clients' Node 22 and installed servers (npx finds @playwright/mcp,
 * chrome-devtools-mcp and node@22 in test/clients/node_modules, so nothing is fetched): run by
 * test/e2e/docs-recipes.on.spec.ts.
 *
 *   node recipes.js <playwright-mcp|chrome-devtools-mcp|companion-for-mcp> <page URL> <key-set URL> <Chromium path> <flag>...
 *
 * - `playwright-mcp`: writes the recipe's `playwright-mcp.json` in a scratch folder of this
 *   folder, starts the server of its `mcpServers` entry from there, `browser_navigate`s to the
 *   page and calls `webmcp_site_search` with `{"q": 5}`.
 * - `chrome-devtools-mcp`: starts the server of its `mcpServers` entry, `navigate_page`,
 *   `list_webmcp_tools`, `execute_webmcp_tool` site.search with `{"q": 5}`.
 * - `companion-for-mcp`: runs the recipe's script (Node 22, the clients' puppeteer-core), reads
 *   the DevTools endpoint it prints, starts Playwright MCP on it (`--cdp-endpoint`), navigates and
 *   calls `webmcp_send_message`: the companion the recipe attached signs it.
 * The Chromium path and flags given are not used: the recipes name their own (the doc's
 * `/usr/bin/chromium` becomes the given path when it differs). Prints one JSON line of
 * observations; exits 1 with the error on stderr when a step could not run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { localise, recipeBlock } from '../../support/doc-recipes.js';
import { deadline, readArguments, textOf, until } from './common.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const AGENT_MODULE = pathToFileURL(fileURLToPath(new URL('../../../dist/agent/index.js', import.meta.url))).href;
/** How long the MCP client waits for one tool call (ms). */
const CALL_TIMEOUT_MS = 30_000;

const { scenario, url, keysUrl, executablePath } = readArguments('recipes.js', ['playwright-mcp', 'chrome-devtools-mcp', 'companion-for-mcp']);
const to = { site: new URL(url).origin, agentKeys: new URL(keysUrl).origin, agentModule: AGENT_MODULE, chromium: executablePath };

/** A recipe block, localised (docs/recipes.md's substitutions). */
const recipe = (id, label) => localise(recipeBlock(id, label), to);

/**
 * Starts the one server of a recipe's `mcpServers` block, as an MCP client would, from `cwd`.
 * @param {string} id the recipe
 * @param {string[]} [extraArgs] arguments after the recipe's own (the companion recipe's endpoint)
 */
async function startRecipeServer(id, cwd, extraArgs = []) {
  const servers = Object.values(JSON.parse(recipe(id, 'mcp-servers')).mcpServers);
  if (servers.length !== 1) throw new Error(`recipe ${id}: ${servers.length} servers in mcpServers`);
  const [server] = servers;
  const transport = new StdioClientTransport({
    command: server.command, args: [...server.args, ...extraArgs], cwd, stderr: 'inherit',
    env: { ...process.env, ...(server.env ?? {}) },
  });
  const client = new Client({ name: 'capell-webmcp-recipes', version: '1.0.0' });
  await client.connect(transport);
  return {
    call: async (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS }),
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    close: () => client.close(),
  };
}

/** A scratch folder inside this one, so that npx finds the clients' packages (test/clients). */
function scratch() {
  const folder = mkdtempSync(join(HERE, '.recipe-'));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

async function playwrightMcp() {
  const { folder, remove } = scratch();
  writeFileSync(join(folder, 'playwright-mcp.json'), recipe('playwright-mcp', 'file=playwright-mcp.json'));
  const server = await startRecipeServer('playwright-mcp', folder);
  try {
    const navigate = await server.call('browser_navigate', { url });
    const listed = (await server.toolNames()).includes('webmcp_site_search');
    const bad = await server.call('webmcp_site_search', { q: 5 });
    return { navigated: !navigate.isError, listed, bad: { isError: bad.isError === true, text: textOf(bad) } };
  } finally {
    await server.close();
    remove();
  }
}

async function chromeDevtoolsMcp() {
  const { folder, remove } = scratch();
  const server = await startRecipeServer('chrome-devtools-mcp', folder);
  try {
    const pages = textOf(await server.call('list_pages', {}));
    const pageId = Number(/^(\d+): .*\[selected\]$/m.exec(pages)?.[1]);
    await server.call('navigate_page', { pageId, type: 'url', url });
    const listed = textOf(await server.call('list_webmcp_tools', { pageId }));
    const bad = await server.call('execute_webmcp_tool', { pageId, toolName: 'site.search', input: JSON.stringify({ q: 5 }) });
    return { listed: /^name="site\.search"/m.test(listed), bad: { isError: bad.isError === true, text: textOf(bad) } };
  } finally {
    await server.close();
    remove();
  }
}

async function companionForMcp() {
  const { folder, remove } = scratch();
  // The Playwright MCP recipe's server entry names its config file; on a DevTools endpoint its launch options go unused.
  writeFileSync(join(folder, 'playwright-mcp.json'), recipe('playwright-mcp', 'file=playwright-mcp.json'));
  // The recipe's script, as a module of this folder (the clients' puppeteer-core), with their Node 22.
  const script = join(folder, 'companion.mjs');
  writeFileSync(script, recipe('companion-for-mcp'));
  const child = spawn(process.execPath, [script], { cwd: HERE, stdio: ['ignore', 'pipe', 'inherit'] });
  let printed = '';
  child.stdout.on('data', (chunk) => { printed += chunk; });
  let server;
  try {
    const endpoint = await until(() => /^ws:\/\/\S+$/m.exec(printed)?.[0], 'the DevTools endpoint the recipe prints', 20_000);
    server = await startRecipeServer('playwright-mcp', folder, ['--cdp-endpoint', endpoint]).catch(async (error) => {
      throw new Error(`Playwright MCP on the recipe's endpoint: ${error.message}`);
    });
    const navigate = await server.call('browser_navigate', { url });
    const id = `recipe-${Date.now()}`;
    const sent = await server.call('webmcp_send_message', { id, message: 'hello from the companion recipe' });
    return { navigated: !navigate.isError, id, sent: { isError: sent.isError === true, text: textOf(sent) } };
  } finally {
    await server?.close();
    child.kill();
    remove();
  }
}

const cancel = deadline(`recipes.js ${scenario}`);
try {
  const run = { 'playwright-mcp': playwrightMcp, 'chrome-devtools-mcp': chromeDevtoolsMcp, 'companion-for-mcp': companionForMcp }[scenario];
  console.log(JSON.stringify(await run()));
  cancel();
  process.exit(0);
} catch (error) {
  console.error(error?.stack ?? String(error));
  process.exit(1);
}
