/**
 * Puppeteer 25 as the agent client: run with this folder's Node 22 (puppeteer-core 25 needs
 * Node >= 22.12; the project runs Node 20), by test/e2e/puppeteer-client.on.spec.ts.
 *
 *   node client.js <page URL> <Chromium path> <Chromium flag>...
 *
 * Launches Chromium itself with the given flags, opens the page, waits for the runtime's Report
 * (window.capellWebMCP.ready) and then works only through `page.webmcp` (puppeteer-core's
 * WebMCP class over the DevTools WebMCP domain): lists the tools, calls two reads, calls with bad
 * input, and calls the write `newsletter.subscribe` with an AbortSignal that it aborts once the
 * proposal's panel is in the document. It prints one JSON line, the observations (the spec holds
 * the assertions), and exits 0; it exits 1 with the error on stderr when a step could not run.
 */
import puppeteer from 'puppeteer-core';

/** Ends the client when a step hangs, before the spec's own timeout (ms). */
const CLIENT_DEADLINE_MS = 60_000;

const [url, executablePath, ...args] = process.argv.slice(2);
if (!url || !executablePath) {
  console.error('usage: node client.js <page URL> <Chromium path> <Chromium flag>...');
  process.exit(2);
}

/** Waits until `check()` is truthy, polling every 25 ms; throws naming `what` after `ms`. */
async function until(check, what, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * What the agent sees of one call: the DevTools invocation status, the output it got, and for a
 * failed call the error as chrome-devtools-mcp shows it (the exception's description, else errorText).
 */
function seen(result) {
  return { status: result.status, output: result.output ?? null, errorText: result.errorText ?? null, error: result.exception?.description ?? result.errorText ?? null };
}

const deadline = setTimeout(() => {
  console.error(`puppeteer client: still running after ${CLIENT_DEADLINE_MS} ms`);
  process.exit(1);
}, CLIENT_DEADLINE_MS);

const browser = await puppeteer.launch({ executablePath, headless: true, args });
try {
  const page = await browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  const report = await page.evaluate(() => window.capellWebMCP.ready);
  // page.webmcp learns tools from DevTools events; wait until it holds every tool the runtime registered.
  const tools = await until(() => {
    const names = new Set(page.webmcp.tools().map((tool) => tool.name));
    return report.registered.every((name) => names.has(name)) && page.webmcp.tools();
  }, 'page.webmcp to list the registered tools');
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const tool = (name) => {
    const found = byName.get(name);
    if (!found) throw new Error(`page.webmcp lists no ${name}`);
    return found;
  };

  const reads = {
    search: seen(await tool('site.search').execute({ q: 'repair' })),
    lookup: seen(await tool('page.get').execute({})),
  };
  const bad = {
    navigationPage: seen(await tool('site.navigation').execute({ page: 'many' })),
    searchUnknown: seen(await tool('site.search').execute({ q: 'repair', colour: 'red' })),
    subscribeEmail: seen(await tool('newsletter.subscribe').execute({ email: 'not an address' })),
  };

  // The write: the runtime shows a proposal panel and waits for the person; the agent gives up.
  const agent = new AbortController();
  const writeStarted = Date.now();
  const pending = tool('newsletter.subscribe').execute({ email: 'puppeteer@example.test' }, { signal: agent.signal });
  const panelCount = () => page.evaluate(() => document.querySelectorAll('capell-confirm-write').length);
  await until(async () => (await panelCount()) > 0, 'the write proposal panel');
  const panelShownMs = Date.now() - writeStarted;
  const abortedAt = Date.now();
  agent.abort();
  const writeResult = await pending;
  const answeredAfterAbortMs = Date.now() - abortedAt;
  await until(async () => (await panelCount()) === 0, 'the panel to close after the abort');
  const panelClosedAfterAbortMs = Date.now() - abortedAt;

  console.log(JSON.stringify({
    report: { api: report.api, registered: report.registered },
    tools: tools.map((entry) => ({ name: entry.name, annotations: entry.annotations ?? null, inputSchema: entry.inputSchema ?? null })),
    reads,
    bad,
    write: { ...seen(writeResult), panelShownMs, answeredAfterAbortMs, panelClosedAfterAbortMs, totalMs: Date.now() - writeStarted },
  }));
} finally {
  clearTimeout(deadline);
  await browser.close();
}
