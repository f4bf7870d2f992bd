import { createHash, createPublicKey, generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';

/**
 * The demo site's receipts (docs/agentgate.md, "Receipts"): an accepted signed call is answered with an
 * `AgentGate-Receipt` header, a compact JWS (RFC 7515 §7.1; EdDSA over Ed25519, RFC 8037) whose
 * payload says what the site accepted: `iss` (the site's origin), `tool`, `action`, the request's
 * `nonce` and `contentDigest` as received, the HTTP `status` answered, `iat` (seconds) and a
 * `jti`. The site's public keys are a JWKS at RECEIPT_KEYS_PATH; POST RECEIPT_VERIFY_PATH checks
 * a receipt for anyone who holds one. node:crypto only; written apart from the runtime's checker
 * (src/agentgate/receipt*.ts) so that each checks the other.
 */

/** The answer header a receipt travels in (the manifest's `receipts.header`). */
export const RECEIPT_HEADER = 'AgentGate-Receipt';

/** Path of the site's receipt keys, a JWKS (RFC 7517 §5) (the manifest's `receipts.jwks`). */
export const RECEIPT_KEYS_PATH = '/.well-known/agentgate-keys.json';

/** Path that verifies a receipt (the manifest's `receipts.verify`): POST `{ "receipt": "<jws>" }`. */
export const RECEIPT_VERIFY_PATH = '/v1/receipts/verify';

/** Media type of the JWKS (RFC 7517 §8.5.2). */
export const JWKS_MEDIA_TYPE = 'application/jwk-set+json';

/** The receipt's JOSE `typ`. */
export const RECEIPT_TYPE = 'agentgate-receipt+jws';

/** How many keys the JWKS publishes after rotations (the current one first): older receipts still verify. */
export const MAX_PUBLISHED_KEYS = 3;

/**
 * @typedef {object} ReceiptClaims what a receipt says the site accepted
 * @property {string} iss the site's origin, e.g. `http://127.0.0.1:5173`
 * @property {string} tool the tool name, e.g. `send_message`
 * @property {string} action the site action, e.g. `agent_submit`
 * @property {string} nonce the `nonce` of the request's signature
 * @property {string} contentDigest the request's `Content-Digest` as received
 * @property {number} status the HTTP status answered
 * @property {number} iat issued at, seconds since the epoch
 * @property {string} jti the receipt's own id
 */

/**
 * @typedef {object} ReceiptKey one Ed25519 signing key of the site
 * @property {string} kid its RFC 7638 JWK thumbprint
 * @property {import('node:crypto').KeyObject} privateKey
 * @property {{ kty: 'OKP', crv: 'Ed25519', x: string }} publicJwk
 */

const base64url = (bytes) => Buffer.from(bytes).toString('base64url');

/**
 * A new Ed25519 receipt key.
 * @returns {ReceiptKey}
 */
export function createReceiptKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const { x } = /** @type {{ x: string }} */ (publicKey.export({ format: 'jwk' }));
  const publicJwk = /** @type {const} */ ({ kty: 'OKP', crv: 'Ed25519', x });
  const kid = createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');
  return { kid, privateKey, publicJwk };
}

/**
 * A compact JWS of `claims` signed with `key` (header `{ alg: "EdDSA", kid, typ }`).
 * @param {Record<string, unknown>} claims the payload
 * @param {ReceiptKey} key
 * @returns {string} `<header>.<payload>.<signature>`, base64url without padding
 */
export function signReceipt(claims, key) {
  const header = base64url(JSON.stringify({ alg: 'EdDSA', kid: key.kid, typ: RECEIPT_TYPE }));
  const payload = base64url(JSON.stringify(claims));
  const signature = sign(null, Buffer.from(`${header}.${payload}`, 'ascii'), key.privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}

/**
 * The site's receipt signer: its keys (one at first), the JWKS it publishes, rotation, and the
 * verification the verify route answers with.
 * @param {object} [options]
 * @param {() => number} [options.now] clock in ms (default Date.now)
 * @returns {{
 *   issue: (claims: Omit<ReceiptClaims, 'iat' | 'jti'>) => string,
 *   jwks: () => { keys: object[] },
 *   rotate: () => string,
 *   currentKid: () => string,
 *   verify: (receipt: unknown) => { valid: true, kid: string, claims: ReceiptClaims } | { valid: false, reason: string },
 * }} `issue` signs a receipt with the current key; `rotate` makes a new current key and returns
 *   its kid (the JWKS keeps the MAX_PUBLISHED_KEYS newest); `verify` checks a compact JWS against
 *   the published keys.
 */
export function createReceiptSigner({ now = Date.now } = {}) {
  /** @type {ReceiptKey[]} newest first */
  let keys = [createReceiptKey()];
  return {
    issue(claims) {
      return signReceipt({ ...claims, iat: Math.floor(now() / 1000), jti: randomUUID() }, keys[0]);
    },
    jwks() {
      return { keys: keys.map((key) => ({ ...key.publicJwk, kid: key.kid, alg: 'EdDSA', use: 'sig' })) };
    },
    rotate() {
      keys = [createReceiptKey(), ...keys].slice(0, MAX_PUBLISHED_KEYS);
      return keys[0].kid;
    },
    currentKid() {
      return keys[0].kid;
    },
    verify(receipt) {
      if (typeof receipt !== 'string') return { valid: false, reason: 'receipt must be a string (the compact JWS of the AgentGate-Receipt header).' };
      const parts = receipt.split('.');
      if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) return { valid: false, reason: 'The receipt is not a compact JWS (three base64url parts).' };
      let header;
      let claims;
      try {
        header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
        claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
      } catch {
        return { valid: false, reason: 'The receipt\'s header or payload is not JSON.' };
      }
      if (header?.alg !== 'EdDSA' || typeof header.kid !== 'string') return { valid: false, reason: 'The receipt\'s header needs alg "EdDSA" and a kid.' };
      const key = keys.find((candidate) => candidate.kid === header.kid);
      if (!key) return { valid: false, reason: `Unknown key: ${header.kid} is not one of this site's receipt keys.` };
      const publicKey = createPublicKey({ key: key.publicJwk, format: 'jwk' });
      const valid = verify(null, Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii'), publicKey, Buffer.from(parts[2], 'base64url'));
      return valid ? { valid: true, kid: key.kid, claims } : { valid: false, reason: 'The signature does not verify: the receipt was changed after the site signed it.' };
    },
  };
}
