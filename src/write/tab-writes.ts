/**
 * A write whose send navigates the tab outlives its page: a native form submission (the browser
 * sends it and shows the site's answer, `data-capell-submit="native"`, `enctype="text/plain"`), or
 * the runtime's fetch send followed by its navigation to the site's same-origin redirect
 * (forms/form.ts). The write registry lives as long as its document, so such a write's record is
 * kept, just before the tab leaves, in the tab's `sessionStorage` (this origin, this tab only,
 * gone with the tab), and the next page of this origin answers `capell.write.status` for it
 * (registry/write-status-tool.ts registers the tool there: `holdsTabWrites`).
 *
 * What is kept is the outcome, never the values the form sent nor the site's answer body:
 * `writeId`, `tool`, `status` (`submitted`), `httpStatus` when the runtime saw it, the sending
 * page's address, and the address the send led to (known at once for a fetch send; for a native
 * one, the first page that reads the record and was opened from the sending page names itself,
 * with its own response status from Navigation Timing). At most MAX_TAB_WRITES records, none older
 * than MAX_TAB_WRITE_AGE_MS.
 *
 * A page script of the same origin can read and write this storage: the record holds nothing
 * secret, and every record is read as untrusted input (checked field by field, bounded, same-origin
 * addresses only); a record a script forged can only make `capell.write.status` answer what it
 * says, for the writeId it names (docs/security.md, "Writes kept for the next page").
 */
import type { RuntimeConfig } from '../start/config.js';
import type { JSONValue } from '../shared/declarations/tool-spec.js';
import type { WriteRecord } from './write-answers.js';
import { builtIn } from '../start/dom-builtin.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { WEBMCP_NAME_PATTERN } from '../shared/declarations/names.js';
import { parseURL } from '../shared/parse-url.js';
import { MAX_TAB_WRITES_LENGTH, TAB_WRITES_KEY } from '../registry/write-status-tool.js';

/** How many writes a tab keeps for its next pages; the oldest goes first. */
export const MAX_TAB_WRITES = 20;

/** How long a kept write is answered, in ms after it was kept (10 minutes). */
export const MAX_TAB_WRITE_AGE_MS = 10 * 60 * 1000;

/** Longest address kept, in characters (a longer one is left out, not cut). */
const MAX_ADDRESS_LENGTH = 2048;

/** Longest writeId read (as `capell.write.status` accepts them). */
const MAX_WRITE_ID_LENGTH = 100;

/** One kept write, as stored (JSON). */
interface TabWrite {
  writeId: string;
  tool: string;
  status: 'submitted';
  /** When it was kept, ms since the epoch. */
  at: number;
  /** The sending page's address (no fragment). */
  from: string;
  /** The final HTTP status of the send (after redirects), when known. */
  httpStatus?: number;
  /** The address of the page the send led to, once known. */
  navigatedTo?: string;
  /** False when the landing address's query holds the sent values (a GET form): then it is not kept. */
  keepQuery?: boolean;
}

/** `href` without its fragment; without its query too when `keepQuery` is false. */
function address(href: string, keepQuery = true): string {
  const [withoutFragment] = href.split('#') as [string];
  return keepQuery ? withoutFragment : withoutFragment.split('?')[0]!;
}

/** A same-origin address of at most MAX_ADDRESS_LENGTH characters, or undefined. */
function sameOrigin(value: unknown, origin: string): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_ADDRESS_LENGTH) return undefined;
  try {
    const { href, origin: its } = parseURL(value);
    return its === origin ? address(href) : undefined;
  } catch {
    return undefined; // not a URL: a forged or broken record's field, left out
  }
}

/**
 * One stored entry checked as untrusted input: every field of its type and bounds, addresses on
 * `origin`, kept less than MAX_TAB_WRITE_AGE_MS before `now`. @returns the record, or undefined.
 */
function readEntry(entry: unknown, origin: string, now: number): TabWrite | undefined {
  if (!isPlainObject(entry)) return undefined;
  const { writeId, tool, status, at, from, httpStatus, navigatedTo, keepQuery } = entry;
  if (typeof writeId !== 'string' || writeId.length === 0 || writeId.length > MAX_WRITE_ID_LENGTH) return undefined;
  if (typeof tool !== 'string' || !WEBMCP_NAME_PATTERN.test(tool) || status !== 'submitted') return undefined;
  if (typeof at !== 'number' || !(at <= now && now - at < MAX_TAB_WRITE_AGE_MS)) return undefined;
  const sender = sameOrigin(from, origin);
  if (sender === undefined) return undefined;
  const write: TabWrite = { writeId, tool, status, at, from: sender };
  if (Number.isInteger(httpStatus) && (httpStatus as number) >= 100 && (httpStatus as number) <= 599) write.httpStatus = httpStatus as number;
  const landed = sameOrigin(navigatedTo, origin);
  if (landed !== undefined) write.navigatedTo = landed;
  if (keepQuery === false) write.keepQuery = false;
  return write;
}

