#!/usr/bin/env node
/**
 * `npm run bench`: speed figures, measured in real Chromium
 * (WebMCP on) against the real demo server and the built bundle. Prints figures; asserts nothing.
 *
 * 1. Start-up: a page declaring 500 tools on fresh visits; ms from the last file start-up fetched
 *    arriving to the ready event, the same with a no-op host (the runtime's own work), and the
 *    longest task (Long Tasks API). Then startup-compare.js: the runtime against the floor (a plain
 *    registerTool loop) and the split floor (that loop in a second file) at 10, 100 and 500 tools,
 *    interleaved, each load in a new tab (an agent's first page of a site), then in one tab per
 *    variant (mcp-b left out) navigated from visit to visit (its next pages). Goals: ≤ 1.3× the floor, no task over 50 ms.
 * 2. Calls (`site.navigation {page: 2}`, the demo site map's second page): the first call of 10 fresh visits, 1 s after ready, interleaved
 *    with the floor's own tool on the same page without the runtime (goal: first call ≤ 1.5× a
 *    steady call); steady `executeTool` calls against the floor's tool (goal ≤ 1.05×) and against a
 *    plain `fetch`; the runtime's `execute` alone against a plain `fetch`.
 * `BENCH_ONLY=calls` runs part 2 alone.
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright';
import { startDemoServer } from '../demo/server/start.js';
import { launchOptions } from '../test/support/chromium.js';
import { startBenchServer } from './bench-server.js';
import { compareStartup } from './startup-compare.js';

const STARTUP_RUNS = 15;
const CALL_RUNS = 60;
/** Fresh visits whose first call is timed, and the pause before it (the agent's model turn), in ms. */
const FIRST_CALL_VISITS = 10;
const FIRST_CALL_PAUSE_MS = 1000;
const TOOL_COUNT = 500;

if (!existsSync('dist/capell-webmcp.js')) execSync('npm run build', { stdio: 'inherit' });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fixed = (value) => value.toFixed(2);

function benchPage(toolCount, { stubHost = false } = {}) {
  const tools = Array.from({ length: toolCount }, (_, index) => ({
    name: `bench.tool${index}`,
    description: `Benchmark tool ${index}: search the catalogue.`,
    inputSchema: {
      type: 'object',
      properties: { q: { type: 'string', minLength: 1, maxLength: 200 }, page: { type: 'integer', minimum: 1, maximum: 1000 }, filter: { type: 'object', properties: { tag: { type: ['string', 'null'] } } } },
      required: ['q'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object' },
    effect: 'read',
    binding: { type: 'search', target: 'pages' },
  }));
  const island = JSON.stringify({ capellAgentSchema: 1, tools, messages: {} }).replace(/</g, '\\u003C');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>
<script>
  ${stubHost ? "document.modelContext = { registerTool: () => Promise.resolve() }; // the runtime's own cost only" : ''}
  window.longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.longTasks.push(entry.duration); }).observe({ type: 'longtask', buffered: true });
  document.addEventListener('capell-webmcp:ready', () => { window.readyAt = performance.now(); console.debug('capell-bench:done'); });
</script>
<script type="application/json" data-capell-agent-tools>${island}</script>
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script>
</head><body><p>bench</p></body></html>`;
}

/** Opens the 500-tool page at `url` STARTUP_RUNS times; ms from the last dist/ file arriving to ready. */
async function measureStartup(browser, url) {
  const startups = [];
  const longest = [];
  let registered = 0;
  for (let run = 0; run < STARTUP_RUNS; run++) {
    const page = await browser.newPage();
    // Ready is told by a console message: evaluating in the page before it would run Playwright's
    // script on the main thread being measured.
    const done = new Promise((resolve) => page.on('console', (message) => { if (message.text() === 'capell-bench:done') resolve(undefined); }));
    await page.goto(url, { waitUntil: 'commit' });
    await done;
    const figures = await page.evaluate(async () => {
      const report = await window.capellWebMCP.ready;
      await new Promise((resolve) => setTimeout(resolve, 50)); // let the long-task observer deliver
      // The files start-up fetched (the call chunk's idle prefetch comes after ready).
      const chunks = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/dist/') && entry.startTime <= window.readyAt);
      const arrived = Math.max(...chunks.map((entry) => entry.responseEnd));
      return { ms: window.readyAt - arrived, longest: Math.max(0, ...window.longTasks), registered: report.registered.length };
    });
    startups.push(figures.ms);
    longest.push(figures.longest);
    registered = figures.registered;
    await page.close();
  }
  return { startups, longest, registered };
}

/** The start-up figures: bench.js's own 500-tool page, then the comparison with the floor. */
async function startUpFigures() {
  const on = await measureStartup(browser, bench.page(benchPage(TOOL_COUNT)));
  // A browser without WebMCP, given a host whose registerTool does nothing: what is left is the
  // runtime's own work (islands, normalisation, building tools), without Chromium's registration.
  const own = await measureStartup(browserWithout, bench.page(benchPage(TOOL_COUNT, { stubHost: true })));
  console.log(`start-up, ${TOOL_COUNT} declared tools (${on.registered} registered), ${STARTUP_RUNS} runs:`);
  console.log(`  ready after the last start-up file arrived: median ${fixed(median(on.startups))} ms, max ${fixed(Math.max(...on.startups))} ms (fresh visits; the goals are the ratios to the floor below)`);
  console.log(`  of which the runtime's own work (same page, registerTool a no-op): median ${fixed(median(own.startups))} ms`);
  console.log(`  longest task while starting: max ${fixed(Math.max(...on.longest))} ms (budget 50 ms; 0 = no task over 50 ms)`);
  await compareStartup(browser, server.app, { runs: Number(process.env.BENCH_RUNS ?? 20) });
}

