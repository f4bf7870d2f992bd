/**
 * `<capell-inspector>`: what the runtime did on this page, for the site's operator: the live
 * Report (tools registered with their binding, annotations and schema; rejected ones with every
 * reason; the audit; which WebMCP entry point was found, or why none) and a log of the tool calls
 * made while it is open. Loaded only when asked (`data-inspect`, `?capell-webmcp=inspect`,
 * `window.capellWebMCP.inspect()`, `start({ inspect: true })`): its own chunk (the unit
 * inspector/), never part of what a visitor loads.
 */
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { builtIn, callBuiltIn } from '../start/dom-builtin.js';
import { readIslands } from '../start/read-islands.js';
import type { ToolSpec } from '../shared/declarations/tool-spec.js';
import type { Report } from '../start/report.js';
import type { ToolCallRecord } from '../registry/tool-execute.js';
import { fillInspectorText, readInspectorText, type InspectorText } from './inspector-text.js';
import { deepActiveElement } from '../shared/deep-active-element.js';

/** The element's tag (a page that took it first keeps it; the inspector then gets a suffixed one). */
const INSPECTOR_TAG = 'capell-inspector';

/** The runtime event the inspector follows (runtime.ts CHANGE_EVENT; not imported: it lives in the entry). */
const CHANGE_EVENT = 'capell-webmcp:change';

/** Calls kept in the log, newest first; older ones drop off. */
const MAX_LOGGED_CALLS = 50;

/** Longest input or answer shown per call, in UTF-16 units; the rest is cut with an ellipsis. */
const MAX_SHOWN_TEXT = 400;

/** Where the inspector reads the Report: a Runtime, or `window.capellWebMCP`. */
interface InspectorSource {
  readonly ready: Promise<Report>;
  readonly report: Report | undefined;
}

/** What the inspector needs of the runtime's call machinery (tool-execute.ts), loaded only where WebMCP exists. */
interface CallSeam {
  watchToolCalls(doc: Document, watcher: (record: ToolCallRecord) => void): () => void;
  toolSpecsOf(doc: Document): ReadonlyMap<string, ToolSpec>;
}

function clip(text: string): string {
  return text.length > MAX_SHOWN_TEXT ? `${text.slice(0, MAX_SHOWN_TEXT - 1)}…` : text;
}

