/**
 * The agent's network layer: the DevTools protocol `Fetch` domain on each attached page. Paused
 * requests to a tool endpoint (or a handoff poll) of a manifest the agent read are signed here,
 * in Node, when an intent allows them (intents.ts); their answers are seen at the response stage,
 * where retries are granted, payments decided and receipts checked. Everything else continues as
 * the page sent it, except that a request to those endpoints never carries a signature or a
 * payment offer the page made: the agent is the only signer on its browser.
 */
import { parseDictionary, type InnerList } from 'structured-headers';
import { fromBase64, toBase64 } from '../agentgate/call/base64.js';
import { isRetryable } from '../agentgate/call/call-retry.js';
import { pollComponents, sameComponent, withFloor } from '../agentgate/call/component-floor.js';
import type { Component } from '../agentgate/call/signature-base.js';
import type { Signer } from './signer.js';
import type { NormalizedAgentOptions } from './agent-options.js';
import type { AgentSigners } from './agent-signers.js';
import type { CDPSessionLike } from './cdp-target.js';
import { HANDOFF_STATUS_TOOL, nextSendOf, type Intent, type IntentBook, type NextSend, type SentRequest } from './intents.js';
import type { ReceiptBook } from './receipt-book.js';
import { AGENT_ONLY_HEADERS, signOutgoingRequest } from './sign-request.js';
import { HANDOFF_ID_PATTERN, type SiteDirectory } from './site-directory.js';
import { SITE_KEY_MANIFEST_PREFIX, WELL_KNOWN_MANIFEST_PATH, type SiteTool } from './site-tools.js';
import { errorMessage } from '../shared/error-message.js';

/** Largest answer body the agent reads at the response stage (a `202`'s handoff id), in bytes. */
const MAX_HANDOFF_ANSWER_BYTES = 64 * 1024;

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
  responseErrorReason?: string;
  responseStatusCode?: number;
  responseStatusText?: string;
  responseHeaders?: { name: string; value: string }[];
}

