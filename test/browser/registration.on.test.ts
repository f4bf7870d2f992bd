/**
 * Handing tools to the browser's WebMCP (src/registry/registration.ts) in real Chromium with WebMCP on:
 * `registerEachWithHost` makes its calls in order from a promise job of its own and answers one
 * outcome per tool, each a registration or the platform's refusal as data; a tool withdrawn
 * before its turn never reaches WebMCP. Registrations are read back with `getTools()`.
 */
import { expect } from 'chai';
import type { WebMCPTool } from '../../src/start/host.ts';
import { registerEachWithHost } from '../../src/registry/registration.ts';
import { modelContext, registeredNames } from './fixtures.ts';

const controllers: AbortController[] = [];

afterEach(() => {
  for (const controller of controllers.splice(0)) controller.abort();
});

/** A read tool named `name` under a controller of its own (aborted after the test). */
function entry(name: string): { tool: WebMCPTool; signal: AbortSignal; controller: AbortController } {
  const controller = new AbortController();
  controllers.push(controller);
  const tool: WebMCPTool = {
    name, description: `Test tool ${name}.`, inputSchema: { type: 'object', additionalProperties: false },
    annotations: { readOnlyHint: true }, execute: async () => ({ content: [{ type: 'text', text: name }] }),
  };
  return { tool, signal: controller.signal, controller };
}

describe('with WebMCP on: registerEachWithHost', () => {
  it('registers each tool in order and answers one outcome per tool; a duplicate name is refused as data, naming the platform error', async () => {
    const first = entry('batch.first');
    const second = entry('batch.second');
    const again = entry('batch.first');
    const outcomes = await Promise.all(await registerEachWithHost(modelContext() as never, [first, second, again]));
    expect(outcomes[0]).to.deep.equal({ ok: true });
    expect(outcomes[1]).to.deep.equal({ ok: true });
    expect(outcomes[2]).to.include({ ok: false, error: 'InvalidStateError' });
    expect((outcomes[2] as { reason: string }).reason).to.match(/^WebMCP refused the tool: InvalidStateError: /);
    const names = await registeredNames();
    expect(names.filter((name) => name === 'batch.first')).to.have.length(1);
    expect(names).to.include('batch.second');
  });

  it('makes no call before the caller\'s own code has run, and all of them before the next task', async () => {
    const batch = [entry('batch.later.one'), entry('batch.later.two')];
    const host = modelContext() as unknown as { registerTool: (...args: unknown[]) => unknown };
    const order: string[] = [];
    const registerTool = host.registerTool;
    // Records each call on the real host, then hands it on unchanged.
    host.registerTool = function (this: unknown, ...args: unknown[]) {
      order.push(`call ${(args[0] as { name: string }).name}`);
      return registerTool.apply(this, args);
    };
    try {
      const pending = registerEachWithHost(host as never, batch);
      order.push('caller');
      setTimeout(() => order.push('next task'));
      await Promise.all(await pending);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(order).to.deep.equal(['caller', 'call batch.later.one', 'call batch.later.two', 'next task']);
    } finally {
      host.registerTool = registerTool;
    }
  });

  it('a registerTool that throws instead of rejecting (older engines) is refused as data, and the rest of the batch still registers', async () => {
    const real = modelContext() as unknown as { registerTool: (...args: unknown[]) => unknown };
    // The real host, except that it throws synchronously for one tool, as older engines did.
    const host = {
      registerTool(tool: { name: string }, options: unknown) {
        if (tool.name === 'batch.throws') throw new TypeError('unsupported schema keyword');
        return real.registerTool(tool, options);
      },
    };
    const outcomes = await Promise.all(await registerEachWithHost(host as never, [entry('batch.throws'), entry('batch.after')]));
    expect(outcomes[0]).to.deep.equal({ ok: false, reason: 'WebMCP refused the tool: TypeError: unsupported schema keyword', error: 'TypeError' });
    expect(outcomes[1]).to.deep.equal({ ok: true });
    expect(await registeredNames()).to.include('batch.after');
  });

  it('a tool whose signal aborted before its turn is never handed to WebMCP: its outcome says so, and the others register', async () => {
    const kept = entry('batch.kept');
    const withdrawn = entry('batch.withdrawn');
    const pending = registerEachWithHost(modelContext() as never, [withdrawn, kept]);
    withdrawn.controller.abort(); // after the call to registerEachWithHost, before its job runs
    const outcomes = await Promise.all(await pending);
    expect(outcomes[0]).to.deep.equal({ ok: false, reason: 'withdrawn before it was registered', error: 'AbortError' });
    expect(outcomes[1]).to.deep.equal({ ok: true });
    const names = await registeredNames();
    expect(names).to.include('batch.kept');
    expect(names).not.to.include('batch.withdrawn');
  });
});
