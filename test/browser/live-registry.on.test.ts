/**
 * The live registry (the runtime follows the page after start) in real Chromium with WebMCP on:
 * islands added, removed or rewritten after start, names that move between islands, forms found
 * again at call time, `toolname` forms that appear and disappear, the change event, and `stop()`
 * leaving nothing behind. Registrations are counted through `document.modelContext.getTools()`.
 */
// First: it wraps attachShadow before the runtime's primitives take it (closed-root.ts).
import { findPanel, sleep } from './closed-root.ts';
import { expect } from 'chai';
import { answerOf } from '../support/answer-of.ts';
import { start, type Report, type Runtime } from '../../src/index.ts';
import { normaliseOptions } from '../../src/start/config.ts';
import { normaliseCapellDeclaration } from '../../src/shared/declarations/normalise.ts';
import { createExecute } from '../../src/registry/tool-execute.ts';
import {
  CORE_READ_TOOLS, callTool, descriptionOf, fixtureTool, island, islandText, modelContext, mountPageGraph, mountToolsIsland, readTool,
  registeredNames, unmountIslands,
} from './fixtures.ts';

let runtime: Runtime | undefined;
const added: Element[] = [];

afterEach(() => {
  runtime?.stop();
  runtime = undefined;
  unmountIslands();
  for (const element of added.splice(0)) element.remove();
});

