import { createHash, webcrypto } from 'node:crypto';
import { parseDictionary, serializeDictionary, serializeInnerList, serializeItem } from 'structured-headers';

/**
 * The demo site's verifier of signed AgentGate calls (RFC 9421 HTTP Message Signatures, RFC 9530
 * Content-Digest, Web Bot Auth). Written apart from the runtime's signer (src/agentgate) so that
 * each checks the other; the cross-checks with third-party libraries are in the unit tests.
 *
 * Checks, in order, each refusal a 4xx with a one-line reason:
 * the request's authority is the site's own (421); `Signature-Input`/`Signature` present and
 * well-formed (403 with `Accept-Signature` when absent, 400 when malformed); `tag` as the tool
 * declares (`web-bot-auth`, and never on an HMAC/shared-key signature: 400); the declared
 * components covered, with the `"signature-agent";key="<label>"` member for web-bot-auth (403
 * with `Accept-Signature`); `created`/`expires` present and `created <= now + skew`,
 * `expires >= now - skew`, window at most MAX_VALIDITY_S (401); `Content-Digest` equal to the
 * sha-256 of the body bytes (400); the key: for web-bot-auth from the agent's directory at
 * `<Signature-Agent>/.well-known/http-message-signatures-directory` (media type checked, no
 * redirect followed, bounded size and time, cached briefly), matched by JWK thumbprint; for
 * shared-key from the site's issued keys (401 when unknown or unreachable); the signature
 * (401); the nonce not seen before for this key (429 with `Retry-After`).
 */

/** Clock skew allowed on `created` and `expires`, in seconds. */
export const CLOCK_SKEW_S = 5;

/** Longest `expires - created` accepted, in seconds (Web Bot Auth recommends at most 24 h). */
export const MAX_VALIDITY_S = 24 * 60 * 60;

/** Media type a key directory must be served with. */
export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

/** Path of the key directory on the agent's origin. */
export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

/** How long a fetched directory is reused, in milliseconds. */
export const DIRECTORY_CACHE_MS = 30_000;

/** Bounds of a directory fetch: time in milliseconds and size in bytes. */
export const DIRECTORY_TIMEOUT_MS = 2_000;
export const DIRECTORY_MAX_BYTES = 64 * 1024;

/** Hosts whose directories this demo fetches: loopback only, so the demo never reaches outside the machine. */
const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

const DERIVED = new Set(['@method', '@target-uri', '@authority', '@scheme', '@request-target', '@path', '@query']);

/**
 * @typedef {object} SignedMessage what the verifier reads of a request
 * @property {string} method
 * @property {string} url absolute target URI as received (scheme of the connection, `Host`, request target)
 * @property {Record<string, string | string[] | undefined>} headers lower-case names (node's `req.headers`)
 * @property {Uint8Array} body the exact body bytes received
 */

/**
 * @typedef {object} DeclaredAuth a tool's `auth[0]`
 * @property {'web-bot-auth' | 'shared-key'} type
 * @property {string[]} components
 * @property {string} [tag]
 */

/**
 * @typedef {{ ok: true, label: string, keyid: string, alg: 'ed25519' | 'hmac-sha256', agent?: string, nonce: string }
 *   | { ok: false, status: number, reason: string, headers?: Record<string, string> }} Verdict
 */

/** A refusal verdict. */
function refuse(status, reason, headers) {
  return headers ? { ok: false, status, reason, headers } : { ok: false, status, reason };
}

/** One header's combined value, or undefined. */
function header(message, name) {
  const value = message.headers[name];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value.join(', ') : value).trim();
}

/** `Accept-Signature` (RFC 9421 §5.1) asking for what the tool declares. */
function acceptSignature(auth, label) {
  const items = auth.components.map((name) => [name, new Map()]);
  if (auth.type === 'web-bot-auth') items.push(['signature-agent', new Map([['key', label]])]);
  const params = new Map();
  if (auth.type === 'web-bot-auth') params.set('tag', auth.tag ?? 'web-bot-auth');
  return serializeDictionary(new Map([[label, [items, params]]]));
}

