/**
 * The companion's promises against hostile pages (issue 34), in real Chromium against the demo:
 * one call of the agent signs one request (and the retries its answers grant) and pays at most
 * once, whatever copies page script races in; nothing is signed for a page of another origin, a
 * no-cors request, a Content-Type it would rewrite, a header it did not set, or a body whose
 * bytes could be read two ways; detach() leaves nothing that signs; the agent's Node process reads
 * only the manifests a call of its own needs. What the site accepted is read from the demo
 * server's own log (`demo.agentGateLog`) and charges (`demo.agentGateCharges`).
 */
import { createServer, type Server } from 'node:http';
import type { BrowserContext, Page } from '@playwright/test';
import { createAgent, type NetworkEvent } from '../../src/agent/index.ts';
import { demoAgentOptions } from './agentgate-page.ts';
import { expect, readyReport, sharedTabTest, test as freshTabTest, type Demo } from './demo-fixture.ts';

type Agent = ReturnType<typeof createAgent>;
type Options = Parameters<typeof createAgent>[0];

/** The demo agent (DEMO keys) with `extra` options, attached to `target`; `events` collects what its network layer did. */
async function attachedAgent(target: BrowserContext | Page, demo: Demo, extra: Partial<Options> = {}): Promise<{ agent: Agent; events: NetworkEvent[] }> {
  const events: NetworkEvent[] = [];
  const agent = createAgent({ ...demoAgentOptions(demo), ...extra } as Options, { onEvent: (event) => events.push(event) });
  await agent.attach(target);
  return { agent, events };
}

/** The contact page, its runtime ready. */
async function openContact(page: Page, demo: Demo): Promise<void> {
  await page.goto(`${demo.url}/contact`);
  await readyReport(page);
}

/** The text of a CallToolResult. */
const textOf = (result: { content: { text?: string }[] }) => result.content[0]?.text ?? '';

let seq = 0;
/** A fresh message id. */
function freshId(label: string): string {
  seq += 1;
  return `${label}-${Date.now()}-${seq}`;
}

/** POSTs JSON from page script, same-origin, as any script of the page can; resolves with the status (0 when it failed). */
function pageFetch(page: Page, url: string, body: unknown, headers: Record<string, string> = {}): Promise<number> {
  return page.evaluate(async ({ url, body, headers }) => fetch(url, {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body), credentials: 'omit',
  }).then((response) => response.status, () => 0), { url, body, headers });
}

