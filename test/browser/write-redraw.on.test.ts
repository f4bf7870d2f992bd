/**
 * A write outlives the redraw (issue 36, item 4), in real Chromium through the real WebMCP API:
 * a form a script draws again with the same id is the same form for its tool (no tool is handed
 * to `registerTool` again, none of its signals aborts), also when the whole component (island and
 * form) is drawn again; a proposal open on the old form element ends `aborted` and says why;
 * `capell.write.status` stays registered and answers every writeId after the form (and its tool)
 * is gone, as after form-builder's success redraw (the form replaced by its message, the island
 * kept: test/fixtures/capell/form-builder/contact-form-after-success.html). And a write an
 * earlier page of this tab kept (write/tab-writes.ts) registers the status tool on a page without
 * write tools; what a page script forges there is read as untrusted input.
 */
// First: it wraps attachShadow before the runtime's primitives take it (closed-root.ts).
import { rootOf } from './closed-root.ts';
import { expect } from 'chai';
import { answerOf } from '../support/answer-of.ts';
import { start, type Report, type Runtime } from '../../src/index.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';
import { TAB_WRITES_KEY } from '../../src/registry/write-status-tool.ts';
import { formRedrawnReason } from '../../src/write/forms/form-redraw.ts';
import { normaliseOptions } from '../../src/start/config.ts';
import { keepForNextPage, MAX_TAB_WRITES } from '../../src/write/tab-writes.ts';
import { CORE_READ_TOOLS, callTool, island, islandText, modelContext, mountToolsIsland, readTool, registeredNames, unmountIslands } from './fixtures.ts';

type Awaiting = { status: 'awaiting_person'; writeId: string; expiresAt: string; next: string };

const FORM_ID = 'capell-form-redraw';
const FORM_TOOL = {
  name: `form.submit.${FORM_ID}`,
  description: 'Fill the redrawn form',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
  effect: 'write',
  binding: { type: 'form', target: FORM_ID },
};

/** form-builder's form, reduced: its id, a control bound by wire:model and id, its send button. */
const FORM_HTML = `<form id="${FORM_ID}" action="/test-fixtures/echo" method="post">
  <label for="${FORM_ID}-name">Name</label><input type="text" id="${FORM_ID}-name" name="name">
  <button type="submit">Submit</button></form>`;

let runtime: Runtime | undefined;
let component: HTMLDivElement | undefined;
/** registerTool calls since `spyOnRegistrations`: the tool's name and the signal it was given. */
let registrations: { name: string; signal: AbortSignal | undefined }[] = [];
let restoreRegisterTool: (() => void) | undefined;

/**
 * Records every `registerTool` call and passes it on unchanged to WebMCP (the real registration
 * still happens): a tool handed over again after a redraw would show here, and an unregistration
 * as its signal aborted.
 */
function spyOnRegistrations(): void {
  const context = modelContext() as unknown as { registerTool(tool: { name: string }, options?: { signal?: AbortSignal }): Promise<void> };
  const own = Object.getOwnPropertyDescriptor(context, 'registerTool');
  const original = context.registerTool;
  registrations = [];
  context.registerTool = function registerTool(tool, options) {
    registrations.push({ name: tool.name, signal: options?.signal });
    return original.call(this, tool, options);
  };
  restoreRegisterTool = () => {
    if (own) Object.defineProperty(context, 'registerTool', own);
    else delete (context as { registerTool?: unknown }).registerTool;
  };
}

/** A Livewire-like component root holding the tools island, then the form (as form.blade.php orders them). */
function mountComponent(tools: object[] = [FORM_TOOL]): HTMLDivElement {
  component = document.createElement('div');
  component.className = 'capell-form-builder-form';
  component.innerHTML = `<script type="application/json" data-capell-agent-tools>${islandText(island(...tools))}</script>${FORM_HTML}`;
  document.body.append(component);
  return component;
}

function nameField(): HTMLInputElement {
  return document.getElementById(`${FORM_ID}-name`) as HTMLInputElement;
}

