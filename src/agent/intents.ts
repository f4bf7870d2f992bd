/**
 * Intents: the calls the agent started, and what each may still have signed. A paused request is
 * signed only for an open intent whose endpoint (from the agent's own manifest reading), page and
 * input match it, and only as one of the sends that call is allowed: the call itself; once, a
 * resend after a `403` with `Accept-Signature`; once, a resend after a `429`; once, the network
 * retry of an idempotent or read-only tool after a send that failed with no answer; once, the
 * paid send the agent decided on; and the handoff polls of the ids its own `202` answers
 * returned, one at a time. Each of those is granted by an answer the agent itself saw at the
 * response stage, never by the page.
 *
 * A send is claimed (`claimSend`) in the same synchronous step that decides it, before anything
 * is awaited: a request paused while another is being signed finds the send taken and goes out
 * unsigned. A claim whose signing fails is given back (`releaseSend`).
 */
import type { Component } from '../agentgate/call/signature-base.js';
import { jsonEqual } from './json-equal.js';
import type { Money } from './money.js';
import type { SiteTool } from './site-tools.js';

/** The runtime's own read-only tool that asks a pending handoff again (its polls are allowed for the ids of an open call of it). */
export const HANDOFF_STATUS_TOOL = 'agentgate.handoff.status';

/** How long an intent `'origins'` mode opens by itself stays open for its retries, in ms. */
const IMPLICIT_INTENT_MS = 60_000;

/**
 * Most handoff polls one intent has signed per handoff id: the runtime polls a handoff for at most
 * 10 s, at least 250 ms apart (agentgate/call/handoff.ts), so 40 polls; the rest is margin.
 */
export const MAX_POLLS_PER_HANDOFF = 64;

/** What a send of an intent was. */
export type SendKind = 'call' | 'resend-403' | 'retry-429' | 'network-retry' | 'paid';

/** A send of an intent, from its claim to its answer. */
export interface SentRequest {
  kind: SendKind;
  /** The components it covers (set once signed). */
  components: Component[];
  /** The nonce and Content-Digest it was signed with (empty while `claimed`). */
  nonce: string;
  contentDigest: string;
  /**
   * `claimed`: decided, being signed; `open`: signed and sent, no answer yet; `answered`: the
   * agent saw its response; `failed`: it failed with no answer.
   */
  state: 'claimed' | 'open' | 'answered' | 'failed';
  /** The price paid with it, when it is the paid send. */
  price?: { money: Money; text: string };
}

/** The next send an answer allowed: its kind, what it covers, and the price the agent pays with it. */
export interface NextSend {
  kind: SendKind;
  components: Component[];
  /** The price the agent decided to pay: the amount, and the site's `crawler-price` text sent back as `crawler-exact-price`. */
  price?: { money: Money; text: string };
}

/**
 * What the agent paid for one call, as it saw it: the price it signed (`crawler-exact-price`,
 * the site's own text), whether the site's answer to that send has come, the `crawler-charged`
 * it carried (null when it carried none, or has not come), and whether the agent took the money
 * back because the site did not charge (`402`, `429` or `5xx` to the paid send).
 */
export interface Payment {
  price: string;
  answered: boolean;
  charged: string | null;
  refunded: boolean;
}

/** A call the agent started (or, in `'origins'` mode, a call it saw and allowed). */
export interface Intent {
  readonly id: number;
  readonly origin: string;
  /** The tool's name, as the agent called it. */
  readonly tool: string;
  /** The tool as the agent's own manifest reading gives it; undefined for HANDOFF_STATUS_TOOL (it has no endpoint). */
  readonly site: SiteTool | undefined;
  readonly input: unknown;
  /** The page (its DevTools session) the call runs on. */
  readonly session: object;
  /** Opened by `'origins'` mode for a call the agent did not start; closes by itself after IMPLICIT_INTENT_MS. */
  readonly implicit: boolean;
  open: boolean;
  sends: SentRequest[];
  /** The one further send the last answer allowed, until it is claimed. */
  next: NextSend | undefined;
  /** Grants already made, so each is made at most once. */
  granted: Set<'resend-403' | 'retry-429' | 'paid'>;
  /** Handoff ids the call's own `202` answers returned. */
  handoffIds: Set<string>;
  /** Signed polls per handoff id, and the ids with a poll in flight. */
  polls: Map<string, number>;
  polling: Set<string>;
  /** The agent's own one-line reason when it refused to pay for this call. */
  refusal?: string;
  /** What the agent paid for this call (at most one payment). */
  payment?: Payment;
  /** When an implicit intent closes, ms since the epoch. */
  closesAt?: number;
}

