/**
 * The agent's options, checked once at `createAgent` and normalised into one complete internal
 * shape: every mistake is a TypeError naming the option, thrown before anything is attached.
 */
import { fromBase64 } from '../agentgate/call/base64.js';
import { createPurse, parseMoney, type Money, type Purse } from './money.js';

/** An Ed25519 private key as a JWK (RFC 8037 §2): `d` is the private half, `x` the public. */
export interface Ed25519PrivateJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  d: string;
  kid?: string;
}

/** A key a site issued to this agent for its `shared-key` tools (RFC 9421 §3.3.3 hmac-sha256). */
export interface SharedKey {
  /** The id the site issued, sent as the signature's `keyid`. */
  keyid: string;
  /** The secret, standard or url-safe base64 (at least 16 bytes once decoded). */
  secret: string;
}

/** Which paused requests the agent signs. */
export type AgentMode = 'intent' | 'origins';

/**
 * Options of `createAgent`.
 * @example
 * createAgent({
 *   privateJwk: { kty: 'OKP', crv: 'Ed25519', x: '…', d: '…' },
 *   signatureAgent: 'https://agent.example/.well-known/http-message-signatures-directory',
 *   maxPrice: '0.05 USD', budget: '1.00 USD',
 * })
 */
export interface AgentOptions {
  /** The agent's Ed25519 private key (RFC 8037 JWK). It stays in this Node process. */
  privateJwk: Ed25519PrivateJwk;
  /**
   * The agent's key-set URL, sent as the `Signature-Agent` member (Web Bot Auth,
   * draft-ietf-webbotauth-httpsig-protocol-01): an absolute URL whose document is the JWKS holding
   * `privateJwk`'s public half, usually `https://agent.example/.well-known/http-message-signatures-directory`.
   * https, or http on a loopback host (tests and demos).
   */
  signatureAgent: string;
  /** Per site origin (`https://shop.example`), the key that site issued for its `shared-key` tools. */
  sharedKeys?: Record<string, SharedKey>;
  /** Most the agent pays for one call, as sites write prices (`'0.05 USD'`). @default none: nothing is ever paid */
  maxPrice?: string;
  /** Most the agent pays in all, in the cap's currency. @default no total (only the cap per call) */
  budget?: string;
  /**
   * `'intent'` (default): sign only requests that carry a call this agent started with
   * `callTool`. `'origins'`: sign every call to a tool endpoint of the manifests of `origins`
   * (for MCP servers the agent does not drive itself; any script on those pages can then have
   * its calls signed, within the agent's cap and budget).
   */
  mode?: AgentMode;
  /** The site origins `'origins'` mode signs for, e.g. `['https://shop.example']`. */
  origins?: string[];
}

/** The options checked and complete. */
export interface NormalizedAgentOptions {
  privateJwk: Ed25519PrivateJwk;
  signatureAgent: string;
  sharedKeys: Map<string, { keyid: string; secret: Uint8Array<ArrayBuffer> }>;
  maxPrice: Money | undefined;
  budget: Money | undefined;
  purse: Purse;
  mode: AgentMode;
  origins: ReadonlySet<string>;
}

/** Shortest shared secret accepted, in bytes (HMAC-SHA256 keys shorter than the hash weaken it). */
const MIN_SHARED_SECRET_BYTES = 16;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function fail(option: string, problem: string): never {
  throw new TypeError(`createAgent: ${option} ${problem}`);
}

/** `text` as an origin (`scheme://host[:port]`, nothing else), or a TypeError naming `option`. */
function readOrigin(text: unknown, option: string): string {
  let url: URL | undefined;
  try {
    url = typeof text === 'string' ? new URL(text) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.origin !== String(text).replace(/\/$/, '')) {
    fail(option, `must be a site origin such as https://shop.example, not ${JSON.stringify(text)}`);
  }
  return url.origin;
}

/**
 * Checks and completes the options.
 * @throws TypeError naming the option: a key that is not an Ed25519 private JWK, a
 *   `signatureAgent` that is not an https URL (http only on loopback), a shared key without
 *   `keyid` or with a short secret, a price that is not one, a budget in another currency than
 *   the cap, an unknown mode, `'origins'` mode without origins.
 */
export function normaliseAgentOptions(options: AgentOptions): NormalizedAgentOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('createAgent: options must be an object');
  const jwk = options.privateJwk;
  if (typeof jwk !== 'object' || jwk === null || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519'
    || typeof jwk.x !== 'string' || !BASE64URL.test(jwk.x) || typeof jwk.d !== 'string' || !BASE64URL.test(jwk.d)) {
    fail('privateJwk', 'must be an Ed25519 private JWK { kty: "OKP", crv: "Ed25519", x, d }');
  }
  let agentUrl: URL | undefined;
  try {
    agentUrl = new URL(options.signatureAgent);
  } catch {
    agentUrl = undefined;
  }
  if (!agentUrl || agentUrl.username || agentUrl.password || agentUrl.hash
    || !(agentUrl.protocol === 'https:' || (agentUrl.protocol === 'http:' && LOOPBACK.has(agentUrl.hostname)))) {
    fail('signatureAgent', `must be the https URL of the agent's key set (http only on loopback), not ${JSON.stringify(options.signatureAgent)}`);
  }
  const sharedKeys = new Map<string, { keyid: string; secret: Uint8Array<ArrayBuffer> }>();
  for (const [origin, key] of Object.entries(options.sharedKeys ?? {})) {
    const name = `sharedKeys[${JSON.stringify(origin)}]`;
    const site = readOrigin(origin, `sharedKeys key ${JSON.stringify(origin)}`);
    if (typeof key !== 'object' || key === null || typeof key.keyid !== 'string' || key.keyid === '') fail(name, 'needs a keyid (the id the site issued)');
    let secret: Uint8Array<ArrayBuffer>;
    try {
      secret = fromBase64(String(key.secret));
    } catch {
      fail(`${name}.secret`, 'is not base64');
    }
    if (secret.byteLength < MIN_SHARED_SECRET_BYTES) fail(`${name}.secret`, `must be at least ${MIN_SHARED_SECRET_BYTES} bytes`);
    sharedKeys.set(site, { keyid: key.keyid, secret });
  }
  const price = (option: 'maxPrice' | 'budget'): Money | undefined => {
    const text = options[option];
    if (text === undefined) return undefined;
    return parseMoney(text) ?? fail(option, `must be a price such as '0.05 USD' (at most 6 decimals), not ${JSON.stringify(text)}`);
  };
  const maxPrice = price('maxPrice');
  const budget = price('budget');
  if (maxPrice && budget && maxPrice.currency !== budget.currency) fail('budget', `is in ${budget.currency}, the cap (maxPrice) in ${maxPrice.currency}: one currency`);
  const mode = options.mode ?? 'intent';
  if (mode !== 'intent' && mode !== 'origins') fail('mode', `must be 'intent' or 'origins', not ${JSON.stringify(mode)}`);
  if (mode === 'intent' && options.origins !== undefined) fail('origins', "is read only in mode 'origins'");
  const origins = new Set<string>();
  if (mode === 'origins') {
    if (!Array.isArray(options.origins) || options.origins.length === 0) fail('origins', "must list the site origins 'origins' mode signs for");
    for (const origin of options.origins) origins.add(readOrigin(origin, 'origins'));
  }
  return {
    privateJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d },
    signatureAgent: agentUrl.href,
    sharedKeys,
    maxPrice,
    budget,
    purse: createPurse(maxPrice, budget),
    mode,
    origins,
  };
}
