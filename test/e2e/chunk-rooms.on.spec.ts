/**
 * The rooms in the built bundle (vite.rooms.ts), in real Chromium with WebMCP on: the chunks under
 * /dist/chunks/ the page requests are recorded, by name. The first read call loads the call chunk
 * (the validator, the request path and the read room) and nothing of the write machinery; a write
 * call then loads the write room and, when it proposes, the panel. Demo pages name AgentGate, whose
 * manifest is fetched at start-up through the request path (call chunk): the room checks run on the
 * contact page with its script tag not naming AgentGate, and the page as served is checked on its
 * own (the AgentGate room at start-up, never the write room or panel). The classic script
 * (`capell-webmcp.iife.js`) loads these same chunks.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { executeTool, expect, listTools, readyReport, serveEdited, sharedTabTest as test } from './demo-fixture.ts';
import { startCall } from './agent-calls.ts';

/** Chunk name → its room, from the file name (`chunks/<name>-<hash>.js`). */
const chunkName = (file: string): string => file.replace(/^.*\/chunks\//, '').replace(/-[\w-]{8}\.js$/, '');

/** Records every /dist/chunks/*.js the page requests, by chunk name, in order. */
function recordChunks(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/^\/dist\/chunks\/[^/]+\.js$/.test(pathname)) requested.push(chunkName(pathname));
  });
  return requested;
}

/**
 * Holds the page's idle callbacks (`requestIdleCallback`, replaced by an init script, as any page
 * script could) until `releaseIdle` runs them: the runtime prefetches the call chunk at idle after
 * tools registered (tool-execute.ts), so what start-up alone requests is checked while they wait.
 */
async function holdIdleCallbacks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const held: IdleRequestCallback[] = [];
    Object.assign(window, { heldIdle: held });
    window.requestIdleCallback = (callback) => held.push(callback);
  });
}

/** Runs the idle callbacks held so far (holdIdleCallbacks), as an idle period of 50 ms would; returns how many ran. */
function releaseIdle(page: Page): Promise<number> {
  return page.evaluate(() => {
    const held = (window as unknown as { heldIdle: IdleRequestCallback[] }).heldIdle.splice(0);
    const end = performance.now() + 50;
    for (const callback of held) callback({ didTimeout: false, timeRemaining: () => Math.max(0, end - performance.now()) });
    return held.length;
  });
}

/**
 * Runs idle callbacks (releaseIdle) until `expected` chunks were requested (when given) and then
 * the prefetch is quiet: no idle callback left and no chunk more requested for 300 ms.
 */
async function finishIdleWork(page: Page, requested: readonly string[], expected: readonly string[] = []): Promise<void> {
  await expect.poll(async () => { await releaseIdle(page); return expected.every((name) => requested.includes(name)); }).toBe(true);
  let seen = -1;
  let quiet = 0;
  await expect.poll(async () => {
    const ran = await releaseIdle(page);
    quiet = ran === 0 && requested.length === seen ? quiet + 1 : 0;
    seen = requested.length;
    return quiet >= 3;
  }, { intervals: [100] }).toBe(true);
}

/** Opens a demo page (the contact page by default) with its script tag not naming AgentGate (and no demo agent script). */
async function openContactWithoutAgentGate(page: Page, url: string, path = '/contact/plain'): Promise<void> {
  await page.route(`${url}${path}`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(' data-agentgate>', '>').replace('<script type="module" src="/site/demo-agent.js"></script>', '');
    await route.fulfill({ response, body: html });
  });
  await page.goto(`${url}${path}`);
}

