/**
 * Running a real agent client's script (test/clients/<folder>/<script>) with that folder's own
 * Node 22 (the npm package `node`: the clients need Node >= 22.12, the project runs Node 20), on
 * the system Chromium with WebMCP on. The script prints what it saw as its last stdout line, JSON.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromiumPath, QUIET_FLAGS } from '../support/chromium.js';

/**
 * A client folder: its path, with a trailing slash, the clients' install it resolves its packages
 * from (test/clients/node_modules/, both folders share it), and that install's Node 22 binary.
 */
export function clientFolder(name: 'mcp' | 'puppeteer'): { folder: string; modules: string; node: string } {
  const folder = fileURLToPath(new URL(`../clients/${name}/`, import.meta.url));
  const modules = fileURLToPath(new URL('../clients/node_modules/', import.meta.url));
  return { folder, modules, node: `${modules}node/bin/node` };
}

/**
 * Spawns `script` of the client folder with `args`, then the Chromium path and its flags
 * (`--no-sandbox`, the quiet flags, `WebMCPTesting,WebMCP`).
 * @param name what the rejection calls the script, e.g. `the MCP client playwright-mcp.js tools`.
 * @param env variables added to the script's environment (e.g. `PLAYWRIGHT_MCP: 'newest'`).
 * @returns its last stdout line, parsed. @throws (rejects) with its stderr when it exits non-zero.
 */
export function runClientScript<T>(client: { folder: string; node: string }, script: string, args: string[], name: string, env: Record<string, string> = {}): Promise<T> {
  const argv = [`${client.folder}${script}`, ...args, chromiumPath(), '--no-sandbox', ...QUIET_FLAGS, '--enable-features=WebMCPTesting,WebMCP'];
  return new Promise((resolve, reject) => {
    const child = spawn(client.node, argv, { cwd: client.folder, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${name} exited ${code}:\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as T);
    });
  });
}
