/**
 * docs/recipes.md runs as written (issue "A newcomer's first hour is green", item 4): each recipe
 * block is read from the doc (test/support/doc-recipes.js) and run against this worker's demo,
 * with only the substitutions the doc names (the demo's ports, the unpublished
 * `capell-webmcp/agent` as the clone's dist/agent/index.js, Chromium's path). The Node 22 ones
 * (Playwright MCP and chrome-devtools-mcp as root and headless, the companion beside an MCP
 * server) run through test/clients/mcp/recipes.js with that folder's Node 22 and packages; the
 * Node 20 ones (sign a call on the demo from the clone, the reason of a failed call in
 * Playwright) run with this Node from the clone's root. Edit a recipe in the doc and this spec
 * runs the edit.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Demo } from './demo-fixture.ts';
import { clientFolder, runClientScript } from './client-script.ts';
import { notInstalled } from './mcp-clients.ts';
import { localise, recipeBlock, readRecipes } from '../support/doc-recipes.js';
import { chromiumPath } from '../support/chromium.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MCP = clientFolder('mcp');

/** The doc's substitutions for this worker's demo. */
function targets(demo: Demo) {
  return { site: demo.url, agentKeys: new URL(demo.agentKeysUrl).origin, chromium: chromiumPath() };
}

/**
 * Runs `command` with `args` in `cwd` and resolves its stdout once it exits 0.
 * @throws (rejects) with its stderr when it exits otherwise.
 */
function run(command: string, args: string[], cwd: string, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Without the runner's FORCE_COLOR: a reader's pipe gets no colour codes either.
    const { FORCE_COLOR: _colour, ...env } = process.env;
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${what} exited ${code}:\n${stderr}`))));
  });
}

/** Runs a JavaScript recipe with this Node (20) as a module of the clone's root (its `./dist`, its playwright). */
function runNode20Recipe(id: string, demo: Demo): Promise<string> {
  return run(process.execPath, ['--input-type=module', '-e', localise(recipeBlock(id), targets(demo))], ROOT, `recipe ${id}`);
}

type Seen = { isError: boolean; text: string };

test.describe('docs/recipes.md, as written', () => {
  // Spawning Node 22, an MCP server and a Chromium: more than the default 30 s on a loaded machine.
  test.setTimeout(120_000);

  test('every recipe marker has its block, and every recipe is run below', () => {
    const ids = new Set(readRecipes().map((block) => block.id));
    expect([...ids].sort()).toEqual(['chrome-devtools-mcp', 'companion-for-mcp', 'node-22', 'page-webmcp-reason', 'playwright-mcp', 'sign-on-demo']);
  });

  test.describe('with Node 22 (test/clients/mcp)', () => {
    test.beforeEach(() => {
      // Not a skip: without the folder's install these recipes are not run, and that must show.
      expect(notInstalled()).toBeUndefined();
    });

    test('the Node 22 step prints v22', async () => {
      const [line, ...rest] = recipeBlock('node-22').split('\n');
      expect(rest).toEqual([]);
      const [command, ...args] = line!.split(' ');
      // With test/clients/mcp's Node 22 first on PATH? No: the system's npx, as a reader runs it.
      expect(await run(command!, args, MCP.folder, 'the Node 22 recipe')).toMatch(/^v22\.\d+\.\d+\s*$/);
    });

    test('Playwright MCP as root and headless lists the page tools, and a bad input shows its reason', async ({ demo }) => {
      const observed = await runClientScript<{ navigated: boolean; listed: boolean; bad: Seen }>(MCP, 'recipes.js', ['playwright-mcp', `${demo.url}/contact`, demo.agentKeysUrl], 'recipes.js playwright-mcp');
      expect(observed.navigated).toBe(true);
      expect(observed.listed).toBe(true);
      expect(observed.bad.isError).toBe(true);
      expect(observed.bad.text).toContain('invalid input for site.search: q: expected string, got integer');
    });

    test('chrome-devtools-mcp with Node 22, as root and headless, lists the page tools, and a bad input shows its reason', async ({ demo }) => {
      const observed = await runClientScript<{ listed: boolean; bad: Seen }>(MCP, 'recipes.js', ['chrome-devtools-mcp', `${demo.url}/contact`, demo.agentKeysUrl], 'recipes.js chrome-devtools-mcp');
      expect(observed.listed).toBe(true);
      const answer = JSON.parse(observed.bad.text) as { status: string; output: { isError: boolean; content: { text: string }[] } };
      expect(answer.status).toBe('Completed');
      expect(answer.output.isError).toBe(true);
      expect(answer.output.content[0]!.text).toBe('invalid input for site.search: q: expected string, got integer');
    });

    test('the companion attached as the recipe says signs the send_message call a Playwright MCP server makes', async ({ demo }) => {
      const before = demo.agentGateLog.length;
      const observed = await runClientScript<{ navigated: boolean; id: string; sent: Seen }>(MCP, 'recipes.js', ['companion-for-mcp', `${demo.url}/contact`, demo.agentKeysUrl], 'recipes.js companion-for-mcp');
      expect(observed.navigated).toBe(true);
      expect(observed.sent.isError, observed.sent.text).toBe(false);
      // Playwright MCP prints the page's CallToolResult as JSON, the runtime's answer a string in it.
      expect(observed.sent.text).toMatch(/\\?"status\\?":\s*\\?"accepted\\?"/);
      const site = demo.agentGateLog.slice(before).filter((entry) => entry.tool === 'send_message');
      expect(site.map((entry) => [entry.outcome, entry.status])).toEqual([['verified', 200]]);
    });
  });

  test.describe('with Node 20, from the clone', () => {
    test('sign a call on the demo: the site accepts it and the companion verifies its receipt', async ({ demo }) => {
      const before = demo.agentGateLog.length;
      const printed = await runNode20Recipe('sign-on-demo', demo);
      expect(printed.trim()).toBe('{"status":"accepted"} true');
      expect(demo.agentGateLog.slice(before).map((entry) => [entry.tool, entry.outcome])).toEqual([['send_message', 'verified']]);
    });

    test('page.webmcp shows the reason of a failed call', async ({ demo }) => {
      const printed = await runNode20Recipe('page-webmcp-reason', demo);
      expect(printed.trim().split('\n').at(-1)).toBe('true invalid input for site.search: q: expected string, got integer');
    });
  });
});