function asJSON(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A non-modal dialog (`role="dialog"`, named by its heading) docked at the side of the viewport.
 * It takes focus when opened, is keyboard operable (Tab through its tools, each opening with
 * Enter/Space to show its binding, annotations and schema; Escape or Close closes it and focus
 * goes back to where it was) and announces registry changes and calls through a polite live
 * region. It shows; it never acts on the page.
 *
 * Theming: an open shadow root with parts and custom properties.
 * @csspart panel - the dialog box
 * @csspart header - the heading row with the close button
 * @csspart close - the close button
 * @csspart section - each section (API, registered, pending, rejected, audit, calls)
 * @csspart tool - one registered tool
 * @csspart rejection - one rejected declaration
 * @csspart audit-entry - one audit entry
 * @csspart call - one logged call
 * @csspart code - inline code and schemas
 * @cssprop --capell-inspector-accent - headings, borders and focus rings @default #1f5f8b
 * @cssprop --capell-inspector-background - the panel's background @default #ffffff
 * @cssprop --capell-inspector-ink - the panel's text colour @default #1b1f23
 * @cssprop --capell-inspector-font - font-family @default system-ui, sans-serif
 * @cssprop --capell-inspector-width - the panel's width @default 30rem
 * @example
 * await window.capellWebMCP.inspect(); // or open the page with ?capell-webmcp=inspect
 */
export class CapellInspector extends LitElement {
  static override styles = css`
    :host { display: block; }
    section.panel {
      position: fixed; top: 0; right: 0; bottom: 0; z-index: 2147483646;
      box-sizing: border-box; width: min(var(--capell-inspector-width, 30rem), 100vw);
      overflow: auto; padding: 1rem 1.25rem;
      background: var(--capell-inspector-background, #ffffff); color: var(--capell-inspector-ink, #1b1f23);
      border-left: 3px solid var(--capell-inspector-accent, #1f5f8b);
      box-shadow: -0.25rem 0 1.5rem rgb(0 0 0 / 0.2);
      font: 400 15px/1.45 var(--capell-inspector-font, system-ui, sans-serif);
      text-align: start;
    }
    section.panel:focus { outline: none; }
    section.panel:focus-visible { outline: 3px solid var(--capell-inspector-accent, #1f5f8b); outline-offset: -3px; }
    .header { display: flex; align-items: center; justify-content: space-between; gap: 1rem; margin-bottom: 0.5rem; }
    h2 { font-size: 1.15rem; margin: 0; }
    h3 { font-size: 1rem; margin: 1rem 0 0.4rem; color: var(--capell-inspector-accent, #1f5f8b); }
    h4 { font-size: 0.95rem; margin: 0; }
    ul, ol { list-style: none; margin: 0; padding: 0; }
    li { border-top: 1px solid rgb(0 0 0 / 0.15); padding: 0.5rem 0; }
    p { margin: 0.25rem 0; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.75rem; margin: 0.25rem 0; }
    dt { font-weight: 600; }
    dd { margin: 0; overflow-wrap: anywhere; }
    code, pre { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
    pre { white-space: pre-wrap; margin: 0.25rem 0; padding: 0.4rem; background: rgb(0 0 0 / 0.05); }
    .reasons { list-style: disc; padding-inline-start: 1.25rem; }
    .reasons li { border: 0; padding: 0.1rem 0; }
    .error { font-weight: 600; }
    button {
      font: inherit; cursor: pointer; border-radius: 0.4rem; padding: 0.35rem 0.9rem; margin: 0;
      border: 2px solid var(--capell-inspector-accent, #1f5f8b);
      background: var(--capell-inspector-background, #ffffff); color: var(--capell-inspector-ink, #1b1f23);
    }
    button:focus-visible, summary:focus-visible { outline: 3px solid var(--capell-inspector-accent, #1f5f8b); outline-offset: 2px; }
    summary { cursor: pointer; }
    .summary-binding { font-size: 0.9em; }
    .schema-label { font-weight: 600; margin-top: 0.5rem; }
    .tool details[open] > summary { margin-bottom: 0.25rem; }
    .status { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
  `;

  #doc: Document | undefined;
  #report: Report | undefined;
  #specs: ReadonlyMap<string, ToolSpec> = new Map();
  #calls: ToolCallRecord[] = [];
  #text: InspectorText = readInspectorText([]);
  #announcement = '';
  #returnFocus: HTMLElement | null = null;
  #stop = new AbortController();
  #unwatch: (() => void) | undefined;
  #seam: Promise<CallSeam> | undefined;

  /** The Report shown now (undefined before the runtime's first). For tests and tools. */
  get report(): Report | undefined {
    return this.#report;
  }

  /** The calls logged since the inspector opened, newest first. */
  get calls(): readonly ToolCallRecord[] {
    return this.#calls;
  }

  /**
   * Shows `source`'s Report in `doc` and follows it: each `capell-webmcp:change` replaces it, and
   * (where WebMCP exists) each finished tool call is logged. Called once, by `openInspector`.
   */
  attach(doc: Document, source: InspectorSource): void {
    if (this.#doc) return;
    this.#doc = doc;
    this.#text = readInspectorText(readIslands(doc).map((island) => island.messages));
    // Past DOM clobbering (dom-builtin.ts). The Report is read from the runtime, which published
    // it before the event: a page script that fires a made-up change event shows nothing made up.
    callBuiltIn(doc, 'addEventListener', CHANGE_EVENT, () => {
      const report = source.report;
      if (!report) return;
      this.#show(report);
      this.#say(fillInspectorText(this.#text.inspectorUpdated, { registered: report.registered.length, rejected: report.rejected.length }));
    }, { signal: this.#stop.signal });
    if (source.report) this.#show(source.report);
    void source.ready.then((report) => {
      if (!this.#report) this.#show(report);
    });
  }

  #show(report: Report): void {
    this.#report = report;
    if (report.api !== 'none') this.#watchCalls();
    this.requestUpdate();
  }

  /** Loads the call seam (the registry chunk, already there where WebMCP exists) and starts logging. */
  #watchCalls(): void {
    if (this.#seam || !this.#doc) return;
    const doc = this.#doc;
    this.#seam = import('../registry/tool-execute.js');
    this.#seam.then((seam) => {
      if (this.#stop.signal.aborted) return;
      this.#specs = seam.toolSpecsOf(doc);
      this.#unwatch = seam.watchToolCalls(doc, (record) => {
        this.#calls = [record, ...this.#calls].slice(0, MAX_LOGGED_CALLS);
        this.#say(fillInspectorText(this.#text.inspectorCalled, { tool: record.tool, outcome: this.#outcomeWord(record) }));
      });
      this.requestUpdate();
    }, () => {
      // Without the seam the inspector still shows the Report; there are no calls to log.
    });
  }

  #say(text: string): void {
    this.#announcement = text;
    this.requestUpdate();
  }

  #outcomeWord(record: ToolCallRecord): string {
    return record.outcome === 'ok' ? this.#text.inspectorOk : this.#text.inspectorError;
  }

  /** Moves focus into the inspector, remembering where it was (Escape or Close gives it back). */
  async focusPanel(): Promise<void> {
    const active = deepActiveElement(this.ownerDocument);
    if (active && !this.contains(active) && active !== this) this.#returnFocus = active;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('section.panel')?.focus();
  }

  /** Closes the inspector: stops following, removes it, and gives focus back when it had it. */
  close(): void {
    const hadFocus = this.matches(':focus-within');
    this.#stop.abort();
    this.#unwatch?.();
    this.remove();
    if (hadFocus && this.#returnFocus?.isConnected) this.#returnFocus.focus();
  }

  #keydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    this.close();
  };

  protected override render(): TemplateResult {
    const text = this.#text;
    const report = this.#report;
    return html`<section class="panel" part="panel" role="dialog" aria-labelledby="heading" tabindex="-1" @keydown=${this.#keydown}>
      <div class="header" part="header">
        <h2 id="heading">${text.inspectorTitle}</h2>
        <button type="button" part="close" class="close" @click=${() => this.close()}>${text.inspectorClose}</button>
      </div>
      ${report ? this.#renderReport(report) : html`<p class="waiting">${text.inspectorWaiting}</p>`}
      <p class="status" role="status" aria-live="polite">${this.#announcement}</p>
    </section>`;
  }

  #renderReport(report: Report): TemplateResult {
    const text = this.#text;
    const count = (template: string, entries: readonly unknown[]) => fillInspectorText(template, { count: entries.length });
    const none = html`<p>${text.inspectorNone}</p>`;
    return html`
      <section part="section" class="api" aria-labelledby="api">
        <h3 id="api">${text.inspectorApi}</h3>
        <p>${report.api === 'none'
          ? fillInspectorText(text.inspectorApiNone, { reason: report.apiReason ?? text.inspectorNoWebMCP })
          : fillInspectorText(text.inspectorApiFound, { api: report.api })}</p>
      </section>
      <section part="section" class="registered" aria-labelledby="registered">
        <h3 id="registered">${count(text.inspectorRegistered, report.registered)}</h3>
        ${report.registered.length === 0 ? none : html`<ul>${report.registered.map((name) => this.#renderTool(name))}</ul>`}
      </section>
      ${report.pending?.length ? html`<section part="section" class="pending" aria-labelledby="pending">
        <h3 id="pending">${count(text.inspectorPending, report.pending)}</h3>
        <ul>${report.pending.map((name) => html`<li><code part="code">${name}</code></li>`)}</ul>
      </section>` : nothing}
      <section part="section" class="rejected" aria-labelledby="rejected">
        <h3 id="rejected">${count(text.inspectorRejected, report.rejected)}</h3>
        ${report.rejected.length === 0 ? none : html`<ul>${report.rejected.map((rejection) => html`<li part="rejection" class="rejection">
          <h4><code part="code">${rejection.name}</code></h4>
          <p>${text.inspectorSource}: <code part="code">${rejection.source}</code></p>
          <ul class="reasons">${rejection.reasons.map((reason) => html`<li>${reason}</li>`)}</ul>
        </li>`)}</ul>`}
      </section>
      <section part="section" class="audit" aria-labelledby="audit">
        <h3 id="audit">${count(text.inspectorAudit, report.audit)}</h3>
        ${report.audit.length === 0 ? none : html`<ul>${report.audit.map((entry) => html`<li part="audit-entry" class="audit-entry">
          <strong>${entry.level}</strong>: <code part="code">${entry.surface}</code>: ${entry.message}
        </li>`)}</ul>`}
      </section>
      <section part="section" class="calls" aria-labelledby="calls">
        <h3 id="calls">${count(text.inspectorCalls, this.#calls)}</h3>
        ${this.#calls.length === 0 ? html`<p>${text.inspectorNoCalls}</p>` : html`<ol>${this.#calls.map((call) => this.#renderCall(call))}</ol>`}
      </section>`;
  }

  #renderTool(name: string): TemplateResult {
    const text = this.#text;
    const spec = this.#specs.get(name);
    if (!spec) return html`<li part="tool" class="tool" data-tool=${name}><h4><code part="code">${name}</code></h4></li>`;
    const annotations = Object.entries(spec.annotations ?? {}).map(([key, value]) => `${key}: ${String(value)}`).join(', ');
    const binding = `${spec.binding.type} → ${spec.binding.target}`;
    // One line per tool until opened, so the rejections, the audit and the calls stay in view.
    return html`<li part="tool" class="tool" data-tool=${name}><details>
      <summary><code part="code">${name}</code> <span class="summary-binding">${binding}</span></summary>
      ${spec.title ? html`<p><strong>${spec.title}</strong></p>` : nothing}
      <p>${spec.description}</p>
      <dl>
        <dt>${text.inspectorBinding}</dt><dd><code part="code" class="binding">${binding}</code></dd>
        <dt>${text.inspectorEffect}</dt><dd>${spec.effect}</dd>
        <dt>${text.inspectorAnnotations}</dt><dd class="annotations">${annotations || '–'}</dd>
        <dt>${text.inspectorSource}</dt><dd><code part="code">${spec.source}</code></dd>
      </dl>
      <p class="schema-label">${text.inspectorSchema}</p>
      <pre part="code" class="schema">${asJSON(spec.inputSchema, 2)}</pre>
    </details></li>`;
  }

  #renderCall(call: ToolCallRecord): TemplateResult {
    const text = this.#text;
    const line = fillInspectorText(text.inspectorCallLine, { outcome: this.#outcomeWord(call), duration: Math.round(call.durationMs), bytes: call.bytes });
    return html`<li part="call" class="call" data-tool=${call.tool} data-outcome=${call.outcome}>
      <h4><code part="code">${call.tool}</code> <span class=${call.outcome === 'error' ? 'error' : ''}>${line}</span></h4>
      <dl>
        <dt>${text.inspectorInput}</dt><dd><code part="code">${clip(asJSON(call.input))}</code></dd>
        <dt>${text.inspectorAnswer}</dt><dd><code part="code">${clip(call.text)}</code></dd>
      </dl>
    </li>`;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stop.abort();
    this.#unwatch?.();
  }
}


declare global {
  interface HTMLElementTagNameMap {
    'capell-inspector': CapellInspector;
  }
}

customElements.define(customElements.get(INSPECTOR_TAG) ? `${INSPECTOR_TAG}-${Math.random().toString(36).slice(2)}` : INSPECTOR_TAG, CapellInspector);

/** The open inspector of each document: one per document. */
const open = new WeakMap<Document, CapellInspector>();

/**
 * Opens the inspector in `doc` (at the end of `<body>`) showing `source`'s Report, or, when it is
 * open already, moves focus to it. Focus moves into it either way.
 * @returns the element. Never throws once `<body>` exists.
 */
export async function openInspector(doc: Document, source: InspectorSource): Promise<CapellInspector> {
  // Started from the <head> (a library's start()): the inspector goes in once <body> is parsed.
  if (!builtIn<HTMLElement | null>(doc, 'body')) await new Promise((resolve) => callBuiltIn(doc, 'addEventListener', 'DOMContentLoaded', resolve, { once: true }));
  let inspector = open.get(doc);
  if (!inspector?.isConnected) {
    inspector = new CapellInspector();
    if (inspector.ownerDocument !== doc) doc.adoptNode(inspector);
    inspector.attach(doc, source);
    builtIn<HTMLElement>(doc, 'body').append(inspector);
    open.set(doc, inspector);
  }
  await inspector.focusPanel();
  return inspector;
}
