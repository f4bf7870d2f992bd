#!/usr/bin/env node
/**
 * `npm run fuzz`: a long session of the islands fuzzer (test/browser/fuzz-islands.on.test.ts,
 * issue 10 item 4) in Chromium with WebMCP on. FUZZ_RUNS generated pages (default 10 000) from
 * FUZZ_SEED (default: a new random seed, printed so a failure can be replayed with
 * `FUZZ_SEED=<seed> npm run fuzz`; FUZZ_PATH, printed with a failure, replays that run alone). Prints the seed, the runs, the failures (fast-check stops at
 * the first and shrinks it; the shrunk page and the broken property are printed), the time and
 * the run closest to the time bound. Exits 1 when a run failed or the session did not finish.
 */
import { spawn } from 'node:child_process';

const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS: ${process.env.FUZZ_RUNS} is not a positive integer`);
if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED: ${process.env.FUZZ_SEED} is not an integer`);
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
  process.exit(result.failures === 0 && code === 0 ? 0 : 1);
});
