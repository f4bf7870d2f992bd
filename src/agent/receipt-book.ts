/**
 * The receipts of the agent's calls, checked and kept by the agent in this process only (a page
 * can neither write nor read them): the receipt header of a signed call's 2xx answer (the
 * manifest's `receipts.header`), a compact JWS verified against the site's JWKS (the manifest's
 * `receipts.jwks`, read by the agent from Node) and bound to the very request the agent signed
 * (its nonce and Content-Digest, the tool, the status, the site), as agentgate/call/receipt.ts checks.
 */
import { fromBase64 } from '../agentgate/call/base64.js';
import { checkReceipt, type ReceiptResult } from '../agentgate/call/receipt.js';
import { parseReceiptKeys } from '../agentgate/call/receipt-keys.js';
import type { AgentGateReceipts } from '../agentgate/discover/receipt-rules.js';
import { fetchBoundedText } from './fetch-bounded.js';

/** Largest JWKS read, in bytes. */
const MAX_JWKS_BYTES = 64 * 1024;

/** Longest a JWKS read may take, in ms. */
const JWKS_TIMEOUT_MS = 5_000;

/** Most receipts kept; the oldest is dropped first. */
const MAX_RECEIPTS = 1_000;

/**
 * One receipt as `agent.receipts()` lists it. Verified: the site's key signed it and it covers
 * the call (`id` is its jti, `issuedAt` ISO). Not verified: `reason` says why in one line.
 */
export interface AgentReceipt {
  tool: string;
  /** The site's origin, e.g. `https://shop.example`. */
  origin: string;
  verified: boolean;
  reason?: string;
  /** The HTTP status the site answered the signed call with. */
  status: number;
  /** The nonce and Content-Digest the agent signed the call with. */
  nonce: string;
  contentDigest: string;
  /** The site action, the receipt's id (jti), when it was issued (ISO) and the key id: when verified. */
  action?: string;
  id?: string;
  issuedAt?: string;
  kid?: string;
  /** The receipt as the site sent it (compact JWS), when it sent one. */
  jws?: string;
  /** When the agent received it (ISO). */
  receivedAt: string;
}

/** What the agent signed and got, for one receipt. */
interface SignedCall {
  tool: string;
  origin: string;
  nonce: string;
  contentDigest: string;
  status: number;
}

/** The agent's receipt book. */
export interface ReceiptBook {
  /**
   * Checks the receipt of a signed call's 2xx answer and keeps the outcome.
   * @param jws the receipt header's value, or null when the answer had none
   * @returns the kept entry. Never rejects.
   */
  check(jws: string | null, call: SignedCall, receipts: AgentGateReceipts): Promise<AgentReceipt>;
  /** Every kept receipt, oldest first (copies). */
  list(): AgentReceipt[];
}

type Keys = ReturnType<typeof parseReceiptKeys>;

/** A receipt book with its own key sets per JWKS URL (read again once when a receipt names a kid they lack). */
export function createReceiptBook(): ReceiptBook {
  const kept: AgentReceipt[] = [];
  const keySets = new Map<string, Keys>();

  async function readKeys(url: URL): Promise<Keys | string> {
    const read = await fetchBoundedText(url, { accept: 'application/jwk-set+json, application/json', maxBytes: MAX_JWKS_BYTES, timeoutMs: JWKS_TIMEOUT_MS });
    if (!read.ok) return `the receipt keys ${read.reason}`;
    try {
      const keys = parseReceiptKeys(read.text);
      keySets.set(url.href, keys);
      return keys;
    } catch (error) {
      return `the receipt keys at ${url.pathname} are not a JWKS: ${(error as Error).message}`;
    }
  }

  /** The kid a compact JWS names, or undefined. */
  function kidOf(jws: string): string | undefined {
    try {
      const header = JSON.parse(new TextDecoder().decode(fromBase64(jws.split('.')[0] ?? ''))) as { kid?: unknown };
      return typeof header.kid === 'string' ? header.kid : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    async check(jws, call, receipts) {
      let result: ReceiptResult;
      const jwks = new URL(receipts.jwks);
      if (jwks.origin !== call.origin) {
        result = { verified: false, reason: `the site's receipt keys ${jwks.href} are not on its origin ${call.origin}` };
      } else {
        let keys: Keys | string | undefined = keySets.get(jwks.href);
        const kid = jws === null ? undefined : kidOf(jws);
        if (jws !== null && (!keys || (kid !== undefined && !keys.some((key) => key.kid === kid)))) keys = await readKeys(jwks);
        result = typeof keys === 'string'
          ? { verified: false, reason: keys, ...(jws === null ? {} : { jws }) }
          : await checkReceipt(jws, { tool: call.tool, origin: call.origin, nonce: call.nonce, contentDigest: call.contentDigest, status: call.status }, receipts, { timeoutMs: JWKS_TIMEOUT_MS, keys: keys ?? [] });
      }
      const entry: AgentReceipt = {
        tool: call.tool, origin: call.origin, verified: result.verified, status: call.status, nonce: call.nonce, contentDigest: call.contentDigest,
        receivedAt: new Date().toISOString(),
      };
      if (result.verified) Object.assign(entry, { action: result.action, id: result.id, issuedAt: result.issuedAt, kid: result.kid, jws: result.jws });
      else Object.assign(entry, { reason: result.reason, ...(result.jws === undefined ? {} : { jws: result.jws }) });
      kept.push(entry);
      if (kept.length > MAX_RECEIPTS) kept.shift();
      return { ...entry };
    },
    list: () => kept.map((entry) => ({ ...entry })),
  };
}