function nextChange(ms = 3000): Promise<Report> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no capell-webmcp:change within ${ms} ms`)), ms);
    document.addEventListener('capell-webmcp:change', (event) => {
      clearTimeout(timer);
      resolve((event as CustomEvent<Report>).detail);
    }, { once: true });
  });
}

async function startCall(name: string, input: object): Promise<unknown> {
  return answerOf(await callTool(name, input));
}

async function status(writeId: string, waitMs = 0): Promise<Record<string, unknown>> {
  return answerOf(await callTool('capell.write.status', { writeId, waitMs })) as Record<string, unknown>;
}

/** Polls the status until it is no longer awaiting the person (each poll waits up to 200 ms). */
async function settledStatus(writeId: string): Promise<Record<string, unknown>> {
  let answer = await status(writeId, 200);
  for (let polls = 0; polls < 25 && answer.status === 'awaiting_person'; polls++) answer = await status(writeId, 200);
  return answer;
}

async function until(condition: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The open panel once it rendered its buttons, or undefined. */
function openPanel(): Element | undefined {
  const panel = document.querySelector('capell-confirm-write');
  return panel && rootOf(panel)?.querySelector('button.cancel') ? panel : undefined;
}

afterEach(() => {
  runtime?.stop();
  runtime = undefined;
  restoreRegisterTool?.();
  restoreRegisterTool = undefined;
  component?.remove();
  component = undefined;
  unmountIslands();
  document.querySelectorAll('capell-confirm-write').forEach((panel) => panel.remove());
  sessionStorage.removeItem(TAB_WRITES_KEY);
});

describe('a write outlives the redraw', () => {
  it('a form replaced by a new one with the same id: its tool stays registered, the open proposal ends aborted and says why, a new call fills the new form', async () => {
    spyOnRegistrations();
    mountComponent();
    runtime = start({ log: 'silent', writeWaitMs: 200 });
    expect((await runtime.ready).registered).to.include(FORM_TOOL.name);
    const { writeId } = await startCall(FORM_TOOL.name, { name: 'Ada' }) as Awaiting;
    await until(() => openPanel() !== undefined);
    expect(nameField().value).to.equal('Ada');

    // Livewire drawing the form again: a new <form> with the same id where the old one was.
    const old = document.getElementById(FORM_ID)!;
    const drawn = document.createElement('template');
    drawn.innerHTML = FORM_HTML;
    const changed = nextChange().then(() => 'changed', () => 'no change');
    old.replaceWith(drawn.content);

    expect(await settledStatus(writeId)).to.deep.equal({
      status: 'aborted', tool: FORM_TOOL.name, reason: formRedrawnReason(FORM_ID), next: NEXT_STEPS.aborted,
    });
    await until(() => document.querySelector('capell-confirm-write') === null);
    // Whether or not the page observer published a Report for the change, the tool never left.
    await changed;
    expect(registrations.filter((call) => call.name === FORM_TOOL.name)).to.have.length(1);
    expect(registrations.every((call) => !call.signal?.aborted)).to.equal(true);
    expect(await registeredNames()).to.include.members([FORM_TOOL.name, 'capell.write.status']);

    // The tool now fills the new form; the old write keeps its answer.
    const second = await startCall(FORM_TOOL.name, { name: 'Grace' }) as Awaiting;
    expect(second.status).to.equal('awaiting_person');
    await until(() => openPanel() !== undefined);
    expect(nameField().value).to.equal('Grace');
    expect(nameField().closest('form')).to.not.equal(old);
    expect(await status(writeId)).to.include({ status: 'aborted' });
  });

  it('a whole component drawn again (island and form replaced by identical new elements): no tool is unregistered or registered again', async () => {
    spyOnRegistrations();
    const root = mountComponent([FORM_TOOL, readTool('read.kept')]);
    runtime = start({ log: 'silent' });
    const report = await runtime.ready;
    expect(report.registered).to.have.members([FORM_TOOL.name, 'read.kept']);
    const before = registrations.length;
    const changed = nextChange().then(() => 'changed', () => 'no change');
    root.innerHTML = root.innerHTML; // what a redraw that does not morph leaves: new elements, same markup
    await changed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(registrations.slice(before)).to.deep.equal([]);
    expect(registrations.every((call) => !call.signal?.aborted)).to.equal(true);
    expect((await registeredNames()).sort()).to.deep.equal(['capell.write.status', FORM_TOOL.name, 'read.kept'].sort());
    // The unit keeps its label: a later Report still names the same source.
    expect(runtime.report?.registered ?? report.registered).to.include(FORM_TOOL.name);
  });

  it('the success redraw (the form replaced by its message, the island kept): the form tool goes, capell.write.status stays and answers the writeId', async () => {
    const root = mountComponent();
    runtime = start({ log: 'silent', writeWaitMs: 200 });
    await runtime.ready;
    const { writeId } = await startCall(FORM_TOOL.name, { name: 'Ada' }) as Awaiting;
    await until(() => openPanel() !== undefined);

    const changed = nextChange();
    const message = document.createElement('p');
    message.setAttribute('role', 'status');
    message.textContent = 'Thanks for getting in touch. We will reply soon.';
    root.querySelector('form')!.replaceWith(message);
    const report = await changed;
    expect(report.registered).to.not.include(FORM_TOOL.name);
    expect(report.rejected.map((rejection) => rejection.reasons)).to.deep.equal([[`form #${FORM_ID} is not on this page`]]);
    expect(await registeredNames()).to.deep.equal(['capell.write.status']);
    expect(await settledStatus(writeId)).to.deep.equal({
      status: 'aborted', tool: FORM_TOOL.name, reason: formRedrawnReason(FORM_ID), next: NEXT_STEPS.aborted,
    });
  });

  it('capell.write.status answers a writeId after its tool was unregistered (the island no longer declares it)', async () => {
    const root = mountComponent();
    runtime = start({ log: 'silent', writeWaitMs: 200 });
    await runtime.ready;
    const { writeId } = await startCall(FORM_TOOL.name, { name: 'Ada' }) as Awaiting;
    await until(() => openPanel() !== undefined);
    rootOf(openPanel()!)!.querySelector<HTMLButtonElement>('button.cancel')!.click();
    const changed = nextChange();
    root.querySelector('script')!.textContent = islandText(island(...CORE_READ_TOOLS));
    await changed;
    const names = await registeredNames();
    expect(names).to.not.include(FORM_TOOL.name);
    expect(names).to.include('capell.write.status');
    expect(await status(writeId)).to.deep.equal({ status: 'cancelled', tool: FORM_TOOL.name, next: NEXT_STEPS.cancelled });
  });
});

