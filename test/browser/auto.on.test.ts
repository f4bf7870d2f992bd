/**
 * The built script-tag bundles (dist/) in real Chromium with WebMCP on: they start from their
 * own <script> element, publish window.capellWebMCP, fire capell-webmcp:ready, and register each
 * tool once even when the page loads the runtime twice.
 */
import { expect } from 'chai';
import { answerOf } from '../support/answer-of.ts';
import { CATALOGUE_SEARCH_TOOL, CORE_READ_TOOLS, callTool, modelContext, mountPageGraph, mountToolsIsland } from './fixtures.ts';

function loadScript(src: string, attributes: Record<string, string> = {}, module = true): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    if (module) script.type = 'module';
    script.src = src;
    for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}

describe('the script-tag bundle with WebMCP on', () => {
  it('registers the page\'s tools once although both builds are loaded', async () => {
    mountToolsIsland({
      capellAgentSchema: 1,
      tools: [
        ...CORE_READ_TOOLS.map((tool) => (tool.name === 'site.navigation' ? { ...tool, binding: { type: 'endpoint', target: '/de/agent/v1/navigation' } } : tool)),
        CATALOGUE_SEARCH_TOOL,
      ],
    });
    mountPageGraph({ '@type': 'WebPage', name: 'Startseite' });
    const ready = new Promise<CustomEvent>((resolve) => document.addEventListener('capell-webmcp:ready', (event) => resolve(event as CustomEvent), { once: true }));
    await loadScript('/dist/capell-webmcp.js', { 'data-capell-webmcp': '', 'data-api-base': '/de/agent/v1' });
    await loadScript('/dist/capell-webmcp.iife.js', {}, false);
    const report = (await ready).detail;
    expect(report).to.deep.equal({
      api: 'document.modelContext', registered: ['page.get', 'site.search', 'site.navigation', 'catalogue.search'], rejected: [], audit: [],
    });
    expect(await window.capellWebMCP!.ready).to.deep.equal(report);
    const names = (await modelContext().getTools()).map((tool) => tool.name);
    expect(names.filter((name) => name === 'site.search')).to.have.length(1);
    expect(names).to.have.length(4);
  });

  it('honours data-api-base for the search binding', async () => {
    const result = await callTool('catalogue.search', { q: 'Rucksack' });
    expect(result.isError, result.content[0]!.text).to.equal(undefined);
    const direct = await (await fetch('/de/agent/v1/search?scope=pages&q=Rucksack')).json();
    expect(direct.data.length).to.be.greaterThan(0);
    expect(answerOf(result)).to.deep.equal(direct);
  });

  it('hands the library\'s start() the runtime the script tag started (one registry per document)', async () => {
    const { start } = await import('../../src/index.ts');
    const report = await start().ready;
    expect(report).to.deep.equal(await window.capellWebMCP!.ready);
    const names = (await modelContext().getTools()).map((tool) => tool.name);
    expect(names).to.have.length(4);
  });

  it('keeps window.capellWebMCP from being overwritten', () => {
    const before = window.capellWebMCP;
    expect(() => { (window as unknown as Record<string, unknown>).capellWebMCP = {}; }).to.throw(TypeError);
    expect(window.capellWebMCP).to.equal(before);
  });
});
