/**
 * The inspector (what the runtime did on this page, for the site's operator) in real Chromium with
 * WebMCP on, over the runtime built from source: opened by `start({ inspect: true })` (the path
 * data-inspect and ?capell-webmcp=inspect take; the script tag's three ways are in
 * test/e2e/inspector.on.spec.ts), it shows the live Report (registered tools with binding,
 * annotations and schema, rejected ones with reasons, the audit, the API found), follows a live
 * change, logs each call with its outcome, duration and size, is axe-core clean, keyboard operable,
 * localised by the islands' messages, and is absent unless asked.
 */
import { expect } from 'chai';
import { start, type Report, type Runtime } from '../../src/index.ts';
import type { CapellInspector } from '../../src/inspector/inspector.ts';
import { CORE_READ_TOOLS, callTool, island, mountPageGraph, mountToolsIsland, readTool, unmountIslands } from './fixtures.ts';
import { sleep } from './closed-root.ts';

let runtime: Runtime | undefined;
const added: Element[] = [];

afterEach(() => {
  runtime?.stop();
  runtime = undefined;
  document.querySelector('capell-inspector')?.close();
  unmountIslands();
  for (const element of added.splice(0)) element.remove();
});

/**
 * Waits until `condition` holds, polling every 20 ms; fails after `ms` (the inspector's chunks
 * come through the test server's transform, which can take seconds on a loaded machine).
 */
async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** The open inspector, once its Report is shown. */
async function openedInspector(): Promise<CapellInspector> {
  await until(() => document.querySelector('capell-inspector')?.report !== undefined);
  const inspector = document.querySelector('capell-inspector')!;
  await inspector.updateComplete;
  return inspector;
}

/** The inspector's shadow root, as a person (and axe) sees it: an open root. */
function rootOf(inspector: CapellInspector): ShadowRoot {
  return inspector.shadowRoot!;
}

const textOf = (root: ParentNode, selector: string) => [...root.querySelectorAll(selector)].map((node) => node.textContent!.replace(/\s+/g, ' ').trim());

/** The page the inspector reads: two good tools, a broken declaration and a form no tool covers. */
function mountPage(): void {
  mountPageGraph({ '@type': 'WebPage', name: 'Inspected' });
  mountToolsIsland(island(CORE_READ_TOOLS[0]!, CORE_READ_TOOLS[1]!, { name: 'broken tool', description: '', effect: 'read', binding: { type: 'inline', target: 'page' } }));
  const form = document.createElement('form');
  form.id = 'orphan-form';
  form.innerHTML = '<label>Email <input name="email"></label><button>Go</button>';
  document.body.append(form);
  added.push(form);
}

