/**
 * Signing one outgoing request in the agent's network layer (RFC 9421 HTTP Message Signatures,
 * RFC 9530 Content-Digest, Web Bot Auth). What is signed comes from the agent alone: the
 * components from the manifest the agent read (plus the signature-agent member and the price it
 * pays), the digest from the exact body bytes, fresh `created`/`expires`/`nonce`. The page's own
 * signature and payment headers are dropped, whatever they say.
 */
import { serializeDictionary } from 'structured-headers';
import { toBase64Url } from '../agentgate/call/base64.js';
import { sameComponent } from '../agentgate/call/component-floor.js';
import { contentDigest } from '../agentgate/call/content-digest.js';
import type { Component, HttpMessage, SignatureParams } from '../agentgate/call/signature-base.js';
import { signMessage, WEB_BOT_AUTH_TAG, type Signer } from './signer.js';

/** Request headers a page may set that only the agent may write: signatures and payment offers. */
export const AGENT_ONLY_HEADERS: readonly string[] = [
  'signature', 'signature-input', 'signature-agent', 'content-digest', 'crawler-exact-price', 'crawler-max-price',
];

/** The request header that pays exactly the price the site named (pay per crawl). */
const EXACT_PRICE_HEADER = 'crawler-exact-price';

/** How long an agent signature stays valid, in ms: 5 minutes (Web Bot Auth: keep it minutes). */
const SIGNATURE_VALIDITY_MS = 5 * 60 * 1000;

/** Random bytes in a nonce (sent as unpadded base64url). */
const NONCE_BYTES = 32;

/** A request as the DevTools protocol pauses it. */
export interface OutgoingRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  /** Header fields as the page set them (any case). */
  headers: Record<string, string>;
  /** The exact body bytes; empty for none. */
  body: Uint8Array;
}

/** What the agent signs a request with. */
export interface SignPlan {
  /** Covered components, in order; `content-digest` and, for a signer with a `signatureAgent`, its member are added when missing. */
  components: readonly Component[];
  /** The Content-Type to send (the manifest's `endpoint.contentType`); the page's value otherwise. */
  contentType?: string;
  /** A price the agent pays (`crawler-exact-price`, e.g. `USD 0.01`), covered by the signature. */
  price?: string;
  /** Fixed nonce, for tests; default NONCE_BYTES random bytes. */
  nonce?: string;
  /** Clock in ms since the epoch, for tests. @default Date.now() */
  now?: number;
}

/** The signed request's headers and what a receipt must cover. */
export interface SignedHeaders {
  /** Every header to send, as `continueRequest` takes them (name, value). */
  headers: { name: string; value: string }[];
  nonce: string;
  /** The `Content-Digest` sent. */
  contentDigest: string;
  /** The components covered, in order. */
  components: Component[];
}

/**
 * Signs a request: drops AGENT_ONLY_HEADERS the page set, sets `Content-Digest` (sha-256 of
 * `body`), the `Signature-Agent` dictionary with only this signer's member, the price header
 * when paying, and `Signature-Input`/`Signature` with one signature under the signer's label:
 * `created`, `expires` (+SIGNATURE_VALIDITY_MS), `keyid`, `nonce`, and `tag="web-bot-auth"` for
 * Ed25519 (never for HMAC: shared keys are not Web Bot Auth).
 * @returns the full header list to send. @throws Error when a covered header is not on the
 *   request (RFC 9421 §2.5: the signer fails); the signer's WebCrypto errors as they are.
 */
export async function signOutgoingRequest(request: OutgoingRequest, signer: Signer, plan: SignPlan): Promise<SignedHeaders> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (!AGENT_ONLY_HEADERS.includes(name.toLowerCase())) headers.set(name, value);
  }
  if (plan.contentType !== undefined) headers.set('Content-Type', plan.contentType);
  const digest = await contentDigest(request.body);
  headers.set('Content-Digest', digest);
  const components = [...plan.components];
  const add = (component: Component) => {
    if (!components.some((known) => sameComponent(known, component))) components.push(component);
  };
  add('content-digest');
  if (plan.price !== undefined) {
    headers.set(EXACT_PRICE_HEADER, plan.price);
    add(EXACT_PRICE_HEADER);
  }
  if (signer.signatureAgent !== undefined) {
    headers.set('Signature-Agent', serializeDictionary(new Map([[signer.label, [signer.signatureAgent, new Map()]]])));
    add({ name: 'signature-agent', key: signer.label });
  }
  const created = Math.floor((plan.now ?? Date.now()) / 1000);
  const nonce = plan.nonce ?? toBase64Url(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
  const params: SignatureParams = { created, expires: created + SIGNATURE_VALIDITY_MS / 1000, keyid: signer.keyid, nonce };
  if (signer.alg === 'ed25519') params.tag = WEB_BOT_AUTH_TAG;
  const message: HttpMessage = { method: request.method, url: request.url, headers };
  const signed = await signMessage(message, signer, { components, params });
  headers.set('Signature-Input', signed.signatureInput);
  headers.set('Signature', signed.signatureHeader);
  const list: { name: string; value: string }[] = [];
  headers.forEach((value, name) => list.push({ name, value }));
  return { headers: list, nonce, contentDigest: digest, components };
}
