/**
 * A site's receipt keys: the JWKS (RFC 7517 §5) the manifest's
 * `receipts.jwks` names, fetched on the page's own origin through the one request path
 * (anonymous, no redirects, bounded in size and time, revalidated past the HTTP cache), kept in
 * memory for the page's life only, and fetched again once when a receipt names a `kid` the kept
 * set does not hold (the site rotated its key). Never in IndexedDB or any storage a script of the
 * page's origin can write: a key planted there would make a forged receipt verify.
 */
import { request } from '../../registry/request.js';
import type { Ed25519PublicJWK } from './receipt-jws.js';

/** Largest JWKS read, in bytes. */
const MAX_JWKS_BYTES = 64 * 1024;

/** Longest a JWKS fetch may take, in ms (or the runtime's `timeoutMs` when shorter). */
const JWKS_TIMEOUT_MS = 5_000;

/** How long a kept JWKS is used before it is fetched again, in ms (a kid it lacks fetches at once). */
const JWKS_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** A kept key set: its Ed25519 keys by kid, and when it was fetched (ms since the epoch). */
interface KeptKeySet {
  fetchedAt: number;
  keys: (Ed25519PublicJWK & { kid: string })[];
}

/** How a key is looked up. */
interface KeyLookup {
  /** The JWKS URL, on `origin`. */
  jwks: URL;
  origin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Clock in ms (default `Date.now()`), for tests. */
  now?: number;
}

/** A key found, or the one-line reason none was; `fetched` counts the JWKS fetches this lookup made (0 or 1). */
type KeyFound = { ok: true; jwk: Ed25519PublicJWK; fetched: number } | { ok: false; reason: string; fetched: number };

const memory = new Map<string, KeptKeySet>();

/**
 * The Ed25519 keys of a JWKS document: members with `kty` OKP, `crv` Ed25519, a string `x` and a
 * string `kid`, whose `use` (when given) is `sig`. Other keys are skipped, not refused.
 * @throws TypeError when the text is not a JSON object with a `keys` array
 */
export function parseReceiptKeys(text: string): KeptKeySet['keys'] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new TypeError('it is not JSON');
  }
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new TypeError('it has no "keys" array');
  return keys.flatMap((key: Record<string, unknown> | null) => (
    key && key.kty === 'OKP' && key.crv === 'Ed25519' && typeof key.x === 'string' && typeof key.kid === 'string' && (key.use === undefined || key.use === 'sig')
      ? [{ kty: 'OKP' as const, crv: 'Ed25519' as const, x: key.x, kid: key.kid }]
      : []
  ));
}

/** Fetches the JWKS and keeps it; the reason when it cannot. */
async function fetchKeys(lookup: KeyLookup, now: number): Promise<KeptKeySet | string> {
  const where = lookup.jwks.pathname;
  if (lookup.jwks.origin !== lookup.origin) return `the receipt keys ${lookup.jwks.href} are not on this page's origin`;
  const outcome = await request(lookup.jwks, {
    credentials: 'omit',
    redirect: 'error',
    cache: 'no-cache', // a rotated key must be seen at once, whatever the HTTP cache holds
    headers: { Accept: 'application/jwk-set+json, application/json' },
    timeoutMs: Math.min(lookup.timeoutMs, JWKS_TIMEOUT_MS),
    maxAnswerBytes: MAX_JWKS_BYTES,
    description: `the receipt keys request to ${where}`,
    ...(lookup.signal ? { signal: lookup.signal } : {}),
  });
  if (!outcome.ok) return outcome.reason;
  if (outcome.response.status !== 200) return `the receipt keys at ${where} answered ${outcome.response.status}`;
  let keys: KeptKeySet['keys'];
  try {
    keys = parseReceiptKeys(outcome.text);
  } catch (error) {
    return `the receipt keys at ${where} are not a JWKS: ${(error as Error).message}`;
  }
  const kept = { fetchedAt: now, keys };
  memory.set(lookup.jwks.href, kept);
  return kept;
}

/**
 * The public key a receipt names by `kid`: from the kept key set while it is younger than
 * JWKS_MAX_AGE_MS and holds the kid; otherwise the JWKS is fetched (once per lookup) and kept.
 * @returns the key, or `{ ok: false, reason }`: the kid is not in the site's keys (an unknown
 *   key), or the keys could not be fetched (the request path's reason). Never rejects.
 */
export async function findReceiptKey(lookup: KeyLookup, kid: string): Promise<KeyFound> {
  const now = lookup.now ?? Date.now();
  const url = lookup.jwks.href;
  const kept = memory.get(url);
  const fresh = kept && now - kept.fetchedAt >= 0 && now - kept.fetchedAt < JWKS_MAX_AGE_MS;
  const inKept = fresh ? kept.keys.find((key) => key.kid === kid) : undefined;
  if (inKept) return { ok: true, jwk: inKept, fetched: 0 };
  const fetched = await fetchKeys(lookup, now);
  if (typeof fetched === 'string') return { ok: false, reason: fetched, fetched: 1 };
  const found = fetched.keys.find((key) => key.kid === kid);
  return found
    ? { ok: true, jwk: found, fetched: 1 }
    : { ok: false, reason: `signed by an unknown key: ${kid} is not in the site's receipt keys at ${lookup.jwks.pathname}`, fetched: 1 };
}

/**
 * The site's receipt keys fetched now, not read from what is kept: for a check that must not
 * trust storage a page script can write (receipts-tool.ts re-checks kept receipts with them).
 * @returns the keys, or the one-line reason they could not be fetched. Never rejects.
 */
export async function fetchReceiptKeys(lookup: KeyLookup): Promise<KeptKeySet['keys'] | string> {
  const fetched = await fetchKeys(lookup, lookup.now ?? Date.now());
  return typeof fetched === 'string' ? fetched : fetched.keys;
}

/** Forgets the key sets kept for the page's life; for tests. */
export function forgetReceiptKeys(): void {
  memory.clear();
}
