#!/usr/bin/env node
/**
 * `npm test`: runs `npm run build` (the bundles, the library, the CLI, the agent and the type
 * declarations) beside the typecheck, then every suite (unit in Node, browser in Chromium with
 * WebMCP on and off, end-to-end against the demo server). It prints each suite's output, then the
 * failing tests by name, then the build's time, one line per suite (`typecheck`, `unit`,
 * `browser`, `e2e`: passed, failed, wall time) and a last line `N passed, N failed (T s in all)`
 * summing them all. The summary is also written to `.test-results/summary.txt`, beside the
 * suites' own counts (`unit.tap`, `browser-<groups>.json`, `e2e.json`, `e2e-timed.json`). Exits 1
 * when anything failed or a suite did not run.
 *
 * Order, for two cores: suites that mostly compute run beside suites that mostly wait, and the
 * tests that time a person's act run last, alone.
 * 1. The typecheck starts at once, beside the build; after the build the unit suite (computing)
 *    and the untimed end-to-end projects (waiting on pages: polls, not time windows) start.
 * 2. When the unit suite and the typecheck are done, the untimed browser groups join the end-to-end run.
 * 3. When both are done: the timed browser group (web-test-runner.config.js, one page at a time),
 *    then the timed end-to-end project (playwright.config.ts, one worker), each with nothing beside it.
 * Each suite's line in the summary gives its own wall time (suites overlap), the last line the total.
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

/**
 * The names of the failing tests in node:test's TAP output, leaves only: a describe's own
 * `not ok` line follows its tests' lines at a smaller indent, and would repeat them.
 */
function failedLeaves(tap) {
  const results = [...tap.matchAll(/^( *)(not ok|ok) \d+ - (.*)$/gm)].map((match) => ({ indent: match[1].length, ok: match[2] === 'ok', name: match[3] }));
  return results.filter((result, index) => !result.ok && !(index > 0 && results[index - 1].indent > result.indent)).map((result) => result.name);
}

