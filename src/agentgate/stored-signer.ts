import { get, set } from 'idb-keyval';
import { jwkThumbprint, type OkpPublicJwk } from './jwk-thumbprint.js';
import { signerFromCryptoKey, type Signer } from './signer.js';

/**
 * The agent's signing key kept in IndexedDB (idb-keyval) as a non-extractable WebCrypto key:
 * structured clone stores the CryptoKey itself, so the private key material is never exported,
 * serialised or put in any other storage.
 */

/** Where keys are kept: idb-keyval's `get`/`set` by default; any store of structured-cloneable values works. */
export interface KeyStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** The JWKS document an agent publishes at `/.well-known/http-message-signatures-directory`. */
export interface SignatureDirectory {
  keys: OkpPublicJwk[];
}

/** Media type of that directory (draft-ietf-webbotauth-httpsig-protocol). */
export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

/** Path of the directory on the agent's origin. */
export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

/** Options of loadStoredSigner. */
export type StoredSignerOptions =
  | {
    alg: 'ed25519';
    /** Signature label (default `sig1`). */
    label?: string;
    /** The agent's origin that serves the directory, sent as `Signature-Agent`. */
    signatureAgent?: string;
    /**
     * Import this private JWK (once, non-extractable) instead of generating a key, e.g. a demo
     * key. Ignored when a key is already stored under `storageKey`.
     */
    privateJwk?: JsonWebKey;
    /** idb-keyval key (default `capell-webmcp:signing-key:ed25519`). */
    storageKey?: string;
    storage?: KeyStorage;
  }
  | {
    alg: 'hmac-sha256';
    label?: string;
    /** The key id the site issued with the secret. */
    keyid: string;
    /** The shared secret, imported once as a non-extractable key; needed only when none is stored yet. */
    secret?: Uint8Array;
    /** idb-keyval key (default `capell-webmcp:signing-key:hmac-sha256:<keyid>`). */
    storageKey?: string;
    storage?: KeyStorage;
  };

/** What loadStoredSigner returns: the signer, and for Ed25519 what the agent publishes. */
export interface StoredSigner {
  signer: Signer;
  /** The public key with `kid` = its thumbprint (Ed25519 only). */
  publicJwk?: OkpPublicJwk;
  /** `{ keys: [publicJwk] }`, to serve as DIRECTORY_MEDIA_TYPE at DIRECTORY_PATH (Ed25519 only). */
  directory?: SignatureDirectory;
}

interface StoredEd25519 { privateKey: CryptoKey; publicJwk: OkpPublicJwk }

const idbStorage: KeyStorage = { get: (key) => get(key), set: (key, value) => set(key, value) };

function isStoredEd25519(value: unknown): value is StoredEd25519 {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<StoredEd25519>;
  return entry.privateKey instanceof CryptoKey && typeof entry.publicJwk?.x === 'string';
}

/** Refuse a stored key that could be exported: this store only ever holds non-extractable keys. */
function requireNonExtractable(key: CryptoKey): CryptoKey {
  if (key.extractable) throw new Error('loadStoredSigner: the stored signing key is extractable; refusing to use it');
  return key;
}

/**
 * Load the agent's signing key from storage, or make it (generate an Ed25519 key pair, import a
 * given private JWK, or import a shared secret) as a non-extractable key and store it; then make
 * a signer over it.
 * @returns `signer`; for Ed25519 also `publicJwk` and `directory` for the agent to publish
 * @throws Error when an HMAC key is neither stored nor given as `secret`, or a stored key is
 *   extractable; WebCrypto errors (e.g. no Ed25519 support) as they are
 * @example
 * const { signer, directory } = await loadStoredSigner({ alg: 'ed25519', signatureAgent: 'https://agent.example' });
 */
export async function loadStoredSigner(options: StoredSignerOptions): Promise<StoredSigner> {
  const storage = options.storage ?? idbStorage;
  const label = options.label ?? 'sig1';
  if (options.alg === 'hmac-sha256') {
    const storageKey = options.storageKey ?? `capell-webmcp:signing-key:hmac-sha256:${options.keyid}`;
    let key = await storage.get(storageKey);
    if (!(key instanceof CryptoKey)) {
      if (options.secret === undefined) throw new Error(`loadStoredSigner: no shared key ${options.keyid} is stored and no secret was given`);
      key = await crypto.subtle.importKey('raw', new Uint8Array(options.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      await storage.set(storageKey, key);
    }
    return { signer: signerFromCryptoKey(requireNonExtractable(key as CryptoKey), { label, keyid: options.keyid }) };
  }
  const storageKey = options.storageKey ?? 'capell-webmcp:signing-key:ed25519';
  let stored = await storage.get(storageKey);
  if (!isStoredEd25519(stored)) {
    let privateKey: CryptoKey;
    let publicJwk: OkpPublicJwk;
    if (options.privateJwk !== undefined) {
      const { kty, crv, x, d } = options.privateJwk;
      if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string' || typeof d !== 'string') {
        throw new TypeError('loadStoredSigner: privateJwk must be an Ed25519 private key ({ kty: "OKP", crv: "Ed25519", x, d })');
      }
      privateKey = await crypto.subtle.importKey('jwk', { kty, crv, x, d }, { name: 'Ed25519' }, false, ['sign']);
      publicJwk = { kty, crv, x };
    } else {
      const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
      privateKey = pair.privateKey;
      const exported = await crypto.subtle.exportKey('jwk', pair.publicKey);
      publicJwk = { kty: 'OKP', crv: 'Ed25519', x: String(exported.x) };
    }
    publicJwk.kid = await jwkThumbprint(publicJwk);
    stored = { privateKey, publicJwk };
    await storage.set(storageKey, stored);
  }
  const { privateKey, publicJwk } = stored as StoredEd25519;
  const keyid = await jwkThumbprint(publicJwk);
  const identity = options.signatureAgent === undefined ? { label, keyid } : { label, keyid, signatureAgent: options.signatureAgent };
  const signer = signerFromCryptoKey(requireNonExtractable(privateKey), identity);
  return { signer, publicJwk: { ...publicJwk }, directory: { keys: [{ ...publicJwk }] } };
}