sharedTabTest.describe('one call is one signed request and at most one payment', () => {
  sharedTabTest.setTimeout(60_000);

  sharedTabTest('8 racing copies of the runtime\'s paid resend from a page script charge once; the agent\'s answer says what it paid', async ({ page, context, demo }) => {
    // Page script copies the runtime's paid resend (the request with crawler-exact-price) 8 times, all at once, before the original.
    await page.addInitScript(() => {
      const originalFetch = window.fetch.bind(window);
      const copies: Promise<number>[] = [];
      (window as unknown as { __copies: Promise<number>[] }).__copies = copies;
      window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        if (request.url.endsWith('/agent/stock-report') && request.headers.has('crawler-exact-price')) {
          const body = await request.clone().text();
          const headers: Record<string, string> = {};
          request.headers.forEach((value, name) => { headers[name] = value; });
          for (let copy = 0; copy < 8; copy += 1) {
            copies.push(originalFetch(request.url, { method: 'POST', headers, body, credentials: 'omit' }).then((answer) => answer.status, () => 0));
          }
        }
        return originalFetch(request);
      }) as typeof fetch;
    });
    const { agent } = await attachedAgent(context, demo, { maxPrice: '0.05 USD', budget: '0.03 USD' });
    try {
      await openContact(page, demo);
      const charges = demo.agentGateCharges.length;
      const before = demo.agentGateLog.length;
      const result = await agent.callTool(page, 'stock_report', { category: 'jackets' });
      const copies = await page.evaluate(() => Promise.all((window as unknown as { __copies: Promise<number>[] }).__copies));
      expect(copies).toHaveLength(8);
      expect(demo.agentGateCharges.slice(charges)).toEqual([expect.objectContaining({ tool: 'stock_report', price: 'USD 0.02' })]);
      const paidSends = demo.agentGateLog.slice(before).filter((entry) => entry.offered !== undefined && entry.outcome === 'verified');
      expect(paidSends).toHaveLength(1);
      // The runtime's own resend or one of the copies carried the payment: the agent's answer says what it paid either way.
      if (result.isError) expect(textOf(result)).toMatch(/\(the agent paid USD 0\.02 for this call; crawler-charged USD 0\.02\)$/);
      else expect(JSON.parse(textOf(result))).toEqual({ answer: { category: 'jackets', inStock: 17 }, payment: { price: 'USD 0.02', charged: 'USD 0.02' } });
      // Spent once: 0.01 USD of the 0.03 budget is left.
      const next = await agent.callTool(page, 'stock_report', { category: 'jackets' });
      expect(textOf(next)).toBe('not paid: the site asks 0.02 USD; the agent\'s budget has 0.01 USD left');
    } finally {
      await agent.detach();
    }
  });

  sharedTabTest('one send_message call with 8 racing copies yields one accepted signed request', async ({ page, context, demo }) => {
    await page.addInitScript(() => {
      const originalFetch = window.fetch.bind(window);
      let fired = false;
      window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        if (request.url.endsWith('/agent/submit') && !fired) {
          fired = true;
          const body = await request.clone().text();
          const headers: Record<string, string> = {};
          request.headers.forEach((value, name) => { headers[name] = value; });
          for (let copy = 0; copy < 8; copy += 1) void originalFetch(request.url, { method: 'POST', headers, body, credentials: 'omit' }).catch(() => undefined);
        }
        return originalFetch(request);
      }) as typeof fetch;
    });
    const { agent } = await attachedAgent(context, demo);
    try {
      await openContact(page, demo);
      const before = demo.agentGateLog.length;
      const id = freshId('race');
      await agent.callTool(page, 'send_message', { id, message: 'once' });
      await expect.poll(() => demo.agentGateLog.slice(before).filter((entry) => entry.path === '/agent/submit').length).toBeGreaterThanOrEqual(9);
      const sends = demo.agentGateLog.slice(before).filter((entry) => entry.path === '/agent/submit');
      expect(sends.filter((entry) => entry.outcome === 'verified')).toEqual([expect.objectContaining({ status: 200 })]);
      expect(sends.filter((entry) => entry.outcome !== 'verified').every((entry) => entry.status === 403)).toBe(true);
    } finally {
      await agent.detach();
    }
  });

  sharedTabTest('identical calls at once are separate intents: five stock reports, five payments, none refused', async ({ page, context, demo }) => {
    const { agent } = await attachedAgent(context, demo, { maxPrice: '0.05 USD', budget: '1.00 USD' });
    try {
      await openContact(page, demo);
      const charges = demo.agentGateCharges.length;
      const results = await Promise.all(Array.from({ length: 5 }, () => agent.callTool(page, 'stock_report', { category: 'boots' })));
      for (const result of results) {
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(JSON.parse(textOf(result))).toEqual({ answer: { category: 'boots', inStock: 42 }, payment: { price: 'USD 0.01', charged: 'USD 0.01' } });
      }
      expect(demo.agentGateCharges.slice(charges)).toHaveLength(5);
    } finally {
      await agent.detach();
    }
  });

  sharedTabTest('a paid send the site did not charge (503, then 429) gives the budget back', async ({ page, context, demo }) => {
    const { agent, events } = await attachedAgent(context, demo, { maxPrice: '0.05 USD', budget: '0.02 USD' });
    try {
      await openContact(page, demo);
      const charges = demo.agentGateCharges.length;
      for (const status of [503, 429]) {
        const undo = demo.failPaidSends(status, 1);
        try {
          const failed = await agent.callTool(page, 'stock_report', { category: 'jackets' });
          expect(failed.isError).toBe(true);
          expect(textOf(failed)).toMatch(new RegExp(`with ${status}.*\\(the agent signed a payment of USD 0\\.02, which the site did not charge; the budget has it back\\)$`));
        } finally {
          undo();
        }
      }
      expect(events.filter((event) => event.type === 'refunded')).toHaveLength(2);
      const paid = await agent.callTool(page, 'stock_report', { category: 'jackets' });
      expect(JSON.parse(textOf(paid))).toEqual({ answer: { category: 'jackets', inStock: 17 }, payment: { price: 'USD 0.02', charged: 'USD 0.02' } });
      expect(demo.agentGateCharges.slice(charges)).toHaveLength(1);
    } finally {
      await agent.detach();
    }
  });
});

