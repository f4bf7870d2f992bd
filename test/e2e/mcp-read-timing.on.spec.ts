/**
 * How long a read takes through Playwright MCP (@playwright/mcp 0.0.83, the server launching
 * Chromium from its config file), measured by test/clients/mcp/playwright-mcp.js from each MCP
 * request to its answer (see mcp-clients.ts). It is a timing, so it runs in a project of its own
 * (playwright.config.ts, ALONE_SPECS, project webmcp-on-alone): last, one worker, nothing beside it.
 */
import { expect, test } from './demo-fixture.ts';
import { notInstalled, runMcpClient } from './mcp-clients.ts';

/** The most a read may take through Playwright MCP, every call, in ms. */
const READ_BOUND_MS = 1_500;
/** How many reads are timed. */
const READS = 10;

interface TimingRun {
  report: { api: string; registered: string[] };
  listed: string[];
  reads: { q: string; ms: number; isError: boolean; pageIsError: boolean; answered: boolean }[];
}

test.describe('Playwright MCP read timing', () => {
  test.setTimeout(90_000);

  test('a site.search read through Playwright MCP answers in under 1.5 s in 10 of 10 calls', async ({ demo }) => {
    expect(notInstalled()).toBeUndefined();
    const { run } = await runMcpClient<TimingRun>('playwright-mcp.js', 'timing', demo);
    const timings = run.reads.map((read) => read.ms);
    test.info().annotations.push({ type: 'read ms', description: timings.join(', ') });
    expect(run.listed).toContain('webmcp_site_search');
    expect(run.reads).toHaveLength(READS);
    for (const read of run.reads) {
      expect(read.isError || read.pageIsError, `site.search ${read.q} answered an error`).toBe(false);
      expect(read.answered, `site.search ${read.q} answered no data`).toBe(true);
    }
    expect(timings.filter((ms) => ms < READ_BOUND_MS), `read times in ms: ${timings.join(', ')}`).toHaveLength(READS);
  });
});
