/**
 * The demo explains itself, WebMCP on: `/agents` lists the site's live tools, says WebMCP is on,
 * and each read tool's Run button calls it through `document.modelContext.executeTool` and shows
 * the answer; every kind of demo page has the visible "For agents" links and loads the runtime (its
 * status line leaves "starting…").
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, listTools, readyReport, sharedTabTest as test } from './demo-fixture.ts';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

test.describe('/agents with WebMCP on', () => {
  test('says WebMCP is on and marks each listed tool registered, AgentGate’s too', async ({ page, demo }) => {
    await page.goto(`${demo.url}/agents`);
    // Registered from the AgentGate manifest after ready: counted once it is there.
    await expect(page.locator('.agent-tool[data-tool="send_message"] .live-state')).toHaveText('· registered');
    const report = await page.evaluate(() => window.capellWebMCP!.report!) as { registered: string[] };
    const tools = await listTools(page);
    // One number on the page: the banner and the footer count what getTools() lists, and say how
    // many of them are the runtime's own (not in the Report's registered).
    const own = tools.filter((tool) => !report.registered.includes(tool.name)).length;
    expect(own).toBeGreaterThan(0);
    await expect(page.locator('#agents-webmcp')).toHaveText(`WebMCP is on in this browser (document.modelContext): ${tools.length} tools are registered on this page (${own} of them the runtime's own). Try a read tool below.`);
    await expect(page.locator('#agent-status')).toHaveText(`WebMCP: ${tools.length} tools registered (${own} of them the runtime's own)`);
    for (const name of ['site.pages.query', 'site.taxonomies.browse', 'site.navigation', 'site.search', 'catalogue.lookup']) {
      await expect(page.locator(`.agent-tool[data-tool="${name}"] .live-state`)).toHaveText('· registered');
    }
    // Registered from the AgentGate manifest, not this page's island: added live, without a Run button.
    await expect(page.locator('.agent-tool[data-tool="send_message"] .live-state')).toHaveText('· registered');
    await expect(page.locator('.agent-tool[data-tool="send_message"] .try-run')).toHaveCount(0);
    // The runtime's own tools are not in the Report, but WebMCP holds them: registered too.
    await expect(page.locator('.agent-tool[data-tool="agentgate.receipts"] .live-state')).toHaveText('· registered');
  });

  test('/contact: the footer counts what getTools() lists, the runtime\'s own said apart', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
    await expect.poll(async () => (await listTools(page)).some((tool) => tool.name === 'send_message')).toBe(true);
    const report = await page.evaluate(() => window.capellWebMCP!.report!) as { registered: string[] };
    const tools = await listTools(page);
    const own = tools.filter((tool) => !report.registered.includes(tool.name)).length;
    await expect(page.locator('#agent-status')).toHaveText(`WebMCP: ${tools.length} tools registered (${own} of them the runtime's own)`);
  });

  test('a Run button calls the read tool through executeTool and shows the answer', async ({ page, demo }) => {
    await page.goto(`${demo.url}/agents`);
    await readyReport(page);
    const lookup = page.locator('.agent-tool[data-tool="catalogue.lookup"]');
    await expect(lookup.getByLabel('Input for catalogue.lookup (JSON)')).toHaveValue('{"sku":"CW-1001"}');
    const before = demo.requests.filter((request) => request.path === '/agent/v1/catalogue/lookup').length;
    await lookup.getByRole('button', { name: 'Run catalogue.lookup' }).click();
    await expect(lookup.locator('.try-answer')).toHaveAttribute('data-outcome', 'ok');
    const answer = JSON.parse(await lookup.locator('.try-answer').textContent() ?? '');
    expect(answer.data.sku).toBe('CW-1001');
    expect(demo.requests.filter((request) => request.path === '/agent/v1/catalogue/lookup').length).toBe(before + 1);

    // The person may change the input: an invalid one comes back as the tool's error.
    await lookup.getByLabel('Input for catalogue.lookup (JSON)').fill('{"sku":"not a sku"}');
    await lookup.getByRole('button', { name: 'Run catalogue.lookup' }).click();
    await expect(lookup.locator('.try-answer')).toHaveAttribute('data-outcome', 'error');
    await expect(lookup.locator('.try-answer')).toContainText('The tool answered with an error: invalid input for catalogue.lookup: sku');

    const search = page.locator('.agent-tool[data-tool="site.search"]');
    await search.getByRole('button', { name: 'Run site.search' }).click();
    await expect(search.locator('.try-answer')).toHaveAttribute('data-outcome', 'ok');
    expect(JSON.parse(await search.locator('.try-answer').textContent() ?? '').capellAgentSchema).toBe(1);
  });

  test('its content has no accessibility violations (axe-core), with an answer shown', async ({ page, demo }) => {
    await page.goto(`${demo.url}/agents`);
    await readyReport(page);
    await page.getByRole('button', { name: 'Run site.navigation' }).click();
    await expect(page.locator('.agent-tool[data-tool="site.navigation"] .try-answer')).toHaveAttribute('data-outcome', 'ok');
    await page.evaluate(readFileSync(AXE_PATH, 'utf8'));
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: object): Promise<{ violations: { id: string; help: string; nodes: unknown[] }[] }> } }).axe;
      return (await axe.run({ include: [['main']] })).violations.map(({ id, help, nodes }) => ({ id, help, nodes: nodes.length }));
    });
    expect(violations).toEqual([]);
  });

  test('the German page says the same in German', async ({ page, demo }) => {
    await page.goto(`${demo.url}/de/agents`);
    await readyReport(page);
    await expect(page.locator('h1')).toHaveText('Für Agenten');
    await expect(page.locator('#agents-webmcp')).toContainText('WebMCP ist in diesem Browser an');
    await expect(page.getByRole('button', { name: 'catalogue.lookup ausführen' })).toBeVisible();
  });
});

test.describe('every kind of demo page', () => {
  for (const path of ['/', '/products', '/contact', '/contact/messages', '/no-such-page', '/agents', '/de/']) {
    test(`${path} shows the “For agents” links and loads the runtime`, async ({ page, demo }) => {
      await page.goto(`${demo.url}${path}`);
      const report = await readyReport(page);
      expect(report.api).toBe('document.modelContext');
      const links = page.getByRole('navigation', { name: path.startsWith('/de/') ? 'Für Agenten' : 'For agents' });
      await expect(links.getByRole('link').first()).toBeVisible();
      await expect(links.getByRole('link').first()).toHaveAttribute('href', '?capell-webmcp=inspect');
      await expect(links.getByRole('link').nth(1)).toHaveAttribute('href', path.startsWith('/de/') ? '/de/agents' : '/agents');
      await expect(page.locator('#agent-status')).toHaveText(/^WebMCP: \d+ (tools|Werkzeuge) (registered|registriert)/);
    });
  }
});
