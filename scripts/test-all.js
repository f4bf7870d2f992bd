#!/usr/bin/env node
/**
 * `npm test`: builds the bundles and the CLI, then runs every suite (unit in Node, browser in Chromium with
 * WebMCP on and off, end-to-end against the demo server) and ends with one line
 * `N passed, N failed` summing them all. Exits 1 when anything failed or a suite did not run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const RESULTS = '.test-results';
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

function run(command, args, env = {}) {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
}

function readJSON(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

const suites = [];

// The same build as `npm run build` (all four outputs), so what is tested is what ships.
if (run('npm', ['run', 'build']) !== 0) {
  writeFileSync(`${RESULTS}/summary.txt`, 'build: failed\n0 passed, 1 failed\n');
  console.log('\nthe build failed; no suite can run\n0 passed, 1 failed');
  process.exit(1);
}

// Types: a type error fails the run as one failure, before the suites spend minutes.
const typeStatus = run('npx', ['tsc', '--noEmit', '-p', '.']);
suites.push({ name: 'typecheck', passed: typeStatus === 0 ? 1 : 0, failed: typeStatus === 0 ? 0 : 1, status: typeStatus });

// Unit: node:test through tsx; the TAP copy carries the counts.
const unitFiles = readdirSync('test/unit').filter((file) => file.endsWith('.test.ts')).map((file) => `test/unit/${file}`);
const unitStatus = run('node', ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=tap', `--test-reporter-destination=${RESULTS}/unit.tap`, ...unitFiles]);
const tap = existsSync(`${RESULTS}/unit.tap`) ? readFileSync(`${RESULTS}/unit.tap`, 'utf8') : '';
const tapCount = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
suites.push({ name: 'unit', passed: tapCount('pass'), failed: tapCount('fail') + tapCount('cancelled'), status: unitStatus });

// Browser: web-test-runner; test/support/count-reporter.js writes the counts.
const browserStatus = run('npx', ['web-test-runner']);
suites.push({ name: 'browser', ...(readJSON(`${RESULTS}/browser.json`) ?? { passed: 0, failed: 0 }), status: browserStatus });

// End-to-end: Playwright's JSON reporter.
const e2eStatus = run('npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: `${RESULTS}/e2e.json` });
const e2eStats = readJSON(`${RESULTS}/e2e.json`)?.stats;
suites.push({ name: 'e2e', passed: (e2eStats?.expected ?? 0) + (e2eStats?.flaky ?? 0), failed: e2eStats?.unexpected ?? 0, status: e2eStatus });

const lines = [];
let passed = 0;
let failed = 0;
for (const suite of suites) {
  // A suite that exited non-zero without a failing test (crash, load error) counts as one failure.
  const suiteFailed = suite.failed + (suite.status !== 0 && suite.failed === 0 ? 1 : 0);
  lines.push(`${suite.name}: ${suite.passed} passed, ${suiteFailed} failed`);
  passed += suite.passed;
  failed += suiteFailed;
}
lines.push(`${passed} passed, ${failed} failed`);
writeFileSync(`${RESULTS}/summary.txt`, `${lines.join('\n')}\n`);
console.log(`\n${lines.join('\n')}`);
process.exit(failed > 0 ? 1 : 0);