/** The failing tests of a Playwright JSON report: "file › describe › test: first line of the error". */
function e2eFailures(report) {
  const failures = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message ?? '';
        // Playwright colours its messages; the summary is plain text.
        const line = error.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((text) => text.trim()) ?? '';
        failures.push(`[${test.projectName}] ${[...path, spec.title].join(' › ')}: ${line.trim().slice(0, 300)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report?.suites ?? []) walk(suite, [suite.title]);
  return failures;
}

function readJSON(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

const suites = [];
const started = performance.now();

// Types: a type error fails the run as one failure. tsc needs no build, so it starts at once.
const typecheck = run('npx', ['tsc', '--noEmit', '-p', '.'], { quiet: true }).then(({ status, seconds }) => {
  suites.push({ name: 'typecheck', passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, status, seconds, order: 0 });
});

// The same build as `npm run build` (every output), so what is tested is what ships.
const build = await run('npm', ['run', 'build']);
if (build.status !== 0) {
  await typecheck;
  writeFileSync(`${RESULTS}/summary.txt`, 'build: failed\n0 passed, 1 failed\n');
  console.log('\nthe build failed; no suite can run\n0 passed, 1 failed');
  process.exit(1);
}

// Unit: node:test through tsx, two files at a time; the TAP copy carries the counts.
const unitFiles = readdirSync('test/unit').filter((file) => file.endsWith('.test.ts')).map((file) => `test/unit/${file}`);
const unit = run('node', ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=tap', `--test-reporter-destination=${RESULTS}/unit.tap`, ...unitFiles], { quiet: true }).then((result) => {
  const tap = existsSync(`${RESULTS}/unit.tap`) ? readFileSync(`${RESULTS}/unit.tap`, 'utf8') : '';
  const tapCount = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  const failures = failedLeaves(tap).map((name) => `unit › ${name}`);
  suites.push({ name: 'unit', passed: tapCount('pass'), failed: tapCount('fail') + tapCount('cancelled'), failures, ...result, order: 1 });
});

/**
 * Browser: web-test-runner for the groups named (BROWSER_GROUPS, web-test-runner.config.js);
 * test/support/count-reporter.js writes the counts.
 */
function browserRun(groups, quiet) {
  return run('npx', ['web-test-runner'], { env: { BROWSER_GROUPS: groups.join(',') }, quiet }).then(({ status, seconds }) => {
    const { passed, failed, failures = [] } = readJSON(`${RESULTS}/browser-${groups.join('+')}.json`) ?? { passed: 0, failed: 0 };
    // A run that exited non-zero without a failing test (crash, load error) counts as one failure.
    return { passed, failed: failed + (status !== 0 && failed === 0 ? 1 : 0), failures: failures.map((name) => `browser › ${name}`), status: 0, seconds };
  });
}

/** End-to-end: Playwright's JSON reporter for the projects named (playwright.config.ts). */
async function e2eRun(projects, report, quiet) {
  const args = ['playwright', 'test', ...projects.map((project) => `--project=${project}`), '--reporter=list,json'];
  const { status, seconds } = await run('npx', args, { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report }, quiet });
  const json = readJSON(report);
  const stats = json?.stats;
  const unexpected = stats?.unexpected ?? 0;
  // A run that exited non-zero without a failing test (crash, load error) counts as one failure.
  return { passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0), failed: unexpected + (status !== 0 && unexpected === 0 ? 1 : 0), failures: e2eFailures(json).map((name) => `e2e › ${name}`), status: 0, seconds };
}

/** Adds two runs' counts; wall time as given. */
function sum(runs, seconds) {
  return { passed: runs.reduce((total, one) => total + one.passed, 0), failed: runs.reduce((total, one) => total + one.failed, 0), failures: runs.flatMap((one) => one.failures ?? []), status: 0, seconds };
}

// 1–2: the untimed end-to-end projects from now; the untimed browser groups once unit and types are done.
const e2eStarted = performance.now();
const e2eUntimed = e2eRun(['webmcp-on', 'webmcp-off'], `${RESULTS}/e2e.json`, true);
await Promise.all([unit, typecheck]);
const browserStarted = performance.now();
const browserUntimed = await browserRun(['webmcp-on', 'webmcp-off'], true);
const e2eFirst = await e2eUntimed;

// 3: the timed tests, alone: the browser group, then the end-to-end project.
const browserTimed = await browserRun(['webmcp-on-timed'], false);
suites.push({ name: 'browser', ...sum([browserUntimed, browserTimed], (performance.now() - browserStarted) / 1000), order: 2 });
const e2eTimed = await e2eRun(['webmcp-on-timed'], `${RESULTS}/e2e-timed.json`, false);
suites.push({ name: 'e2e', ...sum([e2eFirst, e2eTimed], e2eFirst.seconds + e2eTimed.seconds), order: 3 });
console.log(`\nsuite times: e2e untimed ${e2eFirst.seconds.toFixed(1)} s (from ${((e2eStarted - started) / 1000).toFixed(1)} s), browser untimed ${browserUntimed.seconds.toFixed(1)} s, browser timed ${browserTimed.seconds.toFixed(1)} s, e2e timed ${e2eTimed.seconds.toFixed(1)} s`);

// The failing tests by name, just above the counts: CI shows the end of the output, and the
// quiet suites' own lines are far above it.
const failures = suites.flatMap((suite) => suite.failures ?? []);
if (failures.length > 0) console.log(`\nfailing tests:\n${failures.map((name) => `  ${name}`).join('\n')}`);

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
lines.push(`${passed} passed, ${failed} failed (${((performance.now() - started) / 1000).toFixed(1)} s in all)`);
writeFileSync(`${RESULTS}/summary.txt`, `${lines.join('\n')}\n`);
console.log(`\n${lines.join('\n')}`);
process.exit(failed > 0 ? 1 : 0);
