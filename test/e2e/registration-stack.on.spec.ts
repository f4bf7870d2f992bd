/**
 * Where the runtime registers declared tools from (src/registry/registration.ts, registerEachWithHost).
 * Chromium records the stack of every `registerTool` call, which its DevTools `WebMCP` domain
 * reports as the tool's `stackTrace`; from deep in the live registry's update each call cost about
 * twice what it costs from a fresh promise job, so the calls are made from a job of their own.
 */
import type { CDPSession } from '@playwright/test';
import { expect, readyReport, otherTabTest } from './demo-fixture.ts';

// Chromium with its WebMCP feature: a browser the worker launches beside the project's.
const test = otherTabTest('webmcpFeature');

/** A tool as the DevTools `WebMCP.toolsAdded` event gives it. */
interface AddedTool { name: string; stackTrace?: { callFrames: { functionName: string; url: string }[] } }

test('each declared tool is registered from a promise job of its own: a one-frame stack, in the registry chunk', async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact`);
  const report = await readyReport(page);
  expect(report.registered.length).toBeGreaterThan(3);
  const cdp: CDPSession = await page.context().newCDPSession(page);
  try {
    const added = new Map<string, AddedTool>();
    cdp.on('WebMCP.toolsAdded' as never, ((event: { tools: AddedTool[] }) => { for (const tool of event.tools) added.set(tool.name, tool); }) as never);
    await cdp.send('WebMCP.enable' as never); // reports the tools already registered
    await expect.poll(() => report.registered.filter((name) => !added.has(name))).toEqual([]);
    for (const name of report.registered) {
      const frames = added.get(name)!.stackTrace?.callFrames ?? [];
      expect(frames.map((frame) => `${frame.functionName} ${new URL(frame.url).pathname.replace(/-[\w-]{8}\.js$/, '.js')}`), name).toEqual([' /dist/chunks/registry.js']);
    }
  } finally {
    await cdp.detach().catch(() => {});
  }
});
