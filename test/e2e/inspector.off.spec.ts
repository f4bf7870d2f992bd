/**
 * The inspector in Chromium without WebMCP: asked for, it still opens, says why there are no tools,
 * and loads no registry chunk.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

test('without WebMCP the inspector opens and says why no tool is registered', async ({ page, demo }) => {
  const chunks: string[] = [];
  page.on('request', (request) => {
    const match = /^\/dist\/chunks\/(.+)-[\w-]{8}\.js$/.exec(new URL(request.url()).pathname);
    if (match) chunks.push(match[1]!);
  });
  await page.goto(`${demo.url}/contact?capell-webmcp=inspect`);
  const report = await readyReport(page);
  expect(report.api).toBe('none');
  const inspector = page.locator('capell-inspector');
  await expect(inspector.getByRole('dialog', { name: 'capell-webmcp inspector' })).toBeVisible();
  await expect(inspector.locator('.api p')).toHaveText(/^Not available: this browser has no WebMCP .*--enable-features=WebMCPTesting\.$/);
  await expect(inspector.locator('#registered')).toHaveText('Registered tools (0)');
  expect(chunks).toContain('inspector');
  expect(chunks).not.toContain('registry');
});
