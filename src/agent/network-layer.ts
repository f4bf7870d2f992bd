/**
 * The agent's network layer: the DevTools protocol `Fetch` domain on each attached page. Paused
 * requests to a tool endpoint (or a handoff poll) of a manifest the agent read are signed here,
 * in Node, when an intent allows them (intents.ts); their answers are seen at the response stage,
 * where retries are granted, payments decided (and given back when the site did not charge) and
 * receipts checked. Everything else continues as the page sent it, except that a request to those
 * endpoints never carries a signature or a payment offer the page made: the agent is the only
 * signer on its browser.
 *
 * Order of one paused call, and why: the checks on what the request itself says (its body is
 * canonical JSON equal to an intent's input, it was sent by fetch or XHR from the endpoint's own
 * origin with the manifest's Content-Type), then the one protocol call that reads the frame's
 * origin, then, in one synchronous step, the decision and its claim (intents.ts `claimSend`) and
 * the price taken from the purse, and only then the awaited signing. A claim whose signing fails
 * is given back, with its money.
 */
import { parseDictionary, type InnerList } from 'structured-headers';
import { fromBase64, toBase64 } from '../agentgate/call/base64.js';
import { isRetryable } from '../agentgate/call/call-retry.js';
import { pollComponents, sameComponent, withFloor } from '../agentgate/call/component-floor.js';
import type { Component } from '../agentgate/call/signature-base.js';
import type { Signer } from './signer.js';
import type { NormalizedAgentOptions } from './agent-options.js';
import type { AgentSigners } from './agent-signers.js';
import { headersNotSetByAgent, notSetReason } from './agent-set-headers.js';
import { parseCanonicalJSON } from './canonical-json.js';
import type { CDPSessionLike } from './cdp-target.js';
import {
  HANDOFF_STATUS_TOOL, MAX_POLLS_PER_HANDOFF, claimSend, nextSendOf, releaseSend, type Intent, type IntentBook, type NextSend, type SentRequest,
} from './intents.js';
import type { ReceiptBook } from './receipt-book.js';
import { frameOriginOf, requestInitiatorProblem } from './request-initiator.js';
import { AGENT_ONLY_HEADERS, signOutgoingRequest } from './sign-request.js';
import { HANDOFF_ID_PATTERN, type SiteDirectory } from './site-directory.js';
import { SITE_KEY_MANIFEST_PREFIX, WELL_KNOWN_MANIFEST_PATH, manifestURLOf, type SiteTool } from './site-tools.js';
import { errorMessage } from '../shared/error-message.js';

/** Largest answer body the agent reads at the response stage (a `202`'s handoff id), in bytes. */
const MAX_HANDOFF_ANSWER_BYTES = 64 * 1024;

/** How often `answered` looks whether an intent's sends are answered, in ms. */
const ANSWER_POLL_MS = 20;

/** Most handoff ids remembered for later `agentgate.handoff.status` calls; the oldest is forgotten first. */
const MAX_KNOWN_HANDOFFS = 200;

/** `Fetch.requestPaused` (DevTools protocol), as far as the agent reads it. */
export interface RequestPaused {
  requestId: string;
  request: {
    url: string;
    method: string;
    headers: Record<string, string>;
    postData?: string;
    hasPostData?: boolean;
    postDataEntries?: { bytes?: string }[];
  };
  /** The frame the request belongs to, and its resource type (`Fetch`, `XHR`, `Document`, `Image`, `Ping`, …). */
  frameId?: string;
  resourceType?: string;
  responseErrorReason?: string;
  responseStatusCode?: number;
  responseStatusText?: string;
  responseHeaders?: { name: string; value: string }[];
}

/** One thing the network layer did, for an agent's log (`onEvent`). */
export interface NetworkEvent {
  /**
   * `signed`: a send went out signed; `paid`: a signed send that pays; `unsigned`: a request to an
   * endpoint went out without the agent's signature (`detail` says why); `refused-payment`: the
   * agent answered a `402` itself; `refunded`: the site did not charge a paid send, the money is back.
   */
  type: 'signed' | 'unsigned' | 'refused-payment' | 'paid' | 'refunded';
  url: string;
  tool?: string;
  detail: string;
}

