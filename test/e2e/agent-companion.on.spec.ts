/**
 * The agent's side of AgentGate (`capell-webmcp/agent`, src/agent; the Puppeteer client runs the built dist/agent): a Node
 * agent drives the real demo in Chromium with Playwright, and the companion signs the page's
 * AgentGate calls in the agent's network layer (DevTools `Fetch`), bound to the calls the agent
 * started, pays within its own cap and budget, and verifies the receipts. What the site accepted
 * is read from the demo server's own log (`demo.agentGateLog`), its inbox and its charges.
 */
import type { Page } from '@playwright/test';
import { createAgent } from '../../src/agent/index.ts';
import type { Agent, AgentOptions } from '../../src/agent/index.ts';
import { DEMO_AGENT_PRIVATE_JWK, DEMO_SHARED_KEY } from '../../demo/server/agentgate/demo-keys.js';
import { demoAgentDirectory } from '../../demo/server/agentgate/demo-agent.js';
import { expect, readyReport, serveEdited, sharedTabTest as test, type Demo } from './demo-fixture.ts';

/** The demo agent's keyid: its key's JWK thumbprint, as its key set publishes it. */
const DEMO_KEYID = demoAgentDirectory().keys[0]!.kid as string;

/** A companion with the demo agent's keys (DEMO KEYS) and `extra` options. */
function demoAgent(demo: Demo, extra: Partial<AgentOptions> = {}): Agent {
  return (createAgent as (options: AgentOptions) => Agent)({
    privateJwk: { ...DEMO_AGENT_PRIVATE_JWK } as AgentOptions['privateJwk'],
    signatureAgent: demo.agentKeysUrl,
    sharedKeys: { [demo.url]: { ...DEMO_SHARED_KEY } },
    ...extra,
  });
}

/** The site's answer of a successful call (the tool result's text, parsed). */
function answerOf(result: { content: { text?: string }[] }): unknown {
  return JSON.parse(result.content[0]?.text ?? 'null');
}

/** Opens the contact page (its runtime names AgentGate) and waits for the Report; `maxPrice` is a page's own cap attribute. */
async function openDemoPage(page: Page, demo: Demo, pageMaxPrice?: string): Promise<void> {
  if (pageMaxPrice !== undefined) {
    await serveEdited(page, `${demo.url}/contact`, (html) => html.replace('data-agentgate>', `data-agentgate data-max-price="${pageMaxPrice}">`));
  }
  await page.goto(`${demo.url}/contact`);
  await readyReport(page);
}

/** A fresh message id. */
let seq = 0;
function freshId(label: string): string {
  seq += 1;
  return `${label}-${Date.now()}-${seq}`;
}

/** Sends a JSON POST from page script, as any script of the page can; resolves with the status. */
function pageFetch(page: Page, url: string, body: unknown, headers: Record<string, string> = {}): Promise<number> {
  return page.evaluate(async ({ url, body, headers }) => (await fetch(url, {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body), credentials: 'omit',
  })).status, { url, body, headers });
}

