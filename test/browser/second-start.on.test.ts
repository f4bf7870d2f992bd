/**
 * A second `start()` while a runtime runs on the document (real Chromium, WebMCP on): it returns
 * the running runtime and warns once, naming each option it gave that the running one does not use.
 */
import { expect } from 'chai';
import { start, type Runtime } from '../../src/index.ts';
import { CORE_READ_TOOLS, callTool, mountToolsIsland, requestsTo, resetRequestCount, unmountIslands } from './fixtures.ts';

let runtime: Runtime | undefined;
let warnings: string[] = [];
const realWarn = console.warn;

beforeEach(() => {
  warnings = [];
  console.warn = (...args: unknown[]) => { warnings.push(args.map(String).join(' ')); };
  mountToolsIsland({ capellAgentSchema: 1, tools: CORE_READ_TOOLS });
});

afterEach(() => {
  console.warn = realWarn;
  runtime?.stop();
  runtime = undefined;
  unmountIslands();
});

/**
 * The warnings about a second start(), once its check (a chunk of its own, loaded by that call)
 * has run: the same module loaded here, then one task later.
 */
async function secondStartWarnings(): Promise<string[]> {
  await import('../../src/start/second-start.ts');
  await new Promise((resolve) => setTimeout(resolve, 50));
  return warnings.filter((line) => line.includes('start() was called again'));
}

describe('a second start() with WebMCP on', () => {
  it('returns the running runtime and warns once, naming each ignored option with both values', async () => {
    runtime = start({ apiBase: '/de/agent/v1' });
    await runtime.ready;
    expect(start({ apiBase: '/agent/v1', timeoutMs: 5000 })).to.equal(runtime);
    await secondStartWarnings();
    expect(start({ apiBase: '/agent/v1', timeoutMs: 5000 })).to.equal(runtime);
    const origin = location.origin;
    expect(await secondStartWarnings()).to.deep.equal([
      `[capell-webmcp] start() was called again on this document; the running runtime keeps its options, ignoring: apiBase "${origin}/agent/v1" (running: "${origin}/de/agent/v1"), timeoutMs 5000 (running: 15000). Call stop() first to start with other options.`,
    ]);
  });

  it('stays silent for no options, or options equal to the running ones after defaults', async () => {
    runtime = start({ apiBase: '/agent/v1/' });
    await runtime.ready;
    expect(start()).to.equal(runtime);
    expect(start({ apiBase: '/agent/v1', timeoutMs: 15000, log: 'warn', audit: undefined })).to.equal(runtime);
    expect(await secondStartWarnings()).to.deep.equal([]);
  });

  it('stays silent when either call asks for log "silent"', async () => {
    runtime = start({ log: 'silent' });
    await runtime.ready;
    start({ timeoutMs: 5000 });
    runtime.stop();
    runtime = start();
    await runtime.ready;
    start({ timeoutMs: 5000, log: 'silent' });
    expect(await secondStartWarnings()).to.deep.equal([]);
  });

  it('starts afresh with the new options after stop(), without a warning', async () => {
    runtime = start({ timeoutMs: 1000 });
    await runtime.ready;
    runtime.stop();
    const next = start({ timeoutMs: 5000 });
    expect(next).to.not.equal(runtime);
    runtime = next;
    await runtime.ready;
    expect(await secondStartWarnings()).to.deep.equal([]);
  });
});

describe('a second start() from another copy of the runtime', () => {
  it('warns when the script-tag bundle runs and the library is started with other options', async () => {
    await new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.type = 'module';
      script.src = '/dist/capell-webmcp.js';
      script.setAttribute('data-capell-webmcp', '');
      script.setAttribute('data-timeout-ms', '2000');
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('could not load the script-tag bundle'));
      document.head.append(script);
    });
    await window.capellWebMCP!.ready;
    start({ timeoutMs: 2000 });
    start({ timeoutMs: 3000 });
    expect(await secondStartWarnings()).to.deep.equal([
      '[capell-webmcp] start() was called again on this document; the running runtime keeps its options, ignoring: timeoutMs 3000 (running: 2000). Call stop() first to start with other options.',
    ]);
    window.capellWebMCP!.stop();
  });
});

describe('the record a second start() is checked against', () => {
  it('is a copy: page script that rewrites it changes neither the origin nor the API base the runtime reads from', async () => {
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const holder = document as unknown as Record<symbol, Record<symbol, { config: { origin: string; apiBase: string } }>>;
    const record = holder[Symbol.for('capell-webmcp.runtime')]![Symbol.for('capell-webmcp.start-record')]!;
    record.config.origin = 'https://attacker.example';
    record.config.apiBase = 'https://attacker.example/agent/v1';
    resetRequestCount();
    const answer = await callTool('site.search', { q: 'trail' });
    expect(answer.isError).to.equal(undefined);
    expect(requestsTo('/agent/v1/search')).to.have.length(1);
    const searched = performance.getEntriesByType('resource').map((entry) => new URL(entry.name)).filter((url) => url.pathname === '/agent/v1/search');
    expect(searched.map((url) => url.origin)).to.deep.equal([location.origin]);
  });
});