/** The next `capell-webmcp:change` Report; fails the test after `ms`. */
function nextChange(ms = 3000): Promise<Report> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no capell-webmcp:change within ${ms} ms`)), ms);
    document.addEventListener('capell-webmcp:change', (event) => {
      clearTimeout(timer);
      resolve((event as CustomEvent<Report>).detail);
    }, { once: true });
  });
}

/** Counts change events until `stopCounting` is called. */
function countChanges(): { count: () => number; stopCounting: () => void } {
  let count = 0;
  const listener = () => { count += 1; };
  document.addEventListener('capell-webmcp:change', listener);
  return { count: () => count, stopCounting: () => document.removeEventListener('capell-webmcp:change', listener) };
}

/** Waits until `condition` holds, polling every 20 ms; fails after `ms`. */
/** How many times the browser lists `name` among its tools (a tool registered twice would show twice). */
async function timesRegistered(name: string): Promise<number> {
  return (await registeredNames()).filter((registered) => registered === name).length;
}

async function until(condition: () => boolean, ms = 3000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('with WebMCP on: the live registry follows the page', () => {
  beforeEach(() => mountPageGraph({ '@type': 'WebPage', name: 'Live' }));

  it('a new island registers its tools once', async () => {
    mountToolsIsland(island(readTool('first.tool')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const changed = nextChange();
    mountToolsIsland(island(readTool('second.tool'), readTool('third.tool')));
    const report = await changed;
    expect(report.registered).to.deep.equal(['first.tool', 'second.tool', 'third.tool']);
    expect(await registeredNames()).to.deep.equal(['first.tool', 'second.tool', 'third.tool']);
    expect(runtime.report).to.equal(report);
  });

  it('an update that fails as a whole withdraws what it had registered and says why; the next update registers again', async () => {
    mountToolsIsland(island(readTool('first.tool')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const failedChange = nextChange();
    const { all } = Promise;
    // The update waits for its registrations with Promise.all: a page that breaks it breaks the update.
    Promise.all = (() => { throw new Error('no Promise.all'); }) as never;
    let failed: Report;
    try {
      mountToolsIsland(island(readTool('second.tool')));
      failed = await failedChange;
    } finally {
      Promise.all = all;
    }
    expect(failed).to.deep.equal({ api: 'document.modelContext', registered: [], audit: [], rejected: [{ name: '(runtime)', source: 'capell-webmcp', reasons: ['the update failed (no Promise.all)'] }] });
    expect(await registeredNames()).to.deep.equal([]);
    const recovered = nextChange();
    mountToolsIsland(island(readTool('third.tool')));
    expect((await recovered).registered).to.deep.equal(['first.tool', 'second.tool', 'third.tool']);
    expect(await registeredNames()).to.deep.equal(['first.tool', 'second.tool', 'third.tool']);
  });

  it('a removed island aborts exactly the tools it owned', async () => {
    mountToolsIsland(island(readTool('kept.one'), readTool('kept.two')));
    const doomed = mountToolsIsland(island(readTool('gone.one'), readTool('gone.two')));
    runtime = start({ log: 'silent' });
    expect((await runtime.ready).registered).to.have.length(4);
    const changed = nextChange();
    doomed.remove();
    const report = await changed;
    expect(report.registered).to.deep.equal(['kept.one', 'kept.two']);
    expect(await registeredNames()).to.deep.equal(['kept.one', 'kept.two']);
  });

  it('an island whose text changes re-registers its tools as now declared', async () => {
    const live = mountToolsIsland(island(readTool('edit.me', 'Before.'), readTool('drop.me')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const changed = nextChange();
    live.textContent = islandText(island(readTool('edit.me', 'After.'), readTool('new.one')));
    const report = await changed;
    expect(report.registered).to.deep.equal(['edit.me', 'new.one']);
    expect(await registeredNames()).to.deep.equal(['edit.me', 'new.one']);
    expect(await descriptionOf('edit.me')).to.deep.equal(['After.']);
  });

  it('an island replaced twice within one task ends with exactly the newest declaration registered, in one update', async () => {
    const live = mountToolsIsland(island(readTool('race.tool', 'Version 1.')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const changes = countChanges();
    const changed = nextChange();
    // Two replacements in one task, across microtasks: an element swap, then a text rewrite.
    const second = document.createElement('script');
    second.type = 'application/json';
    second.setAttribute('data-capell-agent-tools', '');
    second.textContent = islandText(island(readTool('race.tool', 'Version 2.')));
    live.replaceWith(second);
    added.push(second);
    await Promise.resolve();
    second.textContent = islandText(island(readTool('race.tool', 'Version 3.')));
    const report = await changed;
    await sleep(100);
    changes.stopCounting();
    expect(changes.count()).to.equal(1);
    expect(report.registered).to.deep.equal(['race.tool']);
    expect(await descriptionOf('race.tool')).to.deep.equal(['Version 3.']);
  });

  it('an island replaced in consecutive tasks ends with the newest declaration, never a stale one', async () => {
    const live = mountToolsIsland(island(readTool('race.tool', 'Version 1.')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    for (let version = 2; version <= 6; version += 1) {
      live.textContent = islandText(island(readTool('race.tool', `Version ${version}.`)));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await sleep(200);
    expect(await descriptionOf('race.tool')).to.deep.equal(['Version 6.']);
    expect(runtime.report?.registered).to.deep.equal(['race.tool']);
  });

  it('a tool whose name moves from one island to another is registered once, by its new owner', async () => {
    const from = mountToolsIsland(island(readTool('moving.tool', 'Old owner.'), readTool('stays.here')));
    const to = mountToolsIsland(island(readTool('other.tool')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const changed = nextChange();
    from.textContent = islandText(island(readTool('stays.here')));
    to.textContent = islandText(island(readTool('other.tool'), readTool('moving.tool', 'New owner.')));
    const report = await changed;
    expect(report.rejected).to.deep.equal([]);
    expect(await registeredNames()).to.deep.equal(['moving.tool', 'other.tool', 'stays.here']);
    expect(await descriptionOf('moving.tool')).to.deep.equal(['New owner.']);
  });

  it('a duplicate in a later island registers once its first declaration is removed', async () => {
    const first = mountToolsIsland(island(readTool('shared.name', 'First.')));
    mountToolsIsland(island(readTool('shared.name', 'Second.')));
    runtime = start({ log: 'silent' });
    const ready = await runtime.ready;
    expect(ready.rejected).to.have.length(1);
    expect(ready.rejected[0]).to.include({ name: 'shared.name', source: 'capell-island[1]' });
    const changed = nextChange();
    first.remove();
    const report = await changed;
    expect(report.rejected).to.deep.equal([]);
    expect(await descriptionOf('shared.name')).to.deep.equal(['Second.']);
  });

  it('labels its islands stably: a removed island does not renumber the others, a new one gets the next label', async () => {
    const zero = mountToolsIsland(island(readTool('zero.tool')));
    mountToolsIsland('{"capellAgentSchema":1,"tools":'); // capell-island[1], unreadable
    runtime = start({ log: 'silent' });
    expect((await runtime.ready).rejected.map((rejection) => rejection.source)).to.deep.equal(['capell-island[1]']);
    const changed = nextChange();
    zero.remove();
    mountToolsIsland('not json either');
    const report = await changed;
    expect(report.rejected.map((rejection) => rejection.source)).to.deep.equal(['capell-island[1]', 'capell-island[2]']);
  });

  it('many changes in one task are one update', async () => {
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const changes = countChanges();
    const changed = nextChange();
    for (let index = 0; index < 20; index += 1) mountToolsIsland(island(readTool(`bulk.tool${index}`)));
    const report = await changed;
    await sleep(100);
    changes.stopCounting();
    expect(changes.count()).to.equal(1);
    expect(report.registered).to.have.length(20);
    expect(await registeredNames()).to.have.length(20);
  });

  it('changes elsewhere in the page cause no update', async () => {
    mountToolsIsland(island(readTool('quiet.tool')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const changes = countChanges();
    const div = document.createElement('div');
    div.id = 'unrelated';
    div.textContent = 'text';
    document.body.append(div);
    added.push(div);
    div.textContent = 'other text';
    div.setAttribute('class', 'x');
    await sleep(100);
    changes.stopCounting();
    expect(changes.count()).to.equal(0);
  });

  it('ready settles once, with the first Report; later updates change report and fire the event', async () => {
    mountToolsIsland(island(readTool('early.tool')));
    runtime = start({ log: 'silent' });
    const first = await runtime.ready;
    expect(first.registered).to.deep.equal(['early.tool']);
    const changed = nextChange();
    mountToolsIsland(island(readTool('late.tool')));
    const later = await changed;
    expect(await runtime.ready).to.equal(first);
    expect(first.registered).to.deep.equal(['early.tool']);
    expect(later.registered).to.deep.equal(['early.tool', 'late.tool']);
    expect(runtime.report).to.equal(later);
  });
});

describe('with WebMCP on: form tools follow their form', () => {
  const FORM_TOOL = {
    name: 'form.submit.live',
    description: 'Send the live form.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
    effect: 'write',
    binding: { type: 'form', target: 'live' },
  };

  function mountForm(marker: string): HTMLFormElement {
    const form = document.createElement('form');
    form.id = 'live';
    form.action = '/test-fixtures/echo';
    form.method = 'post';
    form.dataset.marker = marker;
    form.innerHTML = '<label>Name <input name="name"></label><button>Send</button>';
    document.body.append(form);
    added.push(form);
    return form;
  }

  it('a removed form gives isError naming it, at call time', async () => {
    const form = mountForm('only');
    mountToolsIsland(island(FORM_TOOL));
    runtime = start({ log: 'silent' });
    expect((await runtime.ready).registered).to.deep.equal(['form.submit.live']);
    // The page observer withdraws the tool in the next task (the next test); a call already on its
    // way meets the form gone. That window is not reproducible through WebMCP, so the tool's own
    // execute (the one registered) is called in the task that removes the form: the executor
    // finds the form again by id, at call time, and nothing is filled.
    const normalised = normaliseCapellDeclaration(FORM_TOOL, { source: 'capell-island[0]', origin: location.origin, messages: {} });
    if (!normalised.ok) throw new Error(normalised.reasons.join('; '));
    const execute = createExecute(normalised.spec, normaliseOptions({ log: 'silent' }), new AbortController().signal);
    form.remove();
    const result = await execute({ name: 'Ada' });
    expect(result.isError).to.equal(true);
    expect(result.content[0]?.type === 'text' ? result.content[0].text : '').to.match(/no form #live on this page/);
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('');
  });

  it('a removed form withdraws its tool with the reason; the form back registers it again (form tools are checked against their form at registration)', async () => {
    const form = mountForm('only');
    mountToolsIsland(island(FORM_TOOL));
    runtime = start({ log: 'silent' });
    expect((await runtime.ready).registered).to.deep.equal(['form.submit.live']);
    let changed = nextChange();
    form.remove();
    let report = await changed;
    expect(report.registered).to.deep.equal([]);
    expect(report.rejected).to.deep.equal([{ name: 'form.submit.live', source: 'capell-island[0]', reasons: ['form #live is not on this page'] }]);
    expect(await registeredNames()).to.not.include('form.submit.live');
    changed = nextChange();
    document.body.append(form);
    report = await changed;
    expect(report.registered).to.deep.equal(['form.submit.live']);
    expect(await timesRegistered('form.submit.live')).to.equal(1);
  });

  it('a form tool whose form is missing at start is rejected with the reason, and registers once the form appears', async () => {
    mountToolsIsland(island(FORM_TOOL));
    runtime = start({ log: 'silent' });
    const first = await runtime.ready;
    expect(first.registered).to.deep.equal([]);
    expect(first.rejected).to.deep.equal([{ name: 'form.submit.live', source: 'capell-island[0]', reasons: ['form #live is not on this page'] }]);
    expect(await registeredNames()).to.not.include('form.submit.live');
    const changed = nextChange();
    mountForm('late');
    expect((await changed).registered).to.deep.equal(['form.submit.live']);
    expect(await timesRegistered('form.submit.live')).to.equal(1);
  });

  it('a control the form lacks rejects the tool, naming the control; the control added (or renamed) registers it', async () => {
    const form = mountForm('controls');
    const input = form.querySelector('input')!;
    input.name = 'fullname';
    mountToolsIsland(island(FORM_TOOL));
    runtime = start({ log: 'silent' });
    const first = await runtime.ready;
    expect(first.rejected).to.deep.equal([{ name: 'form.submit.live', source: 'capell-island[0]', reasons: ['form #live has no control named "name"'] }]);
    let changed = nextChange();
    input.name = 'name';
    expect((await changed).registered).to.deep.equal(['form.submit.live']);
    changed = nextChange();
    input.remove();
    expect((await changed).rejected[0]?.reasons).to.deep.equal(['form #live has no control named "name"']);
    changed = nextChange();
    form.append(Object.assign(document.createElement('textarea'), { name: 'name' }));
    expect((await changed).registered).to.deep.equal(['form.submit.live']);
  });

  it("a control without a name is found by form-builder's binding: a wire:model or id set after start registers the tool, with the Report's note of the rule", async () => {
    const form = mountForm('controls');
    const input = form.querySelector('input')!;
    input.removeAttribute('name');
    mountToolsIsland(island(FORM_TOOL));
    runtime = start({ log: 'silent' });
    const first = await runtime.ready;
    expect(first.rejected).to.deep.equal([{ name: 'form.submit.live', source: 'capell-island[0]', reasons: ['form #live has no control named "name"'] }]);
    let changed = nextChange();
    input.setAttribute('wire:model.live', 'data.name');
    let report = await changed;
    expect(report.registered).to.deep.equal(['form.submit.live']);
    expect(report.audit).to.deep.include({ level: 'warning', surface: 'tool form.submit.live', message: "form #live controls found by form-builder's binding, not name (wire:model: name)" });
    changed = nextChange();
    input.removeAttribute('wire:model.live');
    expect((await changed).rejected[0]?.reasons).to.deep.equal(['form #live has no control named "name"']);
    changed = nextChange();
    input.id = 'live-name';
    report = await changed;
    expect(report.registered).to.deep.equal(['form.submit.live']);
    expect(report.audit).to.deep.include({ level: 'warning', surface: 'tool form.submit.live', message: "form #live controls found by form-builder's binding, not name (id live-<key>: name)" });
  });

  it('a form replaced after start is found again by id: the call fills the new form, not the old one', async () => {
    const old = mountForm('old');
    mountToolsIsland(island(FORM_TOOL));
    runtime = start({ log: 'silent', writeWaitMs: 200 });
    await runtime.ready;
    old.remove();
    const fresh = mountForm('new');
    const result = await callTool('form.submit.live', { name: 'Ada' });
    expect(result.isError, result.content[0]?.text).to.not.equal(true);
    // The call answered awaiting_person at writeWaitMs; the panel (lit and its chunk) may still be
    // loading on a busy machine: wait for it within the test's own timeout.
    await until(() => findPanel() !== undefined, 8000);
    expect((fresh.elements.namedItem('name') as HTMLInputElement).value).to.equal('Ada');
    expect((old.elements.namedItem('name') as HTMLInputElement).value).to.equal('');
  });

  it('a toolname form that appears unregisters the form tool, and registers it again when it disappears', async () => {
    const form = mountForm('native');
    mountToolsIsland(island(FORM_TOOL));
    runtime = start({ log: 'silent' });
    expect((await runtime.ready).registered).to.deep.equal(['form.submit.live']);
    let changed = nextChange();
    form.setAttribute('toolname', 'live_form');
    form.setAttribute('tooldescription', 'The live form.');
    let report = await changed;
    expect(report.registered).to.deep.equal([]);
    expect(report.rejected[0]?.reasons[0]).to.match(/carries toolname="live_form"/);
    expect(await timesRegistered('form.submit.live')).to.equal(0);
    changed = nextChange();
    form.removeAttribute('toolname');
    report = await changed;
    expect(report.registered).to.deep.equal(['form.submit.live']);
    expect(await timesRegistered('form.submit.live')).to.equal(1);
  });

  it('the write status tool comes with the first write tool and stays after the last: the writeIds it gave still need an answer', async () => {
    mountForm('status');
    const live = mountToolsIsland(island(FORM_TOOL));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    expect(await registeredNames()).to.include('capell.write.status');
    const changed = nextChange();
    live.textContent = islandText(island(readTool('read.only')));
    await changed;
    expect((await registeredNames()).sort()).to.deep.equal(['capell.write.status', 'read.only']);
    // Until stop(), which removes it with everything else.
    runtime.stop();
    expect(await registeredNames()).to.deep.equal([]);
  });
});

describe('with WebMCP on: stop() undoes everything start() did', () => {
  it('removes every tool, stops observing, and fires no more events', async () => {
    mountPageGraph({ '@type': 'WebPage' });
    mountToolsIsland(island(...CORE_READ_TOOLS));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    runtime.stop();
    expect(await registeredNames()).to.deep.equal([]);
    const changes = countChanges();
    mountToolsIsland(island(readTool('after.stop')));
    await sleep(100);
    changes.stopCounting();
    expect(changes.count()).to.equal(0);
    expect(await registeredNames()).to.deep.equal([]);
  });

  it('answers a call in flight with isError when stopped', async () => {
    mountToolsIsland(island(fixtureTool('slow.read', '/test-fixtures/slow')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    // In flight: the call's request has reached the server (on a loaded machine the call chunk
    // alone can take longer than a fixed wait, and a tool removed before its execute ran is
    // another case). The fixture server says so: the runtime's fetch is its own (primitives.ts).
    const key = `in-flight-${Math.random().toString(36).slice(2)}`;
    const pending = callTool('slow.read', { q: key });
    const arrived = await (await fetch(`/test-fixtures/slow-arrived?q=${key}`)).json() as { arrived: boolean };
    expect(arrived.arrived).to.equal(true);
    runtime.stop();
    const result = await pending;
    expect(result.isError).to.equal(true);
    expect(result.content[0]?.text).to.match(/aborted before \/test-fixtures\/slow answered/);
  });

  it('closes an open confirmation panel and puts the person\'s values back', async () => {
    const form = document.createElement('form');
    form.id = 'stopform';
    form.action = '/test-fixtures/echo';
    form.method = 'post';
    form.innerHTML = '<label>Name <input name="name" value="Person"></label><button>Send</button>';
    document.body.append(form);
    added.push(form);
    mountToolsIsland(island({
      name: 'form.submit.stopform', description: 'Send it.', effect: 'write', binding: { type: 'form', target: 'stopform' },
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
    }));
    runtime = start({ log: 'silent', writeWaitMs: 300 });
    await runtime.ready;
    const result = await callTool('form.submit.stopform', { name: 'Agent' });
    expect(answerOf(result)).to.deep.include({ status: 'awaiting_person' });
    await until(() => findPanel() !== undefined);
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('Agent');
    expect(findPanel()).to.not.equal(undefined);
    runtime.stop();
    await sleep(50);
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('Person');
    expect(findPanel()).to.equal(undefined);
  });

  it('a start() after stop() starts clean', async () => {
    mountPageGraph({ '@type': 'WebPage' });
    mountToolsIsland(island(readTool('again.tool')));
    const first = start({ log: 'silent' });
    await first.ready;
    first.stop();
    runtime = start({ log: 'silent' });
    expect(runtime).to.not.equal(first);
    const report = await runtime.ready;
    expect(report.registered).to.deep.equal(['again.tool']);
    expect(await registeredNames()).to.deep.equal(['again.tool']);
    const changed = nextChange();
    mountToolsIsland(island(readTool('later.tool')));
    expect((await changed).registered).to.deep.equal(['again.tool', 'later.tool']);
  });
});
