/**
 * The runtime in real Chromium with WebMCP on, against the real demo API (served by the test
 * server). Each test mounts real islands, starts the runtime and stops it afterwards.
 */
import { expect } from 'chai';
import { answerOf } from '../support/answer-of.ts';
import { start, type Runtime } from '../../src/index.ts';
import { MAX_PREPARED_TOOLS } from '../../src/registry/tool-execute.ts';
import { CURSOR_HINT } from '../../src/shared/declarations/paging.ts';
import {
  CORE_READ_TOOLS, callTool, fixtureTool, modelContext, mountPageGraph, mountToolsIsland, requestsTo,
  resetRequestCount, unmountIslands,
} from './fixtures.ts';

const PAGE_GRAPH = {
  '@context': { '@vocab': 'https://schema.org/' },
  '@type': 'Product',
  url: '/products/test',
  name: 'Test </script> product',
};

let runtime: Runtime | undefined;

function startWith(...manifests: (object | string)[]): Runtime {
  for (const manifest of manifests) mountToolsIsland(manifest);
  mountPageGraph(PAGE_GRAPH);
  runtime = start();
  return runtime;
}

async function toolNames(): Promise<string[]> {
  return (await modelContext().getTools()).map((tool) => tool.name).sort();
}

afterEach(() => {
  runtime?.stop();
  runtime = undefined;
  unmountIslands();
});