/** The value of one covered component (RFC 9421 §2.1, §2.2), or undefined when absent. */
function componentValue(message, item) {
  const [name, params] = item;
  const url = new URL(message.url);
  url.hash = '';
  switch (name) {
    case '@method': return message.method;
    case '@target-uri': return url.href;
    case '@authority': return url.host.toLowerCase();
    case '@scheme': return url.protocol.slice(0, -1);
    case '@request-target': return `${url.pathname}${url.search}`;
    case '@path': return url.pathname || '/';
    case '@query': return url.search || '?';
    default: break;
  }
  if (name.startsWith('@')) throw new Error(`unsupported derived component ${name}`);
  const value = header(message, name);
  if (value === undefined) return undefined;
  if (!params.has('key')) return value;
  const member = parseDictionary(value).get(String(params.get('key')));
  if (member === undefined) return undefined;
  // RFC 9421 §2.1.2: the member's value, not the whole field.
  return Array.isArray(member[0]) ? serializeInnerList(member) : serializeItem(member);
}

/**
 * Read a response body up to a byte limit.
 * @param {Response} response
 * @param {number} limit
 * @returns {Promise<string | undefined>} undefined when the body is larger
 */
async function readBounded(response, limit) {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** RFC 7638 thumbprint of an Ed25519 JWK (required members `crv`, `kty`, `x` in order). */
function thumbprint(jwk) {
  return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })).digest('base64url');
}

/**
 * A verifier with its own directory cache and nonce memory.
 * @param {object} [options]
 * @param {() => number} [options.now] clock in milliseconds (default Date.now)
 * @param {Record<string, string>} [options.sharedKeys] shared-key id → base64 secret the site issued
 * @param {number} [options.directoryCacheMs] how long a directory is reused (default DIRECTORY_CACHE_MS)
 * @param {number} [options.directoryTimeoutMs] bound of a key set fetch, and the time every failed one takes, in ms (default DIRECTORY_TIMEOUT_MS)
 * @param {typeof fetch} [options.fetch] fetch used for directories (default global fetch)
 * @returns {{
 *   verify: (message: SignedMessage, auth: DeclaredAuth, ownAuthorities: string[]) => Promise<Verdict>,
 *   clearDirectoryCache: () => void,
 * }}
 */