/** The tab's storage, or undefined where the page may not use it. */
function storageOf(doc: Document): Storage | undefined {
  try {
    return doc.defaultView?.sessionStorage ?? undefined;
  } catch {
    return undefined; // storage refused (sandboxed frame, blocked storage): nothing is kept or read
  }
}

/** Every kept write still answered, oldest first (the last MAX_TAB_WRITES). Never throws. */
function readAll(storage: Storage, origin: string, now: number): TabWrite[] {
  try {
    const raw = storage.getItem(TAB_WRITES_KEY);
    if (!raw || raw.length > MAX_TAB_WRITES_LENGTH) return [];
    const stored: unknown = JSON.parse(raw);
    const writes = isPlainObject(stored) && Array.isArray(stored.writes) ? stored.writes.slice(-MAX_TAB_WRITES) : [];
    return writes.flatMap((entry) => readEntry(entry, origin, now) ?? []);
  } catch {
    return []; // not JSON (not the runtime's, or broken): as if nothing were kept
  }
}

/** Stores `writes` (the last MAX_TAB_WRITES), or removes the key when none is left. @returns false when the storage refused. */
function writeAll(storage: Storage, writes: TabWrite[]): boolean {
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
 * Keeps a submitted write for the next pages of this tab, just before its send navigates the tab
 * (forms/form.ts: in the person's native submit event, or right before following a fetch send's
 * redirect). Only a `submitted` record is kept; only its outcome (see the file's header).
 * @param how `navigatedTo`: where the tab goes, when the runtime knows it (the fetch send's final
 *   URL); `withQuery: false` when the address the send leads to holds the sent values (a GET form).
 * @returns whether it was kept (false: not submitted, or the storage is unavailable or full).
 *   Never throws.
 */
export function keepForNextPage(config: RuntimeConfig, record: WriteRecord, how: { navigatedTo?: string; withQuery?: boolean } = {}): boolean {
  const storage = storageOf(config.document);
  if (!storage || record.status !== 'submitted') return false;
  const now = Date.now();
  const write: TabWrite = { writeId: record.writeId, tool: record.tool, status: 'submitted', at: now, from: address(builtIn<string>(config.document, 'URL')) };
  if (record.httpStatus !== undefined) write.httpStatus = record.httpStatus;
  const landed = sameOrigin(how.navigatedTo, config.origin);
  if (landed !== undefined) write.navigatedTo = address(landed, how.withQuery !== false);
  if (how.withQuery === false) write.keepQuery = false;
  return writeAll(storage, [...readAll(storage, config.origin, now).filter((kept) => kept.writeId !== write.writeId), write]);
}

/** This document's own navigation response status (Navigation Timing `responseStatus`), or undefined. */
function ownResponseStatus(doc: Document): number | undefined {
  try {
    const [entry] = doc.defaultView?.performance.getEntriesByType('navigation') ?? [];
    const status = (entry as { responseStatus?: unknown } | undefined)?.responseStatus;
    return typeof status === 'number' && status >= 100 && status <= 599 ? status : undefined;
  } catch {
    return undefined; // no Navigation Timing here: the status stays unknown
  }
}

/**
 * What `capell.write.status` answers for `writeId` from the tab's kept writes, or undefined when
 * the tab keeps none for it. A native send's record learns where it led here: when this page was
 * opened from the sending page (`document.referrer` is its address) and the record names no page
 * yet, this page's address (and its own response status, when the send had none) is written into it.
 * @returns e.g. `{ status: 'submitted', tool: 'form.submit.contact', httpStatus: 200, navigatedTo: 'https://shop.example/contact?sent=1' }`.
 */
export function tabWriteAnswer(config: RuntimeConfig, writeId: string): Record<string, JSONValue> | undefined {
  const storage = storageOf(config.document);
  if (!storage) return undefined;
  const now = Date.now();
  const writes = readAll(storage, config.origin, now);
  const write = writes.find((kept) => kept.writeId === writeId);
  if (!write) return undefined;
  const doc = config.document;
  if (write.navigatedTo === undefined && builtIn<string>(doc, 'referrer') === write.from) {
    write.navigatedTo = address(builtIn<string>(doc, 'URL'), write.keepQuery !== false);
    write.httpStatus ??= ownResponseStatus(doc);
    if (write.httpStatus === undefined) delete write.httpStatus;
    writeAll(storage, writes);
  }
  const answer: Record<string, JSONValue> = { status: write.status, tool: write.tool };
  if (write.httpStatus !== undefined) answer.httpStatus = write.httpStatus;
  if (write.navigatedTo !== undefined) answer.navigatedTo = write.navigatedTo;
  return answer;
}
