/**
 * An AgentGate call's receipt: the site answers an accepted call with a
 * receipt header (the manifest's `receipts.header`, e.g. `AgentGate-Receipt`) holding a compact
 * JWS (EdDSA) of what it accepted. The runtime verifies it with WebCrypto against the site's JWKS
 * (receipt-keys.ts), checks that it covers this very call (the Content-Digest sent, the tool, the
 * status answered, the site; the nonce where the caller knows it), keeps it (receipt-store.ts) and
 * returns it beside the answer as `structuredContent.receipt`. A receipt that fails any check is
 * `verified: false` with a one-line reason, never dropped.
 *
 * The page does not know the signature's nonce (the agent's network layer signs, out of the
 * page's reach), so the page's check cannot tie a receipt to the agent's own signature: the
 * agent's (capell-webmcp/agent) does, with the nonce it signed with. What the page lists, it
 * checks again against the site's keys when it lists it (receipts-tool.ts).
 */
import type { BindingOutcome, CallContext } from '../../shared/bindings/binding-executor.js';
import type { AgentGateBinding, JSONValue, ToolSpec } from '../../shared/declarations/tool-spec.js';
import type { RequestOutcome } from '../../registry/request.js';
import { findReceiptKey } from './receipt-keys.js';
import { parseReceiptJWS, verifyReceiptSignature, type Ed25519PublicJWK } from './receipt-jws.js';
import type { AgentGateReceipts } from '../discover/receipt-rules.js';
import { keepReceipt } from '../discover/receipt-store.js';

/** How far a receipt's `iat` may be from the runtime's clock, in seconds: a receipt of this call is fresh. */
const RECEIPT_CLOCK_SKEW_S = 300;

/** What the call sent and got, as a receipt of it must state it. */
export interface SentCall {
  /** The tool called, e.g. `send_message`. */
  tool: string;
  /** The site's origin (the page's), e.g. `https://shop.example`. */
  origin: string;
  /** The `nonce` of the request's signature; undefined when the caller does not know it (the page: the agent signed). */
  nonce: string | undefined;
  /** The `Content-Digest` sent, e.g. `sha-256=:…:`; null when none was. */
  contentDigest: string | null;
  /** The HTTP status the site answered. */
  status: number;
}

/**
 * A receipt as the call's result reports it (`structuredContent.receipt`):
 * - verified: `{ verified: true, tool, action, status, nonce, contentDigest, issuedAt (ISO), id
 *   (the receipt's jti), kid, jws }`;
 * - not verified: `{ verified: false, reason, jws? }`: `reason` is one line, e.g.
 *   `signed by an unknown key: … is not in the site's receipt keys at /.well-known/agentgate-keys.json`.
 */
export type ReceiptResult =
  | { verified: true; tool: string; action: string; status: number; nonce: string; contentDigest: string; issuedAt: string; id: string; kid: string; jws: string }
  | { verified: false; reason: string; jws?: string };

/** How the receipt's key is looked up. */
interface ReceiptCheckOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Clock in ms (default `Date.now()`), for tests. */
  now?: number;
  /** The keys to check against, fetched by the caller; then no key is looked up or fetched. */
  keys?: readonly (Ed25519PublicJWK & { kid: string })[];
}

const shown = (value: unknown): string => JSON.stringify(value) ?? 'nothing';

/** The first claim that does not cover the call, as a reason; undefined when all do. */
function mismatch(claims: Record<string, unknown>, sent: SentCall, now: number): string | undefined {
  if (sent.nonce !== undefined && claims.nonce !== sent.nonce) return `a receipt for another call: its nonce ${shown(claims.nonce)} is not the one this call was signed with (${shown(sent.nonce)})`;
  if (claims.contentDigest !== sent.contentDigest) return `a receipt for another call: its contentDigest ${shown(claims.contentDigest)} is not the Content-Digest this call sent (${shown(sent.contentDigest)})`;
  if (claims.tool !== sent.tool) return `a receipt for another call: it names the tool ${shown(claims.tool)}, not ${sent.tool}`;
  if (claims.status !== sent.status) return `the receipt states status ${shown(claims.status)}, but the site answered ${sent.status}`;
  if (claims.iss !== sent.origin) return `the receipt was issued by ${shown(claims.iss)}, not this site (${sent.origin})`;
  if (typeof claims.iat !== 'number' || Math.abs(claims.iat - now / 1000) > RECEIPT_CLOCK_SKEW_S) {
    return `the receipt's iat ${shown(claims.iat)} is not within ${RECEIPT_CLOCK_SKEW_S} s of now: not a receipt of this call`;
  }
  if (typeof claims.action !== 'string' || typeof claims.jti !== 'string' || typeof claims.nonce !== 'string') return 'the receipt names no action, jti or nonce';
  return undefined;
}

