/**
 * `capell.write.status` for a write an earlier page of this tab kept when its send navigated the
 * tab (../tab-writes.ts keeps it). Every stored record is read as untrusted input: a page script
 * of the same origin can write this storage, so each field is checked by type and bound, and
 * addresses must be on the page's origin; a record that fails is ignored. A record only ever
 * makes the status call answer what it says (docs/security.md, "Writes kept for the next page").
 */
import type { RuntimeConfig } from '../../start/config.js';
import type { JSONValue } from '../../shared/declarations/tool-spec.js';
import { builtIn } from '../../start/dom-builtin.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { WEBMCP_NAME_PATTERN } from '../../shared/declarations/names.js';
import { parseURL } from '../../shared/parse-url.js';
import { MAX_TAB_WRITES_LENGTH, TAB_WRITES_KEY } from '../../registry/write-status-tool.js';
import { MAX_TAB_WRITE_AGE_MS, MAX_TAB_WRITES, storeTabWrites, tabStorageOf, toKeptAddress, type TabWrite } from '../tab-writes.js';

/** Longest address read, in characters (a longer one is left out, not cut). */
const MAX_ADDRESS_LENGTH = 2048;

/** Longest writeId read (as `capell.write.status` accepts them). */
const MAX_WRITE_ID_LENGTH = 100;

/** A same-origin address of at most MAX_ADDRESS_LENGTH characters, without its fragment; or undefined. */
function sameOrigin(value: unknown, origin: string): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_ADDRESS_LENGTH) return undefined;
  try {
    const { href, origin: its } = parseURL(value);
    return its === origin ? toKeptAddress(href) : undefined;
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

/** Every kept write that passes `readEntry`, oldest first (of the last MAX_TAB_WRITES stored). Never throws. */
function readTabWrites(storage: Storage, origin: string, now: number): TabWrite[] {
  try {
    const raw = storage.getItem(TAB_WRITES_KEY);
    if (!raw || raw.length > MAX_TAB_WRITES_LENGTH) return [];
    const stored: unknown = JSON.parse(raw);
    const writes: unknown[] = isPlainObject(stored) && Array.isArray(stored.writes) ? stored.writes.slice(-MAX_TAB_WRITES) : [];
    return writes.flatMap((entry) => readEntry(entry, origin, now) ?? []);
  } catch {
    return []; // not JSON (not the runtime's, or broken): as if nothing were kept
  }
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
 * the tab keeps none for it. A native send's record learns here where it led: when this page was
 * opened from the sending page (`document.referrer` is its address) and the record names no page
 * yet, this page's address (its query left out when it holds the sent values) and, when the send
 * had none, its own response status are written into it, so later pages of the tab name it too.
 * @returns e.g. `{ status: 'submitted', tool: 'form.submit.contact', httpStatus: 200, navigatedTo: 'https://shop.example/contact?sent=1' }`.
 */
export function tabWriteAnswer(config: RuntimeConfig, writeId: string): Record<string, JSONValue> | undefined {
  const storage = tabStorageOf(config.document);
  if (!storage) return undefined;
  const writes = readTabWrites(storage, config.origin, Date.now());
  const write = writes.find((kept) => kept.writeId === writeId);
  if (!write) return undefined;
  const doc = config.document;
  if (write.navigatedTo === undefined && builtIn<string>(doc, 'referrer') === write.from) {
    write.navigatedTo = toKeptAddress(builtIn<string>(doc, 'URL'), write.keepQuery !== false);
    const status = write.httpStatus ?? ownResponseStatus(doc);
    if (status !== undefined) write.httpStatus = status;
    storeTabWrites(storage, writes);
  }
  const answer: Record<string, JSONValue> = { status: write.status, tool: write.tool };
  if (write.httpStatus !== undefined) answer.httpStatus = write.httpStatus;
  if (write.navigatedTo !== undefined) answer.navigatedTo = write.navigatedTo;
  return answer;
}
