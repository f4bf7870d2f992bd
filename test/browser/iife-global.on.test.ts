/**
 * The classic-script build (dist/capell-webmcp.iife.js, built by `npm test` before this suite) in
 * real Chromium with WebMCP on: it defines `window.capellWebMCP` and no other global.
 */
import { expect } from 'chai';
import { CORE_READ_TOOLS, mountToolsIsland } from './fixtures.ts';

describe('the IIFE bundle\'s globals', () => {
  it('adds window.capellWebMCP and nothing else to window', async () => {
    mountToolsIsland({ capellAgentSchema: 1, tools: CORE_READ_TOOLS });
    const before = new Set(Object.getOwnPropertyNames(window));
    await new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = '/dist/capell-webmcp.iife.js';
      script.setAttribute('data-capell-webmcp', '');
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('could not load the IIFE bundle'));
      document.head.append(script);
    });
    const report = await window.capellWebMCP!.ready;
    expect(report.registered).to.have.length(CORE_READ_TOOLS.length);
    const added = Object.getOwnPropertyNames(window).filter((name) => !before.has(name));
    expect(added).to.deep.equal(['capellWebMCP']);
    expect(window).to.not.have.property('capellWebMCPBundle');
  });
});
