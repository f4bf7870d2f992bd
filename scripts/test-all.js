#!/usr/bin/env node
/**
 * `npm test`: builds the bundles and the CLI, then runs every suite (unit in Node, browser in Chromium with
 * WebMCP on and off, end-to-end against the demo server) and ends with one line
 * `N passed, N failed` summing them all. Exits 1 when anything failed or a suite did not run.
 *
 * Order, for two cores: the typecheck runs beside the build and the unit suite (none of them times
 * anything the other could slow into a failure); the browser and end-to-end suites, which assert
 * time windows in Chromium, run after them and one after the other. Each suite's line in the summary
 * gives its wall time.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const RESULTS = '.test-results';
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

/**
 * Runs a command; its output goes to ours as it comes, or, with `quiet`, is held and printed once
 * it ends (so a suite running beside another does not interleave with it).
 * @returns the exit status (1 when it could not start or was killed) and the wall time in seconds.
 */
function run(command, args, { env = {}, quiet = false } = {}) {
  const started = performance.now();
  const header = `\n$ ${command} ${args.join(' ')}`;
  if (!quiet) console.log(header);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    const held = [];
    child.stdout?.on('data', (chunk) => held.push(chunk));
    child.stderr?.on('data', (chunk) => held.push(chunk));
    const finish = (status) => {
      if (quiet) console.log(`${header}\n${Buffer.concat(held).toString()}`);
      resolve({ status, seconds: (performance.now() - started) / 1000 });
    };
    child.on('error', () => finish(1));
    child.on('close', (code) => finish(code ?? 1));
  });
}

function readJSON(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

const suites = [];

// Types: a type error fails the run as one failure. tsc needs no build, so it starts at once.
const typecheck = run('npx', ['tsc', '--noEmit', '-p', '.'], { quiet: true }).then(({ status, seconds }) => {
  suites.push({ name: 'typecheck', passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, status, seconds, order: 0 });
});

// The same build as `npm run build` (all four outputs), so what is tested is what ships.
const build = await run('npm', ['run', 'build']);
if (build.status !== 0) {
  await typecheck;
  writeFileSync(`${RESULTS}/summary.txt`, 'build: failed\n0 passed, 1 failed\n');
  console.log('\nthe build failed; no suite can run\n0 passed, 1 failed');
  process.exit(1);
}

// Unit: node:test through tsx, two files at a time; the TAP copy carries the counts.
const unitFiles = readdirSync('test/unit').filter((file) => file.endsWith('.test.ts')).map((file) => `test/unit/${file}`);
const unit = await run('node', ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=tap', `--test-reporter-destination=${RESULTS}/unit.tap`, ...unitFiles]);
const tap = existsSync(`${RESULTS}/unit.tap`) ? readFileSync(`${RESULTS}/unit.tap`, 'utf8') : '';
const tapCount = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
suites.push({ name: 'unit', passed: tapCount('pass'), failed: tapCount('fail') + tapCount('cancelled'), ...unit, order: 1 });
await typecheck;

// Browser: web-test-runner; test/support/count-reporter.js writes the counts.
const browser = await run('npx', ['web-test-runner']);
suites.push({ name: 'browser', ...(readJSON(`${RESULTS}/browser.json`) ?? { passed: 0, failed: 0 }), ...browser, order: 2 });

// End-to-end: Playwright's JSON reporter. Two workers for most specs, then the specs that time a
// person's click (project webmcp-on-timed, playwright.config.ts) alone on one worker.
const e2eRuns = [
  { projects: ['webmcp-on', 'webmcp-off'], report: `${RESULTS}/e2e.json` },
  { projects: ['webmcp-on-timed'], report: `${RESULTS}/e2e-timed.json` },
];
const e2e = { passed: 0, failed: 0, status: 0, seconds: 0 };
for (const { projects, report } of e2eRuns) {
  const args = ['playwright', 'test', ...projects.map((project) => `--project=${project}`), '--reporter=list,json'];
  const { status, seconds } = await run('npx', args, { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report } });
  const stats = readJSON(report)?.stats;
  const unexpected = stats?.unexpected ?? 0;
  e2e.passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  // A run that exited non-zero without a failing test (crash, load error) counts as one failure.
  e2e.failed += unexpected + (status !== 0 && unexpected === 0 ? 1 : 0);
  e2e.seconds += seconds;
}
suites.push({ name: 'e2e', ...e2e, order: 3 });

const lines = [`build: ${build.seconds.toFixed(1)} s`];
let passed = 0;
let failed = 0;
for (const suite of suites.sort((a, b) => a.order - b.order)) {
  // A suite that exited non-zero without a failing test (crash, load error) counts as one failure.
  const suiteFailed = suite.failed + (suite.status !== 0 && suite.failed === 0 ? 1 : 0);
  lines.push(`${suite.name}: ${suite.passed} passed, ${suiteFailed} failed (${suite.seconds.toFixed(1)} s)`);
  passed += suite.passed;
  failed += suiteFailed;
}
lines.push(`${passed} passed, ${failed} failed`);
writeFileSync(`${RESULTS}/summary.txt`, `${lines.join('\n')}\n`);
console.log(`\n${lines.join('\n')}`);
process.exit(failed > 0 ? 1 : 0);
