#!/usr/bin/env node
/**
 * `npm run fuzz`: the property tests at their full counts.
 *
 * 1. The Node property tests (every test/unit file that takes its counts from
 *    test/support/property-runs.ts) with FUZZ_FULL=1, so each runs its full count of generated
 *    cases instead of the suite's few.
 * 2. A long session of the islands fuzzer (test/browser/fuzz-islands.on.test.ts) in Chromium with
 *    WebMCP on: FUZZ_RUNS generated pages (default 10 000) from FUZZ_SEED (default: a new random
 *    seed, printed so a failure can be replayed with `FUZZ_SEED=<seed> npm run fuzz`; FUZZ_PATH,
 *    printed with a failure, replays that run alone). Prints the seed, the runs, the failures
 *    (fast-check stops at the first and shrinks it; the shrunk page and the broken property are
 *    printed), the time and the run closest to the time bound.
 *
 * Exits 1 when a property test failed, a run failed or the session did not finish.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS: ${process.env.FUZZ_RUNS} is not a positive integer`);
if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED: ${process.env.FUZZ_SEED} is not an integer`);

// 1. Found by their import, so a new property test is fuzzed without a list to keep up to date.
const propertyFiles = readdirSync('test/unit')
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/unit/${file}`)
  .filter((path) => readFileSync(path, 'utf8').includes('support/property-runs'));
console.log(`fuzz: node property tests at their full counts (FUZZ_FULL=1): ${propertyFiles.join(', ')}`);
const node = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=dot', ...propertyFiles], {
  env: { ...process.env, FUZZ_FULL: '1' },
  stdio: 'inherit',
});
const nodeFailed = node.status !== 0;
console.log(`fuzz: node property tests ${nodeFailed ? `failed (exit ${node.status ?? node.signal})` : 'passed'}`);

// 2.
console.log(`fuzz: seed ${seed}, ${runs} runs (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run fuzz)`);
const child = spawn('npx', ['web-test-runner', '--config', 'bench/fuzz.wtr.config.js'], {
  env: { ...process.env, FUZZ_SEED: String(seed), FUZZ_RUNS: String(runs) },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
child.stdout.on('data', (chunk) => { output += chunk; });
child.on('close', (code) => {
  // The test logs one line: CAPELL_FUZZ {json}.
  // eslint-disable-next-line no-control-regex
  const line = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((text) => text.includes('CAPELL_FUZZ {'));
  if (!line) {
    console.log(output);
    console.log(`fuzz: the session did not report (web-test-runner exited ${code})`);
    process.exit(1);
  }
  const result = JSON.parse(line.slice(line.indexOf('{')));
  console.log(`fuzz: seed ${result.seed}, runs ${result.runs}, failures ${result.failures}, ${result.seconds} s; largest page ${result.largestKB} KB, most tools registered ${result.mostRegistered}; closest to the time bound: ${result.closestToBound.ms} ms for ${result.closestToBound.kb} KB (bound ${result.closestToBound.boundMs} ms)`);
  if (result.counterexample) {
    console.log(`fuzz: failure: ${result.counterexample.error}\nfuzz: shrunk page (islands, each cut to 200 code units): ${JSON.stringify(result.counterexample.islands)}`);
    console.log(`fuzz: replay the shrunk failure alone: FUZZ_SEED=${result.seed} FUZZ_PATH=${result.path} npm run fuzz`);
  }
  process.exit(result.failures === 0 && code === 0 && !nodeFailed ? 0 : 1);
});
