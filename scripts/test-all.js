#!/usr/bin/env node
/**
 * `npm test`: runs `npm run build` (the bundles, the library, the CLI, the agent and the type
 * declarations) beside the typecheck, then every suite (unit in Node, browser in Chromium with
 * WebMCP on and off, end-to-end against the demo server). It prints each suite's output, then the
 * failing tests by name, then the build's time, one line per suite (`typecheck`, `unit`,
 * `browser`, `e2e`: passed, failed, wall time) and a last line `N passed, N failed (T s in all)`
 * summing them all. The summary is also written to `.test-results/summary.txt`, beside the
 * suites' own counts (`unit-before-build.tap`, `unit.tap`, `browser-<groups>.json`, `e2e.json`,
 * `e2e-timed.json`). Exits 1 when anything failed or a suite did not run.
 *
 * Order, for two cores: everything runs as soon as what it needs is there, so both cores stay
 * busy, and the tests that time a person's act or a bound (the timed browser group, the timed
 * end-to-end project) run beside the rest at the operating system's normal priority while the
 * rest runs niced (PRIORITY): the scheduler hands the timed tests a core the moment they wake, so
 * the untimed work soaks up only the time they leave idle (most of it: they mostly wait).
 * 1. At once: the typecheck, the build, the unit files that need no build (nothing of dist/ in them
 *    or the test/support modules they import) and the timed browser group (the browser tests run
 *    the sources; the timed files load nothing of dist/).
 * 2. After the build: the other unit files and the untimed end-to-end projects and browser
 *    groups; the timed end-to-end project once the timed browser group is done too, and the
 *    Playwright MCP read timing once that is done (the timed suites never run at once: they would
 *    time their acts against each other).
 * 3. Only when a timed run (the timed browser group, the timed end-to-end project, the Playwright
 *    MCP read timing) missed a bound beside the rest: that run once more, alone, as the verdict.
 * Each suite's line in the summary gives its own wall time (suites overlap), the last line the total.
 *
 * Set-up: the real clients' folder (test/clients, for the scripts in test/clients/puppeteer and
 * test/clients/mcp) is installed from its lockfile beside the build when its node_modules is
 * missing or out of date (scripts/client-folders.js), one line saying so; the end-to-end suite
 * waits for it.
 * The machine's load is printed at the start and at the end (scripts/machine-load.js), and the
 * summary's line before the last says how busy the machine was, and whether other work may have
 * slowed the results.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installClientFolders } from './client-folders.js';
import { loadLine, startLoadMeasure } from './machine-load.js';

const RESULTS = '.test-results';
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

/**
 * Niceness of each kind of work (Unix nice values: higher yields the CPU sooner). The timed tests
 * keep the normal priority; the Playwright MCP read timing, which times a whole client process
 * (its Node, its Chromium and the page) against a bound, runs above it where the system lets us
 * (root; otherwise at the normal priority). The build comes before the untimed suites, which all
 * wait for it, and so do the untimed browser groups, a short run whose pages load the sources through the test
 * server's on-the-fly transform: beside two e2e workers at their priority, a page's first panel
 * once took over 7 s to come. The untimed end-to-end projects, the longest suite and the last to
 * end, come before the unit files and the typecheck, which end long before them anyway.
 */
const PRIORITY = { alone: -5, timed: 0, build: 5, browser: 5, e2e: 7, untimed: 10 };

/**
 * Runs a command; its output goes to ours as it comes, or, with `quiet`, is held and printed once
 * it ends (so a suite running beside another does not interleave with it).
 * @param priority the niceness for the command, set as it starts (its browsers and workers, started
 *   later, inherit it).
 * @returns the exit status (1 when it could not start or was killed) and the wall time in seconds.
 */
