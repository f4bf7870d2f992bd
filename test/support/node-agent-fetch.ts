/**
 * The agent's network layer for Node tests that run the runtime's AgentGate executor without a
 * browser: `globalThis.fetch` wrapped so that requests to the demo site's agent routes are signed
 * with the demo agent's keys, as capell-webmcp/agent signs them in a browser's network layer. The
 * code under test (the page's side) never holds a key: it sends unsigned, and this layer signs.
 * The runtime takes `fetch` once, when its modules are first evaluated (src/start/primitives.ts), as a
 * page's later replacement must not reach it: install this first, then import the runtime's
 * modules (`await import(…)`), as a browser's network layer is in place before any page loads.
 */
import { DEMO_AGENT_PRIVATE_JWK, DEMO_SHARED_KEY } from '../../demo/server/agentgate/demo-keys.js';
import { fromBase64 } from '../../src/agentgate/call/base64.ts';
import { jwkThumbprint } from '../../src/agent/jwk-thumbprint.ts';
import { signerFromCryptoKey, signRequest, type Signer } from '../../src/agent/signer.ts';

/** Paths of the demo site's shared-key (HMAC) routes; every other agent route is web-bot-auth. */
const SHARED_KEY_PATHS = new Set(['/agent/message-status']);

/** Whether a request goes to the demo site's agent routes (its tools' endpoints and handoff polls). */
function isAgentRoute(url: URL): boolean {
  return url.pathname.startsWith('/agent/') || url.pathname.startsWith('/v1/handoff/');
}

/** What `installAgentFetch` returns: the requests it signed, and how to put the real fetch back. */
export interface AgentFetch {
  /** Every request signed, as sent (headers included). */
  signed: Request[];
  /** Puts the real `fetch` back on `globalThis`; runtime modules imported since keep this layer. */
  restore(): void;
}

/**
 * Wraps `globalThis.fetch`: a request to an agent route of `origin` is sent signed over
 * `@authority`, `@method`, `@path`, `content-digest`, `crawler-exact-price` when it pays (this
 * test agent pays any price the page offers; caps are capell-webmcp/agent's), and the `signature-agent` member with
 * `tag="web-bot-auth"` for Ed25519), with the demo agent's Ed25519 key or, for shared-key routes,
 * the demo site's shared key; anything else goes out as it is. Call it before the runtime's
 * modules are imported (see above).
 * @param signatureAgent the Signature-Agent member's value (the demo agent's key-set URL)
 */
export async function installAgentFetch(origin: string, signatureAgent: string): Promise<AgentFetch> {
  const jwk = DEMO_AGENT_PRIVATE_JWK;
  const edKey = await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, d: jwk.d }, { name: 'Ed25519' }, false, ['sign']);
  const ed25519: Signer = signerFromCryptoKey(edKey, { label: 'sig1', keyid: await jwkThumbprint(jwk as never), signatureAgent });
  const hmacKey = await crypto.subtle.importKey('raw', fromBase64(DEMO_SHARED_KEY.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const hmac: Signer = signerFromCryptoKey(hmacKey, { label: 'sig1', keyid: DEMO_SHARED_KEY.keyid });
  const real = globalThis.fetch;
  const signed: Request[] = [];
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== origin || !isAgentRoute(url)) return real(request);
    const signer = SHARED_KEY_PATHS.has(url.pathname) ? hmac : ed25519;
    // A handoff poll (a GET) covers the Content-Digest of its empty body, as the call it follows does.
    const components = ['@authority', '@method', '@path', 'content-digest', ...(request.headers.has('crawler-exact-price') ? ['crawler-exact-price'] : [])];
    const out = await signRequest(request, signer, { components });
    signed.push(out.clone());
    return real(out);
  };
  return { signed, restore: () => { globalThis.fetch = real; } };
}
