/**
 * The live registry: what is registered with WebMCP follows what the page's sources declare now.
 * Each update reads every source (registry/sources/index.ts; a fetching source such as AgentGate answers
 * with a promise), normalises only the declarations of units that are new or whose content changed
 * (a declaration unchanged in a changed unit keeps its ToolSpec), applies the registration rules
 * (registration-rules.ts) in table and document
 * order, and then removes and registers exactly the tools that differ. Every tool is owned by the
 * source unit it came from (an island element, or one object per AgentGate manifest URL), through
 * that unit's own AbortController: removing the unit aborts exactly its tools (WebMCP has no
 * `unregisterTool`; aborting the signal given to `registerTool` removes the tool, synchronously in
 * Chromium).
 */
import { auditSurfaces, coverageOf } from '../start/audit.js';
import { answerNotes } from './answer-notes.js';
import type { RuntimeConfig } from '../start/config.js';
import type { CheckResult } from '../shared/declarations/check-declaration.js';
import type { PendingRejection, PendingWarning } from '../shared/declarations/reason.js';
import type { ToolSpec } from '../shared/declarations/tool-spec.js';
import type { ModelContextHost, WebMCPTool } from '../start/host.js';
import { registerEachWithHost, registerWithHost, type RegistrationOutcome } from './registration.js';
import { NameClaims, registrationRefusal } from '../shared/registration-rules.js';
import { formToolRuleNote } from '../shared/form-tool-check.js';
import { MANIFEST_REJECTION_NAME, type AuditEntry } from '../start/report.js';
import { RUNTIME_TOOLS, type RuntimeTool } from './runtime-tools.js';
import { reduceInputSchema } from './schema-reduction.js';
import { SOURCES, type Normalise, type SourceUnit, type ToolSource } from './sources/index.js';
import { declarationName, SOURCE_CHANGE_EVENT } from './sources/source.js';
import { callBuiltIn } from '../start/dom-builtin.js';
import { createExecute } from './tool-execute.js';
import { errorMessage } from '../shared/error-message.js';

/** Gives the main thread back when a slice of work is used up (runtime.ts); undefined when not due. */
export type Slicer = () => Promise<void> | undefined;

/** What one update leaves, once its registrations settled: the Report before reasons are rendered. */
export interface Snapshot {
  registered: string[];
  rejected: PendingRejection[];
  audit: AuditEntry[];
  /** Registered tools' declaration warnings, still coded (rendered into `audit` after the notes). */
  warnings?: PendingWarning[];
  /** Set once WebMCP refused a registration with `NotAllowedError`: nothing is registered from then on. */
  disallowed?: string;
  /** Tools whose `registerTool` had not settled within REGISTRATION_SETTLE_MS. */
  pending?: string[];
}

/** A snapshot of an update that registered, rejected and audited nothing (stopped, or refused by WebMCP). */
function emptySnapshot(): Snapshot {
  return { registered: [], rejected: [], audit: [] };
}

/**
 * Longest wait, in ms, for an update's `registerTool` calls to settle before its Report is
 * published with the unsettled tools as `pending` (a host whose `registerTool` never settles must
 * not keep `ready` from settling). A tool that settles later brings a new update and Report.
 */
export const REGISTRATION_SETTLE_MS = 3_000;

/**
 * How many newly declared tools are handed to WebMCP in one go (about 5 ms of work for 100), so
 * that a page with thousands of tools gets the main thread back between batches.
 */
const REGISTRATION_BATCH_TOOLS = 100;

/** The Report's `apiReason` after a `NotAllowedError` from `registerTool`. */
const REGISTRATION_NOT_ALLOWED = 'WebMCP refused to register tools here (NotAllowedError), so nothing was registered';

/** Waits for registrations to settle, at most REGISTRATION_SETTLE_MS. Never rejects. */
async function settledWithin(tools: readonly { settled: Promise<void> }[]): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.all(tools.map((tool) => tool.settled)),
    new Promise((resolve) => { timer = setTimeout(resolve, REGISTRATION_SETTLE_MS); }),
  ]);
  clearTimeout(timer);
}

