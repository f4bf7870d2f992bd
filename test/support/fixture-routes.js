/**
 * Routes that misbehave on purpose, for browser tests of how the runtime survives a bad answer.
 * Served by web-test-runner's dev server next to the real demo API; never part of the demo.
 */

const ENVELOPE = (data) => JSON.stringify({ capellAgentSchema: 1, data, links: { next: null, previous: null } });

/** What the streamed 64 MiB answer sent before the page stopped reading it (`/test-fixtures/huge-stats`). */
const huge = { bytesWritten: 0, finished: false, closedEarly: false };
const HUGE_BYTES = 64 * 1024 * 1024;

/** `{"capellAgentSchema":1,"data":[[[…5000 levels…]]],"links":…}` */
const deepEnvelope = (levels) => `{"capellAgentSchema":1,"data":${'['.repeat(levels)}${']'.repeat(levels)},"links":{"next":null,"previous":null}}`;

/**
 * The `q` of every request that reached /test-fixtures/slow, and who waits for one
 * (/test-fixtures/slow-arrived): a test learns that a call's request is in flight from the server
 * that received it, not from the page.
 */
const slowArrived = new Set();
const slowWaiters = new Map();

/** How long /test-fixtures/slow-arrived waits for its request before it answers `false`, in ms. */
const SLOW_ARRIVED_WAIT_MS = 8000;

/** Form submissions that reached /test-fixtures/form-sink, counted by their `key` query parameter. */
const formSinkCounts = new Map();

/** @type {Record<string, (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void>} */
const ROUTES = {
  // Where fixture forms submit: every request (GET or POST) is counted for its key.
  '/test-fixtures/form-sink': (req, res) => {
    const key = new URL(req.url ?? '/', 'http://fixture').searchParams.get('key') ?? '';
    formSinkCounts.set(key, (formSinkCounts.get(key) ?? 0) + 1);
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html lang="en"><title>sent</title><p>sent</p></html>');
  },
  '/test-fixtures/form-sink-count': (req, res) => {
    const key = new URL(req.url ?? '/', 'http://fixture').searchParams.get('key') ?? '';
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ count: formSinkCounts.get(key) ?? 0 }));
  },
  '/test-fixtures/not-json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><p>Maintenance</p>');
  },
  '/test-fixtures/wrong-envelope': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ capellAgentSchema: 2, data: [] }));
  },
  '/test-fixtures/server-error': (_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Server Error' }));
  },
  '/test-fixtures/redirect': (_req, res) => {
    res.writeHead(302, { location: '/agent/v1/navigation' });
    res.end();
  },
  '/test-fixtures/echo': (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(ENVELOPE({
      method: req.method,
      query: url.search,
      accept: req.headers.accept ?? null,
      cookie: req.headers.cookie ?? null,
    }));
  },
  '/test-fixtures/slow': (req, res) => {
    const q = new URL(req.url ?? '/', 'http://fixture').searchParams.get('q') ?? '';
    slowArrived.add(q);
    for (const wake of slowWaiters.get(q) ?? []) wake();
    slowWaiters.delete(q);
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ENVELOPE([]));
    }, 3000);
  },
  // Answers `{ "arrived": true }` once a /test-fixtures/slow request with this `q` has arrived
  // (at once if it already has), `false` after SLOW_ARRIVED_WAIT_MS.
  '/test-fixtures/slow-arrived': (req, res) => {
    const q = new URL(req.url ?? '/', 'http://fixture').searchParams.get('q') ?? '';
    const answer = (arrived) => {
      clearTimeout(timer);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ arrived }));
    };
    const timer = setTimeout(() => answer(false), SLOW_ARRIVED_WAIT_MS);
    if (slowArrived.has(q)) return answer(true);
    slowWaiters.set(q, [...(slowWaiters.get(q) ?? []), () => answer(true)]);
  },
  // 64 MiB of valid JSON, streamed without Content-Length, written only as fast as it is read.
  '/test-fixtures/huge': (_req, res) => {
    Object.assign(huge, { bytesWritten: 0, finished: false, closedEarly: false });
    res.writeHead(200, { 'content-type': 'application/json' });
    const head = '{"capellAgentSchema":1,"links":{"next":null,"previous":null},"data":"';
    const chunk = 'x'.repeat(64 * 1024);
    res.on('close', () => { huge.closedEarly = !huge.finished; });
    const pump = () => {
      while (huge.bytesWritten < HUGE_BYTES) {
        const text = huge.bytesWritten === 0 ? head : chunk;
        huge.bytesWritten += text.length;
        if (!res.write(text)) return void res.once('drain', pump);
      }
      huge.finished = true;
      res.end('"}');
    };
    pump();
  },
  '/test-fixtures/huge-stats': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(huge));
  },
  // 2 MiB, announced by Content-Length.
  '/test-fixtures/large-declared': (_req, res) => {
    const body = `{"capellAgentSchema":1,"links":{"next":null,"previous":null},"data":"${'x'.repeat(2 * 1024 * 1024)}"}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  },
  '/test-fixtures/deep': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(deepEnvelope(5000));
  },
  // 20000 answer items (~140 KB) that miss an outputSchema enum: checking them all froze the tab
  // before the validator's work was bounded.
  '/test-fixtures/many-items': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(ENVELOPE(Array.from({ length: 20000 }, () => 'zzzz')));
  },
  '/test-fixtures/few-items': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(ENVELOPE(['v1', 'v6999']));
  },
  '/test-fixtures/output-mismatch': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(ENVELOPE({ sku: 42 }));
  },
};

/** Answers a fixture route; 404 for unknown ones. */
export function handleFixtureRoute(req, res) {
  const path = new URL(req.url ?? '/', 'http://fixture').pathname;
  const route = ROUTES[path];
  if (route) return route(req, res);
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ message: 'no such fixture' }));
}
