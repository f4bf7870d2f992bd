/**
 * Policies and frames: where the permissions policy does not allow `tools`, or WebMCP refuses a
 * registration with NotAllowedError, the runtime detects it once, registers nothing more, stays
 * silent, and says why in the Report (`api: 'none'`, `apiReason`). Real Chromium with WebMCP on:
 * the policy is the browser's own (an iframe's `allow` attribute); the host in the frame is a plain
 * object with `registerTool`, as a polyfill installs one (Chromium exposes `document.modelContext`
 * to top-level documents only).
 */
import { expect } from 'chai';
import { start } from '../../src/index.ts';
import { CORE_READ_TOOLS, mountToolsIsland, unmountIslands } from './fixtures.ts';

const ISLAND = JSON.stringify({ capellAgentSchema: 1, tools: CORE_READ_TOOLS }).replace(/</g, '\\u003C');

/** A same-origin frame with `allow`, holding a tools island and a polyfill-like host that counts calls. */
async function frameWithHost(allow: string, refuse?: string): Promise<{ frame: HTMLIFrameElement; calls: string[] }> {
  const frame = document.createElement('iframe');
  frame.setAttribute('allow', allow);
  frame.srcdoc = `<!doctype html><script type="application/json" data-capell-agent-tools>${ISLAND}</script><p>frame</p>`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const calls: string[] = [];
  const host = {
    registerTool(tool: { name: string }) {
      calls.push(tool.name);
      return refuse ? Promise.reject(new DOMException('tools are not allowed in this document', refuse)) : Promise.resolve();
    },
  };
  // Where a polyfill puts it: on the frame's own Document.prototype (the runtime reads built-ins
  // from the prototype chain, never a property set on the document itself).
  const frameWindow = frame.contentWindow as Window & typeof globalThis;
  Object.defineProperty(frameWindow.Document.prototype, 'modelContext', { get: () => host, configurable: true });
  return { frame, calls };
}

/** Console warnings while `run` runs. */
async function warnings(run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => { seen.push(args.join(' ')); };
  try {
    await run();
  } finally {
    console.warn = original;
  }
  return seen;
}

afterEach(() => {
  unmountIslands();
  document.querySelectorAll('iframe').forEach((frame) => frame.remove());
});

describe('permissions policy and NotAllowedError', () => {
  it('a frame whose policy does not allow "tools" registers nothing and says why', async () => {
    const { frame, calls } = await frameWithHost("tools 'none'");
    expect((frame.contentDocument as Document & { featurePolicy: { allowsFeature(feature: string): boolean } }).featurePolicy.allowsFeature('tools')).to.equal(false);
    let report;
    const warned = await warnings(async () => {
      const runtime = start({ document: frame.contentDocument! });
      report = await runtime.ready;
      runtime.stop();
    });
    expect(calls).to.deep.equal([]);
    expect(warned).to.deep.equal([]);
    expect(report).to.deep.include({ api: 'none', registered: [], rejected: [] });
    expect(report!.apiReason).to.match(/permissions policy does not allow "tools"/);
  });

  it('the same frame allowed "tools" registers every tool (the control)', async () => {
    const { frame, calls } = await frameWithHost('tools');
    const runtime = start({ document: frame.contentDocument!, log: 'silent' });
    const report = await runtime.ready;
    runtime.stop();
    expect(calls).to.have.length.greaterThan(0);
    expect(calls).to.deep.equal(report.registered);
    expect(report.api).to.equal('document.modelContext');
    expect(report.apiReason).to.equal(undefined);
  });

  it('the first NotAllowedError stops registration: one report line, no warning per tool, nothing after', async () => {
    const { frame, calls } = await frameWithHost('tools', 'NotAllowedError');
    let report;
    let runtime!: ReturnType<typeof start>;
    const warned = await warnings(async () => {
      runtime = start({ document: frame.contentDocument! });
      report = await runtime.ready;
    });
    const tried = calls.length;
    expect(tried).to.be.greaterThan(0);
    expect(warned).to.deep.equal([]);
    expect(report).to.deep.include({ api: 'none', registered: [], rejected: [] });
    expect(report!.apiReason).to.match(/NotAllowedError/);
    // A later island is not even tried.
    const doc = frame.contentDocument!;
    const island = doc.createElement('script');
    island.type = 'application/json';
    island.setAttribute('data-capell-agent-tools', '');
    island.textContent = JSON.stringify({ capellAgentSchema: 1, tools: [{ ...CORE_READ_TOOLS[0], name: 'later.tool' }] });
    const changed = new Promise<CustomEvent>((resolve) => doc.addEventListener('capell-webmcp:change', (event) => resolve(event as CustomEvent), { once: true }));
    doc.head.append(island);
    const later = (await changed).detail;
    expect(calls).to.have.length(tried);
    expect(later).to.deep.include({ api: 'none', registered: [] });
    runtime.stop();
  });

  it('another refusal (InvalidStateError) is still reported per tool, and registration is not given up', async () => {
    const { frame, calls } = await frameWithHost('tools', 'InvalidStateError');
    const runtime = start({ document: frame.contentDocument!, log: 'silent' });
    const report = await runtime.ready;
    runtime.stop();
    expect(calls).to.have.length.greaterThan(0);
    expect(report.registered).to.deep.equal([]);
    expect(report.api).to.equal('document.modelContext');
    expect(report.rejected.filter((rejection) => calls.includes(rejection.name))).to.have.length(calls.length);
    expect(report.rejected.filter((rejection) => calls.includes(rejection.name)).map((rejection) => rejection.reasons[0])).to.satisfy((reasons: string[]) => reasons.every((reason) => /InvalidStateError/.test(reason)));
  });
});
