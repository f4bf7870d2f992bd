/**
 * Red-team attacks on the live registry through the script tag, with WebMCP on: a page whose named
 * elements shadow document methods the entry uses, and two copies of the runtime (the script tag
 * and the library build) on one page.
 */
import type { Page } from '@playwright/test';
import { executeTool, expect, listTools, readyReport, sharedTabTest as test } from './demo-fixture.ts';

function islandScript(tools: object[]): string {
  const json = JSON.stringify({ capellAgentSchema: 1, tools }).replace(/</g, '\\u003C');
  return `<script type="application/json" data-capell-agent-tools>${json}</script>`;
}

function readTool(name: string): object {
  return { name, description: `Tool ${name}.`, effect: 'read', binding: { type: 'inline', target: 'page' } };
}

function page(head: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>attacks</title>
<script type="application/ld+json" data-capell-agent-schema>{"@type":"WebPage","name":"Attacks"}</script>
${head}</head><body>${body}</body></html>`;
}

async function serve(tab: Page, url: string, html: string): Promise<void> {
  await tab.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
}

async function namesOf(tab: Page): Promise<string[]> {
  return (await listTools(tab)).map((tool) => tool.name).sort();
}

test('named elements shadowing document.addEventListener and dispatchEvent do not stop the script tag or its ready event', async ({ page: tab, demo }) => {
  await tab.addInitScript(() => {
    EventTarget.prototype.addEventListener.call(document, 'capell-webmcp:ready', () => {
      (window as unknown as { readyEvents?: number }).readyEvents = ((window as unknown as { readyEvents?: number }).readyEvents ?? 0) + 1;
    });
  });
  await serve(tab, `${demo.url}/attacks/clobbered`, page(
    `${islandScript([readTool('tag.clobbered')])}<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script>`,
    '<img name="addEventListener" alt=""><img name="dispatchEvent" alt=""><img name="readyState" alt=""><img name="querySelector" alt=""><img name="scripts" alt="">',
  ));
  await tab.goto(`${demo.url}/attacks/clobbered`);
  const report = await tab.evaluate(() => Promise.race([
    window.capellWebMCP!.ready,
    new Promise((_, reject) => { setTimeout(() => reject(new Error('window.capellWebMCP.ready did not settle within 5 s')), 5000); }),
  ])) as { registered: string[] };
  expect(report.registered).toEqual(['tag.clobbered']);
  await expect.poll(() => tab.evaluate(() => (window as unknown as { readyEvents?: number }).readyEvents)).toBe(1);
});

test('the script tag and the library on one page register each tool once and share one runtime', async ({ page: tab, demo }) => {
  await serve(tab, `${demo.url}/attacks/two-copies`, page(
    `${islandScript([readTool('copy.one'), readTool('copy.two')])}
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script>
<script type="module">
  import { start } from '/dist/lib/index.js';
  window.libraryRuntime = start({ log: 'silent' });
</script>`, '<main>Two copies</main>',
  ));
  await tab.goto(`${demo.url}/attacks/two-copies`);
  const report = await readyReport(tab);
  expect(report.registered).toEqual(['copy.one', 'copy.two']);
  await tab.waitForFunction(() => (window as unknown as { libraryRuntime?: unknown }).libraryRuntime !== undefined);
  const library = await tab.evaluate(() => (window as unknown as { libraryRuntime: { ready: Promise<unknown> } }).libraryRuntime.ready);
  expect(library).toMatchObject({ registered: ['copy.one', 'copy.two'] });
  expect(await namesOf(tab)).toEqual(['copy.one', 'copy.two']);
  // Stopping through either copy stops the one runtime; a later island registers nothing.
  await tab.evaluate(() => window.capellWebMCP!.stop());
  await tab.evaluate((script) => document.head.insertAdjacentHTML('beforeend', script), islandScript([readTool('copy.later')]));
  await tab.waitForTimeout(200);
  expect(await namesOf(tab)).toEqual([]);
});

test('a page script that wraps registerTool and loosens the inputSchema it is handed changes neither that tool\'s checks nor those of another tool of its shape', async ({ page: tab, demo }) => {
  // Tools of one shape share one checked inputSchema (ShapeMemo), which is frozen.
  const searchTool = (name: string) => ({
    name, description: `Search ${name}.`, effect: 'read', binding: { type: 'search', target: 'pages' },
    inputSchema: { type: 'object', properties: { q: { type: 'string', maxLength: 5 } }, required: ['q'], additionalProperties: false },
  });
  await serve(tab, `${demo.url}/attacks/loosened-schema`, page(`<script>
  const proto = Object.getPrototypeOf(document.modelContext);
  const register = proto.registerTool;
  window.loosened = [];
  proto.registerTool = function (tool, options) {
    const schema = tool.inputSchema;
    schema.properties.q.maxLength = 1000;
    schema.properties.extra = { type: 'string' };
    delete schema.additionalProperties;
    window.loosened.push(tool.name);
    return register.call(this, tool, options);
  };
</script>
${islandScript([searchTool('site.first'), searchTool('site.second')])}
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script>`, '<main>Loosened</main>'));
  await tab.goto(`${demo.url}/attacks/loosened-schema`);
  expect((await readyReport(tab)).registered).toEqual(['site.first', 'site.second']);
  expect(await tab.evaluate(() => (window as unknown as { loosened: string[] }).loosened)).toEqual(['site.first', 'site.second']);
  for (const name of ['site.first', 'site.second']) {
    const listed = (await listTools(tab)).find((tool) => tool.name === name)!.inputSchema as { properties: { q: { maxLength: number }; extra?: unknown }; additionalProperties: boolean };
    expect([listed.properties.q.maxLength, listed.properties.extra, listed.additionalProperties]).toEqual([5, undefined, false]);
    // A call from the page's own executeTool answers its failure as an isError result (failure-shape.ts).
    expect(await executeTool(tab, name, { q: 'far too long' }), name).toEqual({
      content: [{ type: 'text', text: `invalid input for ${name}: q: string is too long (12 > 5) (maxLength)` }], isError: true,
    });
    expect((await executeTool(tab, name, { q: 'ok', extra: 'x' })).isError, name).toBe(true);
  }
});
