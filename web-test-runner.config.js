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

/**
 * Files whose tests time a person's act or a bound in Chromium (the panel's input protection, a
 * write's wait, islands rewritten for seconds, work bounds in ms): one page at a time, in a group
 * of their own. `npm test` runs that group in a runner of its own at normal priority beside the
 * rest, which runs niced (scripts/test-all.js), so the timed pages get a core when they need one.
 * The other files run two pages at a time: most of a short browser test file's time is its page
 * loading the source modules.
 */
const TIMED_FILES = ['confirm-panel', 'submit-guard', 'write-lifecycle', 'live-registry-attacks', 'forms', 'bounds', 'site-sent-forms'].map((name) => `test/browser/${name}.on.test.ts`);

const chromium = (webmcp, concurrency) => playwrightLauncher({ product: 'chromium', launchOptions: launchOptions({ webmcp }), concurrency });

const GROUPS = [
  { name: 'webmcp-on', files: ['test/browser/**/*.on.test.ts', ...TIMED_FILES.map((file) => `!${file}`)], browsers: [chromium(true, 2)] },
  { name: 'webmcp-off', files: 'test/browser/**/*.off.test.ts', browsers: [chromium(false, 2)] },
  { name: 'webmcp-on-timed', files: TIMED_FILES, browsers: [chromium(true, 1)] },
];

/**
 * BROWSER_GROUPS (comma-separated group names) runs only those groups, and the counts go to
 * `.test-results/browser-<names joined by +>.json`: `npm test` runs the untimed groups and the timed
 * group in two runners at once (scripts/test-all.js), each on the port BROWSER_PORT names (two
 * runners looking for a free port at the same moment would both take 8000). Unset: every group,
 * the first free port from 8000.
 */
const only = process.env.BROWSER_GROUPS?.split(',').filter(Boolean);
for (const name of only ?? []) {
  if (!GROUPS.some((group) => group.name === name)) throw new Error(`BROWSER_GROUPS: no group named ${JSON.stringify(name)} (groups: ${GROUPS.map((group) => group.name).join(', ')})`);
}
const port = process.env.BROWSER_PORT ? Number(process.env.BROWSER_PORT) : undefined;

export default {
  nodeResolve: true,
  rootDir: '.',
  ...(port ? { port } : {}),
  // Pages at once per browser, as each group's launcher sets; browsers at once: two.
  concurrency: 1,
  concurrentBrowsers: 2,
  // A test's own waits are bounded in the test; this only catches a hang. A busy 2-core machine
  // (npm run test:busy) took over 10 s for a host polyfill's first calls.
  testFramework: { config: { timeout: 30000 } },
  // A fresh clone's first Chromium starts beside the unit suite and the e2e browsers (npm test
  // runs them together): 30 s (the default) was once not enough to open the first test page.
  browserStartTimeout: 120_000,
  middleware: [serveAgentAPI],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  reporters: [defaultReporter(), countReporter({ suite: only ? `browser-${only.join('+')}` : 'browser' })],
  // In this order the scheduler gives browsers their turn: the timed group last.
  groups: only ? GROUPS.filter((group) => only.includes(group.name)) : GROUPS,
};