describe('with WebMCP on: registration', () => {
  it('registers the Core read tools with document.modelContext and reports them', async () => {
    const report = await startWith({ capellAgentSchema: 1, tools: CORE_READ_TOOLS }).ready;
    expect(report.api).to.equal('document.modelContext');
    expect(report.registered).to.deep.equal(['page.get', 'site.search', 'site.navigation']);
    expect(report.rejected).to.deep.equal([]);
    expect(await toolNames()).to.deep.equal(['page.get', 'site.navigation', 'site.search']);
  });

  it('registers the normalised inputSchema and read-only annotations', async () => {
    await startWith({ capellAgentSchema: 1, tools: CORE_READ_TOOLS }).ready;
    const search = (await modelContext().getTools()).find((tool) => tool.name === 'site.search');
    expect(search?.inputSchema).to.deep.include({ type: 'object', required: ['q'], additionalProperties: false });
    expect(search?.annotations).to.deep.include({ readOnlyHint: true });
  });

  it('once the registry chunk has loaded, a later start() hands its tools to WebMCP without waiting for a task (no second import())', async () => {
    // A second import() of a loaded module still waits for a task of its own in Chromium, which
    // the page's first frame can come before (start/registry-once.ts). Microtasks alone must do.
    await startWith({ capellAgentSchema: 1, tools: CORE_READ_TOOLS }).ready;
    runtime!.stop();
    const host = modelContext() as unknown as { registerTool: (tool: { name: string }, ...rest: unknown[]) => unknown };
    const registered: string[] = [];
    host.registerTool = function (this: unknown, tool: { name: string }, ...rest: unknown[]) {
      registered.push(tool.name);
      return Object.getPrototypeOf(host).registerTool.call(this, tool, ...rest);
    };
    try {
      runtime = start();
      for (let turn = 0; turn < 200 && registered.length < 3; turn++) await null;
      expect(registered).to.deep.equal(['page.get', 'site.search', 'site.navigation']);
      await runtime.ready;
    } finally {
      delete (host as { registerTool?: unknown }).registerTool;
    }
  });

  it('makes no request before ready', async () => {
    resetRequestCount();
    await startWith({ capellAgentSchema: 1, tools: CORE_READ_TOOLS }).ready;
    expect(requestsTo('/agent/', '/test-fixtures/')).to.deep.equal([]);
  });

  it('removes every tool when stopped', async () => {
    await startWith({ capellAgentSchema: 1, tools: CORE_READ_TOOLS }).ready;
    runtime?.stop();
    expect(await toolNames()).to.deep.equal([]);
  });

  it('registers each tool once when started twice', async () => {
    const first = startWith({ capellAgentSchema: 1, tools: CORE_READ_TOOLS });
    const second = start();
    expect(second).to.equal(first);
    const report = await second.ready;
    expect(report.registered).to.have.length(3);
    expect(await toolNames()).to.have.length(3);
  });

  it('rejects an island with invalid JSON and still registers the other island', async () => {
    const report = await startWith('{"capellAgentSchema":1,"tools":[', { capellAgentSchema: 1, tools: CORE_READ_TOOLS }).ready;
    expect(report.registered).to.have.length(3);
    expect(report.rejected).to.have.length(1);
    expect(report.rejected[0]).to.include({ name: '(manifest)', source: 'capell-island[0]' });
    expect(report.rejected[0]!.reasons[0]).to.match(/^manifest: not valid JSON/);
  });

  it('rejects an island with capellAgentSchema 2', async () => {
    const report = await startWith({ capellAgentSchema: 2, tools: CORE_READ_TOOLS }, { capellAgentSchema: 1, tools: [CORE_READ_TOOLS[0]] }).ready;
    expect(report.registered).to.deep.equal(['page.get']);
    expect(report.rejected[0]!.reasons[0]).to.match(/^manifest\.capellAgentSchema: 2 is not a supported version/);
  });

  it('rejects bad declarations by name and reason; the rest of the island still registers', async () => {
    const report = await startWith({
      capellAgentSchema: 1,
      tools: [
        { ...CORE_READ_TOOLS[0], name: 'Catalogue Lookup' },
        fixtureTool('evil.lookup', '//evil.example/x'),
        fixtureTool('frag.lookup', '/agent/v1/x#frag'),
        ...CORE_READ_TOOLS,
      ],
    }).ready;
    expect(report.registered).to.deep.equal(['page.get', 'site.search', 'site.navigation']);
    const byName = Object.fromEntries(report.rejected.map((rejection) => [rejection.name, rejection.reasons.join(' | ')]));
    expect(byName['Catalogue Lookup']).to.match(/^name: "Catalogue Lookup" is not a lowercase dotted name/);
    expect(byName['evil.lookup']).to.match(/^binding\.target: "\/\/evil\.example\/x" is not an origin-relative path/);
    expect(byName['frag.lookup']).to.match(/^binding\.target: "\/agent\/v1\/x#frag" contains a fragment/);
  });

  it('rejects the names from public bug reports and still registers the rest of the island', async () => {
    const badNames = ['contact form', 'tool\u200bname', 'a'.repeat(129), 'form:submit'];
    const report = await startWith({
      capellAgentSchema: 1,
      tools: [...badNames.map((name) => ({ ...CORE_READ_TOOLS[0], name })), ...CORE_READ_TOOLS],
    }).ready;
    expect(report.registered).to.deep.equal(['page.get', 'site.search', 'site.navigation']);
    expect(report.rejected.map((rejection) => rejection.name)).to.deep.equal(badNames);
    for (const rejection of report.rejected) expect(rejection.reasons.join(' | ')).to.match(/^name: /);
  });

  it('keeps the first of two tools with the same name and reports the second', async () => {
    const report = await startWith(
      { capellAgentSchema: 1, tools: [CORE_READ_TOOLS[1]] },
      { capellAgentSchema: 1, tools: [{ ...CORE_READ_TOOLS[2], name: 'site.search' }] },
    ).ready;
    expect(report.registered).to.deep.equal(['site.search']);
    expect(report.rejected).to.deep.equal([{
      name: 'site.search',
      source: 'capell-island[1]',
      reasons: ['name: "site.search" is already declared by capell-island[0] (the first declaration wins)'],
    }]);
    const search = (await modelContext().getTools()).find((tool) => tool.name === 'site.search');
    // The first declaration's description, with the runtime's sentence on paging (shared/declarations/paging.ts).
    expect(search?.description).to.equal(`${CORE_READ_TOOLS[1]!.description} ${CURSOR_HINT}`);
  });

  it('reports a name another script already registered, keeping the platform error name', async () => {
    const other = new AbortController();
    await modelContext().registerTool({ name: 'site.navigation', description: 'someone else', execute: async () => '' }, { signal: other.signal });
    try {
      const report = await startWith({ capellAgentSchema: 1, tools: CORE_READ_TOOLS }).ready;
      expect(report.registered).to.deep.equal(['page.get', 'site.search']);
      expect(report.rejected[0]!.reasons[0]).to.match(/^WebMCP refused the tool: InvalidStateError: /);
    } finally {
      other.abort();
    }
  });

  it('registers a form tool and a write endpoint as consequential, not read-only, tools', async () => {
    const form = document.createElement('form');
    form.id = 'enquiry';
    document.body.append(form);
    try {
      const report = await startWith({
        capellAgentSchema: 1,
        tools: [
          { name: 'form.submit.enquiry', description: 'Contact us', effect: 'write', binding: { type: 'form', target: 'enquiry' } },
          { name: 'order.place', description: 'Place an order', effect: 'write', binding: { type: 'endpoint', target: '/orders' } },
        ],
      }).ready;
      expect(report.registered).to.deep.equal(['form.submit.enquiry', 'order.place']);
      const tools = await modelContext().getTools();
      for (const name of ['form.submit.enquiry', 'order.place']) {
        expect(tools.find((tool) => tool.name === name)?.annotations).to.deep.include({ readOnlyHint: false });
      }
    } finally {
      form.remove();
    }
  });

  it('does not register a form tool whose form carries toolname, and reports why', async () => {
    const form = document.createElement('form');
    form.id = 'enquiry';
    form.setAttribute('toolname', 'contact_native');
    form.setAttribute('tooldescription', 'Contact us natively');
    document.body.append(form);
    try {
      const report = await startWith({
        capellAgentSchema: 1,
        tools: [{ name: 'form.submit.enquiry', description: 'Contact us', effect: 'write', binding: { type: 'form', target: 'enquiry' } }],
      }).ready;
      expect(report.registered).to.deep.equal([]);
      expect(report.rejected[0]!.reasons).to.deep.equal(['form #enquiry carries toolname="contact_native": the browser registers it natively, so capell-webmcp does not register it a second time']);
      expect(await toolNames()).to.not.include('form.submit.enquiry');
    } finally {
      form.remove();
    }
  });
});