const server = await startDemoServer({ host: '127.0.0.1', port: 0 });
const bench = await startBenchServer(server.app);
const browser = await chromium.launch(launchOptions({ webmcp: true }));
const browserWithout = await chromium.launch(launchOptions({ webmcp: false }));
try {
  // BENCH_ONLY=calls skips the start-up figures (a few seconds instead of about ten minutes).
  if (process.env.BENCH_ONLY !== 'calls') await startUpFigures();

  // First calls: one per fresh visit (a new page in one context: the chunks come from the HTTP
  // cache), each after a pause that stands for the agent's model reading the tools (the runtime
  // loads the call chunk at idle meanwhile: tool-execute.ts prefetchCallModule). Interleaved with
  // the floor's visits: the same page without the runtime, where a plain registerTool tool fetches
  // the same URL (a page's first call is slower for the browser too). Steady calls on the last page.
  const bare = (await (await fetch(`${server.url}/products/ridgeline-trail-runner`)).text())
    .replace(/<script type="module" src="\/dist\/capell-webmcp.js"[^>]*><\/script>/, '');
  const floorUrl = bench.page(bare);
  const calls = await browser.newContext();
  const firstCalls = { runtime: [], floor: [] };
  let call;
  let floorCall;
  for (let visit = 0; visit < FIRST_CALL_VISITS; visit++) {
    const runs = visit === FIRST_CALL_VISITS - 1 ? CALL_RUNS : 0;
    const page = await calls.newPage();
    await page.goto(`${server.url}/products/ridgeline-trail-runner`);
    call = await page.evaluate(async ({ runs, pauseMs }) => {
      await window.capellWebMCP.ready;
      const context = document.modelContext;
      const tool = (await context.getTools()).find((candidate) => candidate.name === 'site.navigation');
      const input = { page: 2 };
      const url = '/agent/v1/navigation?page=2';
      const time = async (run) => { const start = performance.now(); await run(); return performance.now() - start; };
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const first = await time(() => context.executeTool(tool, input));
      const viaTool = [];
      const viaFetch = [];
      for (let i = 0; i < runs; i++) {
        // Interleaved so both see the same server and cache state.
        viaFetch.push(await time(async () => (await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'omit', redirect: 'error' })).json()));
        viaTool.push(await time(() => context.executeTool(tool, input)));
      }
      return { first, viaTool, viaFetch };
    }, { runs, pauseMs: FIRST_CALL_PAUSE_MS });
    firstCalls.runtime.push(call.first);
    await page.close();
    const floorPage = await calls.newPage();
    await floorPage.goto(floorUrl);
    floorCall = await floorPage.evaluate(async ({ runs, pauseMs }) => {
      const context = document.modelContext;
      await context.registerTool({
        name: 'floor.navigation', description: 'The floor: a plain tool that fetches the site map.',
        inputSchema: { type: 'object', properties: { page: { type: 'integer' } } }, annotations: { readOnlyHint: true },
        execute: async ({ page }) => {
          const response = await fetch(`/agent/v1/navigation?page=${page}`, { headers: { Accept: 'application/json' }, credentials: 'omit', redirect: 'error' });
          return { content: [{ type: 'text', text: JSON.stringify((await response.json()).data) }] };
        },
      });
      const tool = (await context.getTools()).find((candidate) => candidate.name === 'floor.navigation');
      const time = async (run) => { const start = performance.now(); await run(); return performance.now() - start; };
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const first = await time(() => context.executeTool(tool, { page: 2 }));
      const steady = [];
      for (let i = 0; i < runs; i++) steady.push(await time(() => context.executeTool(tool, { page: 2 })));
      return { first, steady };
    }, { runs, pauseMs: FIRST_CALL_PAUSE_MS });
    firstCalls.floor.push(floorCall.first);
    await floorPage.close();
  }
  await calls.close();
  // The runtime's own cost, without the browser's WebMCP dispatch: capture the execute function
  // the runtime registers (library build) and call it directly. A benchmark probe, not a test.
  const direct = await browser.newPage();
  await direct.goto(bench.page(bare));
  const executeFigures = await direct.evaluate(async (runs) => {
    const captured = new Map();
    const register = document.modelContext.registerTool.bind(document.modelContext);
    document.modelContext.registerTool = (tool, options) => { captured.set(tool.name, tool); return register(tool, options); };
    const { start } = await import('/dist/lib/index.js');
    await start({ log: 'silent' }).ready;
    const tool = captured.get('site.navigation');
    const url = '/agent/v1/navigation?page=2';
    const time = async (run) => { const begin = performance.now(); await run(); return performance.now() - begin; };
    await tool.execute({ page: 2 });
    const viaExecute = [];
    const viaFetch = [];
    for (let i = 0; i < runs; i++) {
      viaFetch.push(await time(async () => (await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'omit', redirect: 'error' })).json()));
      viaExecute.push(await time(() => tool.execute({ page: 2 })));
    }
    return { viaExecute, viaFetch };
  }, CALL_RUNS);
  const executeMedian = median(executeFigures.viaExecute);
  const directFetchMedian = median(executeFigures.viaFetch);
  const toolMedian = median(call.viaTool);
  const fetchMedian = median(call.viaFetch);
  console.log(`read call, site.navigation {page: 2}, ${CALL_RUNS} runs each:`);
  const firstMedian = median(firstCalls.runtime);
  const floorFirstMedian = median(firstCalls.floor);
  const floorSteadyMedian = median(floorCall.steady);
  console.log(`  first call of a visit, ${FIRST_CALL_PAUSE_MS} ms after ready (the call chunk prefetched at idle), ${FIRST_CALL_VISITS} visits: median ${fixed(firstMedian)} ms (${fixed(Math.min(...firstCalls.runtime))}–${fixed(Math.max(...firstCalls.runtime))}); ${fixed(firstMedian / toolMedian)}× a steady call through executeTool (goal ≤ 1.5×)`);
  console.log(`  the floor's own tool (a plain registerTool tool fetching the same URL), same visits: first call median ${fixed(floorFirstMedian)} ms, steady ${fixed(floorSteadyMedian)} ms: ${fixed(floorFirstMedian / floorSteadyMedian)}×; the runtime's steady call ${fixed(toolMedian / floorSteadyMedian)}× the floor's (goal ≤ 1.05×)`);
  console.log(`  through the browser (executeTool): median ${fixed(toolMedian)} ms; plain fetch median ${fixed(fetchMedian)} ms; ratio ${fixed(toolMedian / fetchMedian)}×`);
  console.log(`  the runtime's execute alone: median ${fixed(executeMedian)} ms; plain fetch median ${fixed(directFetchMedian)} ms; ratio ${fixed(executeMedian / directFetchMedian)}× (budget 1.2×)`);
} finally {
  await browser.close();
  await browserWithout.close();
  await bench.close();
  await server.close();
}