function run(command, args, { env = {}, quiet = false, priority = 0 } = {}) {
  const started = performance.now();
  const header = `\n$ ${command} ${args.join(' ')}`;
  if (!quiet) console.log(header);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    if (priority !== 0 && child.pid !== undefined) {
      try {
        setPriority(child.pid, priority);
      } catch {
        // Without the right to renice, every suite runs at one priority: slower, not wrong.
      }
    }
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

/**
 * Whether a unit test file's text, or that of a test/support module it imports, matches `pattern`.
 */
function mentions(file, pattern, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (pattern.test(text)) return true;
  const imports = [...text.matchAll(/from '(\.\.?\/[^']+)'/g)].map((match) => join(dirname(file), match[1]));
  return imports.some((path) => path.startsWith(join('test', 'support')) && mentions(path, pattern, seen));
}

/**
 * Whether a unit test file needs the build: it names dist/ (the built CLI, the packed package, the
 * served bundle). The others run during the build.
 */
const needsBuild = (file) => mentions(file, /\bdist\//);

/**
 * What makes a unit test file run in a process of its own: it changes what the other files would
 * then see (a global, the environment, node:test's mocks, the agent's fetch).
 */
const OWN_PROCESS = /globalThis\.\w+\s*=[^=]|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|\bmock\.|installAgentFetch/;

/**
 * What puts a unit test file that may share a process in the second shared process: it starts a
 * server (each on a port of its own, closed by its file) or a process, or uses the demo server.
 * Kept apart from the files that touch neither, so a server left open by mistake holds only this
 * process, not the plain files' results.
 */
const SERVES = /demo\/server|createServer|listen\(|child_process/;

/**
 * The unit files that may share a process, imported by one entry file written for the run per
 * kind (SERVES or not): a process per file cost about 0.35 core-seconds each (tsx's loader and the
 * runtime's modules loaded again), most of what the plain files cost, and more for the files of
 * the demo server (its modules loaded again each time: 17 such files cost 25 core-seconds in
 * processes of their own, 9 in one). Each keeps its own tests and names; a failure still names
 * its test.
 * @returns the files to hand node:test: the shared entries (of two files or more), then the others.
 */
function unitEntries(files, name) {
  const mayShare = files.filter((file) => !mentions(file, OWN_PROCESS));
  const groups = [[`${name}-shared`, mayShare.filter((file) => !mentions(file, SERVES))], [`${name}-servers`, mayShare.filter((file) => mentions(file, SERVES))]];
  const entries = [];
  const shared = [];
  for (const [entryName, group] of groups) {
    if (group.length < 2) continue;
    const entry = `${RESULTS}/${entryName}.test.mjs`;
    writeFileSync(entry, group.map((file) => `import ${JSON.stringify(pathToFileURL(file).href)};\n`).join(''));
    entries.push(entry);
    shared.push(...group);
  }
  return [...entries, ...files.filter((file) => !shared.includes(file))];
}

/** A free TCP port on this machine, for a web-test-runner of its own beside another. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Unit: node:test through tsx, two processes at a time (the files that may share one in one,
 * unitEntries); the TAP copy (`<name>.tap`) carries the counts.
 */
function unitRun(files, name, priority) {
  const tapFile = `${RESULTS}/${name}.tap`;
  return run('node', ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...unitEntries(files, name)], { quiet: true, priority }).then(({ status, seconds }) => {
    const tap = existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '';
    const tapCount = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
    const failed = tapCount('fail') + tapCount('cancelled');
    // A run that exited non-zero without a failing test (crash, load error) counts as one failure.
    return { passed: tapCount('pass'), failed: failed + (status !== 0 && failed === 0 ? 1 : 0), failures: failedLeaves(tap).map((leaf) => `unit › ${leaf}`), status: 0, seconds };
  });
}

/**
 * Browser: web-test-runner for the groups named (BROWSER_GROUPS, web-test-runner.config.js), its
 * dev server on a port of its own (BROWSER_PORT: two runners start together);
 * test/support/count-reporter.js writes the counts.
 */
async function browserRun(groups, priority) {
  const port = await freePort();
  const { status, seconds } = await run('npx', ['web-test-runner'], { env: { BROWSER_GROUPS: groups.join(','), BROWSER_PORT: String(port) }, quiet: true, priority });
  const { passed, failed, failures = [] } = readJSON(`${RESULTS}/browser-${groups.join('+')}.json`) ?? { passed: 0, failed: 0 };
  // A run that exited non-zero without a failing test (crash, load error) counts as one failure.
  return { passed, failed: failed + (status !== 0 && failed === 0 ? 1 : 0), failures: failures.map((name) => `browser › ${name}`), status: 0, seconds };
}

/**
 * End-to-end: Playwright's JSON reporter for the projects named (playwright.config.ts).
 * @param output Playwright's output folder for this run, when not test-results/ (a run empties
 *   its output folder as it starts: two runs at once need two).
 */
async function e2eRun(projects, report, priority, output) {
  const args = ['playwright', 'test', ...projects.map((project) => `--project=${project}`), '--reporter=list,json', ...(output ? [`--output=${output}`] : [])];
  const { status, seconds } = await run('npx', args, { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report }, quiet: true, priority });
  const json = readJSON(report);
  const stats = json?.stats;
  const unexpected = stats?.unexpected ?? 0;
  // A run that exited non-zero without a failing test (crash, load error) counts as one failure.
  return { passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0), failed: unexpected + (status !== 0 && unexpected === 0 ? 1 : 0), failures: e2eFailures(json).map((name) => `e2e › ${name}`), status: 0, seconds };
}

