/**
 * The classic-script bundle (dist/capell-webmcp.iife.js, which finds itself as
 * document.currentScript) with a bad data-* value, in real Chromium with WebMCP on: the one
 * warning names the attribute and the value as written, the other options still apply.
 */
import { expect } from 'chai';
import { CORE_READ_TOOLS, modelContext, mountPageGraph, mountToolsIsland } from './fixtures.ts';

describe('the script tag with a bad data-* value, WebMCP on', () => {
  it('warns once, naming data-write-wait-ms and "soon", and keeps data-audit="error"', async () => {
    mountToolsIsland({ capellAgentSchema: 1, tools: CORE_READ_TOOLS });
    mountPageGraph({ '@type': 'WebPage', name: 'Start' });
    const form = document.body.appendChild(document.createElement('form'));
    form.id = 'undeclared';
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => { warnings.push(args.map(String).join(' ')); };
    try {
      const ready = new Promise<CustomEvent>((resolve) => document.addEventListener('capell-webmcp:ready', (event) => resolve(event as CustomEvent), { once: true }));
      const script = document.createElement('script');
      script.src = '/dist/capell-webmcp.iife.js';
      script.setAttribute('data-capell-webmcp', '');
      script.setAttribute('data-write-wait-ms', 'soon');
      script.setAttribute('data-audit', 'error');
      document.head.append(script);
      const report = (await ready).detail;
      expect(report.registered).to.deep.equal(['page.get', 'site.search', 'site.navigation']);
      expect(report.audit).to.deep.equal([{ level: 'error', surface: 'form#undeclared', message: report.audit[0].message }]);
    } finally {
      console.warn = warn;
    }
    expect(warnings.filter((text) => !text.includes(' audit '))).to.deep.equal([
      '[capell-webmcp] data-write-wait-ms="soon" is not an integer from 1 to 600000 (ms); using its default',
    ]);
    expect((await modelContext().getTools()).map((tool) => tool.name)).to.have.length(3);
  });
});
