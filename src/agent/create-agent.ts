/**
 * `createAgent`: the agent's side of AgentGate for agents that drive Chromium with Playwright or
 * Puppeteer. It signs the page's AgentGate calls in the agent's network layer (DevTools `Fetch`),
 * bound to the calls the agent started, pays within the agent's own cap and budget, and checks
 * and keeps the receipts; no key, nonce, signature base or secret ever enters the page.
 */
import { normaliseAgentOptions, type AgentOptions } from './agent-options.js';
import { createAgentSigners } from './agent-signers.js';
import { removeListener, targetKind, type AgentTarget, type AttachedSession, type CDPSessionLike, type PageLike, type RequestPausedParams } from './cdp-target.js';
import { createIntentBook } from './intents.js';
import { createNetworkLayer, type NetworkEvent, type RequestPaused } from './network-layer.js';
import { errorResult, pageOrigin, runPageTool, type CallToolResult } from './page-tool.js';
import { createReceiptBook, type AgentReceipt } from './receipt-book.js';
import { createSiteDirectory } from './site-directory.js';

/** Options of `callTool`. */
export interface CallToolOptions {
  /** Aborts the call: `callTool` rejects with the signal's reason and nothing more of it is signed. */
  signal?: AbortSignal;
}

/** An agent: attach it to the browser it drives, call the pages' tools, read its receipts. */
export interface Agent {
  /**
   * Attaches the agent's network layer: a Playwright `BrowserContext` (every page, now and
   * later), a Playwright or Puppeteer `Page`, or a CDP session of a page. Resolves once `Fetch`
   * is enabled on every page it found.
   * @throws TypeError for another kind of target; the DevTools error when a session cannot be made
   */
  attach(target: AgentTarget): Promise<void>;
  /**
   * Calls the page's tool `name` with `input` through `document.modelContext` and resolves with
   * its MCP CallToolResult. While it runs, the requests of this call (and only those: same tool
   * endpoint, a JSON body equal to `input`, the retries and handoff polls its answers allow) are
   * signed by the agent. When the agent refused to pay the call's price, the result is `isError`
   * with the agent's own one-line reason (price and limit).
   * @param page a page the agent is attached to (Playwright or Puppeteer Page, or its CDP session)
   * @throws the signal's reason when `signal` aborts; the page's error when the evaluation throws
   */
  callTool(page: unknown, name: string, input: unknown, options?: CallToolOptions): Promise<CallToolResult>;
  /** The receipts of the agent's signed calls, checked by the agent (verified or with a reason), oldest first. */
  receipts(): AgentReceipt[];
  /** Disables `Fetch` on every session, detaches the sessions it made, and stops following new pages. Nothing stays paused. */
  detach(): Promise<void>;
}

/** Options beyond AgentOptions: a listener for what the network layer does (for logs and demos). */
export interface AgentHooks {
  onEvent?: (event: NetworkEvent) => void;
}

/**
 * Creates an agent.
 * @param options the agent's key, key-set URL, shared keys, cap, budget and mode (agent-options.ts)
 * @throws TypeError naming the option when an option is invalid (nothing is attached then)
 * @example
 * const agent = createAgent({ privateJwk, signatureAgent: 'https://agent.example/.well-known/http-message-signatures-directory', maxPrice: '0.05 USD', budget: '1.00 USD' });
 * await agent.attach(browserContext);
 * await page.goto('https://shop.example/');
 * const result = await agent.callTool(page, 'send_message', { id: 'order-7f3a-0001', message: 'hello' });
 * console.log(result, agent.receipts());
 * await agent.detach();
 */