export function createVerifier({ now = Date.now, sharedKeys = {}, directoryCacheMs = DIRECTORY_CACHE_MS, directoryTimeoutMs = DIRECTORY_TIMEOUT_MS, fetch: fetchDirectory = fetch } = {}) {
  /** @type {Map<string, { at: number, keys: object[] }>} directory URL → keys */
  const directories = new Map();
  /** @type {Map<string, number>} `keyid nonce` → expiry (ms) */
  const nonces = new Map();

  /**
   * The keys of an agent's key set, or the refusal reason. The `Signature-Agent` member's value
   * is the key set's URL itself (draft-ietf-webbotauth-httpsig-protocol-01), fetched as it is:
   * nothing is appended. Every failed fetch (refused, slow, dripping, redirected, another status,
   * media type or size, not a JWKS) gets one and the same reason, after the same time
   * (DIRECTORY_TIMEOUT_MS from the start), so a signed request cannot probe which loopback ports
   * are open.
   * @param {string} agent the Signature-Agent member's value
   * @returns {Promise<{ keys: object[] } | { reason: string }>}
   */
  async function directoryKeys(agent) {
    let url;
    try {
      url = new URL(agent);
    } catch {
      return { reason: `Signature-Agent ${JSON.stringify(agent)} is not a URL.` };
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.hash) {
      return { reason: `Signature-Agent ${agent} is not an http(s) URL of a key set.` };
    }
    if (!LOOPBACK_HOSTNAMES.has(url.hostname)) return { reason: `Signature-Agent ${agent} is not on loopback; this demo fetches key sets only there.` };
    const directoryUrl = url.href;
    const cached = directories.get(directoryUrl);
    if (cached && now() - cached.at < directoryCacheMs) return { keys: cached.keys };
    const started = Date.now();
    const keys = await fetchKeySet(directoryUrl);
    if (keys === undefined) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, directoryTimeoutMs - (Date.now() - started))));
      return { reason: `The agent's key set ${directoryUrl} could not be read: it must answer 200 with ${DIRECTORY_MEDIA_TYPE}, a JWKS of at most ${DIRECTORY_MAX_BYTES} bytes, within ${directoryTimeoutMs} ms, without redirects.` };
    }
    directories.set(directoryUrl, { at: now(), keys });
    return { keys };
  }

  /**
   * Fetches a key set within one deadline for the whole answer (headers and body).
   * @param {string} directoryUrl
   * @returns {Promise<object[] | undefined>} its Ed25519 keys, undefined on any failure
   */
  async function fetchKeySet(directoryUrl) {
    const signal = AbortSignal.timeout(directoryTimeoutMs);
    try {
      const response = await fetchDirectory(directoryUrl, { redirect: 'manual', signal, headers: { accept: DIRECTORY_MEDIA_TYPE } });
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (response.status !== 200 || mediaType !== DIRECTORY_MEDIA_TYPE) {
        await response.body?.cancel();
        return undefined;
      }
      const text = await readBounded(response, DIRECTORY_MAX_BYTES);
      if (text === undefined) return undefined;
      const document = JSON.parse(text);
      if (!document || !Array.isArray(document.keys)) return undefined;
      return document.keys.filter((key) => key && key.kty === 'OKP' && key.crv === 'Ed25519' && typeof key.x === 'string');
    } catch {
      return undefined;
    }
  }

  /**
   * Verify one signed request against the tool's declared auth.
   * @param {SignedMessage} message
   * @param {DeclaredAuth} auth
   * @param {string[]} ownAuthorities the authorities (`host[:port]`) this site answers as
   * @returns {Promise<Verdict>}
   */
  async function verify(message, auth, ownAuthorities) {
    const authority = new URL(message.url).host.toLowerCase();
    if (!ownAuthorities.includes(authority)) return refuse(421, `Wrong authority: ${authority} is not this site (${ownAuthorities.join(', ')}).`);

    const inputHeader = header(message, 'signature-input');
    const signatureHeader = header(message, 'signature');
    if (inputHeader === undefined || signatureHeader === undefined) {
      return refuse(403, 'The request is not signed (no Signature-Input or Signature); see Accept-Signature.', { 'Accept-Signature': acceptSignature(auth, 'sig1') });
    }
    let inputs;
    let signatures;
    try {
      inputs = parseDictionary(inputHeader);
      signatures = parseDictionary(signatureHeader);
    } catch (error) {
      return refuse(400, `Signature-Input or Signature is not a valid Structured Fields dictionary (${error instanceof Error ? error.message : String(error)}).`);
    }
    // Prefer the signature carrying the declared tag; otherwise the first one.
    const labels = [...inputs.keys()];
    const label = labels.find((candidate) => auth.tag !== undefined && inputs.get(candidate)?.[1].get('tag') === auth.tag) ?? labels[0];
    const input = label === undefined ? undefined : inputs.get(label);
    const signatureItem = label === undefined ? undefined : signatures.get(label);
    if (!input || !Array.isArray(input[0])) return refuse(400, 'Signature-Input has no signature (an inner list of components).');
    if (!signatureItem || !(signatureItem[0] instanceof ArrayBuffer)) return refuse(400, `Signature has no byte sequence for label ${label}.`);
    const [items, params] = input;
    const tag = params.get('tag');
    const alg = params.get('alg');
    if (tag === 'web-bot-auth' && (auth.type === 'shared-key' || alg === 'hmac-sha256')) {
      return refuse(400, 'A web-bot-auth tag on an HMAC (shared-key) signature: shared secrets must not claim Web Bot Auth.');
    }
    if (auth.type === 'web-bot-auth' && tag !== (auth.tag ?? 'web-bot-auth')) {
      return refuse(400, `The signature's tag is ${tag === undefined ? 'missing' : JSON.stringify(tag)}; this tool needs tag="${auth.tag ?? 'web-bot-auth'}".`);
    }
    if (alg !== undefined && alg !== (auth.type === 'web-bot-auth' ? 'ed25519' : 'hmac-sha256')) {
      return refuse(400, `The signature's alg ${JSON.stringify(alg)} is not the one this tool's auth uses.`);
    }

    const covered = items.map((item) => serializeItem(item));
    const required = auth.components.map((name) => serializeItem([name, new Map()]));
    if (auth.type === 'web-bot-auth') required.push(serializeItem(['signature-agent', new Map([['key', label]])]));
    const missing = required.filter((id) => !covered.includes(id));
    if (missing.length > 0) {
      return refuse(403, `A declared component is missing from the signature: ${missing.join(', ')}; see Accept-Signature.`, { 'Accept-Signature': acceptSignature(auth, label) });
    }

    const created = params.get('created');
    const expires = params.get('expires');
    const keyid = params.get('keyid');
    const nonce = params.get('nonce');
    if (!Number.isInteger(created) || !Number.isInteger(expires)) return refuse(400, 'The signature needs integer created and expires parameters.');
    if (typeof keyid !== 'string' || keyid === '') return refuse(400, 'The signature has no keyid.');
    if (typeof nonce !== 'string' || nonce === '') return refuse(400, 'The signature has no nonce.');
    const nowS = now() / 1000;
    if (created > nowS + CLOCK_SKEW_S) return refuse(401, `The signature was created in the future (created ${created}, now ${Math.floor(nowS)}).`);
    if (expires < nowS - CLOCK_SKEW_S) return refuse(401, `The signature expired (expires ${expires}, now ${Math.floor(nowS)}).`);
    if (expires <= created || expires - created > MAX_VALIDITY_S) return refuse(401, `The signature's validity (${expires - created} s) is not within 1 s to ${MAX_VALIDITY_S} s.`);

    if (covered.includes('"content-digest"') || message.body.byteLength > 0) {
      let digests;
      try {
        digests = parseDictionary(header(message, 'content-digest') ?? '');
      } catch {
        return refuse(400, 'Content-Digest is not a valid Structured Fields dictionary.');
      }
      const sha256 = digests.get('sha-256')?.[0];
      if (!(sha256 instanceof ArrayBuffer)) return refuse(400, 'Content-Digest has no sha-256 digest of the body.');
      const actual = createHash('sha256').update(message.body).digest();
      if (!actual.equals(Buffer.from(sha256))) return refuse(400, 'Content-Digest does not match the body: the body was changed after signing.');
    }

    // The signature base (RFC 9421 §2.5) from what was received.
    const lines = [];
    for (const item of items) {
      let value;
      try {
        value = componentValue(message, item);
      } catch (error) {
        return refuse(400, `A covered component cannot be read (${error instanceof Error ? error.message : String(error)}).`);
      }
      if (value === undefined) return refuse(400, `The covered component ${serializeItem(item)} is not in the request.`);
      lines.push(`${serializeItem(item)}: ${value}`);
    }
    lines.push(`"@signature-params": ${serializeInnerList(input)}`);
    const base = new TextEncoder().encode(lines.join('\n'));
    const signature = new Uint8Array(signatureItem[0]);

    let valid;
    let agent;
    if (auth.type === 'web-bot-auth') {
      let member;
      try {
        member = parseDictionary(header(message, 'signature-agent') ?? '').get(label);
      } catch {
        return refuse(400, 'Signature-Agent is not a valid Structured Fields dictionary.');
      }
      // A member with parameters (`;type=…`) is of a kind this verifier does not know: ignored, as if absent.
      const agentMember = member !== undefined && member[1].size === 0 ? member[0] : undefined;
      if (typeof agentMember !== 'string') return refuse(400, `Signature-Agent has no string member ${label} without parameters (members with parameters are ignored).`);
      agent = agentMember;
      const directory = await directoryKeys(agent);
      if ('reason' in directory) return refuse(401, directory.reason);
      const jwk = directory.keys.find((key) => thumbprint(key) === keyid);
      if (!jwk) return refuse(401, `Unknown key: ${keyid} is not in the directory of ${agent}.`);
      const publicKey = await webcrypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
      valid = await webcrypto.subtle.verify('Ed25519', publicKey, signature, base);
    } else {
      const secret = Object.hasOwn(sharedKeys, keyid) ? sharedKeys[keyid] : undefined;
      if (secret === undefined) return refuse(401, `Unknown key: no shared key ${keyid} was issued by this site.`);
      const key = await webcrypto.subtle.importKey('raw', Buffer.from(secret, 'base64'), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
      valid = await webcrypto.subtle.verify('HMAC', key, signature, base);
    }
    if (!valid) return refuse(401, 'The signature does not verify over the request as received.');

    // Replay: a nonce counts once per key until its signature expires.
    const nowMs = now();
    for (const [seen, until] of nonces) if (until < nowMs) nonces.delete(seen);
    const nonceKey = `${keyid} ${nonce}`;
    if (nonces.has(nonceKey)) return refuse(429, 'Replayed nonce: this signature was already used; sign again with a fresh nonce.', { 'Retry-After': '1' });
    nonces.set(nonceKey, (expires + CLOCK_SKEW_S) * 1000);

    return agent === undefined
      ? { ok: true, label, keyid, alg: 'hmac-sha256', nonce }
      : { ok: true, label, keyid, alg: 'ed25519', agent, nonce };
  }

  return {
    verify,
    clearDirectoryCache() {
      directories.clear();
    },
  };
}
