/**
 * The confirmation panel's words, from the tools manifest island's `messages` (localised by the
 * site), with English defaults for every key a site leaves out.
 */
import type { Messages } from '../declarations/i18n.js';

/** Message keys (in the island's `messages`) and their English defaults. */
export const CONFIRM_TEXT_DEFAULTS = {
  /** The panel's heading (its accessible name). */
  confirmTitle: 'Check before sending',
  /** Form tools: what the person is asked to do. */
  confirmForm: 'Review what the assistant filled in, then send it yourself.',
  /** Form tools: where the send control is; `{button}` is the form's submit button text. */
  confirmSendHint: 'To send it, use the form’s own “{button}” button.',
  /** Write endpoints: what the person is asked to do. */
  confirmRequest: 'The assistant wants to send this request. Send it only if you agree.',
  /** Write endpoints: the panel's send button. */
  confirmSend: 'Send',
  /** Both: the cancel button (Escape does the same). */
  confirmCancel: 'Cancel',
  /** After sending: the button that closes the panel. */
  confirmClose: 'Close',
  /** After sending, when the site accepted it. */
  confirmSent: 'Sent.',
  /** After sending, when the site did not accept it; `{status}` is the HTTP status. */
  confirmFailed: 'The site did not accept it (HTTP {status}).',
  /** Shown when a new proposal replaced one the person had on screen (its input protection restarts). */
  confirmReplaced: 'This replaces the assistant’s earlier proposal.',
  /** A checkbox the agent checks / leaves unchecked. */
  confirmYes: 'Yes',
  confirmNo: 'No',
} as const;

/** Every panel text, resolved. */
export type ConfirmText = { -readonly [Key in keyof typeof CONFIRM_TEXT_DEFAULTS]: string };

/** Resolves every panel text: the island's message when it is a non-empty string, else the default. */
export function readConfirmText(messages: Messages): ConfirmText {
  const text = { ...CONFIRM_TEXT_DEFAULTS } as ConfirmText;
  for (const key of Object.keys(text) as (keyof ConfirmText)[]) {
    const message = Object.hasOwn(messages, key) ? messages[key] : undefined;
    if (typeof message === 'string' && message.trim() !== '') text[key] = message;
  }
  return text;
}

/** Fills `{name}` placeholders. */
export function fillPlaceholders(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