export function createAgent(options: AgentOptions, hooks: AgentHooks = {}): Agent {
  const normalized = normaliseAgentOptions(options);
  const intents = createIntentBook();
  const receipts = createReceiptBook();
  const attached: AttachedSession[] = [];
  const detachers: (() => Promise<void> | void)[] = [];
  /** Sessions being made for pages, by page object. */
  const making = new Map<unknown, Promise<CDPSessionLike | undefined>>();

  const enable = (session: CDPSessionLike) => session.send('Fetch.enable', { patterns: network.patterns(), handleAuthRequests: false });
  const sites = createSiteDirectory(async () => {
    await Promise.all(attached.map(({ session }) => enable(session).catch(() => undefined)));
  });
  const network = createNetworkLayer({
    options: normalized, signers: createAgentSigners(normalized), intents, sites, receipts, ...(hooks.onEvent ? { onEvent: hooks.onEvent } : {}),
  });

  async function add(session: CDPSessionLike, page: unknown, own: boolean): Promise<CDPSessionLike> {
    const listener = (event: RequestPausedParams) => {
      void network.onPaused(session, event as unknown as RequestPaused);
    };
    session.on('Fetch.requestPaused', listener);
    const entry = { session, page };
    attached.push(entry);
    detachers.push(async () => {
      removeListener(session, 'Fetch.requestPaused', listener);
      await session.send('Fetch.disable').catch(() => undefined);
      if (own) await session.detach?.().catch(() => undefined);
      attached.splice(attached.indexOf(entry), 1);
    });
    if (normalized.mode === 'origins') await Promise.all([...normalized.origins].map((origin) => sites.refresh(origin)));
    await enable(session);
    return session;
  }

  const sessionOfPage = (page: unknown, make: () => Promise<CDPSessionLike>): Promise<CDPSessionLike | undefined> => {
    let made = making.get(page);
    if (!made) {
      made = make().then((session) => add(session, page, true)).catch(() => undefined);
      making.set(page, made);
    }
    return made;
  };

  /** The session of `page`, when attached; undefined binds the call to no page in particular. */
  async function sessionFor(page: unknown): Promise<object | undefined> {
    const direct = attached.find((entry) => entry.session === page || entry.page === page);
    if (direct) return direct.session;
    const pending = making.get(page);
    return pending ? await pending : undefined;
  }

  return {
    async attach(target) {
      const kind = targetKind(target);
      if (kind.kind === 'context') {
        const { context } = kind;
        const onPage = (page: unknown) => {
          void sessionOfPage(page, () => context.newCDPSession(page));
        };
        context.on('page', onPage);
        detachers.push(() => {
          context.off?.('page', onPage);
        });
        await Promise.all(context.pages().map((page) => sessionOfPage(page, () => context.newCDPSession(page))));
      } else if (kind.kind === 'playwright-page') {
        const { page } = kind;
        await sessionOfPage(page, () => page.context().newCDPSession(page as never));
      } else if (kind.kind === 'puppeteer-page') {
        const { page } = kind;
        await sessionOfPage(page, () => page.createCDPSession());
      } else {
        await add(kind.session, undefined, false);
      }
    },

    async callTool(page, name, input, { signal } = {}) {
      signal?.throwIfAborted();
      if (typeof name !== 'string' || name === '') throw new TypeError('agent.callTool: name must be a tool name');
      const target = page as PageLike | CDPSessionLike;
      const origin = await pageOrigin(target);
      const session = await sessionFor(page);
      await sites.refresh(origin);
      const intent = intents.open({ origin, tool: name, input, ...(session ? { session } : {}) });
      let onAbort: (() => void) | undefined;
      try {
        const aborted = new Promise<never>((_, reject) => {
          onAbort = () => reject(signal!.reason);
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        const result = await Promise.race([runPageTool(target, name, input), aborted]);
        await network.settled();
        // The agent's own reason, not whatever the page made of its 402.
        if (intent.refusal !== undefined && result.isError) return errorResult(intent.refusal);
        return result;
      } finally {
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        intents.close(intent);
      }
    },

    receipts: () => receipts.list(),

    async detach() {
      const undo = detachers.splice(0).reverse();
      for (const step of undo) await step();
      making.clear();
    },
  };
}
