import { parseDictionary, serializeDictionary, serializeItem, type Dictionary } from 'structured-headers';
import { toBase64Url } from '../agentgate/call/base64.js';
import { contentDigest } from '../agentgate/call/content-digest.js';
import { buildSignatureBase, componentItem, type Component, type HttpMessage, type SignatureParams } from '../agentgate/call/signature-base.js';

/** Signature algorithms a signer may use (RFC 9421 §3.3.6 `ed25519`, §3.3.3 `hmac-sha256`). */
type SignatureAlgorithm = 'ed25519' | 'hmac-sha256';

/**
 * Who signs: the agent's key, never the page's. `sign` gets the UTF-8 bytes of the signature base
 * and returns the raw signature (64 bytes for Ed25519, 32 for HMAC-SHA256).
 */
export interface Signer {
  /** The signature's label in `Signature-Input`, `Signature` and `Signature-Agent`, e.g. `sig1` (an RFC 9651 key). */
  readonly label: string;
  /**
   * The agent's origin (e.g. `https://agent.example`) whose
   * `/.well-known/http-message-signatures-directory` publishes the public key; sent as the
   * `Signature-Agent` member under `label` and covered as `"signature-agent";key="<label>"`.
   * A shared-key (HMAC) signer has none.
   */
  readonly signatureAgent?: string;
  /** `keyid` parameter: the JWK thumbprint (RFC 7638) for Ed25519, the site-issued id for a shared key. */
  readonly keyid: string;
  readonly alg: SignatureAlgorithm;
  sign(bytes: Uint8Array): Promise<Uint8Array>;
}

/** The Web Bot Auth tag; never put on a shared-key (HMAC) signature. */
export const WEB_BOT_AUTH_TAG = 'web-bot-auth';

/** How long a signature made by signRequest stays valid by default: 5 minutes. */
const DEFAULT_EXPIRES_IN_MS = 5 * 60 * 1000;

/**
 * A signer over a WebCrypto key the caller holds (typically non-extractable): an `Ed25519`
 * private key or an `HMAC` SHA-256 key.
 * @param key the signing key; its `usages` must include `sign`
 * @param identity `label` (default `sig1`), `keyid`, and for Ed25519 optionally `signatureAgent`
 * @throws TypeError when the key is of another algorithm or cannot sign
 */
export function signerFromCryptoKey(key: CryptoKey, identity: { label?: string; keyid: string; signatureAgent?: string }): Signer {
  const algorithm = key.algorithm as KeyAlgorithm & { hash?: { name: string } };
  let alg: SignatureAlgorithm;
  if (algorithm.name === 'Ed25519') alg = 'ed25519';
  else if (algorithm.name === 'HMAC' && algorithm.hash?.name === 'SHA-256') alg = 'hmac-sha256';
  else throw new TypeError(`signerFromCryptoKey: ${algorithm.name} keys cannot sign here (Ed25519 or HMAC SHA-256 only)`);
  if (!key.usages.includes('sign')) throw new TypeError('signerFromCryptoKey: the key has no "sign" usage');
  const webCryptoAlgorithm = alg === 'ed25519' ? 'Ed25519' : 'HMAC';
  return {
    label: identity.label ?? 'sig1',
    ...(identity.signatureAgent !== undefined && alg === 'ed25519' ? { signatureAgent: identity.signatureAgent } : {}),
    keyid: identity.keyid,
    alg,
    async sign(bytes) {
      return new Uint8Array(await crypto.subtle.sign(webCryptoAlgorithm, key, new Uint8Array(bytes)));
    },
  };
}

/** What signMessage made: the base signed, and the two header values with this signature merged in. */
interface MessageSignature {
  /** The signature base (RFC 9421 §2.5) that was signed. */
  signatureBase: string;
  /** The raw signature bytes. */
  signature: Uint8Array;
  /** `Signature-Input` with this label's member set (other labels kept), RFC 9651 serialised. */
  signatureInput: string;
  /** `Signature` with this label's member set (other labels kept). */
  signatureHeader: string;
}

/** Parse a dictionary header already on the message, or start an empty one. */
function existingDictionary(message: HttpMessage, name: string): Dictionary {
  const value = message.headers.get(name);
  return value === null ? new Map() : parseDictionary(value);
}

/**
 * Sign a message with exactly these components and parameters (RFC 9421 §3.1), no policy added:
 * the building block of signRequest, and what reproduces the RFC's own examples.
 * @param message the request as it will be sent (headers the components cover must be on it)
 * @param signer the key
 * @param options `components` in order; `params` in serialisation order
 * @returns the signature base, the signature and the merged `Signature-Input`/`Signature` values
 * @throws Error when a covered component is absent; the signer's own errors (e.g. WebCrypto) as they are
 */
