/**
 * The agent's signing keys as WebCrypto keys of this Node process (non-extractable): the Ed25519
 * key for `web-bot-auth` tools and the shared HMAC keys sites issued for `shared-key` tools. They
 * never leave Node; the page gets only the headers of requests the agent chose to sign.
 */
import { jwkThumbprint } from './jwk-thumbprint.js';
import type { Signer } from './signer.js';
import type { NormalizedAgentOptions } from './agent-options.js';

/** The label of the agent's signature in `Signature-Input`, `Signature` and `Signature-Agent`. */
const SIGNATURE_LABEL = 'sig1';

/** The agent's signers. */
export interface AgentSigners {
  /** The Ed25519 signer (`keyid` = JWK thumbprint, RFC 7638), with the agent's key-set URL. */
  webBotAuth(): Promise<Signer>;
  /** The shared-key signer for a site origin, or undefined when that site issued the agent none. */
  sharedKey(origin: string): Promise<Signer | undefined>;
}

/** A Signer over a WebCrypto key this module holds. */
function signerOf(key: CryptoKey, alg: Signer['alg'], keyid: string, signatureAgent?: string): Signer {
  const algorithm = alg === 'ed25519' ? 'Ed25519' : 'HMAC';
  return {
    label: SIGNATURE_LABEL,
    keyid,
    alg,
    ...(signatureAgent === undefined ? {} : { signatureAgent }),
    async sign(bytes) {
      return new Uint8Array(await crypto.subtle.sign(algorithm, key, new Uint8Array(bytes)));
    },
  };
}

/**
 * Imports the keys lazily (the first signature waits for them), once.
 * @returns the signers; `webBotAuth()` rejects with WebCrypto's error (e.g. `DataError`) when
 *   the JWK is not a valid Ed25519 key.
 */
export function createAgentSigners(options: Pick<NormalizedAgentOptions, 'privateJwk' | 'signatureAgent' | 'sharedKeys'>): AgentSigners {
  let ed25519: Promise<Signer> | undefined;
  const shared = new Map<string, Promise<Signer>>();
  return {
    webBotAuth() {
      ed25519 ??= Promise.all([
        crypto.subtle.importKey('jwk', options.privateJwk, { name: 'Ed25519' }, false, ['sign']),
        jwkThumbprint(options.privateJwk),
      ]).then(([key, keyid]) => signerOf(key, 'ed25519', keyid, options.signatureAgent));
      return ed25519;
    },
    async sharedKey(origin) {
      const issued = options.sharedKeys.get(origin);
      if (!issued) return undefined;
      let signer = shared.get(origin);
      if (!signer) {
        signer = crypto.subtle.importKey('raw', issued.secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
          .then((key) => signerOf(key, 'hmac-sha256', issued.keyid));
        shared.set(origin, signer);
      }
      return signer;
    },
  };
}
