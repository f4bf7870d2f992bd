/**
 * AgentGate signing, the table of contents: what the runtime's request path and an agent need to
 * sign calls to a site's declared tools (RFC 9421 HTTP Message Signatures, RFC 9530
 * Content-Digest, Web Bot Auth). WebCrypto only; runs in the browser and in Node 20.
 */
export { contentDigest } from './call/content-digest.js';
export { jwkThumbprint, type OkpPublicJwk } from '../agent/jwk-thumbprint.js';
export {
  buildSignatureBase, type Component, type ComponentId, type HttpMessage, type SignatureBase, type SignatureParams,
} from './call/signature-base.js';
export {
  DEFAULT_EXPIRES_IN_MS, WEB_BOT_AUTH_TAG, signMessage, signRequest, signerFromCryptoKey,
  type MessageSignature, type SignRequestOptions, type SignatureAlgorithm, type Signer,
} from '../agent/signer.js';
