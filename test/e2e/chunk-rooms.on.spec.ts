/**
 * The rooms in the built bundle (vite.rooms.ts), in real Chromium with WebMCP on: the chunks under
 * /dist/chunks/ the page requests are recorded, by name. The first read call loads the call chunk (the
 * validator, the request path and the read room) and nothing of the write machinery; a write
 * call then loads the write room and, when it proposes, the panel. Demo pages name AgentGate
 * (issue 9), whose manifest is fetched at start-up through the request path (call chunk): the
 * room checks run on the contact page with its script tag not naming AgentGate, and the page as
 * served is checked on its own (the AgentGate room at start-up, never the write room or panel).
 * The classic script (`capell-webmcp.iife.js`) loads these same chunks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { executeTool, expect, readyReport, test } from './demo-fixture.ts';
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

/** Opens the demo's contact page with its script tag not naming AgentGate (and no demo agent script). */
async function openContactWithoutAgentGate(page: Page, url: string): Promise<void> {
  await page.route(`${url}/contact`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(' data-agentgate>', '>').replace('<script type="module" src="/site/demo-agent.js"></script>', '');
    await route.fulfill({ response, body: html });
  });
  await page.goto(`${url}/contact`);
}

test.describe('chunks by room', () => {
  test('the build has the call, write and panel chunks this spec tells apart', () => {
    const names = readdirSync('dist/chunks').filter((file) => file.endsWith('.js')).map((file) => chunkName(`/chunks/${file}`));
    expect(names).toEqual(expect.arrayContaining(['call', 'write', 'capell-confirm-write']));
  });

  test('the classic script calls the module build\'s own chunks, each one beside it', () => {
    const dynamicImports = (file: string) => new Set([...readFileSync(file, 'utf8').matchAll(/\bimport\((["'`])(\.\/[^"'`]+)\1\)/g)].map((match) => match[2]!));
    const fromIIFE = dynamicImports('dist/capell-webmcp.iife.js');
    const fromEntry = dynamicImports('dist/capell-webmcp.js');
    // Every chunk the module entry loads lazily, the classic script loads as the same file (one
    // set of chunks for both), with what those import statically: the rest of the start code
    // from the module entry, and the bundler's runtime chunk.
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

  test('the chunks start-up needs are requested together, before any of them arrived', async ({ page, demo }) => {
    const events: string[] = [];
    page.on('request', (request) => { if (request.url().includes('/dist/chunks/')) events.push(`request ${chunkName(request.url())}`); });
    page.on('requestfinished', (request) => { if (request.url().includes('/dist/chunks/')) events.push(`finished ${chunkName(request.url())}`); });
    await openContactWithoutAgentGate(page, demo.url);
    await readyReport(page);
    const requested = events.filter((event) => event.startsWith('request ')).map((event) => event.slice('request '.length));
    expect(requested).toEqual(expect.arrayContaining(['registry', 'rolldown-runtime']));
    const firstArrival = events.findIndex((event) => event.startsWith('finished '));
    expect(events.slice(0, firstArrival === -1 ? events.length : firstArrival).filter((event) => event.startsWith('request ')).length).toBe(requested.length);
  });

  test('a read call loads no write chunk and no panel chunk; a write call then loads both', async ({ page, demo }) => {
    const requested = recordChunks(page);
    await openContactWithoutAgentGate(page, demo.url);
    const report = await readyReport(page);
    expect(report.registered).toEqual(expect.arrayContaining(['site.search', 'page.lookup', 'newsletter.subscribe', 'form.submit.contact']));
    // Start-up (the entry, the declaration rules, the status tool's descriptor) loads no room.
    expect(requested).not.toContain('call');
    expect(requested).not.toContain('write');
    expect(requested).not.toContain('capell-confirm-write');

    const search = await executeTool(page, 'site.search', { q: 'trail' });
    expect(search.isError).toBeUndefined();
    const lookup = await executeTool(page, 'page.lookup', {});
    expect(lookup.isError).toBeUndefined();
    expect(requested).toContain('call');
    expect(requested).not.toContain('write');
    expect(requested).not.toContain('capell-confirm-write');

    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    await expect.poll(() => requested.includes('write') && requested.includes('capell-confirm-write')).toBe(true);
    // Nothing is sent before the person decides.
    expect(demo.requests.filter((request) => request.path === '/agent/v1/newsletter')).toEqual([]);
  });

  test('a form write on a fresh page loads the write chunk; the read room came with the call chunk', async ({ page, demo }) => {
    const requested = recordChunks(page);
    await openContactWithoutAgentGate(page, demo.url);
    await readyReport(page);
    await startCall(page, 'form.submit.contact', { name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair', message: 'Hello', newsletter: false });
    await expect.poll(() => requested.includes('write') && requested.includes('capell-confirm-write')).toBe(true);
    expect(requested.indexOf('call')).toBeLessThan(requested.indexOf('write'));
  });

  test('a demo page as served (naming AgentGate) loads the AgentGate room at start-up, and no write chunk or panel until a write', async ({ page, demo }) => {
    const requested = recordChunks(page);
    await page.goto(`${demo.url}/contact`);
    const report = await readyReport(page);
    expect(report.registered).toEqual(expect.arrayContaining(['send_message', 'form.submit.contact']));
    // The manifest's fetch and rules; the request path it is fetched through is in the registry
    // chunk, so the call chunk (the validator and the read room) waits for a call.
    expect(requested).toEqual(expect.arrayContaining(['registry', 'agentgate']));
    expect(requested).not.toContain('call');
    expect(requested).not.toContain('agentgate-call'); // the signed call's machinery waits for a call
    expect(requested).not.toContain('write');
    expect(requested).not.toContain('capell-confirm-write');
  });
});