/** A source unit as last normalised. */
interface UnitState {
  label: string;
  fingerprint: string;
  /** Aborting it removes every tool the unit owns. */
  controller: AbortController;
  declarations: readonly unknown[];
  /** The unit's messages, serialised: a declaration's verdict may depend on them. */
  messages: string;
  problem?: PendingRejection;
  /** Declaration outcomes in declaration order. */
  results: ({ spec: ToolSpec } | { rejection: PendingRejection })[];
}

/** A declaration as text, to find it unchanged in a changed unit; undefined when it cannot be serialised. */
function serialise(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** A tool handed to `registerTool`. */
interface ToolState {
  spec: ToolSpec;
  /** Its own: a changed unit removes exactly its changed tools. A removed unit aborts each of its tools (`#removeUnit`). */
  controller: AbortController;
  /** The controller of the unit that declared it (kept by a changed unit); none for the runtime's own tools. */
  owner?: AbortController;
  outcome?: RegistrationOutcome;
  /** Set when the engine took the tool only with its `inputSchema` reduced (schema-reduction.ts). */
  reduced?: boolean;
  settled: Promise<void>;
}

/** Why a tool's signal aborts when its declaration is gone or changed. */
const REMOVED = 'the declaration was removed or changed';

/** Whether a tool registered with WebMCP and is still there. */
const isLive = (tool: ToolState): boolean => Boolean(tool.outcome?.ok) && !tool.controller.signal.aborted;

/**
 * Runs a source's rules on one declaration. Synchronous when the rules are (most declarations:
 * awaiting each one would cost a microtask per tool at start-up); a promise only when they load
 * more rules first (a schema with `$ref`). Never throws or rejects.
 */
function normaliseSafely(normalise: Normalise, declaration: unknown, label: string, unit: SourceUnit, origin: string): CheckResult | Promise<CheckResult> {
  const failed = (error: unknown): CheckResult => (
    // The rules never throw by design; if one does, only this declaration is lost.
    { ok: false, name: declarationName(declaration), reasons: [`declaration: could not be checked (${errorMessage(error)})`] as never }
  );
  try {
    const result = normalise(declaration, { source: label, origin, messages: unit.messages });
    return result instanceof Promise ? result.catch(failed) : result;
  } catch (error) {
    return failed(error);
  }
}

/**
 * Follows the page's sources and keeps WebMCP's registrations equal to what they declare.
 * Updates must not overlap: the runtime runs them one after another (runtime.ts).
 */
export class LiveRegistry {
  readonly #config: RuntimeConfig;
  readonly #host: ModelContextHost;
  readonly #stopSignal: AbortSignal;
  readonly #units = new Map<object, UnitState>();
  readonly #tools = new Map<string, ToolState>();
  /** Stable unit labels: a node keeps its label for its life; a new node gets the next number. */
  readonly #labels = new WeakMap<object, string>();
  readonly #counts = new Map<string, number>();
  /** The runtime's own tools registered now (runtime-tools.ts), by name. */
  readonly #runtimeTools = new Map<string, ToolState>();
  /** The `keep` runtime tools wanted once: they stay wanted until `stop()`. */
  readonly #kept = new Set<string>();
  /** Set by the first `NotAllowedError`: the page may not register tools, so nothing more is tried. */
  #disallowed: string | undefined;
  /** A pending new update for registrations that settled late (`#announceLate`). */
  #lateTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #normalisers = new Map<ToolSource, Promise<Normalise>>();

  /** @param stopSignal `stop()`: aborts every registration and every call in flight. */
  constructor(config: RuntimeConfig, host: ModelContextHost, stopSignal: AbortSignal) {
    this.#config = config;
    this.#host = host;
    this.#stopSignal = stopSignal;
    stopSignal.addEventListener('abort', () => this.#clear(), { once: true });
  }

  /**
   * A source's rules, loaded once (a chunk of their own: script-tag pages without WebMCP never
   * load them). @returns the rules, or the reason they could not load; a later update retries.
   */
  async #normaliser(source: ToolSource): Promise<Normalise | string> {
    let loading = this.#normalisers.get(source);
    if (!loading) {
      loading = source.normaliser();
      this.#normalisers.set(source, loading);
    }
    try {
      return await loading;
    } catch (error) {
      this.#normalisers.delete(source);
      return `declaration: not checked, the rules did not load (${errorMessage(error)})`;
    }
  }

  #labelFor(kind: string, owner: object): string {
    let label = this.#labels.get(owner);
    if (label === undefined) {
      const count = this.#counts.get(kind) ?? 0;
      this.#counts.set(kind, count + 1);
      label = `${kind}[${count}]`;
      this.#labels.set(owner, label);
    }
    return label;
  }

  #toWebMCPTool(spec: ToolSpec): WebMCPTool {
    const tool: WebMCPTool = {
      name: spec.name,
      description: spec.description,
      inputSchema: spec.inputSchema,
      annotations: spec.annotations,
      execute: createExecute(spec, this.#config, this.#stopSignal),
    };
    if (spec.title !== undefined) tool.title = spec.title;
    return tool;
  }

  /**
   * Hands one tool to WebMCP under `controller` (one per tool: no listener on the unit's signal,
   * which at hundreds of tools cost more than the registrations' own work). The runtime's own
   * tools come this way; declared tools come in batches (`#registerDeclared`).
   */
  #register(tool: WebMCPTool, controller: AbortController, spec: ToolSpec | undefined, owner: AbortController | undefined): ToolState {
    const state: ToolState = { spec: spec!, controller, owner, settled: Promise.resolve() };
    this.#track(state, tool, registerWithHost(this.#host, tool, controller.signal));
    return state;
  }

  /**
   * Registers newly declared tools in batches of REGISTRATION_BATCH_TOOLS, giving the main thread
   * back between batches when a slice of work is used up; each batch's calls come from a promise
   * job of their own (registerEachWithHost: a call from deep in this update costs Chromium more).
   * Each tool is in `#tools` from the moment its batch is prepared, so a removal or `stop()`
   * before its call withdraws it. Stops at `stop()`; skips the tools of a unit removed meanwhile.
   */
  async #registerDeclared(declared: ReadonlyMap<string, { spec: ToolSpec; unit: UnitState }>, slice: Slicer): Promise<void> {
    const adding = [...declared].filter(([name]) => !this.#tools.has(name));
    for (let first = 0; first < adding.length; first += REGISTRATION_BATCH_TOOLS) {
      const pause = slice();
      if (pause) await pause;
      // Stopped, or WebMCP refused the page while this update paused (an earlier one settled).
      if (this.#stopSignal.aborted || this.#disallowed) return;
      const batch: { state: ToolState; tool: WebMCPTool; signal: AbortSignal }[] = [];
      for (const [name, { spec, unit }] of adding.slice(first, first + REGISTRATION_BATCH_TOOLS)) {
        if (unit.controller.signal.aborted || this.#tools.has(name)) continue;
        const controller = new AbortController();
        const state: ToolState = { spec, controller, owner: unit.controller, settled: Promise.resolve() };
        this.#tools.set(name, state);
        batch.push({ state, tool: this.#toWebMCPTool(spec), signal: controller.signal });
      }
      const outcomes = await registerEachWithHost(this.#host, batch);
      batch.forEach(({ state, tool }, index) => this.#track(state, tool, outcomes[index]!));
    }
  }

  /**
   * Follows one registration to its end: `state.outcome` and `state.settled`. An engine that
   * accepts only a subset of JSON Schema throws TypeError for the rest: the tool is registered
   * again with the reduced schema (schema-reduction.ts), and `execute` still validates against the
   * full one.
   */
  #track(state: ToolState, tool: WebMCPTool, registered: Promise<RegistrationOutcome>): void {
    const { controller } = state;
    // Not an async callback: at hundreds of tools, one more promise and job per tool shows.
    state.settled = registered.then((outcome) => {
      const reduced = !outcome.ok && outcome.error === 'TypeError' && tool.inputSchema ? reduceInputSchema(tool.inputSchema) : undefined;
      if (!reduced || controller.signal.aborted) {
        state.outcome = outcome;
        return undefined;
      }
      return registerWithHost(this.#host, { ...tool, inputSchema: reduced }, controller.signal).then((retried) => {
        if (retried.ok) state.reduced = true;
        state.outcome = retried.ok || retried.error !== 'TypeError' ? retried : outcome;
      });
    });
  }

  /** A unit that is gone: aborts its controller and removes every tool it owns. */
  #removeUnit(unit: UnitState, reason: unknown): void {
    unit.controller.abort(reason);
    for (const [name, tool] of this.#tools) {
      if (tool.owner !== unit.controller) continue;
      tool.controller.abort(reason);
      this.#tools.delete(name);
    }
  }

  /**
   * One update. Reads every source; units that are gone or changed abort their tools; new and
   * changed units are normalised (calling `slice` between declarations); then the tools that
   * are no longer declared, or declared differently or by another owner, are removed, and the
   * newly declared ones registered.
   * @returns once every registration is handed to WebMCP; `snapshot` resolves when they settled.
   *   Never throws.
   */
  async update(slice: Slicer): Promise<{ snapshot: Promise<Snapshot> }> {
    if (this.#disallowed) return { snapshot: Promise.resolve({ ...emptySnapshot(), disallowed: this.#disallowed }) };
    const doc = this.#config.document;
    const readings: { source: ToolSource; unit: SourceUnit }[] = [];
    // A fetching source (AgentGate) answers with a promise: the first update waits for it, so
    // the first Report holds its tools; a later update finds its reading cached.
    const read = await Promise.all(SOURCES.map((source) => source.read(doc, this.#config)));
    SOURCES.forEach((source, index) => { for (const unit of read[index]!) readings.push({ source, unit }); });
    if (this.#stopSignal.aborted) return { snapshot: Promise.resolve(emptySnapshot()) };
    const current = new Map(readings.map(({ unit }) => [unit.owner, unit]));
    // A unit that is gone takes its tools with it; one whose content changed keeps its owner's
    // controller, and its unchanged declarations keep their ToolSpecs, so the comparison below
    // replaces exactly the tools declared differently (e.g. one tool of a revalidated manifest).
    const changed = new Map<object, UnitState>();
    // A unit that is gone while a new one holds exactly its content is the same unit redrawn (a
    // Livewire component drawn again puts a new island element where the old one was): it moves
    // to the new owner with its label and tools, so nothing is unregistered and registered again.
    const unread = new Map<string, object>();
    for (const { unit } of readings) if (!this.#units.has(unit.owner) && !unread.has(unit.fingerprint)) unread.set(unit.fingerprint, unit.owner);
    for (const [node, state] of this.#units) {
      const now = current.get(node);
      if (now?.fingerprint === state.fingerprint) continue;
      const successor = now ? undefined : unread.get(state.fingerprint);
      if (successor) {
        unread.delete(state.fingerprint);
        this.#labels.set(successor, state.label);
        // Visited again by this loop, as the new owner's unchanged unit.
        this.#units.set(successor, state);
      } else if (now) changed.set(node, state);
      else this.#removeUnit(state, REMOVED);
      this.#units.delete(node);
    }
    for (const { source, unit } of readings) {
      if (this.#units.has(unit.owner)) continue;
      const label = this.#labelFor(source.kind, unit.owner);
      const previous = changed.get(unit.owner);
      const messages = serialise(unit.messages) ?? '';
      const state: UnitState = {
        label, fingerprint: unit.fingerprint, controller: previous?.controller ?? new AbortController(), declarations: unit.declarations, messages, results: [],
      };
      if (unit.problem) state.problem = { name: MANIFEST_REJECTION_NAME, source: label, reasons: [unit.problem] };
      const earlier = new Map<string, ToolSpec>();
      if (previous && previous.messages === messages) {
        previous.declarations.forEach((declaration, index) => {
          const text = serialise(declaration);
          const result = previous.results[index];
          if (text !== undefined && result && 'spec' in result) earlier.set(text, result.spec);
        });
      }
      const normalise = unit.declarations.length > 0 ? await this.#normaliser(source) : undefined;
      for (const declaration of unit.declarations) {
        // Serialised only when there is an earlier reading to compare with (never on a first read).
        const kept = earlier.size > 0 ? earlier.get(serialise(declaration) ?? '\u0000') : undefined;
        if (kept) {
          state.results.push({ spec: kept });
          continue;
        }
        const pause = slice();
        if (pause) await pause;
        if (this.#stopSignal.aborted) return { snapshot: Promise.resolve(emptySnapshot()) };
        let result = typeof normalise === 'string'
          ? { ok: false as const, name: declarationName(declaration), reasons: [normalise] }
          : normaliseSafely(normalise!, declaration, label, unit, this.#config.origin);
        if (result instanceof Promise) result = await result;
        state.results.push(result.ok ? { spec: result.spec } : { rejection: { name: result.name, source: label, reasons: result.reasons } });
      }
      // Rules that did not load leave the unit unchecked: the next update checks it again.
      if (typeof normalise === 'string') state.fingerprint = `${unit.fingerprint}\u0000unchecked`;
      this.#units.set(unit.owner, state);
    }

    // The registration rules, in table and document order: the first declaration of a name wins.
    const units = readings.map(({ unit }) => this.#units.get(unit.owner)!);
    const rejected: PendingRejection[] = units.flatMap((unit) => (unit.problem ? [unit.problem] : []));
    const claims = new NameClaims();
    const declared = new Map<string, { spec: ToolSpec; unit: UnitState }>();
    // Form tools whose controls a rule other than `name` found (form-control-rule.ts): the Report says which.
    const ruleNotes = new Map<string, string>();
    for (const unit of units) {
      for (const result of unit.results) {
        if ('rejection' in result) {
          rejected.push(result.rejection);
          continue;
        }
        const refusal = registrationRefusal(result.spec, unit.label, claims, doc);
        if (refusal) rejected.push({ name: result.spec.name, source: unit.label, reasons: [refusal] });
        else {
          declared.set(result.spec.name, { spec: result.spec, unit });
          const note = formToolRuleNote(result.spec, doc);
          if (note) ruleNotes.set(result.spec.name, note);
        }
      }
    }

    // Remove what changed before registering: a moved or replaced name is then free again.
    for (const [name, tool] of this.#tools) {
      if (declared.get(name)?.spec === tool.spec) continue;
      tool.controller.abort(REMOVED);
      this.#tools.delete(name);
    }
    await this.#registerDeclared(declared, slice);
    const mine = [...declared.keys()].flatMap((name) => {
      const tool = this.#tools.get(name);
      return tool ? [tool] : [];
    });
    return { snapshot: this.#settle(mine, rejected, ruleNotes) };
  }

  /** Waits for this update's registrations, keeps the runtime's own tools in step, and audits. */
  async #settle(tools: ToolState[], rejected: PendingRejection[], ruleNotes: ReadonlyMap<string, string> = new Map()): Promise<Snapshot> {
    await settledWithin(tools);
    // A policy refusal (detected once, on the first NotAllowedError): withdraw everything, stay silent.
    if (this.#disallowed || tools.some((tool) => tool.outcome && !tool.outcome.ok && tool.outcome.error === 'NotAllowedError')) {
      this.#disallowed = REGISTRATION_NOT_ALLOWED;
      this.#clear(REGISTRATION_NOT_ALLOWED);
      return { ...emptySnapshot(), disallowed: this.#disallowed };
    }
    const registered: string[] = [];
    const pending: ToolState[] = [];
    const notes: AuditEntry[] = [];
    const warnings: PendingWarning[] = [];
    for (const tool of tools) {
      // A registration a later update already withdrew belongs to neither Report.
      if (tool.controller.signal.aborted) continue;
      if (!tool.outcome) pending.push(tool);
      else if (tool.outcome.ok) registered.push(tool.spec.name);
      else rejected.push({ name: tool.spec.name, source: tool.spec.source, reasons: [tool.outcome.reason] });
      if (tool.outcome?.ok && tool.spec.warnings) warnings.push({ name: tool.spec.name, warnings: tool.spec.warnings });
      const ruleNote = tool.outcome?.ok ? ruleNotes.get(tool.spec.name) : undefined;
      if (ruleNote) notes.push({ level: 'warning', surface: `tool ${tool.spec.name}`, message: ruleNote });
      if (tool.outcome?.ok && tool.reduced) {
        notes.push({ level: 'warning', surface: `tool ${tool.spec.name}`, message: 'WebMCP took this tool only with its inputSchema reduced to the keywords the engine accepts; the runtime still checks every input against the full schema' });
      }
    }
    // A late registration brings a new update (and Report) once it settles.
    for (const tool of pending) void tool.settled.then(() => this.#announceLate(tool));
    for (const tool of RUNTIME_TOOLS) await this.#keepRuntimeTool(tool, rejected);
    const coverage = coverageOf([...this.#units.values()].flatMap((unit) => unit.declarations));
    const snapshot: Snapshot = { registered, rejected, audit: [...notes, ...answerNotes(this.#config, registered), ...auditSurfaces(this.#config.document, coverage, this.#config.audit)] };
    if (pending.length > 0) snapshot.pending = pending.map((tool) => tool.spec.name);
    if (warnings.length > 0) snapshot.warnings = warnings;
    return snapshot;
  }

  /**
   * A registration that settled after its update's Report: asks the runtime for a new update
   * (once per task, however many settle in it).
   */
  #announceLate(tool: ToolState): void {
    if (this.#stopSignal.aborted || tool.controller.signal.aborted || this.#lateTimer !== undefined) return;
    this.#lateTimer = setTimeout(() => {
      this.#lateTimer = undefined;
      if (!this.#stopSignal.aborted) callBuiltIn(this.#config.document, 'dispatchEvent', new Event(SOURCE_CHANGE_EVENT));
    }, 0);
  }

  /**
   * A runtime tool (runtime-tools.ts: `capell.write.status`, `agentgate.handoff.status`,
   * `agentgate.receipts`) is registered while it is wanted, and removed when it no longer is. Not
   * a declaration: the Report lists it only when refused.
   */
  async #keepRuntimeTool(tool: RuntimeTool, rejected: PendingRejection[]): Promise<void> {
    if (this.#stopSignal.aborted || this.#disallowed) return;
    const wanted = this.#wants(tool);
    const current = this.#runtimeTools.get(tool.name);
    if (wanted && !current) {
      const placeholder: ToolState = { spec: undefined!, controller: new AbortController(), settled: Promise.resolve() };
      this.#runtimeTools.set(tool.name, placeholder); // claimed before the await: two settling updates register it once
      let state: ToolState;
      try {
        const created = await tool.create(this.#config, this.#stopSignal, this.#declared);
        if (placeholder.controller.signal.aborted) return;
        // A later update may have removed what wanted it while the module loaded.
        if (!this.#wants(tool)) {
          this.#runtimeTools.delete(tool.name);
          return;
        }
        state = this.#register(created, placeholder.controller, undefined, undefined);
      } catch (error) {
        this.#runtimeTools.delete(tool.name); // retried by the next update
        rejected.push({ name: tool.name, source: 'capell-webmcp', reasons: [`its module did not load (${errorMessage(error)})`] });
        return;
      }
      this.#runtimeTools.set(tool.name, state);
      await settledWithin([state]);
      if (state.outcome && !state.outcome.ok) rejected.push({ name: tool.name, source: 'capell-webmcp', reasons: [state.outcome.reason] });
    } else if (!wanted && current?.outcome) {
      current.controller.abort(REMOVED);
      this.#runtimeTools.delete(tool.name);
    }
  }

  /**
   * Whether a runtime tool is wanted now (runtime-tools.ts, `wanted`); a `keep` tool also once
   * it was wanted in this registry's life (so a withdrawn update registers it again).
   */
  #wants(tool: RuntimeTool): boolean {
    if (tool.keep && this.#kept.has(tool.name)) return true;
    const registered = () => [...this.#tools.values()].filter(isLive).map((state) => state.spec);
    const wanted = tool.wanted(registered, this.#declared, this.#config.document);
    if (wanted && tool.keep) this.#kept.add(tool.name);
    return wanted;
  }

  /** Every ToolSpec the page's sources normalised now, registered or not. */
  readonly #declared = (): ToolSpec[] => [...this.#units.values()].flatMap((unit) => unit.results.flatMap((result) => ('spec' in result ? [result.spec] : [])));

  /**
   * Removes every tool this registry registered, and forgets every source unit, so that the next
   * update registers from scratch. For an update that failed as a whole: its Report says nothing
   * is registered, and this makes it true (follow.ts).
   */
  withdraw(reason: unknown): void {
    this.#clear(reason);
  }

  /** Removes every tool (`stop()`, `withdraw`, or a policy refusal). */
  #clear(reason: unknown = this.#stopSignal.reason): void {
    for (const unit of this.#units.values()) unit.controller.abort(reason);
    for (const tool of this.#tools.values()) tool.controller.abort(reason);
    for (const tool of this.#runtimeTools.values()) tool.controller.abort(reason);
    this.#units.clear();
    this.#tools.clear();
    this.#runtimeTools.clear();
  }
}
