/**
 * Red-team attacks on the live registry in real Chromium with WebMCP on: small hostile or unusual
 * pages, update storms, large pages, races between updates, and stop/start at awkward moments. Each
 * test names what it proves; registrations are counted through `document.modelContext.getTools()`.
 */
import { expect } from 'chai';
import { start, type Report, type Runtime } from '../../src/index.ts';
import { readIsland } from '../../src/start/read-islands.ts';
import { sleep } from './closed-root.ts';
import {
  descriptionOf, island, islandText, modelContext, mountPageGraph, mountToolsIsland, readTool, registeredNames, unmountIslands,
} from './fixtures.ts';

let runtime: Runtime | undefined;
const added: Element[] = [];

afterEach(() => {
  runtime?.stop();
  runtime = undefined;
  unmountIslands();
  for (const element of added.splice(0)) element.remove();
});

/** Settles with `promise`, or fails the test after `ms` naming `what`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => { throw new Error(`${what} did not settle within ${ms} ms`); })]);
}

function nextChange(ms = 3000): Promise<Report> {
  return within(new Promise<Report>((resolve) => {
    document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent<Report>).detail), { once: true });
  }), ms, 'capell-webmcp:change');
}

/** Waits until the page's registrations stop changing for `quietMs`. */
async function settled(quietMs = 150): Promise<void> {
  let last = JSON.stringify(await registeredNames());
  for (;;) {
    await sleep(quietMs);
    const now = JSON.stringify(await registeredNames());
    if (now === last) return;
    last = now;
  }
}

/**
 * Long tasks are measured and logged, not asserted: on the shared 2-core test machine (load
 * average near 10) the same work varied from none to 215 ms between runs of the storm test, so
 * an assertion on them would fail at random. Reading every island is one unsliced task per
 * update, so the figures these tests log grow with the page.
 */
/** Long tasks (over 50 ms) seen while `body` runs. */
async function longTasksDuring(body: () => Promise<void>): Promise<number[]> {
  const durations: number[] = [];
  const observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) durations.push(Math.round(entry.duration)); });
  observer.observe({ type: 'longtask' });
  try {
    await body();
    await sleep(100);
  } finally {
    observer.disconnect();
  }
  return durations;
}

function mountElement<T extends Element>(html: string): T {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  const element = holder.firstElementChild as T;
  document.body.append(element);
  added.push(element);
  return element;
}

function newIslandElement(manifest: object): HTMLScriptElement {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.setAttribute('data-capell-agent-tools', '');
  script.textContent = islandText(manifest);
  return script;
}

