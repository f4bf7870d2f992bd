/**
 * The `capell-webmcp` command run in this process: the built `runCLI` (dist/cli.js, which
 * bin/capell-webmcp.js calls with `process.argv`), with its two streams collected. A child process
 * per case cost a Node start-up (about half a second on two cores) for a call of a few
 * milliseconds; the bin entry itself keeps its own real-process tests (test/unit/cli.test.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as CLI from '../../src/cli/cli.ts';

/** What a run of the command gave: as a child process's exit code, stdout lines and stderr text. */
export interface CLIRun {
  /** 0 ok, 1 rejected, 2 usage or read error */
  code: number;
  /** the lines written to stdout, empty lines left out */
  stdout: string[];
  /** everything written to stderr, each line ended by `\n` as console.error ends it */
  stderr: string;
}

const BUILT_CLI = new URL('../../dist/cli.js', import.meta.url);

/**
 * Loads the built CLI once. The module is typed by its source (src/cli/cli.ts) but loaded from the
 * build, so the type check does not wait for the build and what runs is what ships.
 * @throws Error naming `npm run build` when dist/cli.js is missing
 */
async function loadCLI(): Promise<typeof CLI> {
  if (!existsSync(fileURLToPath(BUILT_CLI))) throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
  return import(BUILT_CLI.href) as Promise<typeof CLI>;
}

let loaded: Promise<typeof CLI> | undefined;

/**
 * Runs one command line through the built `runCLI`, as `capell-webmcp ...args` would.
 * Calls may overlap: each collects its own output.
 * @example const { code, stdout } = await cli('validate', 'capell.json');
 */
export async function cli(...args: string[]): Promise<CLIRun> {
  loaded ??= loadCLI();
  const { runCLI } = await loaded;
  const out: string[] = [];
  let stderr = '';
  const code = await runCLI(args, {
    out: (line) => out.push(...line.split('\n')),
    err: (line) => { stderr += `${line}\n`; },
  });
  return { code, stdout: out.filter(Boolean), stderr };
}