test.describe('the agent companion with Playwright', () => {
  // Real pages, a real demo server, receipts fetched from Node: generous on a loaded machine.
  test.setTimeout(60_000);

  test('send_message is signed by the companion and verified by the site; its receipt is verified by the agent', async ({ page, context, demo }) => {
    const agent = demoAgent(demo);
    await agent.attach(context);
    try {
      await openDemoPage(page, demo);
      const before = demo.agentGateLog.length;
      const id = freshId('companion');
      const result = await agent.callTool(page, 'send_message', { id, message: 'hello from the companion' });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(answerOf(result)).toEqual({ status: 'accepted' });
      expect(demo.agentGateLog.slice(before)).toEqual([
        expect.objectContaining({ path: '/agent/submit', tool: 'send_message', outcome: 'verified', status: 200, keyid: DEMO_KEYID, agent: demo.agentKeysUrl }),
      ]);
      const receipts = agent.receipts();
      expect(receipts).toEqual([expect.objectContaining({ tool: 'send_message', origin: demo.url, verified: true, status: 200, action: 'agent_submit' })]);
      expect(receipts[0]!.reason).toBeUndefined();
    } finally {
      await agent.detach();
    }
  });

  test('a page script that wraps crypto.subtle, fetch and the runtime\'s globals gets no key and no signed request the site accepts', async ({ page, context, demo }) => {
    // Runs before any script of the page: records every key imported, every base signed, every
    // request the page makes with its headers, and every signer handed to the runtime.
    await page.addInitScript(() => {
      const seen = { imported: [] as unknown[], signed: [] as string[], keys: [] as CryptoKey[], requests: [] as { url: string; headers: Record<string, string>; body: string }[], signers: [] as unknown[] };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      const subtle = crypto.subtle;
      const importKey = subtle.importKey.bind(subtle);
      const sign = subtle.sign.bind(subtle);
      subtle.importKey = (async (format: string, data: unknown, ...rest: unknown[]) => {
        seen.imported.push(format === 'raw' ? Array.from(new Uint8Array(data as ArrayBuffer)) : data);
        const key = await (importKey as (...args: unknown[]) => Promise<CryptoKey>)(format, data, ...rest);
        seen.keys.push(key);
        return key;
      }) as typeof subtle.importKey;
      subtle.sign = (async (algorithm: AlgorithmIdentifier, key: CryptoKey, data: BufferSource) => {
        seen.keys.push(key);
        seen.signed.push(new TextDecoder().decode(data as ArrayBuffer));
        return sign(algorithm, key, data);
      }) as typeof subtle.sign;
      const originalFetch = window.fetch.bind(window);
      window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        const headers: Record<string, string> = {};
        request.headers.forEach((value, name) => { headers[name] = value; });
        seen.requests.push({ url: request.url, headers, body: request.method === 'GET' ? '' : await request.clone().text() });
        return originalFetch(request);
      }) as typeof fetch;
      // The runtime's global: any signer given to it (setSigner), and the global itself.
      let global: Record<string, unknown> | undefined;
      Object.defineProperty(window, 'capellWebMCP', {
        configurable: true,
        get: () => global,
        set(value: Record<string, unknown>) {
          global = value;
          const setSigner = value?.setSigner as ((signer: unknown) => void) | undefined;
          if (setSigner) value.setSigner = (signer: unknown) => { seen.signers.push(signer); setSigner(signer); };
        },
      });
    });
    const agent = demoAgent(demo);
    await agent.attach(context);
    try {
      await openDemoPage(page, demo);
      const id = freshId('wrapped');
      const result = await agent.callTool(page, 'send_message', { id, message: 'the agent asked for this' });
      expect(answerOf(result)).toEqual({ status: 'accepted' });
      const [receipt] = agent.receipts();
      expect(receipt?.verified).toBe(true);

      const seen = await page.evaluate(() => {
        const { imported, signed, requests } = (window as unknown as { __seen: { imported: unknown[]; signed: string[]; requests: { url: string; headers: Record<string, string>; body: string }[] } }).__seen;
        return { imported: JSON.stringify(imported), signed, requests };
      });
      await test.step('no key of the agent was imported in the page, and no base the page signed is the one the site verified', () => {
        expect(seen.imported).not.toContain(DEMO_AGENT_PRIVATE_JWK.d);
        expect(seen.imported).not.toContain(JSON.stringify(Array.from(Buffer.from(DEMO_SHARED_KEY.secret, 'base64'))).slice(1, -1));
        for (const base of seen.signed) expect(base).not.toContain(receipt!.nonce);
        const call = seen.requests.find((request) => request.url.endsWith('/agent/submit'));
        expect(call, 'the page saw the runtime\'s request').toBeDefined();
        // What page script sees of the request is not what the agent signed.
        expect(call!.headers['signature-input'] ?? '').not.toContain(receipt!.nonce);
      });

      await test.step('everything the page script can make of what it saw is refused by the site', async () => {
        const before = demo.agentGateLog.length;
        const statuses = await page.evaluate(async ({ url }) => {
          const state = (window as unknown as { __seen: { keys: CryptoKey[]; requests: { url: string; headers: Record<string, string>; body: string }[] } }).__seen;
          const call = state.requests.find((request) => request.url === url)!;
          const send = async (body: string, headers: Record<string, string>) => (await fetch(url, { method: 'POST', headers, body, credentials: 'omit' })).status;
          const results: number[] = [];
          // The headers it saw, with its own body.
          results.push(await send(JSON.stringify({ id: 'attacker-0001', message: 'not asked for' }), call.headers));
          // Its own base signed with every key it got hold of (the page's stand-in keys at most).
          // A copy: the wrapped sign() below records the keys it is given too.
          for (const key of [...new Set(state.keys)]) {
            const body = JSON.stringify({ id: `attacker-${results.length}-key`, message: 'signed in the page' });
            const algorithm = key.algorithm.name === 'HMAC' ? 'HMAC' : key.algorithm.name;
            if (!key.usages.includes('sign')) continue;
            const signature = new Uint8Array(await crypto.subtle.sign(algorithm, key, new TextEncoder().encode(body)));
            results.push(await send(body, { ...call.headers, signature: `sig1=:${btoa(String.fromCharCode(...signature))}:` }));
          }
          return results;
        }, { url: `${demo.url}/agent/submit` });
        expect(statuses.length).toBeGreaterThan(0);
        for (const status of statuses) expect(status).toBeGreaterThanOrEqual(400);
        const attempts = demo.agentGateLog.slice(before);
        expect(attempts.length).toBe(statuses.length);
        for (const attempt of attempts) expect(attempt).toMatchObject({ path: '/agent/submit', outcome: 'refused' });
      });
    } finally {
      await agent.detach();
    }
  });

  test('a page-made request with the same body as an agent\'s used intent goes out unsigned and is refused', async ({ page, context, demo }) => {
    const agent = demoAgent(demo);
    await agent.attach(context);
    try {
      await openDemoPage(page, demo);
      const input = { id: freshId('used'), message: 'once, by the agent' };
      expect(answerOf(await agent.callTool(page, 'send_message', input))).toEqual({ status: 'accepted' });
      const before = demo.agentGateLog.length;
      // The same JSON, members in another order, and a signature header of the page's own.
      const status = await pageFetch(page, `${demo.url}/agent/submit`, { message: input.message, id: input.id }, { Signature: 'sig1=:AAAA:', 'Signature-Input': 'sig1=("@authority");keyid="x"' });
      expect(status).toBe(403);
      expect(demo.agentGateLog.slice(before)).toEqual([expect.objectContaining({ path: '/agent/submit', outcome: 'refused', status: 403, reason: expect.stringMatching(/not signed/) })]);
    } finally {
      await agent.detach();
    }
  });

  test('a page cannot change the agent\'s cap: a 402 above maxPrice is not paid, and the answer names the price and the cap', async ({ page, context, demo }) => {
    const agent = demoAgent(demo, { maxPrice: '0.05 USD', budget: '1.00 USD' });
    await agent.attach(context);
    try {
      // The page's own cap says 1.00 USD: the agent's 0.05 USD stands.
      await openDemoPage(page, demo, '1.00 USD');
      const charges = demo.agentGateCharges.length;
      const before = demo.agentGateLog.length;
      const result = await agent.callTool(page, 'stock_report', { category: 'archive' });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toBe('not paid: the site asks 0.50 USD; the agent\'s cap is 0.05 USD a call');
      expect(demo.agentGateCharges.length).toBe(charges);
      expect(demo.agentGateLog.slice(before).filter((entry) => entry.offered !== undefined)).toEqual([]);
      // A page script offering the price itself is refused too: its payment header never leaves unsigned.
      const status = await pageFetch(page, `${demo.url}/agent/stock-report`, { category: 'archive' }, { 'crawler-exact-price': 'USD 0.50' });
      expect(status).toBe(403);
      expect(demo.agentGateCharges.length).toBe(charges);
    } finally {
      await agent.detach();
    }
  });

  test('budget exhausted: a price within the cap but above what the budget has left is not paid', async ({ page, context, demo }) => {
    const agent = demoAgent(demo, { maxPrice: '0.05 USD', budget: '0.02 USD' });
    await agent.attach(context);
    try {
      await openDemoPage(page, demo, '1.00 USD');
      const charges = demo.agentGateCharges.length;
      const paid = await agent.callTool(page, 'stock_report', { category: 'boots' });
      expect(paid.isError, JSON.stringify(paid)).toBeFalsy();
      expect(JSON.stringify(answerOf(paid))).toContain('"inStock":42');
      const refused = await agent.callTool(page, 'stock_report', { category: 'jackets' });
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toBe('not paid: the site asks 0.02 USD; the agent\'s budget has 0.01 USD left');
      expect(demo.agentGateCharges.slice(charges).map((charge) => charge.price)).toEqual(['USD 0.01']);
    } finally {
      await agent.detach();
    }
  });

  test('paid once, never twice: a page that repeats the paid request within the call gets no second payment', async ({ page, context, demo }) => {
    // After the paid answer of the stock report, page script sends the same request twice more,
    // with and without a payment header of its own, while the agent's call is still open.
    await page.addInitScript(() => {
      const originalFetch = window.fetch.bind(window);
      const echoes: Promise<number>[] = [];
      (window as unknown as { __echoes: Promise<number>[] }).__echoes = echoes;
      window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        const body = request.method === 'POST' ? await request.clone().text() : '';
        const response = await originalFetch(request);
        if (request.url.endsWith('/agent/stock-report') && response.ok) {
          for (const extra of [{}, { 'crawler-exact-price': 'USD 0.01' }] as Record<string, string>[]) {
            echoes.push(originalFetch(request.url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...extra }, body }).then((answer) => answer.status));
          }
        }
        return response;
      }) as typeof fetch;
    });
    const agent = demoAgent(demo, { maxPrice: '0.05 USD', budget: '1.00 USD' });
    await agent.attach(context);
    try {
      await openDemoPage(page, demo, '1.00 USD');
      const charges = demo.agentGateCharges.length;
      const before = demo.agentGateLog.length;
      const result = await agent.callTool(page, 'stock_report', { category: 'boots' });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      const echoes = await page.evaluate(() => Promise.all((window as unknown as { __echoes: Promise<number>[] }).__echoes));
      expect(echoes.length).toBe(2);
      for (const status of echoes) expect(status).toBe(403);
      expect(demo.agentGateCharges.slice(charges)).toEqual([expect.objectContaining({ tool: 'stock_report', price: 'USD 0.01', keyid: DEMO_KEYID })]);
      const offered = demo.agentGateLog.slice(before).filter((entry) => entry.offered !== undefined);
      expect(offered).toEqual([expect.objectContaining({ outcome: 'verified', status: 200, offered: 'USD 0.01', keyid: DEMO_KEYID })]);
      expect(agent.receipts().filter((receipt) => receipt.tool === 'stock_report')).toEqual([expect.objectContaining({ verified: true, status: 200 })]);
    } finally {
      await agent.detach();
    }
  });

  test('\'origins\' mode signs a call the page makes without callTool, on the origins it lists only', async ({ page, context, demo }) => {
    const agent = demoAgent(demo, { mode: 'origins', origins: [demo.url] });
    await agent.attach(context);
    try {
      await openDemoPage(page, demo);
      const before = demo.agentGateLog.length;
      const id = freshId('origins');
      // Not callTool: the page's own script calls the tool, as an MCP server the agent does not control would.
      const text = await page.evaluate(async (input) => {
        const modelContext = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: unknown): Promise<string> } }).modelContext;
        const tool = (await modelContext.getTools()).find((candidate) => candidate.name === 'send_message');
        return modelContext.executeTool(tool, input);
      }, { id, message: 'signed by origin' });
      expect(answerOf(JSON.parse(text))).toEqual({ status: 'accepted' });
      expect(demo.agentGateLog.slice(before)).toEqual([expect.objectContaining({ path: '/agent/submit', outcome: 'verified', keyid: DEMO_KEYID, agent: demo.agentKeysUrl })]);
    } finally {
      await agent.detach();
    }
    // Detached: the same call goes out without the agent's signature.
    const before = demo.agentGateLog.length;
    expect(await pageFetch(page, `${demo.url}/agent/submit`, { id: freshId('detached'), message: 'after detach' })).toBe(403);
    expect(demo.agentGateLog.slice(before)).toEqual([expect.objectContaining({ outcome: 'refused', status: 403 })]);
  });
});