describe('with WebMCP on: options and robustness', () => {
  it('refuses an apiBase that dot segments would turn into another origin', () => {
    for (const apiBase of ['/..//evil.example', '/.//evil.example/agent', '/x/..//evil.example']) {
      expect(() => start({ apiBase }), apiBase).to.throw(TypeError, /option "apiBase"/);
    }
  });

  it('rejects a declaration whose $ref has a malformed %-escape and still registers the others', async () => {
    const report = await startWith({
      capellAgentSchema: 1,
      tools: [...CORE_READ_TOOLS, { ...CORE_READ_TOOLS[0], name: 'bad.ref', inputSchema: { type: 'object', properties: { a: { $ref: '#/%E0' } } } }],
    }).ready;
    expect(report.api).to.equal('document.modelContext');
    expect(report.registered).to.deep.equal(['page.get', 'site.search', 'site.navigation']);
    expect(report.rejected.map((rejection) => rejection.name)).to.deep.equal(['bad.ref']);
  });
});

describe('with WebMCP on: calls', () => {
  beforeEach(async () => {
    await startWith({
      capellAgentSchema: 1,
      tools: [
        ...CORE_READ_TOOLS,
        { ...fixtureTool('draft7.empty', '/test-fixtures/echo'), inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#' } },
        fixtureTool('fixture.echo', '/test-fixtures/echo', { inputSchema: { type: 'object', properties: { q: { type: 'string' }, filter: { type: 'object' }, flag: { type: 'boolean' }, none: { type: 'null' } } } }),
        fixtureTool('fixture.notjson', '/test-fixtures/not-json'),
        fixtureTool('fixture.envelope', '/test-fixtures/wrong-envelope'),
        fixtureTool('fixture.error', '/test-fixtures/server-error'),
        fixtureTool('fixture.redirect', '/test-fixtures/redirect'),
        fixtureTool('fixture.slow', '/test-fixtures/slow'),
        // outputSchema describes the whole answer, the envelope (Capell Agent Schema, "What is public").
        fixtureTool('fixture.output', '/test-fixtures/output-mismatch', { outputSchema: { type: 'object', properties: { data: { type: 'object', properties: { sku: { type: 'string' } } } } } }),
        fixtureTool('fixture.open', '/test-fixtures/echo', { inputSchema: { type: 'object', properties: { filter: { type: 'object', properties: { price: { type: 'number', maximum: 100 } }, additionalProperties: false } } } }),
        fixtureTool('fixture.fixed', '/test-fixtures/echo?limit=1', { inputSchema: { type: 'object', properties: { limit: { type: 'integer' } } } }),
        fixtureTool('fixture.default', '/test-fixtures/echo', { inputSchema: { type: 'object', properties: { page: { type: 'integer', default: 1 } } } }),
      ],
    }).ready;
    resetRequestCount();
  });

  it('accepts {} where page has a default, and does not send the default (the server applies its own)', async () => {
    const result = await callTool('fixture.default', {});
    expect(result.isError).to.equal(undefined);
    expect((answerOf(result) as { data: { query: string } }).data.query).to.equal('');
  });

  it('refuses input keys with brackets, which would reach the server as nested parameters', async () => {
    const result = await callTool('fixture.open', { 'filter[price]': 500, 'filter[admin]': 1 });
    expect(result.content[0]!.text).to.equal('invalid input: key "filter[price]" contains "[" or "]", which the query string reserves for nesting');
    expect(requestsTo('/test-fixtures/')).to.deep.equal([]);
  });

  it('keeps the target\'s own query parameters instead of sending a parameter twice', async () => {
    const result = await callTool('fixture.fixed', { limit: 50 });
    expect((answerOf(result) as { data: { query: string } }).data.query).to.equal('?limit=1');
  });

  it('page.get answers with the page graph from the island, without a request', async () => {
    const result = await callTool('page.get');
    expect(result.isError).to.equal(undefined);
    expect(answerOf(result)).to.deep.equal(PAGE_GRAPH);
    expect(JSON.parse(result.content[0]!.text)).to.deep.equal(PAGE_GRAPH);
    expect(requestsTo('/agent/', '/de/agent/', '/test-fixtures/')).to.deep.equal([]);
  });

  it('site.search answers with the same envelope the API gives for the same request', async () => {
    const result = await callTool('site.search', { q: 'trail' });
    const direct = await (await fetch('/agent/v1/search?q=trail', { headers: { Accept: 'application/json' } })).json();
    expect(result.isError).to.equal(undefined);
    expect(answerOf(result)).to.deep.equal(direct);
    expect(requestsTo('/agent/v1/search')).to.include('/agent/v1/search?q=trail');
  });

  it('site.navigation reads the next page when the agent passes links.next back as cursor (Core\'s paginator link, SOURCES.md §4.2)', async () => {
    const first = await callTool('site.navigation', {});
    const envelope = answerOf(first) as { data: unknown[]; links: { next: string } };
    expect(envelope.data).to.have.length(50);
    expect(envelope.links.next).to.equal(`${location.origin}/agent/v1/navigation?page=2`);
    const second = await callTool('site.navigation', { cursor: envelope.links.next });
    expect(requestsTo('/agent/v1/navigation')).to.deep.equal(['/agent/v1/navigation', '/agent/v1/navigation?page=2']);
    const direct = await (await fetch(envelope.links.next, { headers: { Accept: 'application/json' } })).json();
    expect(answerOf(second)).to.deep.equal(direct);
  });

  it('refuses {"q": 5} before any request, naming the field', async () => {
    const result = await callTool('site.search', { q: 5 });
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.equal('invalid input for site.search: q: expected string, got integer');
    expect(requestsTo('/agent/')).to.deep.equal([]);
  });

  it('refuses an extra property where additionalProperties is false, before any request', async () => {
    const result = await callTool('site.search', { q: 'trail', sort: 'asc' });
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.match(/sort: not an allowed property/);
    expect(requestsTo('/agent/')).to.deep.equal([]);
  });

  it('refuses an input over 256 KiB of JSON unread, before any request', async () => {
    const result = await callTool('site.search', { q: 'x'.repeat(300_000) });
    expect(result.content[0]!.text).to.match(/^invalid input for site\.search: input: \d+ characters of JSON, at most 262144 allowed$/);
    expect(requestsTo('/agent/')).to.deep.equal([]);
  });

  it('treats a draft-07 schema without properties as "no arguments"', async () => {
    const refused = await callTool('draft7.empty', { anything: 1 });
    expect(refused.isError).to.equal(true);
    expect(refused.content[0]!.text).to.match(/anything: not an allowed property/);
    expect(requestsTo('/test-fixtures/')).to.deep.equal([]);
    const accepted = await callTool('draft7.empty', {});
    expect(accepted.isError).to.equal(undefined);
  });

  it('sends a GET with Accept: application/json, the input in bracket notation, and no cookies', async () => {
    document.cookie = 'editor_session=secret; path=/';
    try {
      const result = await callTool('fixture.echo', { q: 'a b', filter: { tag: 'x' }, flag: true, none: null });
      expect(answerOf(result)).to.deep.equal({
        capellAgentSchema: 1,
        data: { method: 'GET', query: '?q=a+b&filter%5Btag%5D=x&flag=1', accept: 'application/json', cookie: null },
        links: { next: null, previous: null },
      });
    } finally {
      document.cookie = 'editor_session=; path=/; max-age=0';
    }
  });

  it('returns isError for a body that is not JSON', async () => {
    const result = await callTool('fixture.notjson', {});
    expect(result).to.deep.include({ isError: true });
    expect(result.content[0]!.text).to.equal('the answer from /test-fixtures/not-json is not JSON (text/html)');
  });

  it('returns isError for a wrong envelope', async () => {
    const result = await callTool('fixture.envelope', {});
    expect(result.content[0]!.text).to.match(/not a Capell Agent Schema envelope: capellAgentSchema is 2, expected 1/);
  });

  it('returns isError with the status and the server message for an HTTP error', async () => {
    const result = await callTool('fixture.error', {});
    expect(result.content[0]!.text).to.equal('HTTP 500 from /test-fixtures/server-error: Server Error');
  });

  it('returns Core\'s 422 message for a q of blanks only (TrimStrings makes it missing; SOURCES.md §4.4)', async () => {
    const result = await callTool('site.search', { q: '   ' });
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.equal('HTTP 422 from /agent/v1/search: The q field is required.');
  });

  it('refuses a redirect', async () => {
    const result = await callTool('fixture.redirect', {});
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.match(/redirects are refused/);
  });

  it('says so when the site\'s answer breaks outputSchema', async () => {
    const result = await callTool('fixture.output', {});
    expect(result.content[0]!.text).to.match(/does not match fixture\.output's outputSchema \(a site error, not the agent's\): data\.sku: expected string, got integer/);
  });

  it('resolves isError, not a hang, when the runtime stops during a call', async () => {
    const pending = callTool('fixture.slow', {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    const tools = await modelContext().getTools();
    expect(tools.some((tool) => tool.name === 'fixture.slow')).to.equal(true);
    runtime?.stop();
    const result = await pending;
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.match(/aborted/);
  });
});

describe('with WebMCP on: the idle prefetch of the call module', () => {
  it(`builds the validators of the first ${MAX_PREPARED_TOOLS} registered tools at most, in idle callbacks`, async () => {
    const original = window.requestIdleCallback;
    let callbacks = 0;
    // Calls back at once with no time left: one validator per callback, each re-asking.
    window.requestIdleCallback = (callback) => { callbacks++; callback({ didTimeout: true, timeRemaining: () => 0 }); return callbacks; };
    try {
      const tools = Array.from({ length: MAX_PREPARED_TOOLS + 100 }, (_, index) => ({
        name: `bulk.tool${index}`, description: `Bulk tool ${index}.`,
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        effect: 'read', binding: { type: 'search', target: 'pages' },
      }));
      resetRequestCount();
      const report = await startWith({ capellAgentSchema: 1, tools }).ready;
      expect(report.registered).to.have.length(MAX_PREPARED_TOOLS + 100);
      // One callback loads the module; then one per validator built, and one that finds none left.
      const deadline = performance.now() + 5000;
      let seen = -1;
      while (callbacks !== seen && performance.now() < deadline) {
        seen = callbacks;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(callbacks).to.equal(MAX_PREPARED_TOOLS + 2);
      expect(requestsTo('/agent/v1/')).to.deep.equal([]); // nothing asked of the site
    } finally {
      window.requestIdleCallback = original;
    }
  });
});
