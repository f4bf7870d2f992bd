/**
 * Answer bounds (src/registry/bounded-json.ts). Without them an answer of 64 MB took the page heap
 * to 404 MB, and an answer nested 5,000 deep reached the agent as a bare UnknownError. The browser
 * tests (test/browser/bounds.on.test.ts) prove the same against a real server; these pin the edges.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonDepth, MAX_ANSWER_BYTES, parseBoundedJSON, readBoundedJSON } from '../../src/registry/bounded-json.ts';

/**
 * A body that would stream `total` bytes, counting what was pulled and whether it was cancelled;
 * `abort()` errors it as a fetch's abort errors its body.
 */
function endlessBody(total: number) {
  const seen = { pulled: 0, cancelled: false };
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let source!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      source = controller;
    },
    pull(controller) {
      if (seen.pulled >= total) return controller.close();
      seen.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  }, { highWaterMark: 0 });
  const abort = (): void => {
    seen.cancelled = true;
    source.error(new DOMException('aborted', 'AbortError'));
  };
  return { stream, seen, abort };
}

describe('answers have a size limit', () => {
  it('a 64 MiB streamed answer stops being read just past 1 MiB and is cancelled', async () => {
    const { stream, seen, abort } = endlessBody(64 * 1024 * 1024);
    const outcome = await readBoundedJSON(new Response(stream), 'the answer from /x', undefined, abort);
    assert.deepEqual(outcome, { ok: false, reason: 'the answer from /x is larger than 1048576 bytes' });
    assert.equal(seen.cancelled, true);
    assert.ok(seen.pulled <= MAX_ANSWER_BYTES + 2 * 64 * 1024, `${seen.pulled} bytes pulled`);
  });

  it('a Content-Length over the bound is refused before a byte is read', async () => {
    const { stream, seen } = endlessBody(64 * 1024 * 1024);
    const outcome = await readBoundedJSON(new Response(stream, { headers: { 'content-length': String(64 * 1024 * 1024) } }), 'the answer from /x');
    assert.equal(outcome.ok, false);
    assert.equal(seen.pulled, 0);
  });

  it('an answer within the bound is read to its end and never stopped', async () => {
    const { stream, seen, abort } = endlessBody(256 * 1024);
    const outcome = await readBoundedJSON(new Response(stream), 'the answer from /x', undefined, abort);
    // Read whole and handed to the parser (the x's are not JSON), not refused as too large.
    assert.ok(!outcome.ok && outcome.notJSON !== undefined, JSON.stringify(outcome));
    assert.equal(seen.pulled, 256 * 1024);
    assert.equal(seen.cancelled, false);
  });

  it('an answer of exactly 1 MiB is read; multi-byte text is counted in UTF-8 bytes', async () => {
    const exact = `"${'x'.repeat(MAX_ANSWER_BYTES - 2)}"`;
    assert.equal((await readBoundedJSON(new Response(exact), 'a')).ok, true);
    assert.equal(parseBoundedJSON(`"${'é'.repeat(MAX_ANSWER_BYTES / 2)}"`, 'a').ok, false);
  });
});

describe('answers have a depth limit', () => {
  it('an answer nested 5,000 deep is refused with its reason before it is parsed', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    assert.deepEqual(parseBoundedJSON(deep, 'the answer from /x'), { ok: false, reason: 'the answer from /x is nested deeper than 64 levels' });
  });

  it('64 levels pass, 65 do not; brackets inside strings do not count', () => {
    assert.equal(parseBoundedJSON(`${'['.repeat(64)}${']'.repeat(64)}`, 'a').ok, true);
    assert.equal(parseBoundedJSON(`${'['.repeat(65)}${']'.repeat(65)}`, 'a').ok, false);
    assert.equal(jsonDepth('{"a":"[[[\\"[[{","b":[{}]}'), 3);
  });

  it('text that is not JSON keeps the parser message', () => {
    const outcome = parseBoundedJSON('<html>', 'the answer from /x');
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok && typeof outcome.notJSON === 'string');
  });
});
