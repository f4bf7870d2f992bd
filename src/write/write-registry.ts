/**
 * The page's write registry: every write call's record by `writeId`, kept for the life of the
 * page (bounded), so `capell.write.status` can answer a write's outcome after the call itself
 * has answered `awaiting_person`. One registry per document.
 */
import type { FinalWriteStatus, WriteRecord } from './write-answers.js';
import { primitives } from '../start/primitives.js';

/** How many write records a page keeps; the oldest final one is forgotten first. */
export const MAX_WRITE_RECORDS = 100;

const FINAL: ReadonlySet<string> = new Set<FinalWriteStatus>(['submitted', 'failed', 'cancelled', 'expired', 'superseded', 'aborted']);

/** Whether a record's status is final (it never changes again). */
function isFinal(record: WriteRecord): boolean {
  return FINAL.has(record.status);
}

/**
 * Records by writeId, the open proposal of each slot (a form element, or a write endpoint
 * tool's name), and the status calls waiting for a record to become final.
 */
export class WriteRegistry {
  readonly #records = new Map<string, WriteRecord>();
  readonly #waiters = new Map<string, Set<() => void>>();
  /** The write that holds each slot (one proposal per form or write endpoint tool). */
  readonly slots = new Map<unknown, { end(status: 'superseded', supersededBy: string): void; readonly isOpen: boolean }>();

  /** The record of `writeId`, or undefined (never issued, or forgotten beyond MAX_WRITE_RECORDS). */
  get(writeId: string): WriteRecord | undefined {
    return this.#records.get(writeId);
  }

  /** Every record kept, oldest first (read them, do not change them). */
  all(): WriteRecord[] {
    return [...this.#records.values()];
  }

  /** Adds a new record; beyond MAX_WRITE_RECORDS the oldest final record (else the oldest) goes. */
  add(record: WriteRecord): void {
    this.#records.set(record.writeId, record);
    if (this.#records.size <= MAX_WRITE_RECORDS) return;
    const victim = [...this.#records.values()].find(isFinal) ?? this.#records.values().next().value!;
    this.#records.delete(victim.writeId);
  }

  /** Removes a record (a call refused before anything was shown that left no trace worth keeping). */
  delete(writeId: string): void {
    this.#records.delete(writeId);
  }

  /** Changes a record; wakes the status calls waiting for it once it is final. */
  update(writeId: string, changes: Partial<WriteRecord>): void {
    const record = this.#records.get(writeId);
    if (!record) return;
    Object.assign(record, changes);
    if (!isFinal(record)) return;
    const waiters = this.#waiters.get(writeId);
    this.#waiters.delete(writeId);
    for (const wake of waiters ?? []) wake();
  }

  /**
   * Waits until `writeId`'s record is final, `waitMs` (ms) passed, or `signal` aborts, whichever
   * comes first. Resolves (never rejects); the caller reads the record afterwards.
   */
  waitForFinal(writeId: string, waitMs: number, signal?: AbortSignal): Promise<void> {
    const record = this.#records.get(writeId);
    if (!record || isFinal(record) || waitMs <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(writeId) ?? new Set<() => void>();
      this.#waiters.set(writeId, waiters);
      const done = () => {
        primitives.clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        resolve();
      };
      const timer = primitives.setTimeout(done, waitMs);
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }
}

const registries = new WeakMap<Document, WriteRegistry>();

/** The registry of `doc` (created on first use; lives as long as the document). */
export function writeRegistryOf(doc: Document): WriteRegistry {
  let registry = registries.get(doc);
  if (!registry) {
    registry = new WriteRegistry();
    registries.set(doc, registry);
  }
  return registry;
}