test.describe('chunks by room', () => {
  test('the build has a chunk for each unit folder of src/ the browser loads after start-up', () => {
    const names = readdirSync('dist/chunks').filter((file) => file.endsWith('.js')).map((file) => chunkName(`/chunks/${file}`));
    expect(names).toEqual(expect.arrayContaining(['registry', 'call', 'write', 'write-forms', 'write-endpoint', 'write-admin', 'write-status', 'panel', 'inspector', 'agentgate-discover', 'agentgate-call', 'admin']));
  });

  test('the classic script calls the module build\'s own chunks, each one beside it', () => {
    const dynamicImports = (file: string) => new Set([...readFileSync(file, 'utf8').matchAll(/\bimport\((["'`])(\.\/[^"'`]+)\1\)/g)].map((match) => match[2]!));
    const fromIIFE = dynamicImports('dist/capell-webmcp.iife.js');
    const fromEntry = dynamicImports('dist/capell-webmcp.js');
    // Every chunk the module entry loads lazily, the classic script loads as the same file (one
    // set of chunks for both), with what those import statically: the rest of the start code
    // from the module entry.
    expect([...fromEntry].filter((path) => !fromIIFE.has(path))).toEqual([]);
    expect([...fromIIFE].map((path) => chunkName(path))).toEqual(expect.arrayContaining(['registry', 'inspector', './capell-webmcp.js']));
    const built = new Set(readdirSync('dist/chunks'));
    expect([...fromIIFE].filter((path) => path.startsWith('./chunks/') && !built.has(path.slice('./chunks/'.length)))).toEqual([]);
  });

  test('every import() in the module build starts, at once, the chunks its target imports statically (no waterfall)', () => {
    // vite.chunk-imports.ts: import('./x.js') becomes Promise.all([import('./x.js'), import('./y.js')]) when x.js imports y.js.
    const files = ['capell-webmcp.js', ...readdirSync('dist/chunks').filter((file) => file.endsWith('.js')).map((file) => `chunks/${file}`)];
    const code = new Map(files.map((file) => [file, readFileSync(`dist/${file}`, 'utf8')]));
    const resolveFrom = (from: string, specifier: string) => new URL(specifier, `http://dist.invalid/${from}`).pathname.slice(1);
    const staticOf = (file: string) => [...code.get(file)!.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+)["'`]/g)].map((match) => resolveFrom(file, match[1]!));
    const closure = (file: string, seen = new Set<string>()): Set<string> => {
      for (const next of staticOf(file)) if (!seen.has(next)) { seen.add(next); closure(next, seen); }
      return seen;
    };
    let checked = 0;
    const missing: string[] = [];
    for (const [file, text] of code) {
      const held = new Set([file, ...closure(file)]);
      // Each lazy load: a lone import(…) or a Promise.all([import(…), …]) group; the first names the target.
      for (const group of text.matchAll(/Promise\.all\(\[((?:import\(`[^`]+`\),?)+)\]\)|(?<!,|\[)import\(`([^`]+)`\)/g)) {
        const specifiers = group[1] ? [...group[1].matchAll(/import\(`([^`]+)`\)/g)].map((match) => match[1]!) : [group[2]!];
        const together = new Set(specifiers.map((specifier) => resolveFrom(file, specifier)));
        const target = resolveFrom(file, specifiers[0]!);
        if (!code.has(target)) continue;
        checked++;
        for (const needed of closure(target)) if (!held.has(needed) && !together.has(needed)) missing.push(`${file} → ${target} needs ${needed}`);
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  test('the start code (module entry, classic script) and the registry chunk begin with V8\'s compile hint; no other chunk does; each source map moves down exactly the lines the build put first', () => {
    // vite.compile-hints.ts: `//# allFunctionsCalledOnLoad` as the first line. vite.bundler-runtime.ts:
    // the bundler's helpers copied in as the first lines. Each line adds one empty line first in the map.
    const files = ['capell-webmcp.js', 'capell-webmcp.iife.js', 'capell-webmcp.single.iife.js', ...readdirSync('dist/chunks').filter((file) => file.endsWith('.js')).map((file) => `chunks/${file}`)];
    const text = new Map(files.map((file) => [file, readFileSync(`dist/${file}`, 'utf8')]));
    const HINT = '//# allFunctionsCalledOnLoad\n';
    const hinted = files.filter((file) => text.get(file)!.startsWith(HINT));
    expect(hinted.map((file) => (file.startsWith('chunks/') ? chunkName(`/${file}`) : file))).toEqual(['capell-webmcp.js', 'capell-webmcp.iife.js', 'registry']);
    // The copy's lines (after the hint, which stays first): from `var{…}=(()=>{` to the line that
    // ends it, `;return{…}})();`.
    const helperLines = (file: string) => {
      const code = text.get(file)!.slice(hinted.includes(file) ? HINT.length : 0);
      return /^var\{[^\n]*\}=\(\(\)=>\{/.test(code) ? code.slice(0, code.indexOf('}})();\n')).split('\n').length : 0;
    };
    const withHelpers = files.filter((file) => helperLines(file) > 0);
    expect(withHelpers.map((file) => chunkName(`/${file}`))).toEqual(expect.arrayContaining(['registry', 'call', 'write-forms']));
    // (The classic script's door has no source of its own to map.)
    for (const file of files.filter((name) => existsSync(`dist/${name}.map`))) {
      const { mappings } = JSON.parse(readFileSync(`dist/${file}.map`, 'utf8')) as { mappings: string };
      const prepended = (hinted.includes(file) ? 1 : 0) + helperLines(file);
      expect(/^;*/.exec(mappings)![0].length, file).toBe(prepended);
    }
  });

  test('the bundler\'s runtime helpers are copied into each chunk that uses them: no chunk of their own, and none imports one', () => {
    // vite.bundler-runtime.ts: start-up fetches the registry chunk alone, not a helper chunk with it.
    const files = readdirSync('dist/chunks').filter((file) => file.endsWith('.js'));
    expect(files.filter((file) => file.startsWith('rolldown-'))).toEqual([]);
    for (const file of ['capell-webmcp.js', 'capell-webmcp.iife.js', ...files.map((name) => `chunks/${name}`)]) {
      expect(readFileSync(`dist/${file}`, 'utf8'), file).not.toContain('rolldown-runtime');
    }
  });

  test('start-up requests one chunk, the registry\'s, with the bundler\'s helpers in it', async ({ page, demo }) => {
    const requested = recordChunks(page);
    await holdIdleCallbacks(page); // the call chunk's prefetch after ready is not start-up
    await openContactWithoutAgentGate(page, demo.url, '/products');
    const report = await readyReport(page);
    expect(report.registered).toContain('site.search');
    expect(report.audit).toEqual([]);
    expect(requested).toEqual(['registry']);
  });

  test('a page whose tool has a warning loads the registry chunk alone too: the contact page (form-builder\'s name)', async ({ page, demo }) => {
    const requested = recordChunks(page);
    await holdIdleCallbacks(page);
    await openContactWithoutAgentGate(page, demo.url);
    const report = await readyReport(page);
    // form.submit.capell-form-contact has a '-' inside a segment (../shared/DESIGN.md §4): a warning,
    // whose text ships with the registry (shared/declarations/warning-text.ts), so no request waits before ready.
    expect(report.audit).toEqual([expect.objectContaining({ level: 'warning', surface: 'tool form.submit.capell-form-contact' })]);
    expect(requested).toEqual(['registry']);
  });

  test('a registry chunk that does not arrive: ready settles naming it, nothing is registered, nothing is thrown', async ({ page, demo }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route(/\/dist\/chunks\/registry-[\w-]{8}\.js$/, (route) => route.abort('connectionreset'));
    await openContactWithoutAgentGate(page, demo.url);
    const report = await readyReport(page) as { registered: string[]; rejected: { name: string; source: string; reasons: string[] }[] };
    expect(report.registered).toEqual([]);
    expect(report.rejected).toEqual([{ name: '(runtime)', source: 'capell-webmcp', reasons: [expect.stringMatching(/^the registry did not load; nothing was registered \(.+\)$/)] }]);
    expect(await listTools(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('a read call loads no write chunk and no panel chunk; a write call then loads both', async ({ page, demo }) => {
    const requested = recordChunks(page);
    await holdIdleCallbacks(page);
    await openContactWithoutAgentGate(page, demo.url);
    const report = await readyReport(page);
    expect(report.registered).toEqual(expect.arrayContaining(['site.search', 'page.get', 'newsletter.subscribe', 'form.submit.capell-form-contact']));
    // Start-up (the entry, the declaration rules, the status tool's descriptor) loads no room.
    expect(requested).not.toContain('call');
    expect(requested).not.toContain('write');
    expect(requested).not.toContain('panel');

    const search = await executeTool(page, 'site.search', { q: 'trail' });
    expect(search.isError).toBeUndefined();
    const lookup = await executeTool(page, 'page.get', {});
    expect(lookup.isError).toBeUndefined();
    expect(requested).toContain('call');
    expect(requested).not.toContain('write');
    expect(requested).not.toContain('panel');

    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    await expect.poll(() => requested.includes('write') && requested.includes('write-endpoint') && requested.includes('panel')).toBe(true);
    // An endpoint write needs neither the form machinery nor the admin writes.
    expect(requested).not.toContain('write-forms');
    expect(requested).not.toContain('write-admin');
    // Nothing is sent before the person decides.
    expect(demo.requests.filter((request) => request.path === '/agent/v1/newsletter')).toEqual([]);
  });

  test('a form write on a fresh page loads the write chunk and the forms chunk; the read room came with the call chunk', async ({ page, demo }) => {
    const requested = recordChunks(page);
    await openContactWithoutAgentGate(page, demo.url);
    await readyReport(page);
    await startCall(page, 'form.submit.capell-form-contact', { name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair', message: 'Hello', newsletter: false });
    await expect.poll(() => requested.includes('write') && requested.includes('write-forms') && requested.includes('panel')).toBe(true);
    expect(requested.indexOf('call')).toBeLessThan(requested.indexOf('write'));
    expect(requested).not.toContain('write-admin');
    expect(requested).not.toContain('write-endpoint');
  });

  test('a demo page as served (naming AgentGate) loads the AgentGate room at start-up, and no write chunk or panel until a write', async ({ page, demo }) => {
    const requested = recordChunks(page);
    await holdIdleCallbacks(page);
    await page.goto(`${demo.url}/contact/plain`);
    const report = await readyReport(page);
    expect(report.registered).toEqual(expect.arrayContaining(['send_message', 'form.submit.capell-form-contact']));
    // The manifest's fetch and rules; the request path it is fetched through is in the registry
    // chunk, so the call chunk (the validator and the read room) waits for a call.
    expect(requested).toEqual(expect.arrayContaining(['registry', 'agentgate-discover']));
    expect(requested).not.toContain('call');
    expect(requested).not.toContain('agentgate-call'); // the signed call's machinery waits for a call
    expect(requested).not.toContain('write');
    expect(requested).not.toContain('panel');
  });

  test.describe('the call chunk is prefetched when the browser is idle after tools registered (so a first call costs about what a steady call does)', () => {
    test('it comes after ready, without a call, with the read room, and never the write room or panel', async ({ page, demo }) => {
      const requested = recordChunks(page);
      await holdIdleCallbacks(page);
      await openContactWithoutAgentGate(page, demo.url);
      expect((await readyReport(page)).registered.length).toBeGreaterThan(0);
      expect(requested).not.toContain('call'); // not before ready: the idle callback waits
      await finishIdleWork(page, requested, ['call']);
      expect(requested).not.toContain('write');
      expect(requested).not.toContain('panel');
      // The read call then needs no chunk more.
      const before = requested.length;
      const searches = () => demo.requests.filter((request) => request.path === '/agent/v1/search').length;
      const searchesBefore = searches(); // the demo server is the worker's: other tests' requests are there too
      expect((await executeTool(page, 'site.search', { q: 'trail' })).isError).toBeUndefined();
      expect(requested.slice(before)).toEqual([]);
      expect(searches()).toBe(searchesBefore + 1); // the prefetch requested nothing of the site
    });

    test('on a page with AgentGate tools the signed call\'s chunk comes too, and still no write room or panel', async ({ page, demo }) => {
      const requested = recordChunks(page);
      await holdIdleCallbacks(page);
      await page.goto(`${demo.url}/contact/plain`);
      expect((await readyReport(page)).registered).toEqual(expect.arrayContaining(['send_message', 'form.submit.capell-form-contact']));
      expect(requested).not.toContain('agentgate-call');
      await finishIdleWork(page, requested, ['call', 'agentgate-call']);
      expect(requested).not.toContain('write'); // form.submit.capell-form-contact waits for the person: no prefetch
      expect(requested).not.toContain('panel');
    });

    test('a tool registered later (AgentGate\'s, once an island added later names it) gets its executor at idle too', async ({ page, demo }) => {
      const requested = recordChunks(page);
      await holdIdleCallbacks(page);
      // The contact page as served, but its script tag not naming AgentGate.
      await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replace(' data-agentgate>', '>'));
      await page.goto(`${demo.url}/contact/plain`);
      const first = await readyReport(page);
      expect(first.registered).toContain('site.search'); // the page's own tools: the prefetch runs for them
      expect(first.registered).not.toContain('send_message');
      await finishIdleWork(page, requested);
      expect(requested).not.toContain('agentgate-call');
      const changed = await page.evaluate(() => new Promise<{ registered: string[] }>((resolve) => {
        document.addEventListener('capell-webmcp:change', (event) => resolve((event as CustomEvent).detail), { once: true });
        const island = document.createElement('script');
        island.type = 'application/json';
        island.setAttribute('data-capell-agent-tools', '');
        island.textContent = JSON.stringify({ capellAgentSchema: 1, agentgate: true, tools: [] });
        document.head.append(island);
      }));
      expect(changed.registered).toContain('send_message');
      await finishIdleWork(page, requested, ['agentgate-call']);
    });

    test('a page that breaks requestIdleCallback or navigator.connection costs only the prefetch: no page error, calls answer', async ({ page, demo }) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
      // Calls back at once, with a deadline that has no time left, and counts how often.
      await page.addInitScript(() => {
        let calls = 0;
        Object.assign(window, { idleCalls: () => calls });
        window.requestIdleCallback = (callback) => { calls++; callback({ didTimeout: true, timeRemaining: () => 0 }); return calls; };
      });
      await openContactWithoutAgentGate(page, demo.url);
      expect((await readyReport(page)).registered.length).toBeGreaterThan(0);
      // The prefetch ran, and built validators one per call back, re-asking each time.
      await expect.poll(() => page.evaluate(() => (window as unknown as { idleCalls: () => number }).idleCalls())).toBeGreaterThan(2);
      expect((await executeTool(page, 'site.search', { q: 'trail' })).isError).toBeUndefined();

      const throwing = await page.context().newPage();
      throwing.on('pageerror', (error) => errors.push(error.message));
      await throwing.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, 'connection', { get: () => { throw new Error('no connection for you'); }, configurable: true });
        window.requestIdleCallback = () => { throw new Error('no idle for you'); };
      });
      await openContactWithoutAgentGate(throwing, demo.url);
      expect((await readyReport(throwing)).registered.length).toBeGreaterThan(0);
      expect((await executeTool(throwing, 'site.search', { q: 'trail' })).isError).toBeUndefined();

      // Promise.all broken after ready: the chunk groups of the build use it when the prefetch loads.
      for (const broken of ['throws', 'missing', 'never settles']) {
        const late = await page.context().newPage();
        late.on('pageerror', (error) => errors.push(`${broken}: ${error.message}`));
        await holdIdleCallbacks(late);
        await late.addInitScript((how) => document.addEventListener('capell-webmcp:ready', () => {
          if (how === 'throws') Promise.all = () => { throw new Error('no Promise.all for you'); };
          else if (how === 'missing') delete (Promise as { all?: unknown }).all;
          else Promise.all = (() => ({ then() {} })) as never;
        }), broken);
        await openContactWithoutAgentGate(late, demo.url);
        expect((await readyReport(late)).registered.length).toBeGreaterThan(0);
        await releaseIdle(late);
        await late.waitForTimeout(200);
        await late.close();
      }
      expect(errors).toEqual([]);
    });

    test('stop() while the call chunk loads: nothing more is loaded or run', async ({ page, demo }) => {
      const requested = recordChunks(page);
      await holdIdleCallbacks(page);
      let releaseChunk!: () => void;
      const chunkHeld = new Promise<void>((resolve) => { releaseChunk = resolve; });
      await page.route(/\/dist\/chunks\/call-[\w-]{8}\.js$/, async (route) => { await chunkHeld; await route.continue(); });
      await page.goto(`${demo.url}/contact/plain`); // as served: with AgentGate tools, whose executor is its own chunk
      expect((await readyReport(page)).registered).toContain('send_message');
      await releaseIdle(page);
      await expect.poll(() => requested.includes('call')).toBe(true);
      await page.evaluate(() => window.capellWebMCP!.stop());
      releaseChunk();
      await finishIdleWork(page, requested);
      expect(requested).not.toContain('agentgate-call');
      expect(await page.evaluate(() => (window as unknown as { heldIdle: unknown[] }).heldIdle.length)).toBe(0);
    });

    test('not where the person asked to save data (Save-Data, navigator.connection.saveData)', async ({ page, demo }) => {
      const requested = recordChunks(page);
      await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'connection', { get: () => ({ saveData: true }), configurable: true }));
      await holdIdleCallbacks(page);
      await openContactWithoutAgentGate(page, demo.url);
      expect((await readyReport(page)).registered.length).toBeGreaterThan(0);
      expect(await releaseIdle(page)).toBe(0); // nothing asked for an idle period
      expect(requested).not.toContain('call');
      expect((await executeTool(page, 'site.search', { q: 'trail' })).isError).toBeUndefined();
      expect(requested).toContain('call'); // the first call loads it
    });

    test('not after stop(), nor on a page where nothing registered', async ({ page, demo }) => {
      const requested = recordChunks(page);
      await holdIdleCallbacks(page);
      await openContactWithoutAgentGate(page, demo.url);
      await readyReport(page);
      await page.evaluate(() => window.capellWebMCP!.stop());
      await releaseIdle(page);
      await page.waitForTimeout(200);
      expect(requested).not.toContain('call');

      const empty = await page.context().newPage();
      const emptyRequested = recordChunks(empty);
      await holdIdleCallbacks(empty);
      await serveEdited(empty, `${demo.url}/contact/plain`, (html) => html
        // The islands as Capell's partial writes them: attributes on lines of their own.
        .replace(/<script\s+type="application\/json"\s+data-capell-agent-tools\s*>[\s\S]*?<\/script>/g, '')
        .replace(/<form[\s\S]*?<\/form>/g, '')
        .replace(' data-agentgate>', '>'));
      await empty.goto(`${demo.url}/contact/plain`);
      expect((await readyReport(empty)).registered).toEqual([]);
      expect(await releaseIdle(empty)).toBe(0);
      expect(emptyRequested).not.toContain('call');
    });
  });
});