sharedTabTest.describe('what the agent signs is what it meant', () => {
  sharedTabTest.setTimeout(60_000);

  sharedTabTest('a covered header the page set is refused: the call answers one line naming it, and nothing is signed', async ({ page, context, demo }) => {
    const undo = demo.coverHeader('send_message', 'x-amount');
    await page.addInitScript(() => {
      const originalFetch = window.fetch.bind(window);
      window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        if (request.url.endsWith('/agent/submit')) request.headers.set('x-amount', '1000');
        return originalFetch(request);
      }) as typeof fetch;
    });
    try {
      const before = demo.agentGateLog.length;
      const { agent } = await attachedAgent(context, demo);
      try {
        await openContact(page, demo);
        const result = await agent.callTool(page, 'send_message', { id: freshId('covered'), message: 'with the page\'s x-amount' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe('send_message is not signed: its manifest covers the header x-amount, which the agent does not set itself (it would sign the page\'s value)');
      } finally {
        await agent.detach();
      }
      // 'origins' mode, which signs the page's own calls, refuses it too.
      const { agent: byOrigin, events } = await attachedAgent(context, demo, { mode: 'origins', origins: [demo.url] });
      try {
        expect(await pageFetch(page, `${demo.url}/agent/submit`, { id: freshId('covered'), message: 'x' }, { 'x-amount': '1000' })).toBe(403);
        expect(events).toContainEqual(expect.objectContaining({ type: 'unsigned', detail: expect.stringContaining('covers the header x-amount') }));
      } finally {
        await byOrigin.detach();
      }
      expect(demo.agentGateLog.slice(before).filter((entry) => entry.outcome === 'verified')).toEqual([]);
    } finally {
      undo();
    }
  });

  sharedTabTest('a duplicate-key body equal to the agent\'s input once parsed is not signed; the runtime\'s own body is', async ({ page, context, demo }) => {
    // Before the runtime's request, page script sends its body with a second "message" member the site would read otherwise.
    await page.addInitScript(() => {
      const originalFetch = window.fetch.bind(window);
      const raced: number[] = [];
      (window as unknown as { __raced: number[] }).__raced = raced;
      window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        if (request.url.endsWith('/agent/submit') && raced.length === 0) {
          const body = (await request.clone().text()).replace('"message":', '"message":"not what the agent meant","message":');
          const headers: Record<string, string> = {};
          request.headers.forEach((value, name) => { headers[name] = value; });
          raced.push(await originalFetch(request.url, { method: 'POST', headers, body, credentials: 'omit' }).then((answer) => answer.status));
        }
        return originalFetch(request);
      }) as typeof fetch;
    });
    const { agent, events } = await attachedAgent(context, demo);
    try {
      await openContact(page, demo);
      const before = demo.agentGateLog.length;
      const id = freshId('duplicate');
      const result = await agent.callTool(page, 'send_message', { id, message: 'what the agent meant' });
      expect(JSON.parse(textOf(result))).toEqual({ status: 'accepted' });
      expect(await page.evaluate(() => (window as unknown as { __raced: number[] }).__raced)).toEqual([403]);
      expect(demo.agentGateLog.slice(before).map((entry) => [entry.outcome, entry.status])).toEqual([['refused', 403], ['verified', 200]]);
      expect(events).toContainEqual(expect.objectContaining({ type: 'unsigned', detail: 'the body has a duplicate member "message"' }));
    } finally {
      await agent.detach();
    }
  });
});

