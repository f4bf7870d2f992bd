/**
 * `createAgent`: the agent's side of AgentGate for agents that drive Chromium with Playwright or
 * Puppeteer. It signs the page's AgentGate calls in the agent's network layer (DevTools `Fetch`),
 * bound to the calls the agent started, pays within the agent's own cap and budget, and checks
 * and keeps the receipts; no key, nonce, signature base or secret ever enters the page.
 */
import { normaliseAgentOptions, type AgentOptions } from './agent-options.js';
import { headersNotSetByAgent, notSetReason } from './agent-set-headers.js';
import { createAgentSigners } from './agent-signers.js';
import { removeListener, targetKind, type AgentTarget, type AttachedSession, type BrowserContextLike, type CDPSessionLike, type PageLike, type PuppeteerPageLike, type RequestPausedParams } from './cdp-target.js';
import { withFloor } from '../agentgate/call/component-floor.js';
import { HANDOFF_STATUS_TOOL, createIntentBook, type Intent } from './intents.js';
import { createNetworkLayer, pageLocator, type LocateRequest, type NetworkEvent, type RequestPaused } from './network-layer.js';
import { browserContextOf, browserLocator } from './browser-locator.js';
import { errorResult, runPageTool, type CallToolResult } from './page-tool.js';
import { withAgentsPayment } from './paid-answer.js';
import { createReceiptBook, type AgentReceipt } from './receipt-book.js';
import { mainFrameURL } from './request-initiator.js';
import { createSiteDirectory } from './site-directory.js';

/**
 * Longest `callTool` waits, once the page's tool has answered, for the answers to this call's
 * sends still in flight (a copy page script raced in may carry one), in ms.
 */
const SEND_ANSWER_WAIT_MS = 5_000;

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
   * is enabled on every page it found. After `detach()` it attaches nothing (and resolves): a
   * detached agent stays detached.
   * @throws TypeError for another kind of target; the DevTools error when a session cannot be made
   */
  attach(target: AgentTarget): Promise<void>;
  /**
   * Calls the page's tool `name` with `input` through `document.modelContext` and resolves with
   * its MCP CallToolResult. While it runs, the requests of this call (and only those: the
   * endpoint the agent's own reading of the site's manifest gives the tool, a body that is
   * canonical JSON equal to `input`, sent by the page's own origin, and the retries and handoff
   * polls its answers allow, each signed once) are signed by the agent. What the agent paid is in
   * the answer as the agent saw it (`payment: { price, charged }`, or `refunded: true` when the
   * site did not charge), never as the page says; when the agent refused to pay, the result is
   * `isError` with the agent's own one-line reason (price and limit).
   * @param page a page the agent is attached to (Playwright or Puppeteer Page, or its CDP session)
   * @returns an `isError` result, without running anything, when the agent is detached, is not
   *   attached to `page`, the page is not at an http(s) address, the site's manifests declare the
   *   tool at two endpoints, or its manifest covers a header the agent does not set itself
   * @throws TypeError when `name` is not a string; the signal's reason when `signal` aborts; the
   *   page's error when the evaluation throws (e.g. it navigated away)
   */
  callTool(page: unknown, name: string, input: unknown, options?: CallToolOptions): Promise<CallToolResult>;
  /** The receipts of the agent's signed calls, checked by the agent (verified or with a reason), oldest first. */
  receipts(): AgentReceipt[];
  /**
   * Detaches: from the moment it is called nothing more is signed (a request being signed goes
   * on unsigned); it stops following new pages, waits for the sessions still being made, disables
   * `Fetch` on every session and detaches those it made. Resolves only when no session of the
   * agent can sign any more and nothing stays paused.
   */
  detach(): Promise<void>;
}

/** Options beyond AgentOptions: a listener for what the network layer does (for logs and demos). */
export interface AgentHooks {
  onEvent?: (event: NetworkEvent) => void;
}

/** An attached session with what undoes it; `intercepts` when its `Fetch` pauses requests for the agent. */
interface Attachment extends AttachedSession {
  intercepts: boolean;
  undo(): Promise<void>;
}

/**
 * A Playwright context the browser's session intercepts for (browser-locator.ts): its browser
 * context id once a page told it, and whether the interception is enabled (tabs opened from then
 * on are intercepted there; those already open, on their own sessions).
 */
interface ContextGuard {
  contextId: string | undefined;
  enabled: boolean;
}

