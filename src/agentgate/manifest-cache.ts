/**
 * The AgentGate manifest cache (issue 9, "Discovery"): the last manifest read from each URL and
 * its ETag, kept with idb-keyval in a database of its own, so a repeat visit registers from the
 * cache without waiting for the network and then revalidates. Only public documents are kept;
 * nothing sensitive (DESIGN section 3: storage through idb-keyval). Any script of the origin can
 * write this database, so what it holds is only ever a head start: the revalidation reads the
 * site's text through the browser's HTTP cache and replaces a cached text that differs
 * (manifest-fetch.ts); the ETag kept here is never sent.
 */
import { createStore, get, set, type UseStore } from 'idb-keyval';

/** One cached manifest: its text as served and the strong or weak ETag it came with (kept for inspection; never sent). */
export interface CachedManifest {
  etag: string;
  text: string;
}

/** idb-keyval's database and store for manifests (one store per database, STYLE: idb-keyval). */
export const MANIFEST_CACHE_DB = 'capell-webmcp-agentgate';
export const MANIFEST_CACHE_STORE = 'manifests';

let store: UseStore | undefined;

function manifestStore(): UseStore | undefined {
  if (typeof indexedDB === 'undefined') return undefined;
  store ??= createStore(MANIFEST_CACHE_DB, MANIFEST_CACHE_STORE);
  return store;
}

/**
 * The cached manifest of a URL, or undefined when none is kept or storage is unavailable
 * (private mode, a blocked database): the cache only ever saves a wait. Never rejects.
 */
export async function readCachedManifest(url: string): Promise<CachedManifest | undefined> {
  const cache = manifestStore();
  if (!cache) return undefined;
  try {
    const value = await get<unknown>(url, cache);
    const entry = value as Partial<CachedManifest> | undefined;
    return typeof entry?.etag === 'string' && typeof entry.text === 'string' ? { etag: entry.etag, text: entry.text } : undefined;
  } catch {
    return undefined; // storage unavailable: read from the network as if nothing were cached
  }
}

/** Keeps a manifest and its ETag for the next visit. Never rejects; a failed write is only a lost cache. */
export async function writeCachedManifest(url: string, entry: CachedManifest): Promise<void> {
  const cache = manifestStore();
  if (!cache) return;
  try {
    await set(url, entry, cache);
  } catch {
    // Storage unavailable: the next visit fetches again.
  }
}