sharedTabTest.describe('\'origins\' mode signs for the listed origins\' own pages only', () => {
  sharedTabTest.setTimeout(60_000);

  sharedTabTest('a cross-site page (another origin, CORS preflights answered) gets nothing signed and pays nothing: no-cors, CORS, a paid offer, a beacon, a guessed handoff poll', async ({ page, context, demo }) => {
    // Another site: the demo agent's origin under another host name (localhost is not 127.0.0.1's site), a real server.
    const hostile = `${demo.agentUrl.replace('127.0.0.1', 'localhost')}/`;
    // Any route on the site's endpoints makes Playwright answer CORS preflights: the endpoints then accept a cross-site CORS request.
    await page.route(`${demo.url}/agent/**`, (route) => route.fallback());
    await page.route(`${demo.url}/v1/handoff/**`, (route) => route.fallback());
    const { agent, events } = await attachedAgent(context, demo, { mode: 'origins', origins: [demo.url], maxPrice: '1.00 USD', budget: '1.00 USD' });
    try {
      await page.goto(hostile);
      const before = demo.agentGateLog.length;
      const charges = demo.agentGateCharges.length;
      const statuses = await page.evaluate(async (site) => {
        const message = JSON.stringify({ id: `hostile-${Date.now()}`, message: 'from another site' });
        const post = (path: string, init: RequestInit) => fetch(`${site}${path}`, { method: 'POST', credentials: 'omit', ...init }).then((response) => response.status, () => -1);
        return {
          noCors: await post('/agent/submit', { mode: 'no-cors', headers: { 'Content-Type': 'application/json' }, body: message }),
          cors: await post('/agent/submit', { headers: { 'Content-Type': 'application/json' }, body: message }),
          paid: await post('/agent/stock-report', { headers: { 'Content-Type': 'application/json', 'crawler-exact-price': 'USD 0.01' }, body: '{"category":"boots"}' }),
          beacon: navigator.sendBeacon(`${site}/agent/submit`, new Blob([message], { type: 'text/plain' })),
          poll: await fetch(`${site}/v1/handoff/h_guessed0000`).then((response) => response.status, () => -1),
        };
      }, demo.url);
      expect(statuses.beacon).toBe(true);
      await expect.poll(() => demo.agentGateLog.length - before).toBeGreaterThanOrEqual(4);
      const seen = demo.agentGateLog.slice(before);
      expect(seen.filter((entry) => entry.outcome === 'verified')).toEqual([]);
      expect(demo.agentGateCharges.length).toBe(charges);
      const reasons = events.filter((event) => event.type === 'unsigned').map((event) => event.detail);
      expect(reasons).toContainEqual(expect.stringMatching(/^it comes from a document of http:\/\/localhost:\d+, not http:\/\/127\.0\.0\.1:\d+$/));

      // The agent does sign in 'origins' mode: the site's own page, same call.
      await openContact(page, demo);
      const own = demo.agentGateLog.length;
      expect(await pageFetch(page, `${demo.url}/agent/submit`, { id: freshId('own'), message: 'from the site itself' })).toBe(200);
      // A no-cors copy from the site's own page (text/plain, the Content-Type the agent would have to rewrite) is not.
      const noCors = await page.evaluate(async (url) => fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: `no-cors-${Date.now()}`, message: 'x' }) }).then(() => 'sent'), `${demo.url}/agent/submit`);
      expect(noCors).toBe('sent');
      // And a poll of a handoff id the site never handed this agent, from the site's own page, is not.
      const guessed = await page.evaluate(async (url) => (await fetch(url)).status, `${demo.url}/v1/handoff/h_guessed0001`);
      expect(guessed).toBe(403);
      await expect.poll(() => demo.agentGateLog.length - own).toBeGreaterThanOrEqual(3);
      expect(demo.agentGateLog.slice(own).map((entry) => entry.outcome)).toEqual(['verified', 'refused', 'refused']);
      expect(events.map((event) => event.detail)).toEqual(expect.arrayContaining([
        expect.stringMatching(/Content-Type is "text\/plain;charset=UTF-8", not the manifest's application\/json/),
        'the site handed this agent no handoff h_guessed0001',
      ]));
    } finally {
      await agent.detach();
    }
  });
});

