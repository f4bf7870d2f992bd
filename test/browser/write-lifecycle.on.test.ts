/**
 * Write calls never hang the agent (MCP clients give up on a call after 20–60 s; a person may take
 * minutes), in real Chromium through the real WebMCP API: a write call answers within writeWaitMs,
 * the proposal then lives on for the person until confirmTimeoutMs, `capell.write.status` tells its
 * outcome, a newer call supersedes an older one, and the agent's abort withdraws a proposal only
 * while its call waits. Sending as a person (a trusted click) is covered end to end in
 * test/e2e/write-lifecycle.on.spec.ts.
 */
// First: it wraps attachShadow before the runtime's primitives take it (closed-root.ts).
import { rootOf } from './closed-root.ts';
import { expect } from 'chai';
import { answerOf } from '../support/answer-of.ts';
import { start, type Runtime, type RuntimeOptions } from '../../src/index.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';
// The .js specifier, as the runtime's own modules import it: the same module instance (registry).
import { writeRegistryOf } from '../../src/write/write-registry.js';
import type { CapellConfirmWrite } from '../../src/panel/capell-confirm-write.ts';
import { CORE_READ_TOOLS, callTool, modelContext, mountToolsIsland, unmountIslands } from './fixtures.ts';

type Result = { content: { type: string; text: string }[]; isError?: boolean };
type Awaiting = { status: 'awaiting_person'; writeId: string; expiresAt: string; next: string };

const FORM_TOOL = {
  name: 'form.submit.fixture',
  description: 'Fill the fixture form',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
  effect: 'write',
  binding: { type: 'form', target: 'fixture' },
};

const ENDPOINT_TOOL = {
  name: 'order.place',
  description: 'Place an order',
  inputSchema: { type: 'object', properties: { sku: { type: 'string' } }, additionalProperties: false },
  effect: 'write',
  binding: { type: 'endpoint', target: '/test-fixtures/echo' },
};

let runtime: Runtime | undefined;
let form: HTMLFormElement | undefined;

function nameField(): HTMLInputElement {
  return form!.elements.namedItem('name') as HTMLInputElement;
}

async function startWrites(options: RuntimeOptions, tools: object[] = [FORM_TOOL, ENDPOINT_TOOL]): Promise<void> {
  form = document.createElement('form');
  form.id = 'fixture';
  form.action = '/test-fixtures/echo';
  form.method = 'post';
  form.innerHTML = '<input name="name" aria-label="Name"><button>Send</button>';
  document.body.append(form);
  // The field's own default: a value the person typed would stay (the fill leaves it alone), and
  // these tests are about what is put back when a proposal ends.
  nameField().defaultValue = 'Grace';
  mountToolsIsland({ capellAgentSchema: 1, tools });
  runtime = start({ log: 'silent', ...options });
  await runtime.ready;
}

/** Calls a tool as an agent does, optionally with the agent's abort signal. */
async function startCall(name: string, input: object, signal?: AbortSignal): Promise<Result> {
  const context = modelContext() as unknown as { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object, options?: { signal?: AbortSignal }): Promise<string> };
  const tool = (await context.getTools()).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`tool ${name} is not registered`);
  return JSON.parse(await context.executeTool(tool, input, signal ? { signal } : undefined));
}

async function status(writeId: string, waitMs?: number): Promise<Record<string, unknown>> {
  return answerOf(await callTool('capell.write.status', waitMs === undefined ? { writeId } : { writeId, waitMs })) as Record<string, unknown>;
}

