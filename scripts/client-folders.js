/**
 * The real agent clients' folder (test/clients: its scripts in test/clients/puppeteer and
 * test/clients/mcp, one package.json and lockfile for both, whose node_modules both resolve to)
 * has its own install, because the clients need Node >= 22.12 (the npm package `node` in the
 * folder) while the project runs Node 20. One install, not one per client: the Puppeteer client's
 * packages were the MCP clients' at the same versions, and each install of the npm package `node`
 * runs an npm install of its own (about 7 core-seconds). `npm test` installs them itself, so that README's
 * `npm ci` then `npm test` is the whole set-up.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';

/** The client folders with an install of their own, relative to the repository's root. */
export const CLIENT_FOLDERS = ['test/clients'];

/**
 * Why `folder` needs `npm ci`, or undefined when its node_modules holds what its lockfile names.
 * npm writes the tree it installed to `node_modules/.package-lock.json`; a package of the lockfile
 * missing there, or there at another version, means the lockfile changed since the install (a
 * pull that moved a client to a new version).
 * @param {string} folder a folder with a package-lock.json
 * @returns {string | undefined} e.g. `node_modules is missing`, `playwright-mcp-newest is not installed`
 */
export function installNeeded(folder) {
  const installed = join(folder, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return 'node_modules is missing';
  let wanted;
  let have;
  try {
    wanted = JSON.parse(readFileSync(join(folder, 'package-lock.json'), 'utf8')).packages ?? {};
    have = JSON.parse(readFileSync(installed, 'utf8')).packages ?? {};
  } catch (error) {
    return `its lockfile or node_modules/.package-lock.json is not JSON (${error.message})`;
  }
  for (const [path, entry] of Object.entries(wanted)) {
    // "" is the folder itself; optional packages for other platforms are never installed here.
    if (path === '' || entry.optional) continue;
    const name = path.replace(/^.*node_modules\//, '');
    if (!have[path]) return `${name} is not installed`;
    if (have[path].version !== entry.version) return `${name} is ${have[path].version}, its lockfile says ${entry.version}`;
  }
  return undefined;
}

/**
 * Installs every client folder that needs it (`installNeeded`) with
 * `npm ci --prefix <folder> --no-audit --no-fund`, from its lockfile, one after the other (two
 * npm ci at once on two cores slow the build beside them more than they gain). Prints one line
 * per folder it installs, naming the command and why; npm's own output only when it fails.
 * @param {{ priority?: number }} [options] niceness for npm (scripts/test-all.js, PRIORITY)
 * @returns {Promise<string[]>} the folders that could not be installed, each with npm's last lines
 *   (their specs then fail, saying what is missing); never rejects.
 */
export async function installClientFolders({ priority = 0 } = {}) {
  const failed = [];
  for (const folder of CLIENT_FOLDERS) {
    const why = installNeeded(folder);
    if (!why) continue;
    console.log(`installing the client folder ${folder} (${why}): npm ci --prefix ${folder} --no-audit --no-fund`);
    const { status, output } = await npmCi(folder, priority);
    if (status !== 0) failed.push(`${folder}: npm ci exited ${status}\n${output.trim().split('\n').slice(-10).join('\n')}`);
  }
  for (const failure of failed) console.log(`\nthe client folder could not be installed: ${failure}`);
  return failed;
}

/** Runs `npm ci` for one folder, its output held. @returns its exit status (1 when it could not start) and output. */
function npmCi(folder, priority) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['ci', '--prefix', folder, '--no-audit', '--no-fund'], { stdio: ['ignore', 'pipe', 'pipe'] });
    if (priority !== 0 && child.pid !== undefined) {
      try {
        setPriority(child.pid, priority);
      } catch {
        // Without the right to renice, npm runs at our priority: slower for the rest, not wrong.
      }
    }
    const held = [];
    child.stdout.on('data', (chunk) => held.push(chunk));
    child.stderr.on('data', (chunk) => held.push(chunk));
    child.on('error', (error) => resolve({ status: 1, output: error.message }));
    child.on('close', (code) => resolve({ status: code ?? 1, output: Buffer.concat(held).toString() }));
  });
}