freshTabTest.describe('detach and attachment', () => {
  freshTabTest.setTimeout(90_000);

  freshTabTest('detach under a popup storm: once it resolves no page of the context is signed for, those opened during and after it included', async ({ page, context, demo }) => {
    const { agent } = await attachedAgent(context, demo, { mode: 'origins', origins: [demo.url] });
    await page.goto(`${demo.url}/agent/v1/navigation`);
    // Signing works before: the opener's own call is signed.
    expect(await pageFetch(page, `${demo.url}/agent/submit`, { id: freshId('storm-before'), message: 'before detach' })).toBe(200);
    // A popup every 25 ms, 60 at most.
    await page.evaluate((url) => {
      let opened = 0;
      const timer = setInterval(() => {
        window.open(`${url}?popup=${opened}`);
        opened += 1;
        if (opened >= 60) clearInterval(timer);
      }, 25);
      (window as unknown as { __storm: number }).__storm = timer as unknown as number;
    }, `${demo.url}/agent/v1/navigation`);
    await page.waitForTimeout(400);
    const openedAtDetach = context.pages().length;
    await agent.detach();
    const detachedAt = demo.agentGateLog.length;
    await page.waitForTimeout(600);
    await page.evaluate(() => clearInterval((window as unknown as { __storm: number }).__storm));
    const pages = context.pages();
    const statuses = await Promise.all(pages.map(async (each) => {
      try {
        await each.waitForLoadState('domcontentloaded');
        return await pageFetch(each, `${demo.url}/agent/submit`, { id: freshId('storm'), message: 'after detach' });
      } catch {
        return -1; // a page that closed meanwhile
      }
    }));
    const answered = statuses.filter((status) => status !== -1);
    console.log(`popup storm: ${openedAtDetach} pages when detach() was called, ${pages.length} after; ${answered.length} sent a call after it resolved`);
    expect(answered.length).toBeGreaterThan(openedAtDetach);
    expect(answered.every((status) => status === 403)).toBe(true);
    expect(demo.agentGateLog.slice(detachedAt).filter((entry) => entry.outcome === 'verified')).toEqual([]);
    const late = await agent.callTool(page, 'send_message', { id: freshId('late'), message: 'after detach' });
    expect(textOf(late)).toBe('send_message: the agent is detached (agent.detach()); it calls and signs nothing more');
  });

  freshTabTest('a new tab is intercepted from its first request: page-set signature and payment headers never leave, and its calls are signed once attached', async ({ page, context, demo }) => {
    // A page of the site's own origin whose first act is a call with a signature and a price of its own.
    const undo = demo.servePage('/first-request', `<!doctype html><title>first request</title><script>
      fetch('/agent/submit', {
        method: 'POST', credentials: 'omit', body: JSON.stringify({ id: 'first-request-' + location.search.slice(1), message: 'the tab\\'s first request' }),
        headers: { 'Content-Type': 'application/json', Signature: 'sig1=:cGFnZQ==:', 'Signature-Input': 'sig1=("@authority");keyid="page"', 'crawler-exact-price': 'USD 0.01' },
      });
    </script>`);
    const { agent } = await attachedAgent(context, demo);
    try {
      await openContact(page, demo);
      // A call of the agent's own on the site: the agent knows its endpoints from then on.
      expect(JSON.parse(textOf(await agent.callTool(page, 'send_message', { id: freshId('opener'), message: 'from the opener' })))).toEqual({ status: 'accepted' });
      const before = demo.agentGateLog.length;
      const popups: Page[] = [];
      for (const index of [0, 1, 2]) {
        const [popup] = await Promise.all([context.waitForEvent('page'), page.evaluate((search) => { window.open(`/first-request?${search}`); }, `${Date.now()}-${index}`)]);
        popups.push(popup);
      }
      await expect.poll(() => demo.agentGateLog.slice(before).filter((entry) => entry.path === '/agent/submit').length).toBe(3);
      for (const entry of demo.agentGateLog.slice(before)) {
        expect(entry).toMatchObject({ outcome: 'refused', status: 403, reason: expect.stringMatching(/^The request is not signed \(no Signature-Input or Signature\)/) });
      }
      // Once attached, the new tab's own calls of the agent are signed.
      const popup = popups[0]!;
      await openContact(popup, demo);
      const result = await agent.callTool(popup, 'send_message', { id: freshId('popup'), message: 'from the new tab' });
      expect(JSON.parse(textOf(result))).toEqual({ status: 'accepted' });
    } finally {
      undo();
      await agent.detach();
    }
  });

  freshTabTest('callTool on a page the agent is not attached to, or on about:blank, answers a result and signs nothing', async ({ page, context, demo }) => {
    const { agent } = await attachedAgent(page, demo);
    try {
      const other = await context.newPage();
      await openContact(other, demo);
      const before = demo.agentGateLog.length;
      const elsewhere = await agent.callTool(other, 'send_message', { id: freshId('unattached'), message: 'x' });
      expect(elsewhere).toEqual({ content: [{ type: 'text', text: 'send_message: the agent is not attached to this page; attach it (agent.attach(context or page)) before calling its tools' }], isError: true });
      await page.goto('about:blank');
      const blank = await agent.callTool(page, 'send_message', { id: freshId('blank'), message: 'x' });
      expect(blank).toEqual({ content: [{ type: 'text', text: 'send_message: the page is at "about:blank", not an http(s) address; the agent calls tools only on web pages' }], isError: true });
      // The unattached tab's own call goes out unsigned.
      expect(await pageFetch(other, `${demo.url}/agent/submit`, { id: freshId('unattached'), message: 'x' })).toBe(403);
      expect(demo.agentGateLog.slice(before).filter((entry) => entry.outcome === 'verified')).toEqual([]);
    } finally {
      await agent.detach();
    }
  });
});