/** The open panels, once the newest has rendered its buttons. */
async function openPanels(): Promise<CapellConfirmWrite[]> {
  for (let tries = 0; tries < 150; tries++) {
    const panels = [...document.querySelectorAll('capell-confirm-write')];
    if (panels.length > 0 && panels.every((panel) => rootOf(panel)?.querySelector('button.cancel'))) return panels;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return [...document.querySelectorAll('capell-confirm-write')];
}

function cancelButton(panel: CapellConfirmWrite): HTMLButtonElement {
  return rootOf(panel)!.querySelector<HTMLButtonElement>('button.cancel')!;
}

afterEach(() => {
  runtime?.stop();
  runtime = undefined;
  unmountIslands();
  form?.remove();
  form = undefined;
  document.querySelectorAll('capell-confirm-write').forEach((panel) => panel.remove());
});

describe('write calls never hang the agent', () => {
  it('a write call resolves awaiting_person within data-write-wait-ms and the proposal stays open', async () => {
    await startWrites({ writeWaitMs: 300, confirmTimeoutMs: 60_000 });
    const began = performance.now();
    const result = await startCall('form.submit.fixture', { name: 'Ada' });
    const elapsed = performance.now() - began;
    const answer = answerOf(result) as Awaiting;
    expect(answer).to.deep.equal({ status: 'awaiting_person', writeId: answer.writeId, expiresAt: answer.expiresAt, next: NEXT_STEPS.awaiting_person });
    expect(answer.writeId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // writeWaitMs after the call began, plus loading the call and panel chunks on a first call.
    expect(elapsed).to.be.within(250, 5000);
    // expiresAt: confirmTimeoutMs after the call began, as an ISO time.
    expect(new Date(answer.expiresAt).toISOString()).to.equal(answer.expiresAt);
    expect(Date.parse(answer.expiresAt) - Date.now()).to.be.within(55_000, 60_000);
    // The proposal is still the person's to decide.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await openPanels()).to.have.length(1);
    expect(nameField().value).to.equal('Ada');
    expect(await status(answer.writeId)).to.deep.equal({ status: 'awaiting_person', tool: 'form.submit.fixture', writeId: answer.writeId, expiresAt: answer.expiresAt, next: NEXT_STEPS.awaiting_person });
  });

  it('capell.write.status reports cancelled after the person\'s later Cancel', async () => {
    await startWrites({ writeWaitMs: 150 });
    const { writeId } = answerOf(await startCall('order.place', { sku: 'A1' })) as Awaiting;
    const [panel] = await openPanels();
    cancelButton(panel!).click();
    expect(await status(writeId)).to.deep.equal({ status: 'cancelled', tool: 'order.place', next: NEXT_STEPS.cancelled });
    expect(document.querySelector('capell-confirm-write')).to.equal(null);
  });

  it('capell.write.status reports expired after data-confirm-timeout-ms, with values restored', async () => {
    await startWrites({ writeWaitMs: 150, confirmTimeoutMs: 600 });
    const { writeId, expiresAt } = answerOf(await startCall('form.submit.fixture', { name: 'Ada' })) as Awaiting;
    expect(nameField().value).to.equal('Ada');
    let answer = await status(writeId, 150);
    for (let polls = 0; polls < 20 && answer.status === 'awaiting_person'; polls++) answer = await status(writeId, 150);
    expect(answer).to.deep.equal({ status: 'expired', tool: 'form.submit.fixture', next: NEXT_STEPS.expired });
    expect(Date.now()).to.be.at.least(Date.parse(expiresAt) - 50);
    expect(nameField().value).to.equal('Grace');
    expect(document.querySelector('capell-confirm-write')).to.equal(null);
  });

  it('a call whose proposal expires before data-write-wait-ms answers expired itself', async () => {
    await startWrites({ writeWaitMs: 5000, confirmTimeoutMs: 300 });
    expect(answerOf(await startCall('form.submit.fixture', { name: 'Ada' }))).to.deep.equal({ status: 'expired', next: NEXT_STEPS.expired });
    expect(nameField().value).to.equal('Grace');
  });

  it('a second call supersedes the first: old writeId superseded, the panel shows the notice and holds only the new values', async () => {
    await startWrites({ writeWaitMs: 150 });
    const first = answerOf(await startCall('form.submit.fixture', { name: 'Ada' })) as Awaiting;
    const [firstPanel] = await openPanels();
    expect(rootOf(firstPanel)!.querySelector('.notice')).to.equal(null);
    const second = answerOf(await startCall('form.submit.fixture', { name: 'Mallory' })) as Awaiting;
    expect(second.status).to.equal('awaiting_person');
    expect(await status(first.writeId)).to.deep.equal({ status: 'superseded', tool: 'form.submit.fixture', supersededBy: second.writeId, next: NEXT_STEPS.superseded });
    const panels = await openPanels();
    expect(panels).to.have.length(1);
    expect(panels[0]).to.not.equal(firstPanel);
    expect(rootOf(panels[0])!.querySelector('.notice')?.textContent).to.equal('This replaces the assistant’s earlier proposal.');
    expect(rootOf(panels[0])!.textContent).to.contain('Mallory').and.not.contain('Ada');
    expect(nameField().value).to.equal('Mallory');
    // Cancelling the newer one gives back the person's own value, not the first proposal's.
    cancelButton(panels[0]!).click();
    expect(nameField().value).to.equal('Grace');
    expect(await status(second.writeId)).to.include({ status: 'cancelled' });
  });

  it('a second call for a write endpoint supersedes the first (per tool name)', async () => {
    await startWrites({ writeWaitMs: 150 });
    const first = answerOf(await startCall('order.place', { sku: 'A1' })) as Awaiting;
    const second = answerOf(await startCall('order.place', { sku: 'B2' })) as Awaiting;
    expect(await status(first.writeId)).to.deep.equal({ status: 'superseded', tool: 'order.place', supersededBy: second.writeId, next: NEXT_STEPS.superseded });
    const panels = await openPanels();
    expect(panels).to.have.length(1);
    expect(rootOf(panels[0])!.querySelector('code')?.textContent).to.equal('POST /test-fixtures/echo');
    expect(rootOf(panels[0])!.textContent).to.contain('B2').and.not.contain('A1');
    expect(rootOf(panels[0])!.querySelector('.notice')).to.not.equal(null);
  });

  it('an aborted call closes the proposal and restores values (status aborted)', async () => {
    await startWrites({ writeWaitMs: 5000 });
    const agent = new AbortController();
    const before = new Set(writeRegistryOf(document).all());
    const call = startCall('form.submit.fixture', { name: 'Ada' }, agent.signal).then(() => 'resolved', (error: Error) => error.name);
    await openPanels();
    expect(nameField().value).to.equal('Ada');
    agent.abort();
    expect(await call).to.equal('AbortError'); // Chromium rejects an aborted executeTool
    // The abort reaches the tool's own signal in a task of its own (Chromium 156 crashes the
    // renderer if the tool is unregistered before that): wait for the proposal to close.
    for (let tries = 0; tries < 100 && document.querySelector('capell-confirm-write'); tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.querySelector('capell-confirm-write')).to.equal(null);
    expect(nameField().value).to.equal('Grace');
    // The agent has no writeId (its call was aborted); the page's registry holds the record.
    expect(writeRegistryOf(document).all().filter((record) => !before.has(record)).map(({ tool, status }) => ({ tool, status }))).to.deep.equal([{ tool: 'form.submit.fixture', status: 'aborted' }]);
  });

  it('after a call answered awaiting_person, the agent\'s abort no longer withdraws the proposal', async () => {
    await startWrites({ writeWaitMs: 150 });
    const agent = new AbortController();
    const { writeId } = answerOf(await startCall('form.submit.fixture', { name: 'Ada' }, agent.signal)) as Awaiting;
    agent.abort();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await openPanels()).to.have.length(1);
    expect(nameField().value).to.equal('Ada');
    expect(await status(writeId)).to.include({ status: 'awaiting_person' });
  });

  it('waitMs long-polls until the person decides', async () => {
    await startWrites({ writeWaitMs: 1000 });
    const { writeId } = answerOf(await startCall('order.place', { sku: 'A1' })) as Awaiting;
    const [panel] = await openPanels();
    setTimeout(() => cancelButton(panel!).click(), 300);
    const began = performance.now();
    const answer = await status(writeId, 1000);
    const elapsed = performance.now() - began;
    expect(answer).to.deep.equal({ status: 'cancelled', tool: 'order.place', next: NEXT_STEPS.cancelled });
    // Answered when the person decided, not when waitMs ran out (and not at once).
    expect(elapsed).to.be.within(250, 900);
  });

  it('capell.write.status is registered read-only only when a write tool is', async () => {
    await startWrites({}, CORE_READ_TOOLS);
    expect((await modelContext().getTools()).map((tool) => tool.name)).to.not.include('capell.write.status');
    runtime!.stop();
    unmountIslands();
    form!.remove();
    await startWrites({ writeWaitMs: 4000 }, [...CORE_READ_TOOLS, FORM_TOOL]);
    const tool = (await modelContext().getTools()).find((candidate) => candidate.name === 'capell.write.status');
    expect(tool?.annotations).to.deep.include({ readOnlyHint: true });
    expect(tool?.inputSchema).to.deep.equal({
      type: 'object',
      properties: {
        writeId: { type: 'string', minLength: 1, maxLength: 100, description: 'The writeId the write call answered.' },
        waitMs: { type: 'integer', minimum: 0, maximum: 4000, description: 'Wait up to this many ms for a final status (default 0: answer at once).' },
      },
      required: ['writeId'],
      additionalProperties: false,
    });
  });

  it('a site declaration named capell.write.status is rejected: the runtime owns the name', async () => {
    await startWrites({}, [FORM_TOOL, { ...CORE_READ_TOOLS[0], name: 'capell.write.status' }]);
    const report = await runtime!.ready;
    expect(report.registered).to.deep.equal(['form.submit.fixture']);
    expect(report.rejected).to.deep.equal([{
      name: 'capell.write.status',
      source: 'capell-island[0]',
      reasons: ['name: "capell.write.status" is already declared by capell-webmcp (its own write status tool) (the first declaration wins)'],
    }]);
    const tool = (await modelContext().getTools()).find((candidate) => candidate.name === 'capell.write.status');
    expect(tool?.annotations).to.deep.include({ readOnlyHint: true });
  });

  it('unknown writeId is isError', async () => {
    await startWrites({});
    const result = await callTool('capell.write.status', { writeId: 'no-such-write' });
    expect(result).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'capell.write.status: no write "no-such-write" on this page (writeIds last as long as the page, the last 100 are kept; a send that navigated the tab is kept for its next pages, the last 20 for 10 minutes)' }] });
    const bad = await callTool('capell.write.status', { writeId: 'x', waitMs: 999_999 });
    expect(bad.isError).to.equal(true);
  });
});
