/**
 * The hosts seen in the wild besides Chromium's native WebMCP, each installed the way a polyfill or
 * an embedding browser installs it (a `modelContext` getter on Document.prototype) in real Chromium
 * without the WebMCP flag: a frozen `modelContext` that is not an EventTarget (Codex in-app
 * browser); engines ≤ 151 whose `registerTool` returns undefined, throws synchronously and ignores
 * a pre-aborted signal; a host that never settles; an engine that allows only a subset of JSON
 * Schema (as webmachinelearning/webmcp pull request 289 proposes) and throws a TypeError for the
 * rest.
 */
import { expect } from 'chai';
import { start } from '../../src/index.ts';
import { REGISTRATION_SETTLE_MS } from '../../src/registry/live-registry.ts';
import type { Report } from '../../src/start/report.ts';
import { CORE_READ_TOOLS, mountToolsIsland, readTool, unmountIslands } from './fixtures.ts';

type HostTool = { name: string; inputSchema?: Record<string, unknown>; execute(input: unknown, options?: object): Promise<{ isError?: boolean; content: { text: string }[] }> };

/** Installs `host` as `document.modelContext`; returns the undo. */
function install(host: object): () => void {
  Object.defineProperty(Document.prototype, 'modelContext', { get: () => host, configurable: true });
  return () => { delete (Document.prototype as { modelContext?: unknown }).modelContext; };
}

let uninstall: (() => void) | undefined;
let runtime: ReturnType<typeof start> | undefined;
afterEach(() => {
  runtime?.stop();
  runtime = undefined;
  uninstall?.();
  uninstall = undefined;
  unmountIslands();
});

const changed = () => new Promise<Report>((resolve) => document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent<Report>).detail), { once: true }));