describe('a write kept by an earlier page of this tab', () => {
  const now = () => Date.now();
  const write = (fields: object) => ({ writeId: 'w-1', tool: 'form.submit.contact', status: 'submitted', at: now() - 1000, from: `${location.origin}/contact`, ...fields });
  const keep = (writes: object[], until = now() + 60_000) => sessionStorage.setItem(TAB_WRITES_KEY, JSON.stringify({ until, writes }));

  it('registers capell.write.status on a page without write tools and answers the kept outcome', async () => {
    keep([write({ httpStatus: 200, navigatedTo: `${location.origin}/contact?sent=1` })]);
    mountToolsIsland(island(...CORE_READ_TOOLS));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    expect(await registeredNames()).to.include('capell.write.status');
    expect(await status('w-1')).to.deep.equal({ status: 'submitted', tool: 'form.submit.contact', httpStatus: 200, navigatedTo: `${location.origin}/contact?sent=1` });
  });

  it('registers capell.write.status on a page that declares no tool at all', async () => {
    keep([write({})]);
    runtime = start({ log: 'silent' });
    expect((await runtime.ready).registered).to.deep.equal([]);
    await until(async () => (await registeredNames()).includes('capell.write.status'));
    expect(await status('w-1')).to.deep.equal({ status: 'submitted', tool: 'form.submit.contact' });
  });

  it('nothing kept, or only what is too old: no status tool on a page without write tools', async () => {
    keep([write({ at: now() - 11 * 60_000 })], now() - 60_000);
    mountToolsIsland(island(...CORE_READ_TOOLS));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    expect(await registeredNames()).to.not.include('capell.write.status');
  });

  it('keeps the outcome only, the last 20 writes, none older than 10 minutes; only a submitted write', () => {
    const config = normaliseOptions({ log: 'silent' });
    keep([write({ writeId: 'too-old', at: now() - 10 * 60_000 - 1 })]);
    for (let index = 0; index < 25; index++) {
      const kept = keepForNextPage(config, {
        writeId: `w-${index}`, tool: 'form.submit.contact', status: 'submitted', expiresAt: '', httpStatus: 201, answer: { secret: 'the answer body' }, answerNote: 'a note',
      }, { navigatedTo: `${location.origin}/thanks?id=${index}#top` });
      expect(kept).to.equal(true);
    }
    expect(keepForNextPage(config, { writeId: 'w-open', tool: 'form.submit.contact', status: 'awaiting_person', expiresAt: '' })).to.equal(false);
    const stored = JSON.parse(sessionStorage.getItem(TAB_WRITES_KEY)!) as { until: number; writes: Record<string, unknown>[] };
    expect(stored.writes.map((kept) => kept.writeId)).to.deep.equal(Array.from({ length: MAX_TAB_WRITES }, (_, index) => `w-${index + 5}`));
    expect(stored.writes.at(-1)).to.deep.equal({
      writeId: 'w-24', tool: 'form.submit.contact', status: 'submitted', at: stored.writes.at(-1)!.at, from: location.href.split('#')[0], httpStatus: 201, navigatedTo: `${location.origin}/thanks?id=24`,
    });
    expect(stored.until).to.equal((stored.writes.at(-1)!.at as number) + 10 * 60_000);
  });

  it('a forged record is read as untrusted input: only checked fields are answered, nothing else happens', async () => {
    keep([
      // Another origin's address, a status the runtime never keeps, a value the runtime never stores.
      write({ writeId: 'forged-address', navigatedTo: 'https://evil.example/phish', httpStatus: 999, values: { card: '4111' }, answer: { secret: 1 } }),
      write({ writeId: 'forged-status', status: 'failed' }),
      write({ writeId: 'forged-from', from: 'https://evil.example/' }),
      write({ writeId: 'forged-age', at: now() + 3_600_000 }),
      write({ writeId: 'forged-tool', tool: '<img src=x onerror=alert(1)>' }),
    ]);
    mountToolsIsland(island(...CORE_READ_TOOLS));
    const urlBefore = location.href;
    runtime = start({ log: 'silent' });
    await runtime.ready;
    expect(await status('forged-address')).to.deep.equal({ status: 'submitted', tool: 'form.submit.contact' });
    for (const writeId of ['forged-status', 'forged-from', 'forged-age', 'forged-tool']) {
      const result = await callTool('capell.write.status', { writeId });
      expect(result.isError, writeId).to.equal(true);
      expect(result.content[0]!.text).to.contain(`no write "${writeId}" on this page`);
    }
    expect(location.href).to.equal(urlBefore);
    expect(document.querySelector('capell-confirm-write')).to.equal(null);
    // Not JSON, or far too large: ignored, never thrown.
    sessionStorage.setItem(TAB_WRITES_KEY, `{"until":${now() + 60_000},"writes":[${'{},'.repeat(10_000)}{}]}`);
    expect((await callTool('capell.write.status', { writeId: 'w-1' })).isError).to.equal(true);
    sessionStorage.setItem(TAB_WRITES_KEY, '{not json');
    expect((await callTool('capell.write.status', { writeId: 'w-1' })).isError).to.equal(true);
  });
});
