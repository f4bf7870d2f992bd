import { defineConfig } from '@playwright/test';
import { launchOptions } from './test/support/chromium.js';

/**
 * Specs that assert a person's click lands inside a short window (the panel's input protection,
 * INPUT_PROTECTION_MS = 500 ms after it opens), or that ready comes before load (the load hold's
 * bound is MAX_LOAD_HOLD_MS = 1000 ms: strict-csp): they run in a project of their own, on one
 * worker, and `npm test` (scripts/test-all.js) runs that project at normal priority beside the
 * others, which run niced, so the untimed workers never hold the core a timed act needs.
 */
export const TIMED_SPECS = /(confirm-panel|strict-csp|demo-form-builder-early-click)\.on\.spec\.ts$/;

/**
 * The Playwright MCP read timing (every read under 1.5 s, of which the client itself spends about
 * 1 s settling): it times a whole client process, so `npm test` runs its project after the timed
 * one (never beside it), above the niced untimed projects, and once more alone only when it
 * missed its bound there (scripts/test-all.js).
 */
export const ALONE_SPECS = /mcp-read-timing\.on\.spec\.ts$/;

/**
 * End-to-end tests: the real demo server (started per worker by test/e2e/demo-fixture.ts) and
 * the built bundle in system Chromium, with WebMCP on (projects "webmcp-on", "webmcp-on-timed" and "webmcp-on-alone")
 * and off ("webmcp-off").
 */
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 30_000,
  // Four workers on two cores: much of an e2e test is waiting (a real client's settle, a write's
  // wait, the panel's input protection); with two the cores stood a third idle once the unit and
  // browser suites were done (npm test, 2026-12-02: 186.6 s in all with two workers, 177.6 with
  // three, 166.2 with four, every core busy to the end). Each worker starts its own demo server
  // and keeps one tab (demo-fixture.ts, sharedTabTest). In the untimed projects tests, not files, are dealt to the
  // workers (fullyParallel), so no long file keeps one worker busy after the other is done; a
  // describe that needs one worker says so (test.describe.configure).
  workers: 4,
  reporter: 'list',
  projects: [
    // One worker for WebMCP off (its few tests need a browser of their own), listed first so it
    // runs beside the others from the start rather than as a tail of four fresh workers.
    { name: 'webmcp-off', testMatch: /\.off\.spec\.ts$/, workers: 1, use: { launchOptions: launchOptions({ webmcp: false }) } },
    { name: 'webmcp-on', testMatch: /\.on\.spec\.ts$/, testIgnore: [TIMED_SPECS, ALONE_SPECS], fullyParallel: true, use: { launchOptions: launchOptions({ webmcp: true }) } },
    { name: 'webmcp-on-timed', testMatch: TIMED_SPECS, workers: 1, use: { launchOptions: launchOptions({ webmcp: true }) } },
    { name: 'webmcp-on-alone', testMatch: ALONE_SPECS, workers: 1, use: { launchOptions: launchOptions({ webmcp: true }) } },
  ],
});
