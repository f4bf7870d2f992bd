/**
 * A write whose send navigates the tab outlives its page: a native form submission (the browser
 * sends it and shows the site's answer, `data-capell-submit="native"`, `enctype="text/plain"`), or
 * the runtime's fetch send followed by its navigation to the site's same-origin redirect
 * (forms/form.ts). The write registry lives as long as its document, so such a write's record is
 * kept, just before the tab leaves, in the tab's `sessionStorage` (this origin, this tab only,
 * gone with the tab), and the next pages of this origin answer `capell.write.status` for it
 * (registry/write-status-tool.ts registers the tool there: `holdsTabWrites`; status/tab-write-answer.ts
 * reads the record, as untrusted input, when the tool is called).
 *
 * What is kept is the outcome, never the values the form sent nor the site's answer body:
 * `writeId`, `tool`, `status` (`submitted`), `httpStatus` when the runtime saw it, the sending
 * page's address, and the address the send led to when the runtime knows it (a fetch send's). At
 * most MAX_TAB_WRITES records, none older than MAX_TAB_WRITE_AGE_MS. This module only writes (it
 * loads with every write); what a page script may have put in the storage is judged by the reader
 * (docs/security.md, "Writes kept for the next page").
 */
import type { RuntimeConfig } from '../start/config.js';
import type { WriteRecord } from './write-answers.js';
import { builtIn } from '../start/dom-builtin.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { MAX_TAB_WRITES_LENGTH, TAB_WRITES_KEY } from '../registry/write-status-tool.js';

/** How many writes a tab keeps for its next pages; the oldest goes first. */
export const MAX_TAB_WRITES = 20;

/** How long a kept write is answered, in ms after it was kept (10 minutes). */
export const MAX_TAB_WRITE_AGE_MS = 10 * 60 * 1000;

/** One kept write, as stored (JSON under TAB_WRITES_KEY: `{ "until": ms, "writes": [TabWrite…] }`). */
export interface TabWrite {
  writeId: string;
  tool: string;
  status: 'submitted';
  /** When it was kept, ms since the epoch. */
  at: number;
  /** The sending page's address (no fragment). */
  from: string;
  /** The final HTTP status of the send (after redirects), when known. */
  httpStatus?: number;
  /** The address of the page the send led to, once known (no fragment). */
  navigatedTo?: string;
  /** False when the landing address's query holds the sent values (a GET form): then it is not kept. */
  keepQuery?: boolean;
}

/** `href` without its fragment; without its query too when `keepQuery` is false. */
export function toKeptAddress(href: string, keepQuery = true): string {
  const [withoutFragment] = href.split('#') as [string];
  return keepQuery ? withoutFragment : withoutFragment.split('?')[0]!;
}

/** The tab's storage of `doc`, or undefined where the page may not use it. */
export function tabStorageOf(doc: Document): Storage | undefined {
  try {
    return doc.defaultView?.sessionStorage ?? undefined;
  } catch {
    return undefined; // storage refused (sandboxed frame, blocked storage): nothing is kept or read
  }
}

/**
 * Stores `writes` (the last MAX_TAB_WRITES) with `until`, the newest one's end of life, or removes
 * the key when none is left. @returns false when the storage refused (quota, blocked). Never throws.
 */
export function storeTabWrites(storage: Storage, writes: readonly TabWrite[]): boolean {
  try {
    const kept = writes.slice(-MAX_TAB_WRITES);
    if (kept.length === 0) storage.removeItem(TAB_WRITES_KEY);
    else storage.setItem(TAB_WRITES_KEY, JSON.stringify({ until: Math.max(...kept.map((write) => write.at)) + MAX_TAB_WRITE_AGE_MS, writes: kept }));
    return true;
  } catch {
    return false; // quota exceeded or storage refused: the next page cannot answer, this one still does
  }
}

/**
 * The entries kept now that are not too old, as stored (only their age is read here: the reader,
 * status/tab-write-answer.ts, checks every field). Never throws.
 */
function keptEntries(storage: Storage, now: number): TabWrite[] {
  try {
    const raw = storage.getItem(TAB_WRITES_KEY);
    const stored: unknown = raw && raw.length <= MAX_TAB_WRITES_LENGTH ? JSON.parse(raw) : undefined;
    const writes: unknown[] = isPlainObject(stored) && Array.isArray(stored.writes) ? stored.writes : [];
    return writes.filter((entry): entry is TabWrite => isPlainObject(entry) && typeof entry.at === 'number' && entry.at <= now && now - entry.at < MAX_TAB_WRITE_AGE_MS);
  } catch {
    return []; // not JSON (not the runtime's, or broken): as if nothing were kept
  }
}

/**
 * Keeps a submitted write for the next pages of this tab, just before its send navigates the tab
 * (forms/form.ts: in the person's native submit event, or right before following a fetch send's
 * redirect). Only a `submitted` record is kept; only its outcome (see the file's header).
 * @param how `navigatedTo`: where the tab goes, when the runtime knows it (the fetch send's final
 *   URL, same-origin: the caller follows only such a redirect); `withQuery: false` when the address
 *   the send leads to holds the sent values (a GET form).
 * @returns whether it was kept (false: not submitted, or the storage is unavailable or full).
 *   Never throws.
 */
export function keepForNextPage(config: RuntimeConfig, record: WriteRecord, how: { navigatedTo?: string; withQuery?: boolean } = {}): boolean {
  const storage = tabStorageOf(config.document);
  if (!storage || record.status !== 'submitted') return false;
  const now = Date.now();
  const write: TabWrite = { writeId: record.writeId, tool: record.tool, status: 'submitted', at: now, from: toKeptAddress(builtIn<string>(config.document, 'URL')) };
  if (record.httpStatus !== undefined) write.httpStatus = record.httpStatus;
  if (how.navigatedTo !== undefined) write.navigatedTo = toKeptAddress(how.navigatedTo, how.withQuery !== false);
  if (how.withQuery === false) write.keepQuery = false;
  return storeTabWrites(storage, [...keptEntries(storage, now).filter((kept) => kept.writeId !== write.writeId), write]);
}
