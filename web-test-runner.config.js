/**
 * Browser tests in real Chromium (system binary), once with WebMCP on and once with it off.
 * The dev server answers the Core read API with the real demo app, plus a few fixture routes
 * that misbehave on purpose (test/support/fixture-routes.js).
 */
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { createDemoApp } from './demo/server/app.js';
import { handleFixtureRoute } from './test/support/fixture-routes.js';
import { handleAgentGateRoute } from './test/support/agentgate-routes.js';
import { launchOptions } from './test/support/chromium.js';
import { countReporter } from './test/support/count-reporter.js';
import { defaultReporter } from '@web/test-runner';

const demo = createDemoApp();

/** Koa middleware: hand API and fixture paths to plain node handlers. */
function serveAgentAPI(context, next) {
  const { path } = context;
  // AgentGate: the demo's manifest, signed endpoints and handoff polls, the demo agent's key directory, and their fixtures.
  const agentGate = handleAgentGateRoute(context.req, context.res, path, demo);
  if (agentGate) {
    context.respond = false;
    return agentGate;
  }
  if (path.startsWith('/test-fixtures/')) {
    context.respond = false;
    return handleFixtureRoute(context.req, context.res);
  }
  if (/^\/(de\/)?agent\/v1\//.test(path)) {
    context.respond = false;
    return demo.handle(context.req, context.res);
  }
  return next();
}

export default {
  nodeResolve: true,
  rootDir: '.',
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  middleware: [serveAgentAPI],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  reporters: [defaultReporter(), countReporter({ suite: 'browser' })],
  groups: [
    {
      name: 'webmcp-on',
      files: 'test/browser/**/*.on.test.ts',
      browsers: [playwrightLauncher({ product: 'chromium', launchOptions: launchOptions({ webmcp: true }) })],
    },
    {
      name: 'webmcp-off',
      files: 'test/browser/**/*.off.test.ts',
      browsers: [playwrightLauncher({ product: 'chromium', launchOptions: launchOptions({ webmcp: false }) })],
    },
  ],
};
