/**
 * Start-up against the floor, measured in one run, interleaved, in real
 * Chromium with native WebMCP: the same island of N tools registered by
 * - floor: a plain loop that parses the island and calls `registerTool` for each tool;
 * - split: the same loop in a second file, which a 0.1 KB first file imports where WebMCP exists:
 *   the least a script does that, like this runtime, must not load its rules in a browser without
 *   WebMCP; what it costs over the floor is the price of that shape, the rest of the runtime's is
 *   its own (its size and its checks);
 * - module: this runtime's script-tag module build (`dist/capell-webmcp.js` and its chunks);
 * - iife: this runtime's classic script (`dist/capell-webmcp.iife.js`: the start code, loading the chunks);
 * - single: the classic script with everything inlined (`dist/capell-webmcp.single.iife.js`);
 * - mcp-b: `@mcp-b/global`'s published browser bundle (`dist/index.iife.js`, a classic script
 *   that wraps the native `document.modelContext` in its MCP server when it runs), then the
 *   floor's loop registering through it (the way a site adopting that package registers tools).
 * Each variant keeps one browser context (a returning visitor's warm HTTP cache; the first two
 * loads warm it and are not counted; these contexts compile the scripts afresh on each load, where
 * a real profile would keep a code cache); the variants' order is shuffled each round
 * (roundOrder). The pages and
 * scripts come over real HTTP from bench-server.js (routing would turn the cache off), the runtime
 * from the demo's /dist/ with the caching a site should serve it with (hashed chunks immutable,
 * the entry revalidated by ETag). For each: gzip bytes of the scripts fetched before everything was registered, ms from the
 * script's bytes arriving (its first file's responseEnd) to all registered (median of RUNS loads,
 * with the spread p10–p90), the longest task and the loads with a task over 50 ms (Long Tasks API),
 * and ms from the navigation's start to all registered (median: what an agent waits for after it
 * navigates; the same page for every variant), and in how many loads every tool was registered
 * before the page's `load` event (goal: 19 of 20 or better; agent clients read the tool list at
 * load): listed by `getTools()` called at load, and every `registerTool` settled before it
 * (Chromium lists a tool at once but settles its promise a few ms later, after load even for the
 * floor's loop). Those loads each open a new tab, so each gets a fresh renderer, as an agent's
 * first page of a site does; then the same again, without mcp-b, in one tab per variant navigated
 * from visit to visit, as an agent's next pages of the site are (the renderer, and what V8
 * compiled in it, stay). Prints figures and ratios to the floor; asserts nothing.
 */
import { readFileSync } from 'node:fs';
import { startBenchServer } from './bench-server.js';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

/** @mcp-b/global's IIFE bundle (a devDependency), served to the bench page at MCP_B_PATH. */
const MCP_B_BUNDLE = createRequire(import.meta.url).resolve('@mcp-b/global/iife');
const MCP_B_PATH = '/bench/mcp-b-global.js';

/** The floor's script: parse the island, register every tool, report when all settled. */
export const FLOOR_SCRIPT = `
const t0 = performance.now();
const island = document.querySelector('script[data-capell-agent-tools]');
const tools = JSON.parse(island.textContent).tools;
Promise.allSettled(tools.map((tool) => document.modelContext.registerTool({
  name: tool.name, description: tool.description, inputSchema: tool.inputSchema,
  annotations: { readOnlyHint: true },
  execute: async () => ({ content: [{ type: 'text', text: '' }] }),
}))).then(() => { window.doneAt = performance.now(); window.startedAt = t0; console.debug('capell-bench:done'); });
`;

/**
 * The split floor: the floor's loop in a second file (`SPLIT_LOOP_PATH`, immutable as the
 * runtime's chunks are), which a small first file imports where WebMCP exists: the least any
 * script has to do that must not load its rules in a browser without WebMCP, as the runtime must
 * not (a browser without WebMCP loads the entry alone).
 */