/** Adds runs' counts; wall time as given. */
function sum(runs, seconds) {
  return { passed: runs.reduce((total, one) => total + one.passed, 0), failed: runs.reduce((total, one) => total + one.failed, 0), failures: runs.flatMap((one) => one.failures ?? []), status: 0, seconds };
}

const suites = [];
const started = performance.now();
const since = () => (performance.now() - started) / 1000;
console.log(loadLine('at the start'));
const endLoad = startLoadMeasure();

// The clients' folders, beside the build: the end-to-end suite is the first to need them.
const clients = installClientFolders({ priority: PRIORITY.build });

// 1. At once. Types: a type error fails the run as one failure.
const typecheck = run('npx', ['tsc', '--noEmit', '-p', '.'], { quiet: true, priority: PRIORITY.untimed }).then(({ status, seconds }) => {
  suites.push({ name: 'typecheck', passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, status, seconds, order: 0 });
});
const unitFiles = readdirSync('test/unit').filter((file) => file.endsWith('.test.ts')).map((file) => `test/unit/${file}`);
const unitBeforeBuild = unitRun(unitFiles.filter((file) => !needsBuild(file)), 'unit-before-build', PRIORITY.untimed);
const browserTimed = browserRun(['webmcp-on-timed'], PRIORITY.timed);

// The same build as `npm run build` (every output), so what is tested is what ships, with
// `--noCheck` handed to its last step (`tsc -p tsconfig.types.json`): that step then writes the
// same declarations without type-checking src/ first (about 6 of its 11 core-seconds), which the
// typecheck beside it does anyway, and the untimed suites wait for the build. The declarations
// themselves are still checked, with no @types in scope, by the packed package's consumer
// (test/unit/package.test.ts).
// Only while that step is the script's last (npm puts the arguments at the script's end).
const typesLast = /&& tsc -p tsconfig\.types\.json$/.test(JSON.parse(readFileSync('package.json', 'utf8')).scripts.build);
const build = await run('npm', ['run', 'build', ...(typesLast ? ['--', '--noCheck'] : [])], { priority: PRIORITY.build });
if (build.status !== 0) {
  await Promise.all([typecheck, unitBeforeBuild, browserTimed, clients]);
  console.log(loadLine('at the end'));
  const load = endLoad().line;
  writeFileSync(`${RESULTS}/summary.txt`, `build: failed\n${load}\n0 passed, 1 failed\n`);
  console.log(`\nthe build failed; no suite can run\n${load}\n0 passed, 1 failed`);
  process.exit(1);
}