/** What the network layer works with. */
interface NetworkLayerContext {
  options: NormalizedAgentOptions;
  signers: AgentSigners;
  intents: IntentBook;
  sites: SiteDirectory;
  receipts: ReceiptBook;
  onEvent?: (event: NetworkEvent) => void;
}

/** A request the agent signed, until its answer is seen. */
type InFlight =
  | { kind: 'send'; intent: Intent; sent: SentRequest; tool: SiteTool; declared: Component[]; origin: string }
  | { kind: 'poll'; key: string; intent: Intent | undefined };

/**
 * Where a paused request comes from: the attached page it belongs to (its DevTools session, the
 * identity intents are bound to) and the origin of the document of its frame; `'foreign'` for a
 * request of a page that is not the agent's business (another browser context); undefined for
 * one of the agent's browser context that no attached page holds (a new tab not attached yet).
 */
export type RequestSource = { page: CDPSessionLike; origin: string | undefined } | 'foreign' | undefined;

/** Finds the source of a paused request from its `frameId`. */
export type LocateRequest = (frameId: string | undefined) => Promise<RequestSource>;

/** The source of requests paused on a page's own session: that page, and the origin of the frame in its frame tree. */
export function pageLocator(session: CDPSessionLike): LocateRequest {
  return async (frameId) => ({ page: session, origin: await frameOriginOf(session, frameId) });
}

/** The network layer of one agent. */
export interface NetworkLayer {
  /**
   * The `Fetch.requestPaused` listener for `session` (the session that paused it: a page's, or
   * the browser's); `locate` finds the page a request belongs to. Every paused request is
   * continued, fulfilled or failed, never left.
   */
  onPaused(session: CDPSessionLike, event: RequestPaused, locate: LocateRequest): Promise<void>;
  /** The Fetch patterns: manifest requests, and the endpoints and polls of the manifests read (request stage). */
  patterns(): { urlPattern: string; requestStage: 'Request' }[];
  /** Resolves when every receipt check started so far is done. */
  settled(): Promise<void>;
  /**
   * Resolves when no send of `intent` is claimed or in flight any more (its answers seen, so what
   * it paid is known), or after `timeoutMs`, whichever comes first.
   */
  answered(intent: Intent, timeoutMs: number): Promise<void>;
  /**
   * Stops signing, at once: a request paused from now on (or one whose signing is not finished)
   * goes on unsigned. Resolves when every paused request being handled has been passed on.
   */
  close(): Promise<void>;
}

/** A URL as a Fetch `urlPattern` matching it exactly (`*`, `?` and `\` escaped). */
function exactPattern(url: string): string {
  return url.replace(/[\\*?]/g, (character) => `\\${character}`);
}

/** The components an `Accept-Signature` (RFC 9421 §5.1) asks for in its first member; none when unreadable. */
export function acceptSignatureComponents(value: string | null): Component[] {
  if (!value) return [];
  try {
    const first = [...parseDictionary(value).values()][0];
    if (!first || !Array.isArray(first[0])) return [];
    return (first as InnerList)[0].flatMap(([name, params]) => {
      if (typeof name !== 'string') return [];
      const key = params.get('key');
      return [key === undefined ? name : { name, key: String(key) }];
    });
  } catch {
    return [];
  }
}

/** The body bytes of a paused request, or undefined when the protocol did not hand them over. */
function bodyOf(request: RequestPaused['request']): Uint8Array | undefined {
  if (request.postDataEntries && request.postDataEntries.length > 0) {
    const parts = request.postDataEntries.map((entry) => fromBase64(entry.bytes ?? ''));
    const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
    let offset = 0;
    for (const part of parts) {
      bytes.set(part, offset);
      offset += part.byteLength;
    }
    return bytes;
  }
  if (typeof request.postData === 'string') return new TextEncoder().encode(request.postData);
  return request.hasPostData ? undefined : new Uint8Array(0);
}

/** The headers without the ones only the agent may write. */
function withoutAgentHeaders(headers: Record<string, string>): { name: string; value: string }[] {
  return Object.entries(headers).filter(([name]) => !AGENT_ONLY_HEADERS.includes(name.toLowerCase())).map(([name, value]) => ({ name, value }));
}

