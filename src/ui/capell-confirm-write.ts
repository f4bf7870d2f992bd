/**
 * `<capell-confirm-write>`: the panel in which a person sees what an agent proposes to send and
 * decides. Loaded on the first write call only (never in the start-up chunk).
 */
import { LitElement, css, html, nothing, type PropertyDeclarations } from 'lit';

/** The element's tag. */
export const CONFIRM_WRITE_TAG = 'capell-confirm-write';

/** How long after opening the panel its announcement is written to the live region, in ms. */
const ANNOUNCE_DELAY_MS = 50;

/** One proposed value: the field's label and the value as a person reads it. */
export interface ConfirmWriteItem {
  label: string;
  value: string;
}

/** The panel's words, already localised (see ui/confirm-text.ts). */
export interface ConfirmWriteWords {
  title: string;
  intro: string;
  hint?: string;
  send: string;
  cancel: string;
  close: string;
}

/**
 * What the panel shows. `mode: 'form'`: the agent filled a form; the person sends it with the
 * form's own submit button, so the panel has only Cancel. `mode: 'request'`: a write endpoint;
 * the panel's own Send button is the send control, and `request` previews it (`POST /path`).
 * `notice`: said above everything else, e.g. that this proposal replaces an earlier one.
 */
export interface ConfirmWriteProposal {
  mode: 'form' | 'request';
  words: ConfirmWriteWords;
  items: ConfirmWriteItem[];
  request?: string;
  notice?: string;
}

/**
 * What the runtime is told. Kept private to the element (not events a script could fake):
 * `onSend` runs only for a trusted click on Send (`event.isTrusted`); `onCancel` for Cancel or
 * Escape.
 */
export interface ConfirmWriteHandlers {
  onCancel(): void;
  onSend?(): void;
}

/**
 * A non-modal dialog (`role="dialog"`, named by its heading) placed next to the form (or at the
 * top of `<main>` for a write endpoint). It takes focus when shown, is keyboard operable (Tab,
 * Enter/Space on its buttons, Escape = Cancel), announces itself through a polite live region,
 * and never submits, clicks or sends anything itself: Send only tells the runtime that a person
 * clicked it.
 *
 * Capell Agent Schema: write tools use "the browser's user-mediation flow"; "Core does not
 * auto-submit them".
 *
 * @fires capell-webmcp:confirm-close - when the panel closes; `detail: { outcome }` with
 *   `outcome` one of `'cancelled'`, `'sent'`, `'closed'`, `'withdrawn'`. Informational only: the
 *   runtime never acts on events.
 * @csspart panel - the dialog box
 * @csspart heading - its heading (the accessible name)
 * @csspart notice - a notice about this proposal (e.g. it replaces an earlier one)
 * @csspart intro - what the person is asked to do
 * @csspart hint - where the form's send button is (form mode)
 * @csspart request - the request preview (request mode)
 * @csspart list - the list of proposed values
 * @csspart item - one proposed value (label and value)
 * @csspart label - a field's label
 * @csspart value - a proposed value
 * @csspart actions - the button row
 * @csspart button - every button
 * @csspart send - the Send button (request mode)
 * @csspart cancel - the Cancel button
 * @csspart close - the Close button (after sending)
 * @csspart outcome - how sending ended (after sending)
 * @csspart status - the live region (visually hidden: what it announces is visible elsewhere)
 * @cssprop --capell-confirm-background - panel background @default #ffffff
 * @cssprop --capell-confirm-color - text colour @default #1b1f23
 * @cssprop --capell-confirm-border-color - border colour @default #1f5f8b
 * @cssprop --capell-confirm-accent - Send button and focus ring colour @default #1f5f8b
 * @cssprop --capell-confirm-accent-ink - text on the accent colour @default #ffffff
 * @cssprop --capell-confirm-radius - corner radius @default 0.5rem
 * @cssprop --capell-confirm-font - font @default inherit
 * @cssprop --capell-confirm-max-width - widest the panel grows @default 40rem
 * @example
 * const panel = document.createElement('capell-confirm-write');
 * form.after(panel);
 * await panel.present({ mode: 'form', words, items }, { onCancel: () => … });
 */
export class CapellConfirmWrite extends LitElement {
  static override properties: PropertyDeclarations = {
    proposal: { attribute: false },
    outcome: { state: true },
    announcement: { state: true },
  };

  static override styles = css`
    :host { display: block; margin: 1rem 0; max-width: var(--capell-confirm-max-width, 40rem); font: var(--capell-confirm-font, inherit); }
    :host([hidden]) { display: none; }
    section {
      background: var(--capell-confirm-background, #ffffff);
      color: var(--capell-confirm-color, #1b1f23);
      border: 2px solid var(--capell-confirm-border-color, #1f5f8b);
      border-radius: var(--capell-confirm-radius, 0.5rem);
      padding: 1rem 1.25rem;
      position: relative;
      box-shadow: 0 0.25rem 1rem rgb(0 0 0 / 0.12);
    }
    section:focus { outline: none; }
    section:focus-visible { outline: 3px solid var(--capell-confirm-accent, #1f5f8b); outline-offset: 3px; }
    h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
    p { margin: 0.5rem 0; }
    code { font-family: ui-monospace, monospace; font-weight: 600; }
    dl { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 0.25rem 1rem; margin: 0.75rem 0; }
    dl > div { display: contents; }
    dt { font-weight: 600; }
    dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
    .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.75rem; }
    button {
      font: inherit; cursor: pointer; border-radius: 0.4rem; padding: 0.5rem 1.1rem;
      border: 2px solid var(--capell-confirm-accent, #1f5f8b);
      background: transparent; color: var(--capell-confirm-color, #1b1f23);
    }
    button.primary { background: var(--capell-confirm-accent, #1f5f8b); color: var(--capell-confirm-accent-ink, #ffffff); }
    button:focus-visible { outline: 3px solid var(--capell-confirm-accent, #1f5f8b); outline-offset: 2px; }
    /* The live region is for screen readers; what it says is also visible in the panel. */
    .status { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
    .outcome, .notice { font-weight: 600; }
  `;