/**
 * Checks a receipt against the site's keys and the call it must cover: a compact JWS (EdDSA), its
 * `kid` in the JWKS at `receipts.jwks` (fetched again once when the kept keys lack it), a valid
 * Ed25519 signature, and claims `contentDigest`, `tool`, `status`, `iss` (and `nonce`, when
 * `sent.nonce` is known) equal to what the call sent and got, `iat` within RECEIPT_CLOCK_SKEW_S.
 * @param jws the receipt header's value; null when the answer had none
 * @returns the ReceiptResult. Never rejects: every failure is `verified: false` with its reason.
 */
export async function checkReceipt(jws: string | null, sent: SentCall, receipts: AgentGateReceipts, options: ReceiptCheckOptions): Promise<ReceiptResult> {
  if (jws === null) return { verified: false, reason: `no receipt: the site declares receipts, but its ${sent.status} answer has no ${receipts.header} header` };
  const refuse = (reason: string): ReceiptResult => ({ verified: false, reason, jws });
  let parsed;
  try {
    parsed = parseReceiptJWS(jws);
  } catch (error) {
    return refuse(`a malformed receipt: ${(error as Error).message}`);
  }
  const now = options.now ?? Date.now();
  const { kid } = parsed.header;
  const found = options.keys
    ? keyIn(options.keys, kid, new URL(receipts.jwks).pathname)
    : await findReceiptKey({ jwks: new URL(receipts.jwks), origin: sent.origin, timeoutMs: options.timeoutMs, now, ...(options.signal ? { signal: options.signal } : {}) }, kid);
  if (!found.ok) return refuse(found.reason);
  let valid: boolean;
  try {
    valid = await verifyReceiptSignature(parsed, found.jwk);
  } catch (error) {
    return refuse(`the site's receipt key ${parsed.header.kid} cannot be used (${(error as Error)?.name ?? String(error)})`);
  }
  if (!valid) return refuse(`a bad signature: the receipt was changed after the site signed it, or not signed by its key ${parsed.header.kid}`);
  const { claims } = parsed;
  const wrong = mismatch(claims, sent, now);
  if (wrong) return refuse(wrong);
  return {
    verified: true,
    tool: sent.tool,
    action: claims.action as string,
    status: sent.status,
    nonce: claims.nonce as string,
    contentDigest: sent.contentDigest!,
    issuedAt: new Date((claims.iat as number) * 1000).toISOString(),
    id: claims.jti as string,
    kid: parsed.header.kid,
    jws,
  };
}

/** The key `kid` of keys the caller fetched, or the reason (as findReceiptKey words it). */
function keyIn(keys: NonNullable<ReceiptCheckOptions['keys']>, kid: string, where: string): { ok: true; jwk: Ed25519PublicJWK } | { ok: false; reason: string } {
  const jwk = keys.find((key) => key.kid === kid);
  return jwk ? { ok: true, jwk } : { ok: false, reason: `signed by an unknown key: ${kid} is not in the site's receipt keys at ${where}` };
}

/**
 * The receipts hook of an AgentGate call (tool-call.ts): for a tool whose manifest declares
 * receipts and an accepted (2xx) answer, checks the receipt (`checkReceipt`) against the call
 * (its Content-Digest; the page never learns the nonce the agent's layer signed with), keeps it
 * when the site sent one, and adds it to the outcome as `added.receipt`. Any other outcome is
 * returned as it is.
 * @param outcome the call's outcome; @param answered the last request's outcome; @param contentDigest
 *   the `Content-Digest` the call sent (RFC 9530).
 * @returns the outcome, with `added.receipt` for a tool with receipts. Never rejects.
 */
export async function withReceipt(
  outcome: BindingOutcome, answered: RequestOutcome, contentDigest: string, spec: ToolSpec, context: CallContext,
): Promise<BindingOutcome> {
  const { receipts } = spec.binding as AgentGateBinding;
  if (!receipts || !outcome.ok || !answered.ok) return outcome;
  const { response } = answered;
  const jws = response.headers.get(receipts.header);
  const sent: SentCall = {
    tool: spec.name, origin: context.config.origin, nonce: undefined, contentDigest, status: response.status,
  };
  const receipt = await checkReceipt(jws, sent, receipts, { timeoutMs: context.config.timeoutMs, signal: context.signal });
  if (jws !== null) await keepReceipt(context.config.origin, { receivedAt: new Date().toISOString(), tool: spec.name, ...receipt });
  return { ...outcome, added: { ...outcome.added, receipt: receipt as { [key: string]: JSONValue } } };
}
