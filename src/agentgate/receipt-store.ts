/**
 * The receipts kept (issue 12, "Receipts": "Receipts are kept (idb-keyval, bounded count) and
 * listed by a read-only runtime tool so an agent can show what it did on this site"): per site
 * origin, newest first, at most MAX_KEPT_RECEIPTS, in a database of their own. Where storage is
 * unavailable (private mode, a blocked database, Node) they are kept for the page's life only.
 */
import { createStore, get, update, type UseStore } from 'idb-keyval';
import type { JSONValue } from '../declarations/tool-spec.js';

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

/**
 * The receipts kept for `origin`, newest first (those kept only in memory when storage failed
 * come first). Never rejects: unreadable storage lists what memory holds.
 */
export async function listReceipts(origin: string): Promise<KeptReceipt[]> {
  const inMemory = memory.get(origin) ?? [];
  const receipts = receiptStore();
  if (!receipts) return [...inMemory];
  try {
    const stored = await get<KeptReceipt[]>(origin, receipts);
    return [...inMemory, ...(Array.isArray(stored) ? stored : [])];
  } catch {
    return [...inMemory];
  }
}