const SPLIT_ENTRY_SCRIPT = `if (document.modelContext) import('./split-loop.js');\n`;
const SPLIT_LOOP_PATH = '/bench/split-loop.js';

/** The bench page: N search tools sharing one shape (as a site's catalogue tools do). */
function island(count) {
  const tools = Array.from({ length: count }, (_, index) => ({
    name: `bench.tool${index}`,
    description: `Benchmark tool ${index}: search the catalogue.`,
    inputSchema: {
      type: 'object',
      properties: { q: { type: 'string', minLength: 1, maxLength: 200 }, page: { type: 'integer', minimum: 1, maximum: 1000 } },
      required: ['q'],
      additionalProperties: false,
    },
    effect: 'read',
    binding: { type: 'search', target: 'pages' },
  }));
  return JSON.stringify({ capellAgentSchema: 1, tools, messages: {} }).replace(/</g, '\\u003C');
}

/** The bench page for `count` tools and a variant (floor, split, module, iife, single, mcp-b); its script from the bench origin. */
export function page(count, variant) {
  const script = {
    floor: '<script type="module" src="/bench/floor.js"></script>',
    split: '<script type="module" src="/bench/split-entry.js"></script>',
    module: '<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script>',
    iife: '<script defer src="/dist/capell-webmcp.iife.js" data-capell-webmcp data-log="silent"></script>',
    single: '<script defer src="/dist/capell-webmcp.single.iife.js" data-capell-webmcp data-log="silent"></script>',
    // Parser-blocking, as its README's script tag: installed before the loop runs.
    'mcp-b': `<script src="${MCP_B_PATH}"></script><script type="module" src="/bench/floor.js"></script>`,
  }[variant];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>
<script>
  window.longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.longTasks.push(entry.duration); }).observe({ type: 'longtask', buffered: true });
  document.addEventListener('capell-webmcp:ready', () => { window.doneAt = performance.now(); console.debug('capell-bench:done'); });
  // What an agent client sees at load (Playwright MCP reads the tools then).
  addEventListener('load', () => { document.modelContext.getTools().then((tools) => { window.toolsAtLoad = tools.length; }); });
