import { toBase64Url } from '../agentgate/call/base64.js';

/**
 * The JWK thumbprint (RFC 7638 §3, sha-256, base64url without padding) of an Ed25519 key, which
 * Web Bot Auth uses as the signature's `keyid`. Only the required members count, in
 * lexicographic order (`crv`, `kty`, `x`, RFC 8037 §2), so a private JWK gives the same value.
 * @param jwk an OKP key with `crv` `Ed25519` (other members are ignored)
 * @returns 43 base64url characters, e.g. `poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U` for RFC 9421's
 *   `test-key-ed25519`
 * @throws TypeError when the key is not an Ed25519 OKP key with a string `x`
 */
export async function jwkThumbprint(jwk: { kty?: string; crv?: string; x?: string }): Promise<string> {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new TypeError('jwkThumbprint: only Ed25519 OKP keys ({ kty: "OKP", crv: "Ed25519", x }) are supported');
  }
  // JSON.stringify of these three strings is the RFC 7638 canonical form: no whitespace, members sorted.
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return toBase64Url(new Uint8Array(digest));
}
