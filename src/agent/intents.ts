/**
 * Intents: the calls the agent started, and what each may still have signed. A paused request is
 * signed only for an open intent of its tool whose input equals the request's JSON body, and
 * only as one of the sends that call is allowed: the call itself; once, a resend after a `403`
 * with `Accept-Signature`; once, a resend after a `429`; once, the network retry of an
 * idempotent or read-only tool after a send that failed with no answer; once, the paid send the
 * agent decided on; and the handoff polls of the ids its own `202` answers returned. Each of
 * those is granted by an answer the agent itself saw at the response stage, never by the page.
 */
import type { Component } from '../agentgate/call/signature-base.js';
import { jsonEqual } from './json-equal.js';
import type { Money } from './money.js';

/** The runtime's own read-only tool that asks a pending handoff again (its polls are allowed for the ids of an open call of it). */
export const HANDOFF_STATUS_TOOL = 'agentgate.handoff.status';

/** How long an intent `'origins'` mode opens by itself stays open for its retries, in ms. */
const IMPLICIT_INTENT_MS = 60_000;

/** What a send of an intent was. */
type SendKind = 'call' | 'resend-403' | 'retry-429' | 'network-retry' | 'paid';

/** A signed send of an intent, as far as the agent has seen it answered. */
export interface SentRequest {
  kind: SendKind;
  components: Component[];
  nonce: string;
  contentDigest: string;
  /** `answered`: the agent saw its response; `failed`: it failed with no answer; `open`: neither yet. */
  state: 'open' | 'answered' | 'failed';
}

/** The next send an answer allowed: its kind, what it covers, and the price the agent pays with it. */
export interface NextSend {
  kind: SendKind;
  components: Component[];
  /** The price the agent decided to pay: the amount, and the site's `crawler-price` text sent back as `crawler-exact-price`. */
  price?: { money: Money; text: string };
}

/** A call the agent started (or, in `'origins'` mode, a call it saw and allowed). */
export interface Intent {
  readonly id: number;
  readonly origin: string;
  readonly tool: string;
  readonly input: unknown;
  /** The page (its DevTools session) the call runs on; undefined: any attached page. */
  readonly session: object | undefined;
  /** Opened by `'origins'` mode for a call the agent did not start; closes by itself after IMPLICIT_INTENT_MS. */
  readonly implicit: boolean;
  open: boolean;
  sends: SentRequest[];
  /** The one further send the last answer allowed, until it is used. */
  next: NextSend | undefined;
  /** Grants already made, so each is made at most once. */
  granted: Set<'resend-403' | 'retry-429' | 'paid'>;
  /** Handoff ids the call's own `202` answers returned. */
  handoffIds: Set<string>;
  /** The agent's own one-line reason when it refused to pay for this call. */
  refusal?: string;
  /** When an implicit intent closes, ms since the epoch. */
  closesAt?: number;
}

/** Input of `openIntent`. */
interface IntentSpec {
  origin: string;
  tool: string;
  input: unknown;
  session?: object;
  implicit?: boolean;
}

/**
 * The sends a paused request may be, given the intent's history: the first call; or the send an
 * answer allowed (`next`); or a network retry when the last send failed with no answer, the tool
 * may be repeated (`retryable`), and the last send was neither a network retry nor a paid one.
 * @param declared the components the call is signed over (the manifest's, with the floor)
 * @returns the send, or undefined when the intent allows no further send now
 */
export function nextSendOf(intent: Intent, declared: Component[], retryable: boolean): NextSend | undefined {
  if (!intent.open) return undefined;
  if (intent.sends.length === 0) return { kind: 'call', components: declared };
  const last = intent.sends.at(-1)!;
  if (last.state === 'open') return undefined;
  if (last.state === 'failed') {
    return retryable && last.kind !== 'network-retry' && last.kind !== 'paid' ? { kind: 'network-retry', components: last.components } : undefined;
  }
  return intent.next;
}

/** The open intents of an agent. */
export interface IntentBook {
  open(spec: IntentSpec): Intent;
  close(intent: Intent): void;
  /**
   * The open intents of `tool` on `origin` whose input equals `body` (JSON, any member order),
   * started on `session` (or on no page in particular), oldest first.
   */
  matching(origin: string, tool: string, body: unknown, session: object | undefined): Intent[];
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
        id: next++, origin: spec.origin, tool: spec.tool, input: structuredClone(spec.input), session: spec.session, implicit: spec.implicit ?? false,
        open: true, sends: [], next: undefined, granted: new Set(), handoffIds: new Set(),
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
    matching(origin, tool, body, session) {
      sweep();
      return [...open].filter((intent) => intent.origin === origin && intent.tool === tool
        && (intent.session === undefined || intent.session === session) && jsonEqual(intent.input, body));
    },
    all() {
      sweep();
      return [...open];
    },
  };
}
