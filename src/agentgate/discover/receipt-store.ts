/**
 * The receipts kept (idb-keyval, a bounded count), so that a read-only runtime tool can list them
 * and an agent can show what it did on this site: per site
 * origin, newest first, at most MAX_KEPT_RECEIPTS, in a database of their own. Where storage is
 * unavailable (private mode, a blocked database, Node) they are kept for the page's life only.
 */
import { createStore, get, update, type UseStore } from 'idb-keyval';
import type { JSONValue } from '../../shared/declarations/tool-spec.js';
import { isPlainObject } from '../../shared/is-plain-object.js';

/**
 * Longest receipt read, in characters (a receipt is a few hundred). Defined here, with the kept
 * receipts it bounds, and re-exported by receipt-jws.ts: that module is the signed call's chunk,
 * which the receipts tool must not load at start-up.
 */
export const MAX_RECEIPT_LENGTH = 8 * 1024;

/** How many receipts are kept per origin; an older one is dropped when a newer one comes. */
export const MAX_KEPT_RECEIPTS = 100;

/** idb-keyval's database and store for receipts (one store per database, STYLE: idb-keyval). */
export const RECEIPTS_DB = 'capell-webmcp-agentgate-receipts';
export const RECEIPTS_STORE = 'receipts';

/**
 * One kept receipt: when the runtime received it (`receivedAt`, ISO time), the tool called, and
 * the receipt as the call's result reported it (`verified`, and the claims or the reason).
 */
export type KeptReceipt = { receivedAt: string; tool: string } & { [key: string]: JSONValue };

const memory = new Map<string, KeptReceipt[]>();
let store: UseStore | undefined;

function receiptStore(): UseStore | undefined {
  if (typeof indexedDB === 'undefined') return undefined;
  store ??= createStore(RECEIPTS_DB, RECEIPTS_STORE);
  return store;
}

/** `list` with `receipt` first, at most `max` long. */
const prepend = (list: readonly KeptReceipt[] | undefined, receipt: KeptReceipt, max: number): KeptReceipt[] => [receipt, ...(Array.isArray(list) ? list : [])].slice(0, max);

/**
 * Keeps a receipt of a call to `origin` (newest first; past `max` the oldest is dropped).
 * @param max how many to keep, @default MAX_KEPT_RECEIPTS
 * Never rejects: a failed write keeps the receipt for the page's life only.
 */
export async function keepReceipt(origin: string, receipt: KeptReceipt, max = MAX_KEPT_RECEIPTS): Promise<void> {
  const receipts = receiptStore();
  if (receipts) {
    try {
      // update() reads and writes in one transaction: two calls ending together both keep theirs.
      await update<KeptReceipt[]>(origin, (list) => prepend(list, receipt, max), receipts);
      memory.delete(origin);
      return;
    } catch {
      // Storage unavailable: keep it in memory below.
    }
  }
  memory.set(origin, prepend(memory.get(origin), receipt, max));
}

/** Longest text field of a kept receipt, in UTF-16 units (a `reason` is one line; a `jws` has MAX_RECEIPT_LENGTH). */
const MAX_FIELD_LENGTH = 2_000;

const text = (value: unknown, max = MAX_FIELD_LENGTH): value is string => typeof value === 'string' && value.length <= max;

/**
 * A stored entry as a KeptReceipt, rebuilt from its known fields only, or undefined when it is
 * not one: IndexedDB is the page's, and any script of the origin may write it (a 20 MB string, a
 * value nested 2000 deep, `verified: true` on something no site signed). The shape is checked
 * here; whether a `verified` one really is, receipts-tool.ts checks again against the site's keys.
 */
function readKeptReceipt(value: unknown): KeptReceipt | undefined {
  if (!isPlainObject(value)) return undefined;
  const { receivedAt, tool, verified, jws } = value;
  if (!text(receivedAt, 64) || !text(tool, 128) || tool === '' || (jws !== undefined && !text(jws, MAX_RECEIPT_LENGTH))) return undefined;
  if (verified === false) {
    if (!text(value.reason)) return undefined;
    return { receivedAt, tool, verified, reason: value.reason, ...(jws === undefined ? {} : { jws }) };
  }
  const { action, status, nonce, contentDigest, issuedAt, id, kid } = value;
  if (verified !== true || jws === undefined || !Number.isInteger(status)) return undefined;
  if (![action, nonce, contentDigest, issuedAt, id, kid].every((field) => text(field, 512))) return undefined;
  return { receivedAt, tool, verified, action, status, nonce, contentDigest, issuedAt, id, kid, jws } as KeptReceipt;
}

/**
 * The receipts kept for `origin`, newest first (those kept only in memory when storage failed
 * come first), at most MAX_KEPT_RECEIPTS, each as `readKeptReceipt` rebuilds it; a stored entry
 * that is not a receipt is left out. Never rejects: unreadable storage lists what memory holds.
 */
export async function listReceipts(origin: string): Promise<KeptReceipt[]> {
  const inMemory = memory.get(origin) ?? [];
  const receipts = receiptStore();
  let stored: unknown;
  if (receipts) {
    try {
      stored = await get<unknown>(origin, receipts);
    } catch {
      // Unreadable storage: what memory holds.
    }
  }
  const listed = [...inMemory, ...(Array.isArray(stored) ? stored.slice(0, MAX_KEPT_RECEIPTS) : [])];
  return listed.flatMap((entry) => readKeptReceipt(entry) ?? []).slice(0, MAX_KEPT_RECEIPTS);
}