/** Input of `IntentBook.open`. */
interface IntentSpec {
  origin: string;
  tool: string;
  site?: SiteTool;
  input: unknown;
  session: object;
  implicit?: boolean;
}

/**
 * The send a paused request may be, given the intent's history: the first call; or the send an
 * answer allowed (`next`); or a network retry when the last send failed with no answer, the tool
 * may be repeated (`retryable`), and the last send was neither a network retry nor a paid one.
 * Nothing while a send is claimed or in flight.
 * @param declared the components the call is signed over (the manifest's, with the floor)
 * @returns the send, or undefined when the intent allows no further send now
 */
export function nextSendOf(intent: Intent, declared: Component[], retryable: boolean): NextSend | undefined {
  if (!intent.open) return undefined;
  if (intent.sends.length === 0) return { kind: 'call', components: declared };
  const last = intent.sends.at(-1)!;
  if (last.state === 'claimed' || last.state === 'open') return undefined;
  if (last.state === 'failed') {
    return retryable && last.kind !== 'network-retry' && last.kind !== 'paid' ? { kind: 'network-retry', components: last.components } : undefined;
  }
  return intent.next;
}

/**
 * Claims `send` for `intent`, synchronously: the send is recorded as `claimed` and the grant it
 * used is spent, so that no other request can be decided into it. Call it in the same step that
 * decided the send (no `await` between).
 * @returns the claimed send, to fill in once signed, or to give back with `releaseSend`
 */
export function claimSend(intent: Intent, send: NextSend): SentRequest {
  const sent: SentRequest = { kind: send.kind, components: send.components, nonce: '', contentDigest: '', state: 'claimed', ...(send.price ? { price: send.price } : {}) };
  intent.sends.push(sent);
  intent.next = undefined;
  return sent;
}

/**
 * Gives a claim back when its signing failed: the send is forgotten and the grant it used (if it
 * was one) is open again, so the runtime's own request can still be signed.
 */
export function releaseSend(intent: Intent, sent: SentRequest, send: NextSend): void {
  const index = intent.sends.indexOf(sent);
  if (index >= 0) intent.sends.splice(index, 1);
  if (send.kind !== 'call' && send.kind !== 'network-retry' && intent.open) intent.next = send;
}

/** The open intents of an agent. */
export interface IntentBook {
  open(spec: IntentSpec): Intent;
  close(intent: Intent): void;
  /**
   * The open intents for a request with this method and URL whose body is `body` (JSON, any
   * member order), started on `session`, oldest first: bound to that endpoint by the agent's own
   * reading of the tool.
   */
  matching(origin: string, method: string, url: string, body: unknown, session: object): Intent[];
  /** Every open intent (implicit ones past their time closed first). */
  all(): Intent[];
}

/** A new intent book. @param now clock in ms (tests). */
export function createIntentBook(now: () => number = Date.now): IntentBook {
  let next = 1;
  const open = new Set<Intent>();
  const sweep = () => {
    for (const intent of open) {
      if (intent.closesAt !== undefined && intent.closesAt <= now()) {
        intent.open = false;
        open.delete(intent);
      }
    }
  };
  return {
    open(spec) {
      const intent: Intent = {
        id: next++, origin: spec.origin, tool: spec.tool, site: spec.site, input: structuredClone(spec.input), session: spec.session,
        implicit: spec.implicit ?? false, open: true, sends: [], next: undefined, granted: new Set(), handoffIds: new Set(),
        polls: new Map(), polling: new Set(),
        ...(spec.implicit ? { closesAt: now() + IMPLICIT_INTENT_MS } : {}),
      };
      open.add(intent);
      return intent;
    },
    close(intent) {
      intent.open = false;
      intent.next = undefined;
      open.delete(intent);
    },
    matching(origin, method, url, body, session) {
      sweep();
      return [...open].filter((intent) => intent.origin === origin && intent.session === session && intent.site !== undefined
        && intent.site.binding.method === method && intent.site.binding.target === url && jsonEqual(intent.input, body));
    },
    all() {
      sweep();
      return [...open];
    },
  };
}
