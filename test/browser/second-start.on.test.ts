/**
 * A second `start()` while a runtime runs on the document (real Chromium, WebMCP on): it returns
 * the running runtime and warns once, naming each option it gave that the running one does not use.
 */
import { expect } from 'chai';
import { start, type Runtime } from '../../src/index.ts';
import { CORE_READ_TOOLS, mountToolsIsland, unmountIslands } from './fixtures.ts';

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

/** The warnings about a second start(). */
function secondStartWarnings(): string[] {
  return warnings.filter((line) => line.includes('start() was called again'));
}

describe('a second start() with WebMCP on', () => {
  it('returns the running runtime and warns once, naming each ignored option with both values', async () => {
    runtime = start({ apiBase: '/de/agent/v1' });
    await runtime.ready;
    expect(start({ apiBase: '/agent/v1', timeoutMs: 5000 })).to.equal(runtime);
    expect(start({ apiBase: '/agent/v1', timeoutMs: 5000 })).to.equal(runtime);
    const origin = location.origin;
    expect(secondStartWarnings()).to.deep.equal([
      `[capell-webmcp] start() was called again on this document; the running runtime keeps its options, ignoring: apiBase "${origin}/agent/v1" (running: "${origin}/de/agent/v1"), timeoutMs 5000 (running: 15000). Call stop() first to start with other options.`,
    ]);
  });

  it('stays silent for no options, or options equal to the running ones after defaults', async () => {
    runtime = start({ apiBase: '/agent/v1/' });
    await runtime.ready;
    expect(start()).to.equal(runtime);
    expect(start({ apiBase: '/agent/v1', timeoutMs: 15000, log: 'warn', audit: undefined })).to.equal(runtime);
    expect(secondStartWarnings()).to.deep.equal([]);
  });

  it('stays silent when either call asks for log "silent"', async () => {
    runtime = start({ log: 'silent' });
    await runtime.ready;
    start({ timeoutMs: 5000 });
    runtime.stop();
    runtime = start();
    await runtime.ready;
    start({ timeoutMs: 5000, log: 'silent' });
    expect(secondStartWarnings()).to.deep.equal([]);
  });

  it('starts afresh with the new options after stop(), without a warning', async () => {
    runtime = start({ timeoutMs: 1000 });
    await runtime.ready;
    runtime.stop();
    const next = start({ timeoutMs: 5000 });
    expect(next).to.not.equal(runtime);
    runtime = next;
    await runtime.ready;
    expect(secondStartWarnings()).to.deep.equal([]);
  });
});
