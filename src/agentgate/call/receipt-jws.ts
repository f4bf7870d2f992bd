/**
 * Compact JWS (RFC 7515 §7.1) of an AgentGate receipt, signed EdDSA over Ed25519 (RFC 8037; also
 * the fully-specified `Ed25519` of RFC 9864), parsed and verified with WebCrypto. Hand-written
 * rather than a JOSE library: receipts need one algorithm and one serialisation (about 60 lines),
 * the key set must come through the runtime's own bounded request path (receipt-keys.ts), and the
 * call chunk stays within the size budget.
 */
import { fromBase64 } from './base64.js';
import { MAX_RECEIPT_LENGTH } from '../discover/receipt-store.js';

/** JWS `alg` values a receipt may carry: EdDSA (RFC 8037 §3.1) or Ed25519 (RFC 9864). */
const RECEIPT_ALGORITHMS: readonly string[] = ['EdDSA', 'Ed25519'];

/** Longest receipt read, in characters (a receipt is a few hundred); kept receipts are bounded by it too. */
export { MAX_RECEIPT_LENGTH };

/** A parsed receipt: its protected header, its claims, and what the signature covers. */
interface ReceiptJWS {
  header: { alg: string; kid: string; typ?: string };
  claims: Record<string, unknown>;
  /** The ASCII bytes of `<header>.<payload>` (RFC 7515 §5.2, the JWS Signing Input). */
  signingInput: Uint8Array<ArrayBuffer>;
  signature: Uint8Array<ArrayBuffer>;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeJSON(part: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(part)));
  } catch {
    throw new TypeError(`its ${what} is not base64url JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`its ${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

/**
 * Parses a receipt: three base64url parts, a header with `alg` EdDSA (or Ed25519) and a string
 * `kid` and no `crit` (no extension is understood: RFC 7515 §4.1.11), a JSON object payload.
 * @throws TypeError with the one-line reason, e.g. `its header names alg "HS256", not EdDSA`
 */
export function parseReceiptJWS(text: string): ReceiptJWS {
  if (text.length > MAX_RECEIPT_LENGTH) throw new TypeError(`it is longer than ${MAX_RECEIPT_LENGTH} characters`);
  const parts = text.trim().split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) throw new TypeError('it is not a compact JWS (three base64url parts)');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJSON(headerPart, 'header');
  if (typeof header.alg !== 'string' || !RECEIPT_ALGORITHMS.includes(header.alg)) throw new TypeError(`its header names alg ${JSON.stringify(header.alg) ?? 'nothing'}, not EdDSA`);
  if (typeof header.kid !== 'string' || header.kid === '') throw new TypeError('its header names no kid');
  if (header.crit !== undefined) throw new TypeError('its header has crit extensions this runtime does not understand');
  const claims = decodeJSON(payloadPart, 'payload');
  const signature = fromBase64(signaturePart);
  if (signature.byteLength !== 64) throw new TypeError('its signature is not 64 bytes (Ed25519)');
  return {
    header: { alg: header.alg, kid: header.kid, ...(typeof header.typ === 'string' ? { typ: header.typ } : {}) },
    claims,
    signingInput: new TextEncoder().encode(`${headerPart}.${payloadPart}`),
    signature,
  };
}

/** An Ed25519 public key as a JWK (RFC 8037 §2): `x` is the 32-byte key, base64url. */
export interface Ed25519PublicJWK {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
}

/**
 * Whether the receipt's signature verifies with `jwk` (WebCrypto `Ed25519`).
 * @returns true or false; rejects only when the key cannot be imported (a DOMException whose
 *   `name` says why, e.g. `DataError`).
 */
export async function verifyReceiptSignature(jws: ReceiptJWS, jwk: Ed25519PublicJWK): Promise<boolean> {
  const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
  return crypto.subtle.verify({ name: 'Ed25519' }, key, jws.signature, jws.signingInput);
}