describe('with WebMCP on: the inspector', () => {
  it('is not in the page unless asked', async () => {
    mountPage();
    runtime = start({ log: 'silent' });
    await runtime.ready;
    await sleep(100);
    expect(document.querySelector('capell-inspector')).to.equal(null);
    expect(customElements.get('capell-inspector')).to.equal(undefined);
  });

  it('shows the registered tools with binding, annotations and schema, the rejected ones with reasons, the audit and the API', async function () {
    this.timeout(30_000);
    mountPage();
    runtime = start({ log: 'silent', inspect: true });
    const report = await runtime.ready;
    const inspector = await openedInspector();
    await until(() => rootOf(inspector).querySelector('.tool .binding') !== null);
    const root = rootOf(inspector);
    expect(report.registered).to.deep.equal(['page.get', 'site.search']);
    expect(textOf(root, '.api p')[0]).to.contain('document.modelContext');
    expect(textOf(root, '#registered')).to.deep.equal(['Registered tools (2)']);
    const search = root.querySelector('.tool[data-tool="site.search"]')!;
    expect(textOf(search, '.binding')).to.deep.equal(['endpoint → /agent/v1/search']);
    expect(textOf(search, '.annotations')[0]).to.contain('readOnlyHint: true');
    expect(JSON.parse(search.querySelector('.schema')!.textContent!)).to.deep.include({ required: ['q'] });
    expect(textOf(root, '#rejected')).to.deep.equal(['Rejected (1)']);
    const rejection = root.querySelector('.rejection')!;
    expect(rejection.textContent).to.contain('broken tool');
    expect(textOf(rejection, '.reasons li')).to.deep.equal(report.rejected[0]!.reasons);
    expect(textOf(root, '.audit-entry').join('\n')).to.contain('form#orphan-form');
  });

  it('follows the live registry: a tool added to the page appears', async function () {
    this.timeout(30_000);
    mountPage();
    runtime = start({ log: 'silent', inspect: true });
    await runtime.ready;
    const inspector = await openedInspector();
    const changed = new Promise<Report>((resolve) => document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent<Report>).detail), { once: true }));
    mountToolsIsland(island(readTool('late.tool', 'Added after start.')));
    await changed;
    const root = rootOf(inspector);
    // The inspector hears the same change on its own listener and then renders: wait for it.
    await until(() => textOf(root, '#registered')[0] === 'Registered tools (3)');
    await inspector.updateComplete;
    expect(textOf(root, '#registered')).to.deep.equal(['Registered tools (3)']);
    expect(root.querySelector('.tool[data-tool="late.tool"]')?.textContent).to.contain('Added after start.');
    expect(textOf(root, '.status')[0]).to.equal('Tools updated: 3 registered, 1 rejected.');
  });

  it('shows the runtime’s Report, not one a page script puts in a made-up change event', async () => {
    mountPage();
    runtime = start({ log: 'silent', inspect: true });
    await runtime.ready;
    const inspector = await openedInspector();
    const fake: Report = { api: 'document.modelContext', registered: ['fake.tool'], rejected: [], audit: [] };
    document.dispatchEvent(new CustomEvent('capell-webmcp:change', { detail: fake }));
    await inspector.updateComplete;
    expect(inspector.report?.registered).to.deep.equal(['page.get', 'site.search']);
    expect(rootOf(inspector).querySelector('.tool[data-tool="fake.tool"]')).to.equal(null);
  });

  it('logs each call with its tool, input, outcome, duration and size', async () => {
    mountPage();
    runtime = start({ log: 'silent', inspect: true });
    await runtime.ready;
    const inspector = await openedInspector();
    const answer = await callTool('site.search', { q: 'trail' });
    const refused = await callTool('site.search', { q: '' });
    expect(refused.isError).to.equal(true);
    await until(() => inspector.calls.length === 2);
    await inspector.updateComplete;
    const [last, first] = inspector.calls;
    expect(first).to.include({ tool: 'site.search', outcome: 'ok', bytes: new TextEncoder().encode(JSON.stringify(answer)).length });
    expect(first!.input).to.deep.equal({ q: 'trail' });
    expect(first!.durationMs).to.be.greaterThan(0);
    expect(last).to.include({ tool: 'site.search', outcome: 'error' });
    const root = rootOf(inspector);
    expect(textOf(root, '#calls')).to.deep.equal(['Calls on this page (2)']);
    const shown = root.querySelectorAll('.call');
    expect(shown[0]!.getAttribute('data-outcome')).to.equal('error');
    expect(shown[1]!.textContent).to.match(/ok, \d+ ms, \d+ bytes/);
    expect(shown[1]!.textContent).to.contain('{"q":"trail"}');
  });

  it('has no accessibility violations (axe-core)', async function () {
    // axe-core is loaded and run here (hundreds of KB of rules): on two cores beside the other
    // suites that alone has passed the harness's 10 s; this test checks accessibility, not speed.
    this.timeout(30_000);
    mountPage();
    runtime = start({ log: 'silent', inspect: true });
    await runtime.ready;
    const inspector = await openedInspector();
    await callTool('site.search', { q: 'trail' });
    await until(() => inspector.calls.length === 1);
    await inspector.updateComplete;
    await new Promise<void>((resolve, reject) => {
      if ((window as { axe?: unknown }).axe) return resolve();
      const script = document.createElement('script');
      script.src = '/node_modules/axe-core/axe.min.js';
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('axe-core did not load'));
      document.head.append(script);
    });
    const axe = (window as unknown as { axe: { run(context: object): Promise<{ violations: { id: string; help: string; nodes: unknown[] }[]; passes: { id: string; nodes: unknown[] }[] }> } }).axe;
    const results = await axe.run({ include: [['capell-inspector']] });
    expect(results.violations.map(({ id, help, nodes }) => ({ id, help, nodes: nodes.length }))).to.deep.equal([]);
    // Proof that axe looked inside the shadow root: it checked the close button's name.
    expect(results.passes.find(({ id }) => id === 'button-name')?.nodes.length ?? 0).to.be.greaterThan(0);
  });

  it('takes focus when it opens, and Escape closes it and gives focus back', async () => {
    mountPage();
    const before = document.createElement('button');
    before.textContent = 'Before';
    document.body.append(before);
    added.push(before);
    before.focus();
    runtime = start({ log: 'silent', inspect: true });
    await runtime.ready;
    const inspector = await openedInspector();
    await until(() => inspector.shadowRoot!.activeElement !== null);
    expect(inspector.shadowRoot!.activeElement?.getAttribute('role')).to.equal('dialog');
    expect(inspector.shadowRoot!.querySelector('section.panel')!.getAttribute('aria-labelledby')).to.equal('heading');
    inspector.shadowRoot!.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    expect(document.querySelector('capell-inspector')).to.equal(null);
    expect(document.activeElement).to.equal(before);
  });

  it('is themed by the page through its custom properties and parts', async () => {
    mountPage();
    const style = document.createElement('style');
    style.textContent = 'capell-inspector { --capell-inspector-accent: rgb(47, 107, 79); --capell-inspector-width: 20rem; } capell-inspector::part(close) { background-color: rgb(255, 240, 200); }';
    document.head.append(style);
    added.push(style);
    runtime = start({ log: 'silent', inspect: true });
    await runtime.ready;
    const inspector = await openedInspector();
    const panel = rootOf(inspector).querySelector<HTMLElement>('section.panel')!;
    expect(getComputedStyle(panel).borderLeftColor).to.equal('rgb(47, 107, 79)');
    expect(panel.getBoundingClientRect().width).to.equal(20 * parseFloat(getComputedStyle(document.documentElement).fontSize));
    expect(getComputedStyle(rootOf(inspector).querySelector('button.close')!).backgroundColor).to.equal('rgb(255, 240, 200)');
  });

  it('says its words in the page’s language (the islands’ messages)', async () => {
    mountPage();
    mountToolsIsland({ capellAgentSchema: 1, tools: [], messages: { inspectorTitle: 'capell-webmcp-Inspektor', inspectorClose: 'Schließen' } });
    runtime = start({ log: 'silent', inspect: true });
    await runtime.ready;
    const inspector = await openedInspector();
    expect(textOf(rootOf(inspector), 'h2')).to.deep.equal(['capell-webmcp-Inspektor']);
    expect(textOf(rootOf(inspector), 'button.close')).to.deep.equal(['Schließen']);
  });
});