export async function signMessage(
  message: HttpMessage,
  signer: Signer,
  options: { components: readonly Component[]; params: SignatureParams },
): Promise<MessageSignature> {
  const { base, innerList } = buildSignatureBase(message, options.components, options.params);
  const signature = await signer.sign(new TextEncoder().encode(base));
  const inputs = existingDictionary(message, 'signature-input');
  const signatures = existingDictionary(message, 'signature');
  inputs.set(signer.label, innerList);
  signatures.set(signer.label, [new Uint8Array(signature), new Map()]);
  return { signatureBase: base, signature, signatureInput: serializeDictionary(inputs), signatureHeader: serializeDictionary(signatures) };
}

/** Options of signRequest. */
interface SignRequestOptions {
  /** Components to cover, e.g. a tool's `auth[0].components`; the signature-agent member is added for a signer that has one. */
  components: readonly Component[];
  /**
   * `tag` parameter; default `web-bot-auth` for Ed25519, none for HMAC; `null` for none.
   * A `web-bot-auth` tag with an HMAC signer is refused.
   */
  tag?: string | null;
  /** Validity from `created` to `expires`, in milliseconds (default 5 minutes; rounded up to seconds). */
  expiresInMs?: number;
  /** `nonce` parameter; default 32 random bytes as base64url. */
  nonce?: string;
  /** Clock in milliseconds since the epoch (default `Date.now()`), for tests. */
  now?: number;
}

/** 32 random bytes as unpadded base64url. */
function randomNonce(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * Sign a fetch `Request` for an AgentGate tool call, shaped as the request path's `beforeSend`
 * hook: returns a new Request with the same URL, method, body bytes and init, plus
 * - `Content-Digest` (RFC 9530, sha-256) of the exact body bytes, when there is a body or
 *   `content-digest` is covered;
 * - `Signature-Agent` (a Structured Fields dictionary, this signer's label merged in) and the
 *   covered member `"signature-agent";key="<label>"` (RFC 9421 §2.1.2), for a signer with a
 *   `signatureAgent`;
 * - `Signature-Input` and `Signature` with `created`, `expires`, `keyid`, `nonce` and `tag`
 *   (`web-bot-auth` by default for Ed25519, never for HMAC).
 * The original request's body is read through a clone, so it stays usable.
 * @throws TypeError for a `web-bot-auth` tag on an HMAC signer or a malformed component;
 *   Error when a covered header is missing from the request
 */
export async function signRequest(request: Request, signer: Signer, options: SignRequestOptions): Promise<Request> {
  const tag = options.tag === undefined ? (signer.alg === 'ed25519' ? WEB_BOT_AUTH_TAG : null) : options.tag;
  if (signer.alg === 'hmac-sha256' && tag === WEB_BOT_AUTH_TAG) {
    throw new TypeError('signRequest: a shared-key (hmac-sha256) signature must not carry the web-bot-auth tag');
  }
  const hasBody = request.body !== null;
  const body = hasBody ? new Uint8Array(await request.clone().arrayBuffer()) : new Uint8Array(0);
  const headers = new Headers(request.headers);
  const components = [...options.components];
  const covers = (name: string) => components.some((component) => (typeof component === 'string' ? component : component.name) === name);
  if (hasBody || covers('content-digest')) headers.set('Content-Digest', await contentDigest(body));
  if (signer.signatureAgent !== undefined) {
    const agents = headers.has('signature-agent') ? parseDictionary(headers.get('signature-agent') ?? '') : new Map();
    agents.set(signer.label, [signer.signatureAgent, new Map()]);
    headers.set('Signature-Agent', serializeDictionary(agents));
    const member = { name: 'signature-agent', key: signer.label };
    const memberId = serializeItem(componentItem(member));
    if (!components.some((component) => serializeItem(componentItem(component)) === memberId)) components.push(member);
  }
  const created = Math.floor((options.now ?? Date.now()) / 1000);
  const expires = created + Math.ceil((options.expiresInMs ?? DEFAULT_EXPIRES_IN_MS) / 1000);
  const params: SignatureParams = { created, expires, keyid: signer.keyid, nonce: options.nonce ?? randomNonce() };
  if (tag !== null) params.tag = tag;
  const signed = await signMessage({ method: request.method, url: request.url, headers }, signer, { components, params });
  headers.set('Signature-Input', signed.signatureInput);
  headers.set('Signature', signed.signatureHeader);
  const init: RequestInit = {
    method: request.method,
    headers,
    credentials: request.credentials,
    cache: request.cache,
    redirect: request.redirect,
    referrer: request.referrer,
    referrerPolicy: request.referrerPolicy,
    integrity: request.integrity,
    keepalive: request.keepalive,
    signal: request.signal,
  };
  if (request.mode !== 'navigate') init.mode = request.mode;
  if (hasBody) init.body = body;
  return new Request(request.url, init);
}