describe('attacks on the live registry: hostile markup', () => {
  beforeEach(() => mountPageGraph({ '@type': 'WebPage', name: 'Attacks' }));

  it('a form whose field is named getAttribute (DOM clobbering) does not keep ready from settling', async () => {
    mountElement('<form id="clobbered" action="/test-fixtures/echo"><input name="getAttribute"><input name="matches"></form>');
    mountToolsIsland(island(readTool('still.here')));
    runtime = start({ log: 'silent' });
    const report = await within(runtime.ready, 3000, 'ready');
    expect(report.registered).to.deep.equal(['still.here']);
    expect(await registeredNames()).to.deep.equal(['still.here']);
  });

  it('a clobbering form added in the same task as an island does not hide the island from the observer', async () => {
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const changed = nextChange();
    mountElement('<form id="clobbered2"><input name="matches"><input name="querySelector"></form>');
    mountToolsIsland(island(readTool('after.clobber')));
    await changed.catch(() => undefined);
    await settled();
    expect(await registeredNames()).to.deep.equal(['after.clobber']);
  });

  it('named elements that shadow document methods (querySelectorAll, getElementById, dispatchEvent) do not stop the registry', async () => {
    mountElement('<img name="querySelectorAll" alt="">');
    mountElement('<form name="getElementById"></form>');
    mountElement('<img name="dispatchEvent" alt="">');
    mountToolsIsland(island(readTool('document.clobbered')));
    runtime = start({ log: 'silent' });
    expect((await within(runtime.ready, 3000, 'ready')).registered).to.deep.equal(['document.clobbered']);
    let changes = 0;
    const listener = () => { changes += 1; };
    document.addEventListener('capell-webmcp:change', listener);
    mountToolsIsland(island(readTool('document.later')));
    await settled();
    document.removeEventListener('capell-webmcp:change', listener);
    expect(await registeredNames()).to.deep.equal(['document.clobbered', 'document.later']);
    expect(runtime.report?.registered).to.deep.equal(['document.clobbered', 'document.later']);
    expect(changes).to.equal(1);
  });

  it('an element named modelContext does not hide WebMCP from the runtime', async () => {
    mountElement('<img name="modelContext" alt="">');
    mountToolsIsland(island(readTool('host.clobbered')));
    runtime = start({ log: 'silent' });
    const report = await within(runtime.ready, 3000, 'ready');
    expect(report.api).to.equal('document.modelContext');
    expect(report.registered).to.deep.equal(['host.clobbered']);
  });

  it('islands inside a template, a shadow root and a same-origin iframe are not registered and break nothing', async () => {
    const template = mountElement<HTMLTemplateElement>('<template></template>');
    template.content.append(newIslandElement(island(readTool('in.template'))));
    const host = mountElement<HTMLDivElement>('<div></div>');
    host.attachShadow({ mode: 'open' }).append(newIslandElement(island(readTool('in.shadow'))));
    const frame = mountElement<HTMLIFrameElement>('<iframe src="about:blank"></iframe>');
    frame.contentDocument!.head.append(frame.contentDocument!.importNode(newIslandElement(island(readTool('in.frame'))), true));
    mountToolsIsland(island(readTool('in.document')));
    runtime = start({ log: 'silent' });
    expect((await within(runtime.ready, 3000, 'ready')).registered).to.deep.equal(['in.document']);
    const changed = nextChange();
    mountToolsIsland(island(readTool('later.document')));
    expect((await changed).registered).to.deep.equal(['in.document', 'later.document']);
    expect(await registeredNames()).to.deep.equal(['in.document', 'later.document']);
  });

  it('text changed through the island\'s own text node (characterData) is followed', async () => {
    const live = mountToolsIsland(island(readTool('char.tool', 'Before.')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const changed = nextChange();
    (live.firstChild as Text).data = islandText(island(readTool('char.tool', 'After.')));
    await changed;
    expect(await descriptionOf('char.tool')).to.deep.equal(['After.']);
  });

  it('text split over several text nodes, one of them appended later, is followed', async () => {
    const live = mountToolsIsland(island(readTool('split.tool', 'One.')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const changed = nextChange();
    const full = islandText(island(readTool('split.tool', 'Two.'), readTool('split.more')));
    live.textContent = full.slice(0, 10);
    live.append(document.createTextNode(full.slice(10)));
    await changed;
    await settled();
    expect(await registeredNames()).to.deep.equal(['split.more', 'split.tool']);
    expect(await descriptionOf('split.tool')).to.deep.equal(['Two.']);
  });

  it('the island marker attribute added to and removed from an existing script registers and removes its tools', async () => {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.textContent = islandText(island(readTool('marked.tool')));
    document.head.append(script);
    added.push(script);
    runtime = start({ log: 'silent' });
    expect((await runtime.ready).registered).to.deep.equal([]);
    let changed = nextChange();
    script.setAttribute('data-capell-agent-tools', '');
    expect((await changed).registered).to.deep.equal(['marked.tool']);
    changed = nextChange();
    script.removeAttribute('data-capell-agent-tools');
    expect((await changed).registered).to.deep.equal([]);
    expect(await registeredNames()).to.deep.equal([]);
  });

  it('an island moved to another parent within one task keeps its tools registered once', async () => {
    const live = mountToolsIsland(island(readTool('moved.tool')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    const target = mountElement<HTMLDivElement>('<div></div>');
    target.append(live);
    await sleep(100);
    expect(await registeredNames()).to.deep.equal(['moved.tool']);
    expect(runtime.report?.registered).to.deep.equal(['moved.tool']);
  });

  it('a fake capell-webmcp:change event does not change the runtime\'s report', async () => {
    mountToolsIsland(island(readTool('true.tool')));
    runtime = start({ log: 'silent' });
    const ready = await runtime.ready;
    document.dispatchEvent(new CustomEvent('capell-webmcp:change', { detail: { api: 'none', registered: ['fake'], rejected: [], audit: [] } }));
    expect(runtime.report).to.equal(ready);
  });
});

describe('attacks on the live registry: names moving in separate tasks', () => {
  beforeEach(() => mountPageGraph({ '@type': 'WebPage', name: 'Moves' }));

  it('a name added to its new island first and removed from the old one a task later ends registered once, by its new owner', async () => {
    const from = mountToolsIsland(island(readTool('moving.a', 'Old.')));
    const to = mountToolsIsland(island(readTool('other.a')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    let changed = nextChange();
    to.textContent = islandText(island(readTool('other.a'), readTool('moving.a', 'New.')));
    const between = await changed;
    expect(between.rejected.map((rejection) => rejection.name)).to.deep.equal(['moving.a']);
    expect(await descriptionOf('moving.a')).to.deep.equal(['Old.']);
    changed = nextChange();
    from.textContent = islandText(island());
    const after = await changed;
    expect(after.rejected).to.deep.equal([]);
    expect(await descriptionOf('moving.a')).to.deep.equal(['New.']);
  });

  it('a name removed from the old island first and added to the new one a task later ends registered once, by its new owner', async () => {
    const from = mountToolsIsland(island(readTool('moving.b', 'Old.')));
    const to = mountToolsIsland(island(readTool('other.b')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    let changed = nextChange();
    from.textContent = islandText(island());
    await changed;
    expect(await descriptionOf('moving.b')).to.deep.equal([]);
    changed = nextChange();
    to.textContent = islandText(island(readTool('other.b'), readTool('moving.b', 'New.')));
    await changed;
    expect(await descriptionOf('moving.b')).to.deep.equal(['New.']);
  });

  it('a duplicate whose first holder is removed while the update that rejected it is still settling ends registered once', async () => {
    const first = mountToolsIsland(island(readTool('dup.name', 'First.')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    mountToolsIsland(island(readTool('dup.name', 'Second.'), readTool('dup.other')));
    await sleep(0);
    first.remove();
    await settled();
    expect(await descriptionOf('dup.name')).to.deep.equal(['Second.']);
    expect(runtime.report?.registered).to.deep.equal(['dup.name', 'dup.other']);
    expect(runtime.report?.rejected).to.deep.equal([]);
  });
});

describe('attacks on the live registry: load', () => {
  beforeEach(() => mountPageGraph({ '@type': 'WebPage', name: 'Load' }));

  it('an island rewritten every task for two seconds ends with the last text', async () => {
    const live = mountToolsIsland(island(readTool('storm.tool', 'Version 0.'), readTool('storm.fixed')));
    runtime = start({ log: 'silent' });
    await runtime.ready;
    let version = 0;
    const longTasks = await longTasksDuring(async () => {
      const until = performance.now() + 2000;
      while (performance.now() < until) {
        version += 1;
        live.textContent = islandText(island(readTool('storm.tool', `Version ${version}.`), readTool('storm.fixed')));
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      await settled();
    });
    if (longTasks.length > 0) console.log(`long tasks (ms) during ${version} rewrites: ${longTasks.join(', ')}`);
    expect(await registeredNames()).to.deep.equal(['storm.fixed', 'storm.tool']);
    expect(await descriptionOf('storm.tool')).to.deep.equal([`Version ${version}.`]);
    expect(runtime.report?.registered).to.deep.equal(['storm.tool', 'storm.fixed']);
  });

  it('an island of 500 tools rewritten by one character ends registered once each', async () => {
    const tools = (mark: string) => Array.from({ length: 500 }, (_, index) => readTool(`big.tool${index}`, `Tool ${index}${mark}`));
    const live = mountToolsIsland(island(...tools('.')));
    runtime = start({ log: 'silent' });
    expect((await runtime.ready).registered).to.have.length(500);
    const longTasks = await longTasksDuring(async () => {
      const changed = nextChange(10_000);
      live.textContent = islandText(island(...tools('!')));
      await changed;
      await settled();
    });
    if (longTasks.length > 0) console.log(`long tasks (ms): ${longTasks.join(', ')}`);
    const names = await registeredNames();
    expect(names).to.have.length(500);
    expect(new Set(names).size).to.equal(500);
    expect(await descriptionOf('big.tool499')).to.deep.equal(['Tool 499!']);
  });

  it('an update on a page of many islands parses only the island that changed', async () => {
    const still = mountToolsIsland(island(readTool('parse.still')));
    const live = mountToolsIsland(island(readTool('parse.live', 'One.')));
    const before = [readIsland(still), readIsland(live)];
    live.textContent = islandText(island(readTool('parse.live', 'Two.')));
    const after = [readIsland(still), readIsland(live)];
    expect(after[0], 'the unchanged island is not parsed again').to.equal(before[0]);
    expect(after[1]).to.not.equal(before[1]);
    expect((after[1]!.declarations[0] as { description: string }).description).to.equal('Two.');
  });

  it('2000 islands added in one task register once each', async () => {
    runtime = start({ log: 'silent' });
    await runtime.ready;
    // Built before measuring: the page's own work of making 2000 elements is not the runtime's.
    const fragment = document.createDocumentFragment();
    const scripts: HTMLScriptElement[] = [];
    for (let index = 0; index < 2000; index += 1) scripts.push(newIslandElement(island(readTool(`many.tool${index}`))));
    fragment.append(...scripts);
    await sleep(50);
    const longTasks = await longTasksDuring(async () => {
      const changed = nextChange(20_000);
      document.head.append(fragment);
      added.push(...scripts);
      const report = await changed;
      expect(report.registered).to.have.length(2000);
    });
    if (longTasks.length > 0) console.log(`long tasks (ms): ${longTasks.join(', ')}`);
    expect(await registeredNames()).to.have.length(2000);
  });
});

describe('attacks on the live registry: stop and start at awkward moments', () => {
  beforeEach(() => mountPageGraph({ '@type': 'WebPage', name: 'Stops' }));

  it('stop() before the first update settles still settles ready', async () => {
    mountToolsIsland(island(readTool('early.stop')));
    const first = start({ log: 'silent' });
    first.stop();
    await within(first.ready, 3000, 'ready of a runtime stopped before its first update');
    expect(await registeredNames()).to.deep.equal([]);
  });

  it('stop() then start() in one task registers each tool once', async () => {
    mountToolsIsland(island(readTool('restart.one'), readTool('restart.two')));
    const first = start({ log: 'silent' });
    first.stop();
    runtime = start({ log: 'silent' });
    expect((await within(runtime.ready, 3000, 'ready')).registered).to.deep.equal(['restart.one', 'restart.two']);
    await settled();
    expect(await registeredNames()).to.deep.equal(['restart.one', 'restart.two']);
  });

  it('stop() while registrations are pending, then start(), registers each tool once', async () => {
    mountToolsIsland(island(...Array.from({ length: 300 }, (_, index) => readTool(`pending.tool${index}`))));
    const first = start({ log: 'silent' });
    await sleep(5);
    first.stop();
    runtime = start({ log: 'silent' });
    expect((await within(runtime.ready, 5000, 'ready')).registered).to.have.length(300);
    await settled();
    expect(await registeredNames()).to.have.length(300);
  });

  it('start() twice returns the one runtime and registers once', async () => {
    mountToolsIsland(island(readTool('twice.tool')));
    runtime = start({ log: 'silent' });
    const again = start({ log: 'silent' });
    expect(again).to.equal(runtime);
    await runtime.ready;
    expect(await registeredNames()).to.deep.equal(['twice.tool']);
  });

  // Runs last in the file on purpose: it needs the status tool's chunk not yet loaded in this page.
  it('a write tool dropped while the status tool loads: the status tool still registers once (the write tool may have given writeIds) and no report is stale', async () => {
    mountElement('<form id="statusrace" action="/test-fixtures/echo" method="post"><input name="name"></form>');
    const live = mountToolsIsland(island({
      name: 'form.submit.statusrace', description: 'Send it.', effect: 'write', binding: { type: 'form', target: 'statusrace' },
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
    }));
    runtime = start({ log: 'silent' });
    const order: string[] = [];
    document.addEventListener('capell-webmcp:change', () => order.push('change'), { once: true });
    void runtime.ready.then(() => order.push('ready'));
    // As soon as the write tool is registered (the status tool's chunk is then loading), drop it.
    while (!(await registeredNames()).includes('form.submit.statusrace')) await sleep(0);
    live.textContent = islandText(island(readTool('read.only')));
    await within(runtime.ready, 3000, 'ready');
    await settled(300);
    expect((await registeredNames()).sort(), 'registered with WebMCP').to.deep.equal(['capell.write.status', 'read.only']);
    expect(runtime.report?.registered, 'runtime.report').to.deep.equal(['read.only']);
    expect(order, 'ready first, then the change').to.deep.equal(['ready', 'change']);
  });
});