/** A response header's value (names compared case-insensitively), or null. */
function headerOf(headers: RequestPaused['responseHeaders'], name: string): string | null {
  return headers?.find((entry) => entry.name.toLowerCase() === name)?.value ?? null;
}

/** The handoff id of a `202` answer's JSON body (`{ "handoffId": "…" }`), when it is one path segment of safe characters. */
export function handoffIdOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { handoffId?: unknown } | null;
    const id = body?.handoffId;
    return typeof id === 'string' && HANDOFF_ID_PATTERN.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a paid send's answer shows the site did not charge it: a `402` (payment refused), `429` or `5xx`. */
export function isUncharged(status: number): boolean {
  return status === 402 || status === 429 || status >= 500;
}

/** The components a tool's call is signed over: its manifest's, with the floor. A shared-key tool that names none gets the floor alone. */
const declaredOf = (tool: SiteTool): Component[] => withFloor(tool.binding.auth.components);

/**
 * The network layer: decides, for each paused request, whether the agent signs it.
 * @returns the listener, the patterns and `close`; `onPaused` never rejects (a failure continues
 *   the request unsigned, without the page's signature headers when it is for an endpoint).
 */
export function createNetworkLayer(context: NetworkLayerContext): NetworkLayer {
  const { options, signers, intents, sites, receipts } = context;
  const inFlight = new WeakMap<CDPSessionLike, Map<string, InFlight>>();
  const checks = new Set<Promise<unknown>>();
  /** Paused requests being handled (close() waits for them). */
  const busy = new Set<Promise<void>>();
  /** `origin id` → the handoffs the site handed this agent (a `202` to a call it signed): the components and tool of that call. */
  const handoffs = new Map<string, { components: Component[]; tool: SiteTool }>();
  /** `origin id` of the handoff polls in flight: one at a time per handoff. */
  const polling = new Set<string>();
  let closed = false;
  const emit = (event: NetworkEvent) => context.onEvent?.(event);
  const byOrigins = (origin: string) => options.mode === 'origins' && options.origins.has(origin);

  const flights = (session: CDPSessionLike) => {
    let map = inFlight.get(session);
    if (!map) inFlight.set(session, map = new Map());
    return map;
  };

  const signerFor = async (tool: SiteTool, origin: string): Promise<Signer | undefined> => (
    tool.binding.auth.type === 'web-bot-auth' ? signers.webBotAuth() : signers.sharedKey(origin)
  );

  /** Continues a request the agent does not sign; an endpoint's loses any signature or payment header the page set. */
  const continueUnsigned = async (session: CDPSessionLike, event: RequestPaused, tool: string | undefined, detail: string) => {
    const page = Object.keys(event.request.headers).some((name) => AGENT_ONLY_HEADERS.includes(name.toLowerCase()));
    emit({ type: 'unsigned', url: event.request.url, ...(tool === undefined ? {} : { tool }), detail });
    await session.send('Fetch.continueRequest', page ? { requestId: event.requestId, headers: withoutAgentHeaders(event.request.headers) } : { requestId: event.requestId });
  };

  /** Answers the page's request itself: a `402` with the agent's reason and no price to pay. */
  const refusePayment = async (session: CDPSessionLike, requestId: string, reason: string) => {
    const body = new TextEncoder().encode(JSON.stringify({ message: reason }));
    await session.send('Fetch.fulfillRequest', {
      requestId, responseCode: 402, responsePhrase: 'Payment Required',
      responseHeaders: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Cache-Control', value: 'no-store' }],
      body: toBase64(body),
    });
  };

  /**
   * The send a paused call may be, decided synchronously: the oldest matching intent with a send
   * free, or, in `'origins'` mode on a listed origin, a new implicit intent when no identical call
   * is being signed or in flight (a racing copy is not a new call).
   */
  function decide(page: CDPSessionLike, request: RequestPaused['request'], origin: string, input: unknown, atOrigin: SiteTool | undefined): { intent: Intent; send: NextSend } | undefined {
    const matching = intents.matching(origin, request.method, request.url, input, page);
    for (const candidate of matching) {
      const send = nextSendOf(candidate, declaredOf(candidate.site!), isRetryable(candidate.site!));
      if (send) return { intent: candidate, send };
    }
    if (!atOrigin || !byOrigins(origin)) return undefined;
    if (matching.some((intent) => intent.sends.some((sent) => sent.state === 'claimed' || sent.state === 'open'))) return undefined;
    const intent = intents.open({ origin, tool: atOrigin.name, site: atOrigin, input, session: page, implicit: true });
    const send = nextSendOf(intent, declaredOf(atOrigin), isRetryable(atOrigin));
    return send ? { intent, send } : undefined;
  }

  async function onCall(session: CDPSessionLike, event: RequestPaused, source: { page: CDPSessionLike; origin: string | undefined }, atOrigin: SiteTool | undefined, problem: string | undefined): Promise<void> {
    const { request } = event;
    const origin = new URL(request.url).origin;
    const name = atOrigin?.name;
    const { page } = source;
    if (source.origin !== origin) return continueUnsigned(session, event, name, `it comes from a document of ${source.origin ?? 'no frame of this page'}, not ${origin}`);
    const body = bodyOf(request);
    if (body === undefined) return continueUnsigned(session, event, name, 'the protocol did not hand over its body');
    let input: unknown;
    try {
      input = parseCanonicalJSON(body);
    } catch (error) {
      return continueUnsigned(session, event, name, (error as Error).message);
    }
    const candidates = intents.matching(origin, request.method, request.url, input, page);
    const tool = candidates[0]?.site ?? (byOrigins(origin) && problem === undefined ? atOrigin : undefined);
    if (!tool) return continueUnsigned(session, event, name, problem ?? 'no call of the agent allows this request');
    const shape = requestInitiatorProblem({ ...request, ...(event.resourceType ? { resourceType: event.resourceType } : {}) }, origin, tool.binding.contentType);
    if (shape) return continueUnsigned(session, event, tool.name, shape);

    // From here to the claim nothing is awaited: a request paused meanwhile finds the send taken.
    if (closed) return continueUnsigned(session, event, tool.name, 'the agent is detached');
    const decided = decide(page, request, origin, input, problem === undefined ? atOrigin : undefined);
    if (!decided) return continueUnsigned(session, event, tool.name, 'no call of the agent allows this request now (its send is taken, or no answer granted another)');
    const { intent, send } = decided;
    const site = intent.site!;
    const uncovered = headersNotSetByAgent(send.components);
    if (uncovered.length > 0) return continueUnsigned(session, event, site.name, notSetReason(site.name, uncovered));
    if (send.price && !options.purse.spend(send.price.money)) {
      intent.next = undefined;
      intent.refusal = `not paid: the agent's budget no longer covers ${send.price.text}`;
      emit({ type: 'refused-payment', url: request.url, tool: site.name, detail: intent.refusal });
      return refusePayment(session, event.requestId, intent.refusal);
    }
    const sent = claimSend(intent, send);

    let headers: { name: string; value: string }[];
    try {
      const signer = await signerFor(site, origin);
      if (!signer) throw new Error(`no shared key for ${origin}`);
      const signed = await signOutgoingRequest({ method: request.method, url: request.url, headers: request.headers, body }, signer, {
        components: send.components, ...(send.price ? { price: send.price.text } : {}),
      });
      if (closed) throw new Error('the agent was detached while it signed');
      Object.assign(sent, { components: signed.components, nonce: signed.nonce, contentDigest: signed.contentDigest, state: 'open' });
      headers = signed.headers;
    } catch (error) {
      // The claim goes back, and its money: nothing was sent with it.
      releaseSend(intent, sent, send);
      if (send.price) options.purse.refund(send.price.money);
      return continueUnsigned(session, event, site.name, `not signed: ${errorMessage(error)}`);
    }
    if (send.price) intent.payment = { price: send.price.text, answered: false, charged: null, refunded: false };
    flights(session).set(event.requestId, { kind: 'send', intent, sent, tool: site, declared: declaredOf(site), origin });
    emit({ type: send.price ? 'paid' : 'signed', url: request.url, tool: site.name, detail: send.price ? `${send.kind}, paying ${send.price.text}` : send.kind });
    try {
      await session.send('Fetch.continueRequest', { requestId: event.requestId, headers, interceptResponse: true });
    } catch (error) {
      // Whether it left is unknown: no second send of it is granted, and a price paid stays spent.
      sent.state = 'failed';
      flights(session).delete(event.requestId);
      throw error;
    }
  }

  async function onPoll(session: CDPSessionLike, event: RequestPaused, source: { page: CDPSessionLike; origin: string | undefined }, tool: SiteTool, handoffId: string): Promise<void> {
    const { request } = event;
    const origin = new URL(request.url).origin;
    const { page } = source;
    const key = `${origin} ${handoffId}`;
    const known = handoffs.get(key);
    if (request.hasPostData || !known) return continueUnsigned(session, event, tool.name, `the site handed this agent no handoff ${handoffId}`);
    if (source.origin !== origin) return continueUnsigned(session, event, tool.name, `it comes from a document of ${source.origin ?? 'no frame of this page'}, not ${origin}`);
    const shape = requestInitiatorProblem({ ...request, ...(event.resourceType ? { resourceType: event.resourceType } : {}) }, origin);
    if (shape) return continueUnsigned(session, event, tool.name, shape);

    // Decided and claimed in one step, as a call's send: one poll of a handoff in flight at a time.
    if (closed) return continueUnsigned(session, event, tool.name, 'the agent is detached');
    if (polling.has(key)) return continueUnsigned(session, event, tool.name, `a poll of ${handoffId} is already in flight`);
    const intent = intents.all().find((candidate) => candidate.origin === origin && candidate.session === page
      && (candidate.handoffIds.has(handoffId) || (candidate.tool === HANDOFF_STATUS_TOOL && typeof candidate.input === 'object' && candidate.input !== null
        && (candidate.input as { handoffId?: unknown }).handoffId === handoffId)));
    if (!intent && !byOrigins(origin)) return continueUnsigned(session, event, tool.name, `no open call of the agent on this page handed off ${handoffId}`);
    const count = intent?.polls.get(handoffId) ?? 0;
    if (intent && count >= MAX_POLLS_PER_HANDOFF) return continueUnsigned(session, event, tool.name, `the call already polled ${handoffId} ${MAX_POLLS_PER_HANDOFF} times`);
    polling.add(key);
    intent?.polls.set(handoffId, count + 1);

    let headers: { name: string; value: string }[];
    try {
      const signer = await signerFor(known.tool, origin);
      if (!signer) throw new Error(`no shared key for ${origin}`);
      const signed = await signOutgoingRequest({ method: request.method, url: request.url, headers: request.headers, body: new Uint8Array(0) }, signer, {
        components: pollComponents(known.components),
      });
      if (closed) throw new Error('the agent was detached while it signed');
      headers = signed.headers;
    } catch (error) {
      polling.delete(key);
      intent?.polls.set(handoffId, count);
      return continueUnsigned(session, event, tool.name, `not signed: ${errorMessage(error)}`);
    }
    flights(session).set(event.requestId, { kind: 'poll', key, intent });
    emit({ type: 'signed', url: request.url, tool: tool.name, detail: `handoff poll ${handoffId}` });
    try {
      await session.send('Fetch.continueRequest', { requestId: event.requestId, headers, interceptResponse: true });
    } catch (error) {
      polling.delete(key);
      flights(session).delete(event.requestId);
      throw error;
    }
  }

  /** Passes an answer on as it is. */
  const continueAnswer = async (session: CDPSessionLike, event: RequestPaused) => {
    if (event.responseErrorReason) {
      await session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: event.responseErrorReason });
      return;
    }
    await session.send('Fetch.continueResponse', { requestId: event.requestId });
  };

  async function onAnswer(session: CDPSessionLike, event: RequestPaused, flight: InFlight & { kind: 'send' }): Promise<void> {
    const { intent, sent, tool, declared, origin } = flight;
    if (event.responseErrorReason) {
      sent.state = 'failed';
      return continueAnswer(session, event);
    }
    sent.state = 'answered';
    const status = event.responseStatusCode ?? 0;
    const headers = event.responseHeaders;
    if (sent.price && intent.payment) {
      intent.payment.answered = true;
      intent.payment.charged = headerOf(headers, 'crawler-charged');
      if (isUncharged(status)) {
        // The site took nothing: the money goes back to the budget (a paid send is never resent).
        options.purse.refund(sent.price.money);
        intent.payment.refunded = true;
        emit({ type: 'refunded', url: tool.binding.target, tool: tool.name, detail: `the site answered ${status} to the paid send: ${sent.price.text} back in the budget` });
      }
    }
    if (status === 403 && headerOf(headers, 'accept-signature') !== null && !intent.granted.has('resend-403')) {
      // Only what the agent can vouch for: derived components and the digest it computes itself.
      const asked = acceptSignatureComponents(headerOf(headers, 'accept-signature'))
        .filter((component) => {
          const name = typeof component === 'string' ? component : component.name;
          return typeof component === 'string' && (name.startsWith('@') || name === 'content-digest');
        });
      intent.granted.add('resend-403');
      intent.next = { kind: 'resend-403', components: [...declared, ...asked.filter((component) => !declared.some((known) => sameComponent(known, component)))] };
    } else if (status === 429 && !intent.granted.has('retry-429')) {
      intent.granted.add('retry-429');
      intent.next = { kind: 'retry-429', components: declared };
    } else if (status === 402 && sent.kind !== 'paid' && headerOf(headers, 'crawler-error') === null && headerOf(headers, 'crawler-price') !== null) {
      const priceText = headerOf(headers, 'crawler-price')!.trim();
      const decision = intent.granted.has('paid')
        ? { reason: 'not paid: the agent already paid once for this call' }
        : options.purse.decide(priceText);
      if (!decision.pay) {
        intent.refusal = decision.reason;
        emit({ type: 'refused-payment', url: tool.binding.target, tool: tool.name, detail: decision.reason });
        return refusePayment(session, event.requestId, decision.reason);
      }
      intent.granted.add('paid');
      intent.next = { kind: 'paid', components: declared, price: { money: decision.pay, text: priceText } };
    }
    if (status >= 200 && status < 300) {
      const { receipts: declaredReceipts } = tool.binding;
      if (declaredReceipts) {
        const check = receipts.check(headerOf(headers, declaredReceipts.header.toLowerCase()), {
          tool: tool.name, origin, nonce: sent.nonce, contentDigest: sent.contentDigest, status,
        }, declaredReceipts);
        checks.add(check);
        void check.finally(() => checks.delete(check));
      }
      if (status === 202 && tool.binding.handoffPoll) return passOnWithHandoff(session, event, flight);
    }
    return continueAnswer(session, event);
  }

  /** Reads a `202`'s handoff id (so its polls may be signed), then passes the answer on unchanged. */
  async function passOnWithHandoff(session: CDPSessionLike, event: RequestPaused, flight: InFlight & { kind: 'send' }): Promise<void> {
    const { body, base64Encoded } = await session.send('Fetch.getResponseBody', { requestId: event.requestId }) as { body: string; base64Encoded: boolean };
    const bytes = base64Encoded ? fromBase64(body) : new TextEncoder().encode(body);
    if (bytes.byteLength <= MAX_HANDOFF_ANSWER_BYTES) {
      const id = handoffIdOf(new TextDecoder().decode(bytes));
      if (id !== undefined) {
        flight.intent.handoffIds.add(id);
        handoffs.delete(`${flight.origin} ${id}`);
        handoffs.set(`${flight.origin} ${id}`, { components: flight.sent.components, tool: flight.tool });
        while (handoffs.size > MAX_KNOWN_HANDOFFS) handoffs.delete(handoffs.keys().next().value!);
      }
    }
    // The body was read decoded: the answer goes on as those bytes, without a coding or length that no longer fits.
    const responseHeaders = (event.responseHeaders ?? []).filter(({ name }) => !['content-encoding', 'content-length'].includes(name.toLowerCase()));
    await session.send('Fetch.fulfillRequest', {
      requestId: event.requestId, responseCode: event.responseStatusCode, responseHeaders, body: toBase64(bytes),
      ...(event.responseStatusText ? { responsePhrase: event.responseStatusText } : {}),
    });
  }

  /** Notes which manifest of its own origin a page asked for (the agent reads it only for a call of its own there). */
  async function noteManifest(event: RequestPaused, locate: LocateRequest): Promise<void> {
    const source = await locate(event.frameId);
    const frame = typeof source === 'object' ? source.origin : undefined;
    sites.note(event.request.url, frame);
    const manifest = manifestURLOf(event.request.url);
    // 'origins' mode reads the manifests of the origins it was given, those pages named included.
    if (!closed && manifest && frame === manifest.origin && byOrigins(manifest.origin)) await sites.refresh(manifest.origin);
  }

  async function handle(session: CDPSessionLike, event: RequestPaused, locate: LocateRequest): Promise<void> {
    const atResponse = event.responseStatusCode !== undefined || event.responseErrorReason !== undefined;
    try {
      if (atResponse) {
        const flight = flights(session).get(event.requestId);
        flights(session).delete(event.requestId);
        if (flight?.kind === 'send') await onAnswer(session, event, flight);
        else {
          if (flight?.kind === 'poll') polling.delete(flight.key);
          await continueAnswer(session, event);
        }
        return;
      }
      if (manifestURLOf(event.request.url)) {
        await session.send('Fetch.continueRequest', { requestId: event.requestId });
        if (!closed) void noteManifest(event, locate).catch(() => undefined);
        return;
      }
      const call = sites.at(event.request.method, event.request.url);
      const poll = call ? undefined : sites.poll(event.request.method, event.request.url);
      if (!call && !poll) {
        // Another method to an endpoint's URL is not a call the agent signs, and carries no signature or offer of the page's either.
        if (sites.targets().calls.includes(event.request.url)) return await continueUnsigned(session, event, undefined, `${event.request.method} is not the endpoint's method`);
        await session.send('Fetch.continueRequest', { requestId: event.requestId });
        return;
      }
      const source = await locate(event.frameId);
      // Another browser context's request is another agent's business: not even its headers are touched.
      if (source === 'foreign') {
        await session.send('Fetch.continueRequest', { requestId: event.requestId });
        return;
      }
      const name = call?.tool?.name ?? poll?.tool.name;
      if (source === undefined) return await continueUnsigned(session, event, name, 'it comes from a page the agent is not attached to (yet)');
      if (call) return await onCall(session, event, source, call.tool, call.problem);
      return await onPoll(session, event, source, poll!.tool, poll!.handoffId);
    } catch (error) {
      // Never leave a request paused: what could not be signed goes out unsigned, and the site refuses it.
      try {
        if (atResponse) await continueAnswer(session, event);
        else await session.send('Fetch.continueRequest', { requestId: event.requestId, headers: withoutAgentHeaders(event.request.headers) });
      } catch {
        // The page or session is gone: nothing is paused any more.
      }
      emit({ type: 'unsigned', url: event.request.url, detail: `the agent could not handle it (${errorMessage(error)})` });
    }
  }

  return {
    async onPaused(session, event, locate) {
      const job = handle(session, event, locate);
      busy.add(job);
      try {
        await job;
      } finally {
        busy.delete(job);
      }
    },
    patterns() {
      const { calls, polls } = sites.targets();
      return [
        { urlPattern: `*${WELL_KNOWN_MANIFEST_PATH}*`, requestStage: 'Request' as const },
        { urlPattern: `*${SITE_KEY_MANIFEST_PREFIX}*`, requestStage: 'Request' as const },
        ...calls.map((url) => ({ urlPattern: exactPattern(url), requestStage: 'Request' as const })),
        ...polls.map((template) => ({ urlPattern: template.split('{id}').map(exactPattern).join('*'), requestStage: 'Request' as const })),
      ];
    },
    async settled() {
      while (checks.size > 0) await Promise.allSettled([...checks]);
    },
    async answered(intent, timeoutMs) {
      const end = Date.now() + timeoutMs;
      const pending = () => intent.sends.some((sent) => sent.state === 'claimed' || sent.state === 'open');
      while (pending() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, ANSWER_POLL_MS));
    },
    async close() {
      closed = true;
      while (busy.size > 0) await Promise.allSettled([...busy]);
    },
  };
}
