// Demo theme script that plays the demo AGENT in the page (DEMO KEYS, never trust them elsewhere).
//
// AgentGate calls are signed with the agent's key, never the page's. A real agent (or its browser
// extension) holds its key and hands the runtime a signer; on the demo there is no such agent, so
// this script stands in for it with the demo agent's published demo keys
// (/site/demo-agent-keys.js, generated from demo/server/agentgate/demo-keys.js). The demo agent's
// origin (the demo server's port + 1) publishes the Ed25519 public key in its
// /.well-known/http-message-signatures-directory, where the site's verifier fetches it.
//
// Loaded after the runtime script: `window.capellWebMCP` exists by then, and the signers are given
// before the runtime starts (it starts at DOMContentLoaded, after the page's module scripts), so the
// first Report already registers send_message and message_status.
//
// A signer is `{ label, signatureAgent?, keyid, alg, sign(bytes) }` (capell-webmcp README, "Who
// signs"); `sign` gets the signature base's bytes and returns the raw signature. The keys are
// imported non-extractable: the page cannot read them back, only sign with them.
import { DEMO_AGENT } from './demo-agent-keys.js';

/** Standard base64 → bytes. */
function bytesOf(base64) {
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

/**
 * A signer over a key that is still being imported; `sign` waits for it.
 * @param {{ alg: 'ed25519' | 'hmac-sha256', keyid: string, signatureAgent?: string, key: Promise<CryptoKey> }} identity
 */
function demoSigner({ alg, keyid, signatureAgent, key }) {
  // A failed import surfaces when a call signs (the call's isError), not as an unhandled rejection now.
  key.catch(() => {});
  return {
    label: 'sig1',
    alg,
    keyid,
    ...(signatureAgent ? { signatureAgent } : {}),
    async sign(bytes) {
      const algorithm = alg === 'ed25519' ? 'Ed25519' : 'HMAC';
      return new Uint8Array(await crypto.subtle.sign(algorithm, await key, bytes));
    },
  };
}

const runtime = /** @type {{ setSigner?: (signer: object) => void } | undefined} */ (/** @type {any} */ (window).capellWebMCP);
if (DEMO_AGENT && runtime?.setSigner && globalThis.crypto?.subtle) {
  // web-bot-auth tools (send_message): Ed25519, named by the agent's origin.
  runtime.setSigner(demoSigner({
    alg: 'ed25519',
    keyid: DEMO_AGENT.keyid,
    signatureAgent: DEMO_AGENT.signatureAgent,
    key: crypto.subtle.importKey('jwk', DEMO_AGENT.privateJwk, { name: 'Ed25519' }, false, ['sign']),
  }));
  // shared-key tools (message_status): the HMAC key the demo site issued to the demo agent.
  runtime.setSigner(demoSigner({
    alg: 'hmac-sha256',
    keyid: DEMO_AGENT.sharedKey.keyid,
    key: crypto.subtle.importKey('raw', bytesOf(DEMO_AGENT.sharedKey.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
  }));
}
