/**
 * The life of one write call's proposal, apart from the call: the call answers within
 * `writeWaitMs` (the person's decision, or `awaiting_person` with a writeId), while the proposal
 * stays with the person until `confirmTimeoutMs`: MCP clients give up on a call after 20–60 s, a
 * person may take minutes (docs/writes-and-consent.md, "Write calls never hang the agent").
 *
 * Phases: `preparing` (panel loading, form not yet filled) → `open` (the proposal is on screen)
 * → `sending` (the person sent it; waiting for the site) → final. Any phase before `sending` can
 * end as `cancelled` (the person), `expired`, `superseded` (a newer call for the same slot),
 * `aborted` (the agent's signal while the call waits, the runtime stopping at any time, or the
 * page being left). A refusal after the slot was claimed ends as `failed`.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { BindingOutcome } from '../shared/bindings/binding-executor.js';
import type { JSONValue } from '../shared/declarations/tool-spec.js';
import { MAX_REASON_LENGTH } from '../registry/result.js';
import { callAnswer, type WriteRecord } from './write-answers.js';
import { writeRegistryOf, type WriteRegistry } from './write-registry.js';
import { primitives } from '../start/primitives.js';

/**
 * Why a proposal was taken off the screen without being sent: `left` is the page going away
 * (nothing is restored then: the document is unloading, and the back/forward cache keeps it as it was).
 */
type WithdrawReason = 'cancelled' | 'expired' | 'superseded' | 'aborted' | 'left';

/** What the executor does to take its proposal back: restore the person's values, close the panel. */
type Withdraw = (why: WithdrawReason) => void;

/** What a write needs from the call. */
interface PendingWriteOptions {
  config: RuntimeConfig;
  /** The tool's name (kept in the record). */
  tool: string;
  /** One proposal per slot: the form element, or `endpoint <tool name>`. */
  slot: unknown;
  /** Aborts when the agent aborts the call (or the runtime stops); heeded only while the call waits. */
  signal: AbortSignal;
  /** Aborts when the runtime stops; heeded for the whole life of the proposal. */
  stopSignal?: AbortSignal;
}

type Phase = 'preparing' | 'open' | 'sending' | 'final';