// 2. After the build; the end-to-end projects that run a client's folder also after that is installed.
const afterBuild = since();
const unitAfterBuild = unitRun(unitFiles.filter((file) => needsBuild(file)), 'unit', PRIORITY.untimed);
const e2eUntimed = clients.then(() => e2eRun(['webmcp-on', 'webmcp-off'], `${RESULTS}/e2e.json`, PRIORITY.e2e));
const browserUntimed = browserRun(['webmcp-on', 'webmcp-off'], PRIORITY.browser);
const e2eTimed = browserTimed.then(() => e2eRun(['webmcp-on-timed'], `${RESULTS}/e2e-timed.json`, PRIORITY.timed, `${RESULTS}/e2e-timed-output`));
// The spec that times a whole MCP client's reads (playwright.config.ts, ALONE_SPECS): after the
// timed project, never beside it (both time their acts), above the niced suites.
const e2eAlone = Promise.all([e2eTimed, clients]).then(() => e2eRun(['webmcp-on-alone'], `${RESULTS}/e2e-alone.json`, PRIORITY.alone, `${RESULTS}/e2e-alone-output`));

const units = await Promise.all([unitBeforeBuild, unitAfterBuild]);
const browsers = await Promise.all([browserUntimed, browserTimed]);
const e2es = await Promise.all([e2eUntimed, e2eTimed, e2eAlone]);
// 3. A timed run that missed a bound beside the other suites runs once more with nothing beside
// it, and that run is the verdict: its bounds are a person's act and the runtime's time, not how
// busy our own suites (or the machine's other work) kept the cores. The first run's failures are
// printed, so a run that needed this says so.
const again = async (what, first, rerun) => {
  if (first.failed === 0) return first;
  console.log(`\n${what} failed beside the other suites; again, alone:\n${first.failures.map((name) => `  ${name}`).join('\n')}`);
  return rerun();
};
browsers[1] = await again('the timed browser group', browsers[1], () => browserRun(['webmcp-on-timed'], PRIORITY.alone));
e2es[1] = await again('the timed end-to-end project', e2es[1], () => e2eRun(['webmcp-on-timed'], `${RESULTS}/e2e-timed-again.json`, PRIORITY.alone, `${RESULTS}/e2e-timed-again-output`));
e2es[2] = await again('the Playwright MCP read timing', e2es[2], () => e2eRun(['webmcp-on-alone'], `${RESULTS}/e2e-alone-again.json`, PRIORITY.alone, `${RESULTS}/e2e-alone-again-output`));
suites.push({ name: 'unit', ...sum(units, since()), order: 1 });
suites.push({ name: 'browser', ...sum(browsers, since()), order: 2 });
suites.push({ name: 'e2e', ...sum(e2es, since() - afterBuild), order: 3 });
await typecheck;
console.log(`\nsuite times (from the start; the build ended at ${afterBuild.toFixed(1)} s): unit ${units[0].seconds.toFixed(1)} s before the build, ${units[1].seconds.toFixed(1)} s after; browser untimed ${browsers[0].seconds.toFixed(1)} s, timed ${browsers[1].seconds.toFixed(1)} s; e2e untimed ${e2es[0].seconds.toFixed(1)} s, timed ${e2es[1].seconds.toFixed(1)} s, alone ${e2es[2].seconds.toFixed(1)} s`);

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
console.log(`\n${loadLine('at the end')}`);
lines.push(endLoad().line);
lines.push(`${passed} passed, ${failed} failed (${((performance.now() - started) / 1000).toFixed(1)} s in all)`);
writeFileSync(`${RESULTS}/summary.txt`, `${lines.join('\n')}\n`);
console.log(`\n${lines.join('\n')}`);
process.exit(failed > 0 ? 1 : 0);