/** One thing the network layer did, for an agent's log (`onEvent`). */
export interface NetworkEvent {
  /** `signed`: a send went out signed; `unsigned`: a request to an endpoint went out without the agent's signature; `refused-payment`: the agent answered a `402` itself. */
  type: 'signed' | 'unsigned' | 'refused-payment' | 'paid';
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
interface InFlight {
  intent: Intent;
  sent: SentRequest;
  tool: SiteTool;
  declared: Component[];
  origin: string;
}

/** The network layer of one agent. */
interface NetworkLayer {
  /** The `Fetch.requestPaused` listener for `session`; every paused request is continued, fulfilled or failed, never left. */
  onPaused(session: CDPSessionLike, event: RequestPaused): Promise<void>;
  /** The Fetch patterns: manifest requests, and the endpoints and polls of the manifests read (request stage). */
  patterns(): { urlPattern: string; requestStage: 'Request' }[];
  /** Resolves when every receipt check started so far is done. */
  settled(): Promise<void>;
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

/**
 * The network layer: decides, for each paused request, whether the agent signs it.
 * @returns the listener and the patterns; `onPaused` never rejects (a failure continues the
 *   request unsigned, without the page's signature headers when it is for an endpoint).
 */
export function createNetworkLayer(context: NetworkLayerContext): NetworkLayer {
  const { options, signers, intents, sites, receipts } = context;
  const inFlight = new WeakMap<CDPSessionLike, Map<string, InFlight>>();
  const checks = new Set<Promise<unknown>>();
  /** `origin id` → the components and tool of the call whose `202` returned the handoff id. */
  const handoffs = new Map<string, { components: Component[]; tool: SiteTool }>();
  const emit = (event: NetworkEvent) => context.onEvent?.(event);

  const flights = (session: CDPSessionLike) => {
    let map = inFlight.get(session);
    if (!map) inFlight.set(session, map = new Map());
    return map;
  };

  // A shared-key tool that names no components gets the floor alone (withFloor of nothing).
  const declaredOf = (tool: SiteTool): Component[] => withFloor(tool.binding.auth.components);

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

  async function onCall(session: CDPSessionLike, event: RequestPaused, tool: SiteTool): Promise<void> {
    const { request } = event;
    const origin = new URL(request.url).origin;
    const body = bodyOf(request);
    let input: unknown;
    try {
      input = body === undefined ? undefined : JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    } catch {
      input = undefined;
    }
    if (body === undefined || input === undefined) return continueUnsigned(session, event, tool.name, 'the body is not JSON the agent can read');
    const declared = declaredOf(tool);
    const retryable = isRetryable(tool);
    let intent: Intent | undefined;
    let send: NextSend | undefined;
    for (const candidate of intents.matching(origin, tool.name, input, session)) {
      send = nextSendOf(candidate, declared, retryable);
      if (send) {
        intent = candidate;
        break;
      }
    }
    if (!intent && options.mode === 'origins' && options.origins.has(origin)) {
      intent = intents.open({ origin, tool: tool.name, input, session, implicit: true });
      send = nextSendOf(intent, declared, retryable);
    }
    if (!intent || !send) return continueUnsigned(session, event, tool.name, 'no call of the agent allows this request');
    const signer = await signerFor(tool, origin);
    if (!signer) return continueUnsigned(session, event, tool.name, `no shared key for ${origin}`);
    if (send.price && !options.purse.spend(send.price.money)) {
      intent.next = undefined;
      intent.refusal = `not paid: the agent's budget no longer covers ${send.price.text}`;
      emit({ type: 'refused-payment', url: request.url, tool: tool.name, detail: intent.refusal });
      return refusePayment(session, event.requestId, intent.refusal);
    }
    const signed = await signOutgoingRequest({ method: request.method, url: request.url, headers: request.headers, body }, signer, {
      components: send.components, contentType: tool.binding.contentType, ...(send.price ? { price: send.price.text } : {}),
    });
    const sent: SentRequest = { kind: send.kind, components: signed.components, nonce: signed.nonce, contentDigest: signed.contentDigest, state: 'open' };
    intent.sends.push(sent);
    intent.next = undefined;
    flights(session).set(event.requestId, { intent, sent, tool, declared, origin });
    emit({ type: send.price ? 'paid' : 'signed', url: request.url, tool: tool.name, detail: send.price ? `${send.kind}, paying ${send.price.text}` : send.kind });
    await session.send('Fetch.continueRequest', { requestId: event.requestId, headers: signed.headers, interceptResponse: true });
  }

  async function onPoll(session: CDPSessionLike, event: RequestPaused, tool: SiteTool, handoffId: string): Promise<void> {
    const { request } = event;
    const origin = new URL(request.url).origin;
    const known = handoffs.get(`${origin} ${handoffId}`);
    const open = intents.all();
    const ownCall = open.some((intent) => intent.origin === origin && intent.handoffIds.has(handoffId));
    const statusCall = known !== undefined && open.some((intent) => intent.origin === origin && intent.tool === HANDOFF_STATUS_TOOL
      && (intent.session === undefined || intent.session === session)
      && typeof intent.input === 'object' && intent.input !== null && (intent.input as { handoffId?: unknown }).handoffId === handoffId);
    const byOrigin = options.mode === 'origins' && options.origins.has(origin);
    if (request.hasPostData || !(ownCall || statusCall || byOrigin)) return continueUnsigned(session, event, tool.name, `no call of the agent handed off ${handoffId}`);
    const signer = await signerFor(known?.tool ?? tool, origin);
    if (!signer) return continueUnsigned(session, event, tool.name, `no shared key for ${origin}`);
    const signed = await signOutgoingRequest({ method: request.method, url: request.url, headers: request.headers, body: new Uint8Array(0) }, signer, {
      components: pollComponents(known?.components ?? declaredOf(tool)),
    });
    emit({ type: 'signed', url: request.url, tool: tool.name, detail: `handoff poll ${handoffId}` });
    await session.send('Fetch.continueRequest', { requestId: event.requestId, headers: signed.headers });
  }

  /** Passes an answer on as it is. */
  const continueAnswer = async (session: CDPSessionLike, event: RequestPaused) => {
    if (event.responseErrorReason) {
      await session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: event.responseErrorReason });
      return;
    }
    await session.send('Fetch.continueResponse', { requestId: event.requestId });
  };

  async function onAnswer(session: CDPSessionLike, event: RequestPaused, flight: InFlight): Promise<void> {
    const { intent, sent, tool, declared, origin } = flight;
    if (event.responseErrorReason) {
      sent.state = 'failed';
      return continueAnswer(session, event);
    }
    sent.state = 'answered';
    const status = event.responseStatusCode ?? 0;
    const headers = event.responseHeaders;
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
  async function passOnWithHandoff(session: CDPSessionLike, event: RequestPaused, flight: InFlight): Promise<void> {
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

  return {
    async onPaused(session, event) {
      const atResponse = event.responseStatusCode !== undefined || event.responseErrorReason !== undefined;
      try {
        if (atResponse) {
          const flight = flights(session).get(event.requestId);
          flights(session).delete(event.requestId);
          if (flight) await onAnswer(session, event, flight);
          else await continueAnswer(session, event);
          return;
        }
        if (sites.learn(event.request.url)) {
          await session.send('Fetch.continueRequest', { requestId: event.requestId });
          return;
        }
        const match = sites.match(event.request.method, event.request.url);
        if (!match) await session.send('Fetch.continueRequest', { requestId: event.requestId });
        else if (match.kind === 'call') await onCall(session, event, match.tool);
        else await onPoll(session, event, match.tool, match.handoffId);
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
  };
}
