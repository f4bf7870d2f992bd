/**
 * web-test-runner config of `npm run fuzz` (bench/fuzz.js): the repo's browser config (its dev
 * server, the demo API, the esbuild plugin) running only test/browser/fuzz-islands.on.test.ts in
 * Chromium with WebMCP on, with the session's seed and runs given to the page as
 * window.CAPELL_FUZZ (FUZZ_SEED, FUZZ_RUNS, FUZZ_PATH), no time limit on the session, and no counts written
 * to .test-results (npm test's summary stays its own).
 */
import { defaultReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import base from '../web-test-runner.config.js';
import { launchOptions } from '../test/support/chromium.js';

const settings = { seed: Number(process.env.FUZZ_SEED), runs: Number(process.env.FUZZ_RUNS), ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}) };
if (!Number.isSafeInteger(settings.seed) || !Number.isSafeInteger(settings.runs) || settings.runs < 1) {
  throw new Error('bench/fuzz.wtr.config.js: set FUZZ_SEED and FUZZ_RUNS (integers; run it through npm run fuzz)');
}

/** A day: a session of 10 000 runs takes minutes; the runner's own 2-minute file limit would end it. */
const DAY_MS = 24 * 60 * 60 * 1000;

export default {
  ...base,
  testsFinishTimeout: DAY_MS,
  testFramework: { config: { timeout: 0 } },
  reporters: [defaultReporter()],
  groups: undefined,
  files: ['test/browser/fuzz-islands.on.test.ts'],
  browsers: [playwrightLauncher({ product: 'chromium', launchOptions: launchOptions({ webmcp: true }), concurrency: 1 })],
  testRunnerHtml: (testFramework) => `<!DOCTYPE html><html><head><script>window.CAPELL_FUZZ = ${JSON.stringify(settings)};</script></head><body><script type="module" src="${testFramework}"></script></body></html>`,
};
