import { defineConfig } from '@playwright/test';
import { launchOptions } from './test/support/chromium.js';

/**
 * End-to-end tests: the real demo server (started per worker by test/e2e/demo-fixture.ts) and
 * the built bundle in system Chromium, with WebMCP on (project "webmcp-on") and off ("webmcp-off").
 */
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 30_000,
  // Two workers for two cores: much of an e2e test is waiting (the page, the panel's input protection,
  // write timeouts). Each worker starts its own demo server (demo-fixture.ts); files run whole in one worker.
  workers: 2,
  reporter: 'list',
  projects: [
    { name: 'webmcp-on', testMatch: /\.on\.spec\.ts$/, use: { launchOptions: launchOptions({ webmcp: true }) } },
    { name: 'webmcp-off', testMatch: /\.off\.spec\.ts$/, use: { launchOptions: launchOptions({ webmcp: false }) } },
  ],
});