</script>
<script type="application/json" data-capell-agent-tools>${island(count)}</script>
${script}
</head><body><p>bench</p></body></html>`;
}

const gzipOf = new Map();
function gzipBytes(path) {
  const bench = { '/bench/floor.js': FLOOR_SCRIPT, [SPLIT_LOOP_PATH]: FLOOR_SCRIPT, '/bench/split-entry.js': SPLIT_ENTRY_SCRIPT };
  const text = () => bench[path] ?? readFileSync(path === MCP_B_PATH ? MCP_B_BUNDLE : `.${path}`);
  if (!gzipOf.has(path)) gzipOf.set(path, gzipSync(text(), { level: 9 }).length);
  return gzipOf.get(path);
}

/**
 * One load of `url` in `context` (one per variant, kept across loads: a returning visitor's warm cache),
 * in a new tab (a fresh renderer, as an agent's first page of a site gets), or in `tab`, navigated
 * (its renderer kept, as an agent's next page of the site gets).
 * @returns the load's figures (ms from the script's bytes, `fromNavigation` ms, the longest task,
 *   tools at load, settled before load) and, unless `bytes` is false, the gzip bytes of the scripts
 *   fetched before ready (read from ./dist relative to the working directory: run from the
 *   repository root, and only for the build there).
 */
export async function load(context, url, { bytes = true, tab: kept = undefined } = {}) {
  const tab = kept ?? await context.newPage();
  // Done is told by a console message: polling the page (waitForFunction) would inject Playwright's
  // script and run it on every frame, on the main thread the start-up is measured on.
  let onConsole;
  const done = new Promise((resolve) => {
    onConsole = (message) => { if (message.text() === 'capell-bench:done') resolve(undefined); };
    tab.on('console', onConsole);
  });
  let figures;
  try {
    await tab.goto(url, { waitUntil: 'commit' });
    // @mcp-b/global at 500 tools takes seconds (each registerTool awaits its re-sync of every native tool).
    await Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error(`${url} not done in 180 s`)), 180_000).unref())]);
    // Agent clients read the tool list at load (Playwright MCP snapshots then): were all settled by then?
    await tab.waitForLoadState('load');
    await tab.waitForFunction(() => window.toolsAtLoad !== undefined);
    await tab.waitForTimeout(30); // let the long-task observer deliver
    figures = await tab.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      const scripts = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/dist/') || entry.name.includes('/bench/'));
      const first = Math.min(...scripts.map((entry) => entry.responseEnd));
      const before = scripts.filter((entry) => entry.startTime <= window.doneAt).map((entry) => new URL(entry.name).pathname);
      // performance.now() counts from the navigation's start: what an agent waits for after it navigates.
      return {
        ms: window.doneAt - first, fromNavigation: window.doneAt, before, longest: Math.max(0, ...window.longTasks), over50: window.longTasks.some((duration) => duration > 50),
        toolsAtLoad: window.toolsAtLoad,
        // doneAt is when every registerTool had settled (the floor) or the ready event (the runtime, later still).
        settledBeforeLoad: window.doneAt <= navigation.loadEventStart,
      };
    });
  } finally {
    tab.off('console', onConsole);
    if (!kept) await tab.close();
  }
  return { ...figures, bytes: bytes ? figures.before.reduce((sum, path) => sum + gzipBytes(path), 0) : undefined };
}

/**
 * The order of round `round` of `count` variants: a shuffle seeded by the round (mulberry32), so a
 * run is repeatable and every variant follows every other about as often (turning a fixed order
 * by one each round would keep each variant's predecessor).
 * @returns the variants' indexes, e.g. [2, 0, 1]
 */
export function roundOrder(count, round) {
  let seed = (round + 1) * 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other], order[index]];
  }
  return order;
}

/** The `q` quantile of `values` (0.5: the median), by rank. */
export const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];

/**
 * Runs the comparison and prints one table per tool count.
 * @param browser a Playwright Chromium with WebMCP on; `app` the demo app (demo/server/app.js);
 *   `variants` a subset of floor, split, module, iife, single, mcp-b (floor first: the ratios need it).
 */
export async function compareStartup(browser, app, { counts = [10, 100, 500], runs = 20, variants = ['floor', 'split', 'module', 'iife', 'single', 'mcp-b'] } = {}) {
  const mcpB = JSON.parse(readFileSync(MCP_B_BUNDLE.replace(/dist\/index\.iife\.js$/, 'package.json'), 'utf8'));
  const server = await startBenchServer(app);
  server.script('/bench/floor.js', FLOOR_SCRIPT);
  server.script('/bench/split-entry.js', SPLIT_ENTRY_SCRIPT);
  server.script(SPLIT_LOOP_PATH, FLOOR_SCRIPT, { immutable: true });
  server.script(MCP_B_PATH, readFileSync(MCP_B_BUNDLE));
  console.log(`\nfloor: a plain registerTool loop; split: the loop in a second file, imported where WebMCP exists; module, iife, single: this runtime; mcp-b: ${mcpB.name} ${mcpB.version} (its IIFE) + the floor's loop`);
  try {
    for (const count of counts) {
      const urls = Object.fromEntries(variants.map((variant) => [variant, server.page(page(count, variant))]));
      const results = Object.fromEntries(variants.map((variant) => [variant, []]));
      const contexts = Object.fromEntries(await Promise.all(variants.map(async (variant) => [variant, await browser.newContext()])));
      // Two warming loads: the HTTP cache, and a code cache where the browser keeps one.
      for (let warm = 0; warm < 2; warm++) for (const variant of variants) await load(contexts[variant], urls[variant]);
      // A fixed order would always put the floor after mcp-b's heavy load: each round is shuffled.
      for (let run = 0; run < runs; run++) {
        for (const index of roundOrder(variants.length, run)) {
          const variant = variants[index];
          results[variant].push(await load(contexts[variant], urls[variant]));
        }
      }
      // An agent's next pages of a site: one tab per variant, navigated from visit to visit, so its
      // renderer (and what V8 compiled in it) stays, as it does for a same-site navigation.
      // mcp-b is left out: at 500 tools its loads take seconds each.
      const sameTab = variants.filter((variant) => variant !== 'mcp-b');
      const navigated = Object.fromEntries(sameTab.map((variant) => [variant, []]));
      const tabs = Object.fromEntries(await Promise.all(sameTab.map(async (variant) => [variant, await contexts[variant].newPage()])));
      for (let visit = -2; visit < runs; visit++) {
        for (const index of roundOrder(sameTab.length, visit + 2)) {
          const variant = sameTab[index];
          // A new address per visit (the bench server routes on the path): a navigation, never a reload.
          const result = await load(contexts[variant], `${urls[variant]}?visit=${visit}`, { bytes: false, tab: tabs[variant] });
          if (visit >= 0) navigated[variant].push(result);
        }
      }
      await Promise.all(Object.values(contexts).map((context) => context.close()));
      const floor = quantile(results.floor.map((result) => result.ms), 0.5);
      const floorFromNavigation = quantile(results.floor.map((result) => result.fromNavigation), 0.5);
      console.log(`\n${count} tools, ${runs} interleaved loads each (ms from the script's bytes to all registered):`);
      console.log('  variant  gzip before ready   median (p10–p90)      ratio   longest task   loads with a task > 50 ms   from navigation (ratio)   listed at load   settled before load');
      for (const variant of variants) {
        const rows = results[variant];
        const ms = rows.map((result) => result.ms);
        const median = quantile(ms, 0.5);
        console.log(`  ${variant.padEnd(7)}  ${(rows[0].bytes / 1024).toFixed(1).padStart(8)} KB   ${median.toFixed(1).padStart(7)} (${quantile(ms, 0.1).toFixed(1)}–${quantile(ms, 0.9).toFixed(1)})`.padEnd(62)
          + `${(median / floor).toFixed(2)}×`.padStart(6)
          + `${Math.max(...rows.map((result) => result.longest)).toFixed(0).padStart(10)} ms`
          + `${String(rows.filter((result) => result.over50).length).padStart(14)} of ${rows.length}`
          + `${quantile(rows.map((result) => result.fromNavigation), 0.5).toFixed(1).padStart(16)} ms (${(quantile(rows.map((result) => result.fromNavigation), 0.5) / floorFromNavigation).toFixed(2)}×)`
          + `${String(rows.filter((result) => result.toolsAtLoad === count).length).padStart(11)} of ${rows.length}`
          + `${String(rows.filter((result) => result.settledBeforeLoad).length).padStart(13)} of ${rows.length}`);
      }
      const navigatedFloor = quantile(navigated.floor.map((result) => result.fromNavigation), 0.5);
      console.log(`  the same, navigating one tab from visit to visit (an agent's next pages of a site; its renderer stays), ${runs} loads each:`);
      console.log('  variant  from navigation (ratio)   listed at load   settled before load');
      for (const variant of sameTab) {
        const rows = navigated[variant];
        const median = quantile(rows.map((result) => result.fromNavigation), 0.5);
        console.log(`  ${variant.padEnd(7)}${median.toFixed(1).padStart(10)} ms (${(median / navigatedFloor).toFixed(2)}×)`
          + `${String(rows.filter((result) => result.toolsAtLoad === count).length).padStart(11)} of ${rows.length}`
          + `${String(rows.filter((result) => result.settledBeforeLoad).length).padStart(13)} of ${rows.length}`);
      }
    }
  } finally {
    await server.close();
  }
}
