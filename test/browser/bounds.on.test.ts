/**
 * No call can freeze the tab (no pattern, format or answer may block the page's main thread for
 * long), and answers have a size and depth bound, in real Chromium with WebMCP on: hostile patterns
 * and formats answer at once, and answers that are too large or too deep come back as an isError
 * with a one-line reason.
 */
import { expect } from 'chai';
import { start, type Runtime } from '../../src/index.ts';
import { fixtureTool, callTool, mountPageGraph, mountToolsIsland, requestsTo, resetRequestCount, unmountIslands } from './fixtures.ts';

const SLUG = '^[a-z0-9]+(?:[._-]?[a-z0-9]+)*$';
const NEAR_MISS = `${'a'.repeat(40)}!`;

let runtime: Runtime | undefined;
const longTasks: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longTasks.push(entry.duration);
}).observe({ type: 'longtask' });

function startWith(tools: object[], pageGraph?: string): Runtime {
  mountToolsIsland({ capellAgentSchema: 1, tools });
  if (pageGraph === undefined) mountPageGraph({ '@type': 'WebPage' });
  else {
    const island = mountPageGraph({});
    island.textContent = pageGraph;
  }
  runtime = start();
  return runtime;
}

afterEach(() => {
  runtime?.stop();
  runtime = undefined;
  unmountIslands();
});

describe('No call can freeze the tab', () => {
  beforeEach(async () => {
    await startWith([
      fixtureTool('fixture.slug', '/test-fixtures/echo', { inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: SLUG } } } }),
      fixtureTool('fixture.url', '/test-fixtures/echo', { inputSchema: { type: 'object', properties: { q: { type: 'string', format: 'url' } } } }),
      fixtureTool('fixture.ref', '/test-fixtures/echo', { inputSchema: { type: 'object', properties: { q: { $ref: '#/%24defs/a' } }, $defs: { a: { type: 'string', pattern: '^x' } } } }),
    ]).ready;
    resetRequestCount();
    longTasks.length = 0;
  });

  it('a slug pattern that backtracks exponentially answers a 40-character near-miss at once, and a valid slug passes', async () => {
    const refused = await callTool('fixture.slug', { q: NEAR_MISS });
    expect(refused.isError).to.equal(true);
    expect(refused.content[0]!.text).to.equal(`invalid input for fixture.slug: q: value does not match pattern ${JSON.stringify(SLUG)} (pattern)`);
    expect(requestsTo('/test-fixtures/')).to.deep.equal([]);
    const accepted = await callTool('fixture.slug', { q: 'my-slug.v2' });
    expect(accepted.isError).to.equal(undefined);
    expect(requestsTo('/test-fixtures/')).to.have.length(1);
    // The backtracking matcher held the main thread for more than 30 s: no task came near the test timeout.
    expect(longTasks.every((duration) => duration < 10_000)).to.equal(true);
  });

  it('format "url" (the validator\'s own URL regex) answers a 40-character near-miss at once, and a URL passes', async () => {
    const refused = await callTool('fixture.url', { q: `http://${NEAR_MISS}` });
    expect(refused.isError).to.equal(true);
    expect(refused.content[0]!.text).to.equal('invalid input for fixture.url: q: string does not match format "url" (format)');
    const accepted = await callTool('fixture.url', { q: 'https://example.org/a-b' });
    expect(accepted.isError).to.equal(undefined);
    expect(requestsTo('/test-fixtures/')).to.have.length(1);
    expect(longTasks.every((duration) => duration < 10_000)).to.equal(true);
  });

  it('a $ref to #/%24defs/a, accepted by the policy, is resolved on every call instead of failing it', async () => {
    const accepted = await callTool('fixture.ref', { q: 'xyz' });
    expect(accepted.isError).to.equal(undefined);
    const refused = await callTool('fixture.ref', { q: 'abc' });
    expect(refused.content[0]!.text).to.equal('invalid input for fixture.ref: q: value does not match pattern "^x" (pattern)');
  });
});

const ENUM = Array.from({ length: 7000 }, (_, i) => `v${i}`);
const WORK_REASON = 'checking the value against its schema needs more than 1500000 units of work (the bound that keeps the page responsive; a smaller value, e.g. fewer items, fits)';