function oneLine(reason: string): string {
  const line = reason.replace(/\s+/g, ' ').trim();
  return line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH - 1)}…` : line;
}

/**
 * One write. Creating it claims the slot synchronously (so two calls started together can never
 * both fill or open) and supersedes the slot's earlier write: that one's values are restored and
 * its panel closed at once, before this one fills anything.
 */
export class PendingWrite {
  /** A random id (`crypto.randomUUID()`). */
  readonly writeId: string = crypto.randomUUID();
  /** Whether this write replaced a proposal the person had on screen (its panel says so). */
  readonly replaced: boolean;
  readonly #registry: WriteRegistry;
  readonly #options: PendingWriteOptions;
  readonly #view: Window;
  #phase: Phase = 'preparing';
  #withdraw: Withdraw | undefined;
  #callDone = false;
  #resolveCall!: (outcome: BindingOutcome) => void;
  readonly #call: Promise<BindingOutcome>;
  readonly #expiry: ReturnType<typeof setTimeout>;
  readonly #wait: ReturnType<typeof setTimeout>;
  #siteWait: ReturnType<typeof setTimeout> | undefined;

  constructor(options: PendingWriteOptions) {
    const { config, tool, slot, signal, stopSignal } = options;
    this.#options = options;
    this.#registry = writeRegistryOf(config.document);
    this.#view = config.document.defaultView ?? window;
    this.#call = new Promise((resolve) => { this.#resolveCall = resolve; });
    const record: WriteRecord = { writeId: this.writeId, tool, status: 'awaiting_person', expiresAt: new Date(Date.now() + config.confirmTimeoutMs).toISOString() };
    this.#registry.add(record);
    const previous = this.#registry.slots.get(slot);
    this.replaced = previous?.isOpen ?? false;
    this.#registry.slots.set(slot, this);
    previous?.end('superseded', this.writeId);
    this.#expiry = primitives.setTimeout(() => this.end('expired'), config.confirmTimeoutMs);
    this.#wait = primitives.setTimeout(() => this.#answerNow(), config.writeWaitMs);
    signal.addEventListener('abort', this.#onCallAbort, { once: true });
    stopSignal?.addEventListener('abort', this.#onStop, { once: true });
    this.#view.addEventListener('pagehide', this.#onPageHide, { once: true });
    if (signal.aborted || stopSignal?.aborted) this.end('aborted');
  }

  /** The current record (a live object; read, do not change). */
  get record(): WriteRecord {
    return this.#registry.get(this.writeId) ?? { writeId: this.writeId, tool: this.#options.tool, status: 'aborted', expiresAt: '' };
  }

  /** True while the proposal is still being prepared or is on screen (it may be filled and shown). */
  get live(): boolean {
    return this.#phase === 'preparing' || this.#phase === 'open';
  }

  /** True while the proposal is on screen, waiting for the person. */
  get isOpen(): boolean {
    return this.#phase === 'open';
  }

  /**
   * What the call resolves to, at the latest `writeWaitMs` after the write began: the final
   * outcome, else `awaiting_person` (or `sending`) with the writeId.
   */
  answer(): Promise<BindingOutcome> {
    return this.#call;
  }

  /** The proposal is on screen; `withdraw` takes it back when it ends without being sent. */
  open(withdraw: Withdraw): void {
    if (!this.live) return;
    this.#phase = 'open';
    this.#withdraw = withdraw;
  }

  /**
   * The person's act was refused while the proposal is open (a submit the panel did not show):
   * the record keeps `reason` as `refused` (one line), so the agent's answer says so. The
   * proposal stays open; a later send by the person still counts.
   */
  refused(reason: string): void {
    if (this.#phase === 'open') this.#registry.update(this.writeId, { refused: oneLine(reason) });
  }

  /**
   * The person sent it: from now on nothing (timeout, abort, a newer proposal) can take it back.
   * @returns false when the write had already ended (the send must not happen).
   */
  send(): boolean {
    if (!this.live) return false;
    this.#phase = 'sending';
    this.#release();
    this.#registry.update(this.writeId, { status: 'sending' });
    return true;
  }

  /** The site's answer to the person's send (or the site's own script took it: no `httpStatus`). */
  submitted(result: { httpStatus?: number; answer?: JSONValue; answerNote?: string } = {}): void {
    if (this.#phase === 'final') return;
    this.#phase = 'final';
    this.#release();
    const changes: Partial<WriteRecord> = { status: 'submitted' };
    if (result.httpStatus !== undefined) changes.httpStatus = result.httpStatus;
    if (result.answer !== undefined) changes.answer = result.answer;
    if (result.answerNote !== undefined) changes.answerNote = result.answerNote;
    this.#registry.update(this.writeId, changes);
    this.#settleCall(this.#finalOutcome());
  }

  /**
   * The person's click went to the site's own page script, which sends the form its own way (the
   * runtime sees no request): recorded at once as `submitted` with `sentBy: 'site'` (never
   * `httpStatus`). The call answers with what the site shows (`siteShowed`), else `waitMs` (ms)
   * from now, else at `writeWaitMs` from the start, whichever comes first; without it the answer
   * carries the writeId and asks the agent to follow it with `capell.write.status`.
   */
  submittedBySite(waitMs: number): void {
    if (this.#phase === 'final') return;
    this.#phase = 'final';
    this.#release();
    this.#registry.update(this.writeId, { status: 'submitted', sentBy: 'site' });
    this.#siteWait = primitives.setTimeout(() => this.#answerNow(), waitMs);
  }

  /**
   * What the site drew after a click that went to its own script (`submittedBySite`): kept in the
   * record (so `capell.write.status` answers it later too), and the call answers now if it still
   * waits. Fields already seen are not replaced.
   */
  siteShowed(seen: { siteShowed?: string; fieldErrors?: Record<string, string> }): void {
    const record = this.record;
    if (record.sentBy !== 'site' || record.siteShowed !== undefined || record.fieldErrors !== undefined) return;
    const changes: Partial<WriteRecord> = {};
    if (seen.siteShowed !== undefined) changes.siteShowed = seen.siteShowed;
    if (seen.fieldErrors !== undefined) changes.fieldErrors = seen.fieldErrors;
    this.#registry.update(this.writeId, changes);
    this.#answerNow();
  }

  /**
   * It did not go through: refused before the person saw it, or the person's request failed or
   * was refused (`httpStatus` when there was an answer). The call answers `isError` with `reason`.
   * A write that already ended (e.g. superseded while it was prepared) keeps its status.
   */
  failed(reason: string, httpStatus?: number): BindingOutcome {
    if (this.#phase !== 'final') {
      // Failing while on screen (the executor broke after it showed the proposal): taken back.
      const wasOpen = this.#phase === 'open';
      this.#phase = 'final';
      this.#release();
      const changes: Partial<WriteRecord> = { status: 'failed', reason: oneLine(reason) };
      if (httpStatus !== undefined) changes.httpStatus = httpStatus;
      this.#registry.update(this.writeId, changes);
      if (wasOpen) this.#takeBack('aborted');
      this.#settleCall({ ok: false, reason });
    }
    return this.#finalOutcome();
  }

  /**
   * Ends the write without sending: `cancelled` (the person), `expired`, `superseded` (with the
   * newer writeId), `aborted`, or `left` (recorded as `aborted`). Calls the executor's withdraw
   * once when the proposal was on screen. Nothing happens once the person sent it.
   * @param reason why, when the status alone does not say it (e.g. the page redrew the form): kept
   *   in the record as `reason`, one line.
   */
  end(why: WithdrawReason, supersededBy?: string, reason?: string): void {
    if (!this.live) return;
    const wasOpen = this.#phase === 'open';
    this.#phase = 'final';
    this.#release();
    const changes: Partial<WriteRecord> = { status: why === 'left' ? 'aborted' : why };
    if (supersededBy !== undefined) changes.supersededBy = supersededBy;
    if (reason !== undefined) changes.reason = oneLine(reason);
    this.#registry.update(this.writeId, changes);
    if (wasOpen) this.#takeBack(why);
    this.#settleCall(this.#finalOutcome());
  }

  /** Calls the executor's withdraw once (values restored, panel closed). */
  #takeBack(why: WithdrawReason): void {
    try {
      this.#withdraw?.(why);
    } catch {
      // The page's own handlers may throw while values are restored; the write still ends.
    }
    this.#withdraw = undefined;
  }

  #finalOutcome(): BindingOutcome {
    const record = this.record;
    if (record.status === 'failed') return { ok: false, reason: record.reason ?? 'the write failed' };
    const json = callAnswer(record) as JSONValue;
    return { ok: true, answer: json, data: json };
  }

  #answerNow(): void {
    if (this.#callDone) return;
    const json = callAnswer(this.record) as JSONValue;
    this.#settleCall({ ok: true, answer: json, data: json });
  }

  #settleCall(outcome: BindingOutcome): void {
    if (this.#callDone) return;
    this.#callDone = true;
    primitives.clearTimeout(this.#wait);
    primitives.clearTimeout(this.#siteWait);
    // From now on the agent's signal no longer matters: the proposal belongs to the person.
    this.#options.signal.removeEventListener('abort', this.#onCallAbort);
    this.#resolveCall(outcome);
  }

  /** Frees the slot and every timer and listener that could still end the proposal. */
  #release(): void {
    primitives.clearTimeout(this.#expiry);
    this.#options.signal.removeEventListener('abort', this.#onCallAbort);
    this.#options.stopSignal?.removeEventListener('abort', this.#onStop);
    this.#view.removeEventListener('pagehide', this.#onPageHide);
    if (this.#registry.slots.get(this.#options.slot) === this) this.#registry.slots.delete(this.#options.slot);
  }

  #onCallAbort = (): void => {
    if (!this.#callDone) this.end('aborted');
  };

  #onStop = (): void => this.end('aborted');

  #onPageHide = (): void => this.end('left');
}