sharedTabTest.describe('what a page can make the agent read from Node', () => {
  sharedTabTest.setTimeout(60_000);
  let server: Server;
  let loopback: string;
  /** Requests the loopback server got: from the browser (a Chrome user agent) or from Node. */
  const seen: { fromNode: boolean; path: string }[] = [];

  sharedTabTest.beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ fromNode: !/Chrome/.test(req.headers['user-agent'] ?? ''), path: req.url ?? '' });
      if (req.url === '/page') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        // A page of this origin with one WebMCP tool of its own, so that the agent can call something here.
        res.end(`<!doctype html><title>loopback</title><script>
          document.modelContext?.registerTool({ name: 'noop', description: 'Does nothing.', inputSchema: { type: 'object' },
            execute: async () => ({ content: [{ type: 'text', text: '{}' }] }) });
        </script>`);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
      res.end(JSON.stringify({ version: 'agentgate-tools/1', site: { siteKey: 'loopback' }, tools: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    loopback = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  sharedTabTest.afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  sharedTabTest('a manifest-shaped request from a page makes no Node request; a page\'s own manifests are read only during a call of the agent there, four at most', async ({ page, context, demo }) => {
    const { agent } = await attachedAgent(context, demo);
    try {
      // A page of the loopback origin asks for manifest-shaped paths of another origin (the same server as localhost), escapes, and the demo's.
      await page.goto(`${loopback}/page`);
      seen.length = 0;
      const other = loopback.replace('127.0.0.1', 'localhost');
      await page.evaluate(async (urls) => {
        for (const url of urls) await fetch(url).catch(() => undefined);
      }, [`${other}/.well-known/agentgate-tools.json`, `${other}/v1/agent-tools/k1`, `${other}/.well-known/agentgate-tools.json?siteKey=x`, `${loopback}/v1/agent-tools/..%2Fadmin`, `${demo.url}/v1/agent-tools/not_the_page_s`]);
      await page.waitForTimeout(300);
      expect(seen.filter((request) => request.fromNode)).toEqual([]);
      expect(seen.filter((request) => !request.fromNode && request.path.includes("agent")).length).toBe(4);

      // Ten manifests of its own origin: noted, not read...
      await page.evaluate(async () => {
        for (let key = 1; key <= 10; key += 1) await fetch(`/v1/agent-tools/k${key}`);
      });
      await page.waitForTimeout(300);
      expect(seen.filter((request) => request.fromNode)).toEqual([]);
      // ...until a call of the agent's own there: the well-known manifest and three of those named.
      expect(textOf(await agent.callTool(page, 'noop', {}))).toBe('{}');
      expect(seen.filter((request) => request.fromNode).map((request) => request.path).sort()).toEqual([
        '/.well-known/agentgate-tools.json', '/v1/agent-tools/k1', '/v1/agent-tools/k2', '/v1/agent-tools/k3',
      ]);

      // A call on the demo's origin reads the demo's manifest, not the one another origin's page named, and nothing of the loopback's.
      seen.length = 0;
      await openContact(page, demo);
      const named = demo.manifestRequests.filter((request) => request.path === '/v1/agent-tools/not_the_page_s').length;
      expect(JSON.parse(textOf(await agent.callTool(page, 'send_message', { id: freshId('manifests'), message: 'x' })))).toEqual({ status: 'accepted' });
      expect(seen).toEqual([]);
      expect(demo.manifestRequests.filter((request) => request.path === '/v1/agent-tools/not_the_page_s').length).toBe(named);
    } finally {
      await agent.detach();
    }
  });
});
