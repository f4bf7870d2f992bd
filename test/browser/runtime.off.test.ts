/**
 * The runtime in real Chromium with WebMCP off (no flag): nothing registered, nothing logged,
 * nothing thrown, and `ready` still resolves with `api: 'none'`.
 */
import { expect } from 'chai';
import { start } from '../../src/index.ts';
import { CORE_READ_TOOLS, mountPageGraph, mountToolsIsland, requestsTo, resetRequestCount, unmountIslands } from './fixtures.ts';

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/** Records console output and uncaught errors while `run` runs. */
async function watchOutput(run: () => Promise<void>): Promise<string[]> {
  const output: string[] = [];
  const originals = CONSOLE_METHODS.map((method) => console[method]);
  CONSOLE_METHODS.forEach((method) => {
    console[method] = (...args: unknown[]) => { output.push(`${method}: ${args.join(' ')}`); };
  });
  const onError = (event: ErrorEvent | PromiseRejectionEvent) => output.push(`uncaught: ${'message' in event ? event.message : String(event.reason)}`);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onError);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    CONSOLE_METHODS.forEach((method, index) => { console[method] = originals[index]!; });
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onError);
  }
  return output;
}

afterEach(() => unmountIslands());

describe('with WebMCP off', () => {
  it('has no modelContext in this browser (the flag is off)', () => {
    expect('modelContext' in document).to.equal(false);
    expect('modelContext' in navigator).to.equal(false);
  });

  it('registers nothing, logs nothing, throws nothing, and reports api "none"', async () => {
    mountToolsIsland({ capellAgentSchema: 1, tools: [...CORE_READ_TOOLS, { name: 'Bad Name', effect: 'read' }] });
    mountToolsIsland('{not json');
    mountPageGraph({ '@type': 'WebPage' });
    resetRequestCount();
    let report;
    const output = await watchOutput(async () => {
      const runtime = start();
      report = await runtime.ready;
      runtime.stop();
    });
    expect(output).to.deep.equal([]);
    expect(report).to.deep.include({ api: 'none', registered: [], audit: [] });
    expect(requestsTo('/')).to.deep.equal([]);
  });

  it('the script-tag bundle fires capell-webmcp:ready with api "none" and stays silent', async () => {
    mountToolsIsland({ capellAgentSchema: 1, tools: CORE_READ_TOOLS });
    let detail: unknown;
    const output = await watchOutput(async () => {
      const event = new Promise<CustomEvent>((resolve) => document.addEventListener('capell-webmcp:ready', (e) => resolve(e as CustomEvent), { once: true }));
      const script = document.createElement('script');
      script.type = 'module';
      script.src = '/dist/capell-webmcp.js';
      script.setAttribute('data-capell-webmcp', '');
      document.head.append(script);
      detail = (await event).detail;
      expect(await window.capellWebMCP!.ready).to.deep.equal(detail);
    });
    expect(output).to.deep.equal([]);
    expect(detail).to.deep.include({ api: 'none', registered: [] });
  });

  it('follows nothing: islands and forms added after start cause no event, no request, no output', async () => {
    mountToolsIsland({ capellAgentSchema: 1, tools: CORE_READ_TOOLS });
    resetRequestCount();
    let changes = 0;
    const onChange = () => { changes += 1; };
    document.addEventListener('capell-webmcp:change', onChange);
    let report: unknown;
    let later: unknown;
    const form = document.createElement('form');
    const output = await watchOutput(async () => {
      const runtime = start();
      report = await runtime.ready;
      mountToolsIsland({ capellAgentSchema: 1, tools: [{ name: 'late.tool', description: 'Late.', effect: 'read', binding: { type: 'inline', target: 'page' } }] });
      form.id = 'late';
      form.setAttribute('toolname', 'late');
      document.body.append(form);
      await new Promise((resolve) => setTimeout(resolve, 100));
      later = runtime.report;
      runtime.stop();
    });
    form.remove();
    document.removeEventListener('capell-webmcp:change', onChange);
    expect(output).to.deep.equal([]);
    expect(changes).to.equal(0);
    expect(later).to.equal(report);
    expect(requestsTo('/')).to.deep.equal([]);
  });
});
