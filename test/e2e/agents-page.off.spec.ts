/**
 * The demo explains itself, WebMCP off: `/agents` still lists the site's tools, says WebMCP is off
 * and how to turn it on, and offers no Run button; every kind of demo page loads the runtime, whose
 * status line then says the browser has no WebMCP.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

test('/agents without WebMCP says how to turn it on and shows no Run button', async ({ page, demo }) => {
  await page.goto(`${demo.url}/agents`);
  const report = await readyReport(page);
  expect(report.api).toBe('none');
  await expect(page.locator('#agents-webmcp')).toHaveText('WebMCP is off in this browser, so no agent can use these tools here. To turn it on, start Chromium with the flag --enable-features=WebMCPTesting (see “How to try a tool by hand” below).');
  await expect(page.locator('.try-steps .command')).toHaveText(`chromium --enable-features=WebMCPTesting ${demo.url}/agents`);
  // AgentGate's calls are signed by the agent's browser, never this page: the page says how to run the demo agent.
  await expect(page.locator('#signed + p + p .command')).toHaveText(`npm run agent -- ${demo.url}/agents`);
  await expect(page.locator('.agent-tool')).toHaveCount(5);
  await expect(page.locator('.agent-tool[data-tool="site.search"]')).toContainText('Search published site content by text.');
  await expect(page.getByRole('button', { name: /^Run / })).toHaveCount(0);
});

for (const path of ['/', '/contact/messages', '/no-such-page', '/agents']) {
  test(`${path} loads the runtime: its status line says the browser has no WebMCP`, async ({ page, demo }) => {
    await page.goto(`${demo.url}${path}`);
    await readyReport(page);
    await expect(page.locator('#agent-status')).toHaveText('This browser has no WebMCP');
    await expect(page.getByRole('navigation', { name: 'For agents' }).getByRole('link', { name: 'What an agent can do here' })).toBeVisible();
  });
}