/** The `page` of the browser's own session among the attachments (it is no page). */
const BROWSER = Symbol('browser');

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
  const attached: Attachment[] = [];
  /** Sessions being made for pages, by page object. */
  const making = new Map<unknown, Promise<CDPSessionLike | undefined>>();
  /** Sessions being made or added (detach waits for them). */
  const pending = new Set<Promise<unknown>>();
  /** What stops following a context's new pages. */
  const unfollow: (() => void)[] = [];
  let detached = false;

  const enable = (session: CDPSessionLike) => session.send('Fetch.enable', { patterns: network.patterns(), handleAuthRequests: false });
  const sites = createSiteDirectory(async () => {
    if (detached) return;
    await Promise.all(attached.filter((entry) => entry.intercepts).map(({ session }) => enable(session).catch(() => undefined)));
  });
  const network = createNetworkLayer({
    options: normalized, signers: createAgentSigners(normalized), intents, sites, receipts, ...(hooks.onEvent ? { onEvent: hooks.onEvent } : {}),
  });

  const track = <T>(promise: Promise<T>): Promise<T> => {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise)).catch(() => undefined);
    return promise;
  };

  /** The attached pages' sessions (not the browser's), and whether each intercepts itself. */
  const pageSessions = () => attached.filter((entry) => entry.page !== BROWSER).map(({ session, intercepts }) => ({ session, intercepts }));

  /**
   * Adds a session: with `locate`, its `Fetch` pauses requests and the network layer handles them;
   * without, it is a page the browser's session intercepts for (a guarded context's page), used
   * for its frame tree and nothing else.
   */
  async function add(session: CDPSessionLike, page: unknown, own: boolean, locate: LocateRequest | undefined): Promise<CDPSessionLike | undefined> {
    if (detached) {
      if (own) await session.detach?.().catch(() => undefined);
      return undefined;
    }
    const listener = (event: RequestPausedParams) => {
      void network.onPaused(session, event as unknown as RequestPaused, locate!);
    };
    if (locate) session.on('Fetch.requestPaused', listener);
    const entry: Attachment = {
      session, page, intercepts: locate !== undefined,
      async undo() {
        if (locate) {
          removeListener(session, 'Fetch.requestPaused', listener);
          await session.send('Fetch.disable').catch(() => undefined);
        }
        if (own) await session.detach?.().catch(() => undefined);
      },
    };
    attached.push(entry);
    if (normalized.mode === 'origins') await Promise.all([...normalized.origins].map((origin) => sites.refresh(origin)));
    // Enabled even when detach() began meanwhile: detach() undoes every entry it finds after the sessions being made are done.
    if (locate) await enable(session);
    return session;
  }

  /**
   * The session of a page, made once. `guard`: the context's browser session intercepts the
   * page's requests (a tab opened after it), and its own session tells which frames are the
   * page's; without, the page intercepts on its own session.
   */
  const sessionOfPage = (page: unknown, make: () => Promise<CDPSessionLike>, guard?: ContextGuard): Promise<CDPSessionLike | undefined> => {
    let made = making.get(page);
    if (!made) {
      const guarded = guard?.enabled === true;
      made = track(make().then(async (session) => {
        if (guard) guard.contextId ??= await browserContextOf(session);
        return add(session, page, true, guarded ? undefined : pageLocator(session));
      }).catch(() => undefined));
      making.set(page, made);
    }
    return made;
  };

  /**
   * Intercepts for a Playwright context from the browser's own session (browser-locator.ts), so
   * that a new tab is intercepted from its first request; undefined where Playwright offers no
   * browser session (a persistent context), whose pages then intercept on their own sessions.
   */
  async function guardContext(context: BrowserContextLike): Promise<ContextGuard | undefined> {
    const browser = context.browser?.();
    if (!browser || typeof browser.newBrowserCDPSession !== 'function') return undefined;
    const session = await browser.newBrowserCDPSession();
    const guard: ContextGuard = { contextId: undefined, enabled: false };
    await track(add(session, BROWSER, true, browserLocator(session, pageSessions, (id) => id === guard.contextId)));
    return guard;
  }

  /** The browser sessions guarding Puppeteer pages' browsers, by Browser object, and the agent's contexts there. */
  const browserGuards = new Map<unknown, Promise<unknown>>();
  const puppeteerContexts = new Set<string>();

  /**
   * Intercepts for the browser of an attached Puppeteer page from the browser target's own session
   * (browser-locator.ts), once per browser, so that a tab the page opens (a popup, `window.open`)
   * is intercepted from its first request: until the agent attaches it, its requests to the
   * agent's endpoints go out without the page's signature and payment headers. The attached
   * pages intercept on their own sessions, as before. Nothing where the page offers no browser
   * session (`page.browser().target().createCDPSession()`, Puppeteer 25).
   */
  function guardPuppeteerBrowser(page: PuppeteerPageLike): Promise<unknown> {
    const browser = page.browser?.();
    const target = browser?.target?.();
    if (!browser || !target || typeof target.createCDPSession !== 'function') return Promise.resolve();
    let guarding = browserGuards.get(browser);
    if (!guarding) {
      guarding = track(target.createCDPSession().then((session) => add(session, BROWSER, true, browserLocator(session, pageSessions, (id) => puppeteerContexts.has(id))))).catch(() => undefined);
      browserGuards.set(browser, guarding);
    }
    return guarding;
  }

  /** The session of `page`, when the agent is attached to it. */
  async function sessionFor(page: unknown): Promise<CDPSessionLike | undefined> {
    const direct = attached.find((entry) => entry.page !== BROWSER && (entry.session === page || entry.page === page));
    if (direct) return direct.session;
    const pending = making.get(page);
    return pending ? await pending : undefined;
  }

  /** The page's address as the browser knows it (Page.getFrameTree of the agent's own session). */
  async function addressOf(session: CDPSessionLike, page: unknown): Promise<string> {
    try {
      return await mainFrameURL(session);
    } catch {
      return typeof (page as PageLike).url === 'function' ? (page as PageLike).url() : '';
    }
  }

  /** Opens the call's intent, or the one-line reason the agent signs nothing for it. */
  function openIntent(origin: string, name: string, input: unknown, session: CDPSessionLike): Intent | string | undefined {
    if (name === HANDOFF_STATUS_TOOL) return intents.open({ origin, tool: name, input, session });
    const resolution = sites.resolve(origin, name);
    if (!resolution) return undefined; // not an AgentGate tool of this site: nothing to sign
    if (!resolution.tool) return `${name} is not signed: ${resolution.problem}`;
    const uncovered = headersNotSetByAgent(withFloor(resolution.tool.binding.auth.components));
    if (uncovered.length > 0) return notSetReason(name, uncovered);
    return intents.open({ origin, tool: name, site: resolution.tool, input, session });
  }

  return {
    async attach(target) {
      const kind = targetKind(target);
      if (detached) return;
      if (kind.kind === 'context') {
        const { context } = kind;
        const guard = await guardContext(context).catch(() => undefined);
        // The tabs open now were loaded before the browser's interception: each intercepts on its own session.
        const open = context.pages().map((page) => sessionOfPage(page, () => context.newCDPSession(page), guard));
        if (guard) guard.enabled = true;
        const onPage = (page: unknown) => {
          if (!detached) void sessionOfPage(page, () => context.newCDPSession(page), guard);
        };
        context.on('page', onPage);
        unfollow.push(() => {
          context.off?.('page', onPage);
        });
        await Promise.all(open);
      } else if (kind.kind === 'playwright-page') {
        const { page } = kind;
        await sessionOfPage(page, () => page.context().newCDPSession(page as never));
      } else if (kind.kind === 'puppeteer-page') {
        const { page } = kind;
        const session = await sessionOfPage(page, () => page.createCDPSession());
        const context = session ? await browserContextOf(session) : undefined;
        if (context !== undefined) puppeteerContexts.add(context);
        await guardPuppeteerBrowser(page);
      } else {
        await track(add(kind.session, undefined, false, pageLocator(kind.session)));
      }
    },

    async callTool(page, name, input, { signal } = {}) {
      signal?.throwIfAborted();
      if (typeof name !== 'string' || name === '') throw new TypeError('agent.callTool: name must be a tool name');
      if (detached) return errorResult(`${name}: the agent is detached (agent.detach()); it calls and signs nothing more`);
      const session = await sessionFor(page);
      if (!session) return errorResult(`${name}: the agent is not attached to this page; attach it (agent.attach(context or page)) before calling its tools`);
      const address = await addressOf(session, page);
      let origin: string | undefined;
      try {
        const url = new URL(address);
        origin = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
      } catch {
        origin = undefined;
      }
      if (origin === undefined) return errorResult(`${name}: the page is at ${JSON.stringify(address.slice(0, 100))}, not an http(s) address; the agent calls tools only on web pages`);
      await sites.refresh(origin);
      const opened = openIntent(origin, name, input, session);
      if (typeof opened === 'string') return errorResult(opened);
      let onAbort: (() => void) | undefined;
      try {
        const aborted = new Promise<never>((_, reject) => {
          onAbort = () => reject(signal!.reason);
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        const target = page as PageLike | CDPSessionLike;
        const result = await Promise.race([runPageTool(target, name, input), aborted]);
        // A racing copy of the page's may still carry this call's send: what it paid is known once its answer is seen.
        if (opened) await Promise.race([network.answered(opened, SEND_ANSWER_WAIT_MS), aborted]);
        await network.settled();
        return opened ? withAgentsPayment(result, opened) : result;
      } finally {
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        if (opened) intents.close(opened);
      }
    },

    receipts: () => receipts.list(),

    async detach() {
      detached = true;
      for (const stop of unfollow.splice(0)) stop();
      const stopped = network.close();
      // Sessions still being made are undone once made: loop until none is left.
      while (pending.size > 0 || attached.length > 0) {
        await Promise.allSettled([...pending]);
        for (const entry of attached.splice(0).reverse()) await entry.undo();
      }
      await stopped;
      making.clear();
      browserGuards.clear();
    },
  };
}