  /** What the panel shows; set by `present()`. */
  declare proposal: ConfirmWriteProposal | undefined;
  /** After sending: the outcome text; the panel then shows it with a Close button. */
  declare outcome: string | undefined;
  /** Text of the live region. */
  declare announcement: string;

  #handlers: ConfirmWriteHandlers | undefined;
  #returnFocus: HTMLElement | null = null;
  #announceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.proposal = undefined;
    this.outcome = undefined;
    this.announcement = '';
  }

  /**
   * Shows a proposal, moves focus into the panel and announces it. Call after the element is in
   * the document.
   * @param handlers see ConfirmWriteHandlers; replaced by each call.
   */
  async present(proposal: ConfirmWriteProposal, handlers: ConfirmWriteHandlers): Promise<void> {
    this.#returnFocus = deepActiveElement(this.ownerDocument);
    this.#handlers = handlers;
    this.proposal = proposal;
    this.outcome = undefined;
    this.announcement = '';
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('section')?.focus();
    // A live region announces changes, not content present when it appears: write it a moment later.
    clearTimeout(this.#announceTimer);
    this.#announceTimer = setTimeout(() => {
      this.announcement = [proposal.words.title, proposal.notice, proposal.words.intro, proposal.words.hint].filter(Boolean).join(' ');
    }, ANNOUNCE_DELAY_MS);
  }

  /**
   * Shows how sending ended (`text`, e.g. "Sent.") with a Close button that gets focus when the
   * focus was in the panel. The runtime's handlers are dropped: the decision is made.
   */
  async showOutcome(text: string): Promise<void> {
    this.#handlers = undefined;
    clearTimeout(this.#announceTimer);
    const hadFocus = this.matches(':focus-within');
    this.outcome = text;
    this.announcement = text;
    await this.updateComplete;
    if (hadFocus) this.renderRoot.querySelector<HTMLElement>('button[part~="close"]')?.focus();
  }

  /**
   * Removes the panel. When the focus was in it, focus goes back to where it was before the panel
   * opened. `outcome` is reported in the `capell-webmcp:confirm-close` event.
   */
  close(outcome: 'cancelled' | 'sent' | 'closed' | 'withdrawn'): void {
    this.#handlers = undefined;
    clearTimeout(this.#announceTimer);
    const hadFocus = this.matches(':focus-within');
    const returnTo = this.#returnFocus;
    this.#returnFocus = null;
    // Fired while still in the document, so it bubbles to the page's listeners.
    this.dispatchEvent(new CustomEvent('capell-webmcp:confirm-close', { detail: { outcome }, bubbles: true, composed: true }));
    this.remove();
    if (hadFocus && returnTo?.isConnected) returnTo.focus();
  }

  #cancel = (): void => {
    const handlers = this.#handlers;
    if (handlers) handlers.onCancel();
    else if (this.outcome !== undefined) this.close('closed');
  };

  #send = (event: MouseEvent): void => {
    // Consent is a person's click: a script-made click (`button.click()`, dispatchEvent) is not.
    if (!event.isTrusted) return;
    this.#handlers?.onSend?.();
  };

  #keydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    this.#cancel();
  };

  protected override render(): unknown {
    const proposal = this.proposal;
    if (!proposal) return nothing;
    const { words } = proposal;
    const done = this.outcome !== undefined;
    return html`<section part="panel" role="dialog" aria-labelledby="heading" tabindex="-1" @keydown=${this.#keydown}>
      <h2 id="heading" part="heading">${words.title}</h2>
      ${proposal.notice ? html`<p class="notice" part="notice">${proposal.notice}</p>` : nothing}
      <p part="intro">${words.intro}</p>
      ${proposal.request ? html`<p part="request"><code>${proposal.request}</code></p>` : nothing}
      <dl part="list">${proposal.items.map((item) => html`<div part="item"><dt part="label">${item.label}</dt><dd part="value">${item.value}</dd></div>`)}</dl>
      ${words.hint && !done ? html`<p part="hint">${words.hint}</p>` : nothing}
      ${done ? html`<p class="outcome" part="outcome">${this.outcome}</p>` : nothing}
      <div class="actions" part="actions">${done
        ? html`<button type="button" part="button close" @click=${() => this.close('closed')}>${words.close}</button>`
        : html`${proposal.mode === 'request' ? html`<button type="button" class="primary" part="button send" @click=${this.#send}>${words.send}</button>` : nothing}
          <button type="button" part="button cancel" @click=${this.#cancel}>${words.cancel}</button>`}</div>
      <p class="status" part="status" role="status" aria-live="polite">${this.announcement}</p>
    </section>`;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#announceTimer);
  }
}

/** The focused element, looking into open shadow roots. */
function deepActiveElement(doc: Document): HTMLElement | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

if (!customElements.get(CONFIRM_WRITE_TAG)) customElements.define(CONFIRM_WRITE_TAG, CapellConfirmWrite);

declare global {
  interface HTMLElementTagNameMap {
    'capell-confirm-write': CapellConfirmWrite;
  }
}