describe('hosts other than native WebMCP', () => {
  it('a frozen modelContext that is not an EventTarget: every tool registers and answers', async () => {
    const tools = new Map<string, HostTool>();
    uninstall = install(Object.freeze({ registerTool: (tool: HostTool) => { tools.set(tool.name, tool); return Promise.resolve(); } }));
    mountToolsIsland({ capellAgentSchema: 1, tools: CORE_READ_TOOLS });
    runtime = start({ log: 'silent' });
    const report = await runtime.ready;
    expect(report.api).to.equal('document.modelContext');
    expect(report.registered).to.deep.equal(CORE_READ_TOOLS.map((tool) => tool.name));
    const answer = await tools.get('site.navigation')!.execute({ page: 2 });
    expect(answer.isError).to.equal(undefined);
    expect(JSON.parse(answer.content[0]!.text)).to.have.property('data').that.is.an('array');
  });

  it('an older engine: registerTool returns undefined, throws synchronously, ignores a pre-aborted signal; nothing is left after stop()', async () => {
    const live = new Set<string>();
    uninstall = install({
      registerTool(tool: HostTool, options: { signal?: AbortSignal } = {}) {
        if (live.has(tool.name)) throw new DOMException(`Duplicate tool name ${tool.name}`, 'InvalidStateError');
        live.add(tool.name); // even when the signal is already aborted: this engine ignores that
        options.signal?.addEventListener('abort', () => live.delete(tool.name), { once: true });
        return undefined;
      },
    });
    mountToolsIsland({ capellAgentSchema: 1, tools: [readTool('older.one'), readTool('older.two')] });
    runtime = start({ log: 'silent' });
    const report = await runtime.ready;
    expect(report.registered).to.deep.equal(['older.one', 'older.two']);
    expect([...live]).to.deep.equal(['older.one', 'older.two']);
    // A name another script already took: the synchronous throw is that tool's rejection only.
    live.add('older.three');
    const next = changed();
    mountToolsIsland({ capellAgentSchema: 1, tools: [readTool('older.three'), readTool('older.four')] });
    const later = await next;
    expect(later.registered).to.include('older.four');
    expect(later.rejected.find((rejection) => rejection.name === 'older.three')?.reasons[0]).to.match(/InvalidStateError: Duplicate tool name/);
    live.delete('older.three');
    runtime.stop();
    runtime = undefined;
    expect([...live]).to.deep.equal([]);
    // Stopped before the registry loaded: no registration is ever made with an aborted signal.
    const early = start({ log: 'silent' });
    early.stop();
    await early.ready;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([...live]).to.deep.equal([]);
  });

  it('a host whose registerTool never settles: ready settles within the bound, listing the tools as pending', async () => {
    uninstall = install({ registerTool: () => new Promise(() => {}) });
    mountToolsIsland({ capellAgentSchema: 1, tools: [readTool('never.settles')] });
    const began = performance.now();
    runtime = start({ log: 'silent' });
    const report = await runtime.ready;
    const waited = performance.now() - began;
    expect(report.registered).to.deep.equal([]);
    expect(report.rejected).to.deep.equal([]);
    expect(report.pending).to.deep.equal(['never.settles']);
    expect(waited).to.be.at.least(REGISTRATION_SETTLE_MS - 50);
  });

  it('a registration that settles after the bound brings a new Report with the tool registered', async () => {
    uninstall = install({ registerTool: () => new Promise((resolve) => setTimeout(resolve, REGISTRATION_SETTLE_MS + 300)) });
    mountToolsIsland({ capellAgentSchema: 1, tools: [readTool('late.tool')] });
    runtime = start({ log: 'silent' });
    const next = changed();
    expect((await runtime.ready).pending).to.deep.equal(['late.tool']);
    const later = await next;
    expect(later.registered).to.deep.equal(['late.tool']);
    expect(later.pending).to.equal(undefined);
  });

  it('an engine that allows only a subset of JSON Schema gets the reduced schema; the runtime still validates the full one', async () => {
    const allowed = new Set(['type', 'properties', 'required', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'items', 'prefixItems', 'additionalProperties', 'default', 'description']);
    const outside = (schema: unknown): boolean => typeof schema === 'object' && schema !== null && Object.entries(schema).some(([keyword, value]) => (
      !allowed.has(keyword) || (keyword === 'additionalProperties' && value !== false)
      || (keyword === 'properties' ? Object.values(value as object).some(outside) : keyword === 'items' && outside(value))));
    const tools = new Map<string, HostTool>();
    uninstall = install({
      registerTool(tool: HostTool) {
        if (outside(tool.inputSchema)) return Promise.reject(new TypeError(`inputSchema uses a keyword this engine does not support`));
        tools.set(tool.name, tool);
        return Promise.resolve();
      },
    });
    const navigation = CORE_READ_TOOLS.find((tool) => tool.name === 'site.navigation')!;
    mountToolsIsland({ capellAgentSchema: 1, tools: [{
      ...navigation,
      inputSchema: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 50 }, since: { type: 'string', format: 'date' }, kind: { anyOf: [{ const: 'page' }, { const: 'post' }] } }, additionalProperties: false },
    }] });
    runtime = start({ log: 'silent' });
    const report = await runtime.ready;
    expect(report.registered).to.deep.equal(['site.navigation']);
    expect(report.audit.find((entry) => entry.surface === 'tool site.navigation')?.message).to.match(/inputSchema reduced/);
    const tool = tools.get('site.navigation')!;
    const { cursor, ...declared } = (tool.inputSchema as { properties: Record<string, unknown> }).properties;
    expect(declared).to.deep.equal({ limit: { type: 'integer', minimum: 1, maximum: 50 }, since: { type: 'string' }, kind: {} });
    // The runtime's paging input (a Core API read) is within the subset as it is.
    expect(cursor).to.include({ type: 'string', maxLength: 8192 });
    expect(tool.inputSchema).to.include({ type: 'object', additionalProperties: false });
    const refused = await tool.execute({ since: 'not a date' });
    expect(refused.isError).to.equal(true);
    expect(refused.content[0]!.text).to.match(/since/);
    const wrongKind = await tool.execute({ kind: 'video' });
    expect(wrongKind.isError).to.equal(true);
    expect((await tool.execute({ since: '2026-11-30', kind: 'page', limit: 1 })).isError).to.equal(undefined);
  });
});