describe('Schema work other than patterns has a bound', () => {
  beforeEach(async () => {
    await startWith([
      fixtureTool('fixture.enum', '/test-fixtures/echo', { inputSchema: { type: 'object', properties: { q: { type: 'array', items: { type: 'string', enum: ENUM } } } } }),
      fixtureTool('fixture.anyof', '/test-fixtures/echo', { inputSchema: { type: 'object', properties: { q: { type: 'array', items: { anyOf: ENUM.slice(0, 2500).map((c) => ({ const: c })) } } } } }),
      fixtureTool('fixture.objenum', '/test-fixtures/echo', { inputSchema: { type: 'object', properties: { q: { enum: [Array(6000).fill(0), [...Array(5999).fill(0), 1]] } } } }),
      fixtureTool('fixture.output', '/test-fixtures/many-items', { inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { data: { type: 'array', items: { type: 'string', enum: ENUM } } } } }),
      fixtureTool('fixture.listed', '/test-fixtures/few-items', { inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { data: { type: 'array', items: { type: 'string', enum: ENUM } } } } }),
    ]).ready;
    resetRequestCount();
    longTasks.length = 0;
  });

  async function timed(name: string, input: object) {
    const started = performance.now();
    const result = await callTool(name, input);
    return { result, ms: performance.now() - started };
  }

  it('items: {enum: [7000 strings]} with a 259 KB input array is refused at once with the work bound, not a 20 s freeze and a crash', async () => {
    const { result, ms } = await timed('fixture.enum', { q: Array(37000).fill('zzzz') });
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.equal(`invalid input for fixture.enum: (root): ${WORK_REASON}`);
    expect(ms).to.be.below(1000);
    expect(requestsTo('/test-fixtures/')).to.deep.equal([]);
    // Within the bound the enum still decides, and its message quotes a capped enum, not 7000 members.
    const refused = await callTool('fixture.enum', { q: ['v1', 'nope'] });
    expect(refused.content[0]!.text).to.match(/^invalid input for fixture\.enum: q\.1: value does not match any of \["v0","v1",.*,…\] \(7000 values\) \(enum\)$/);
    expect(refused.content[0]!.text.length).to.be.below(400);
    const accepted = await callTool('fixture.enum', { q: ['v1', 'v6999'] });
    expect(accepted.isError).to.equal(undefined);
    expect(longTasks.every((duration) => duration < 1000)).to.equal(true);
  });

  it('items: {anyOf: [2500 const]} over 2000 and 20000 items is refused at once, and the page survives', async () => {
    for (const count of [2000, 20000]) {
      const { result, ms } = await timed('fixture.anyof', { q: Array(count).fill('zzzz') });
      expect(result.content[0]!.text).to.equal(`invalid input for fixture.anyof: (root): ${WORK_REASON}`);
      expect(ms).to.be.below(1000);
    }
    const accepted = await callTool('fixture.anyof', { q: ['v7', 'v2499'] });
    expect(accepted.isError).to.equal(undefined);
    expect(requestsTo('/test-fixtures/')).to.have.length(1);
    expect(longTasks.every((duration) => duration < 1000)).to.equal(true);
  });

  it('an enum of two 6000-element arrays answers at once, matching or not', async () => {
    const refused = await timed('fixture.objenum', { q: [...Array(5999).fill(0), 2] });
    expect(refused.result.content[0]!.text).to.equal('invalid input for fixture.objenum: q: value does not match any of […] (2 values) (enum)');
    expect(refused.ms).to.be.below(1000);
    const accepted = await timed('fixture.objenum', { q: [...Array(5999).fill(0), 1] });
    expect(accepted.result.content[0]!.text, accepted.result.content[0]!.text.slice(0, 300)).not.to.match(/^invalid input/);
    // The matching value is sent (6000 query values through the echo route): that wall time is
    // the request's, not the validator's; no task held the main thread.
    expect(longTasks.every((duration) => duration < 1000), `long tasks ${longTasks.join(', ')}; call ${accepted.ms} ms`).to.equal(true);
  });

  it('an outputSchema enum over 20000 answer items is an isError at once, not a 20 s freeze and "Invalid string length"', async () => {
    const { result, ms } = await timed('fixture.output', {});
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.equal(`the site's answer does not match fixture.output's outputSchema (a site error, not the agent's): (root): ${WORK_REASON}`);
    expect(ms).to.be.below(1000);
    const accepted = await callTool('fixture.listed', {});
    expect(accepted.isError).to.equal(undefined);
    expect(longTasks.every((duration) => duration < 1000)).to.equal(true);
  });
});

describe('Answers have a size and depth bound', () => {
  beforeEach(async () => {
    await startWith([
      fixtureTool('fixture.huge', '/test-fixtures/huge'),
      fixtureTool('fixture.declared', '/test-fixtures/large-declared'),
      fixtureTool('fixture.deep', '/test-fixtures/deep'),
      { name: 'page.get', description: 'Return this page.', inputSchema: { type: 'object' }, effect: 'read', binding: { type: 'inline', target: 'page' } },
    ], `{"@type":"WebPage","hasPart":${'['.repeat(5000)}${']'.repeat(5000)}}`).ready;
  });

  it('a streamed 64 MiB answer is an isError over 1048576 bytes, and the page stopped reading it early', async () => {
    const result = await callTool('fixture.huge', {});
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.equal('the answer from /test-fixtures/huge is larger than 1048576 bytes');
    const stats = await (await fetch('/test-fixtures/huge-stats')).json() as { bytesWritten: number; finished: boolean; closedEarly: boolean };
    expect(stats.finished).to.equal(false);
    expect(stats.bytesWritten).to.be.below(64 * 1024 * 1024);
  });

  it('an answer whose Content-Length is over the bound is refused with the same reason', async () => {
    const result = await callTool('fixture.declared', {});
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.equal('the answer from /test-fixtures/large-declared is larger than 1048576 bytes');
  });

  it('an answer nested 5,000 deep is an isError with its reason, not a bare UnknownError', async () => {
    const result = await callTool('fixture.deep', {});
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.equal('the answer from /test-fixtures/deep is nested deeper than 64 levels');
  });

  it('a page graph nested 5,000 deep is an isError with its reason', async () => {
    const result = await callTool('page.get', {});
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.equal('the page payload is nested deeper than 64 levels');
  });
});
