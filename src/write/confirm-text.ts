/**
 * The confirmation panel's words, from the tools manifest island's `messages` (localised by the
 * site), with English defaults for every key a site leaves out.
 */
import type { Messages } from '../shared/declarations/i18n.js';
import type { ConfirmWriteWords } from '../panel/capell-confirm-write.js';
import { isNotSendingLabel } from './not-sending.js';

/** Message keys (in the island's `messages`) and their English defaults. */
export const CONFIRM_TEXT_DEFAULTS = {
  /** The panel's heading (its accessible name). */
  confirmTitle: 'Check before sending',
  /** Form tools: what the person is asked to do. */
  confirmForm: 'Review what the assistant filled in, then send it yourself.',
  /** Form tools: how to send it (the panel's Send; the page's own buttons do not send it while the panel is open). */
  confirmSendHint: 'To send it, press Send on this panel; the page’s own buttons do not send it while this panel is open.',
  /** Write endpoints: what the person is asked to do. */
  confirmRequest: 'The assistant wants to send this request. Send it only if you agree.',
  /** The panel's send button (forms and write endpoints). */
  confirmSend: 'Send',
  /** Both: the cancel button (Escape does the same). */
  confirmCancel: 'Cancel',
  /** After sending: the button that closes the panel. */
  confirmClose: 'Close',
  /** After sending, when the site accepted it. */
  confirmSent: 'Sent.',
  /** After sending, when the site did not accept it; `{status}` is the HTTP status. */
  confirmFailed: 'The site did not accept it (HTTP {status}).',
  /**
   * Form tools whose form the site's own page script sends (Livewire's `wire:submit`): who sends
   * it, in place of a native destination the browser would not use.
   */
  confirmSentBySiteScript: 'This site\'s own page script sends it.',
  /**
   * Reason: a form the panel said the site's own script sends, whose script did not take the
   * submit; `{request}` is where the browser would have sent it instead (`GET /contact?…`).
   */
  confirmReasonSiteScriptIdle: 'this site’s own page script did not take the submit, and the browser would have sent it to {request}, which this panel did not show',
  /** Form tools: which form the proposal is for; `{form}` is the form's name. */
  confirmFormName: 'For the form “{form}” on this page.',
  /** Beside a value the person typed (the fill left it alone; it is what is sent). */
  confirmPersonValue: 'yours, kept: this is sent',
  /** Beside a value the page wrote into a control after the panel showed it (not the person's): what is sent now. */
  confirmFormValue: 'on the form now: this is sent',
  /** Before the value the agent proposed for a field the person had typed into. */
  confirmAgentValue: 'The assistant proposes:',
  /** The per-field button that replaces the person's value with the agent's. */
  confirmUseAgentValue: 'Use the assistant’s value',
  /** A click (or submit) that did not count as consent; `{reason}` is one of the reasons below. */
  confirmRefused: 'That did not count: {reason}. Nothing was sent; the proposal is still open.',
  /** Reason: the panel had just appeared or changed (input protection). */
  confirmReasonTooSoon: 'the panel had only just appeared or changed, so check it and try again',
  /** Reason: the panel itself was hidden, covered or not fully opaque. */
  confirmReasonPanelHidden: 'this panel was hidden or covered',
  /** Reason: the control clicked was covered, hidden or disguised; `{control}` is its text. */
  confirmReasonControlHidden: 'the “{control}” button was covered, hidden or disguised',
  /** Reason: the form's values changed since the panel showed them. */
  confirmReasonChanged: 'the form changed after this panel showed it, so check the values again',
  /** Reason: the person clicked a button of the page (whatever it reads) while the proposal is open. */
  confirmReasonPageControl: 'a button of the page does not send this proposal, whatever it reads; only Send on this panel does',
  /** Reason: the person pressed Enter in a field of the form while the proposal is open. */
  confirmReasonPageEnter: 'Enter in the form does not send this proposal; only Send on this panel does',
  /** Reason: the form's data set differs from the one the panel showed; `{changes}` names the entries. */
  confirmReasonDataChanged: 'what the form sends changed after this panel showed it ({changes}), so check it again',
  /** Reason: a `formdata` listener of the page rewrote the data set; `{changes}` names the entries. */
  confirmReasonDataRewritten: 'a script of the page changed what the form would send ({changes})',
  /** Form tools: the heading of the entries sent besides the assistant's values (hidden fields, the button's own value). */
  confirmAlsoSent: 'Sent with it:',
  /** A value that is empty (sent as an empty string). */
  confirmEmptyValue: '(empty)',
  /** "Sent with it", by what the site's markup says an entry is (write/forms/entry-kind.ts): the send button's own value. */
  confirmAlsoButton: 'the send button’s own value',
  /** A CSRF token (`_token`, or the value of `<meta name="csrf-token">`). */
  confirmAlsoToken: 'a security token the site adds',
  /** Another `<input type="hidden">`. */
  confirmAlsoHidden: 'a hidden field the site adds',
  /** A honeypot (hidden, and `aria-hidden`, `tabindex="-1"` or unlabelled `autocomplete="off"`) that is empty. */
  confirmAlsoHoneypot: 'an anti-spam field, left empty',
  /** A honeypot that holds something (it is sent as it is). */
  confirmAlsoHoneypotFilled: 'an anti-spam field the site hides, not empty',
  /** Another field the person cannot see on the page. */
  confirmAlsoUnseen: 'a field not shown on the page',
  /**
   * Said when a value or name holds characters that are not drawn, or that change the order text
   * is drawn in (write/invisible-characters.ts): each is shown where it is, as a boxed `⟨U+202E⟩`.
   */
  confirmInvisibleShown: 'Some text here holds characters that are not drawn or that change the order text is drawn in; each is shown as ⟨U+…⟩ where it is, and is sent as it is.',
  /** Before an entry's value as sent, when it reads otherwise than shown (a select's option value). */
  confirmSentAs: 'sent as',
  /** The mark of an entry that changed after the panel first showed it (not by the person's own edit). */
  confirmChangedMark: 'changed after this panel first showed it',
  /** Before the entry names that are no longer sent since the panel first showed them. */
  confirmNoLongerSent: 'No longer sent:',
  /** The toggle that shows a long site value (a token) whole; `{count}` is its length in characters. */
  confirmShowWhole: 'show all {count} characters',
  /** Reason: the page zoomed the panel too far or it did not fit in the window (bounds: panel/placement.ts). */
  confirmReasonLayout: 'this panel was zoomed too far or did not fit in the window, so it could not be read whole',
  /** Reason: part of the panel had not yet been scrolled into view. */
  confirmReasonUnread: 'part of this panel was not yet read, so scroll it to the end first',
  /** Shown above the buttons while part of the panel has not been scrolled into view. */
  confirmUnreadHint: 'Scroll to the end of this panel to read all of it; it can be sent once you have.',
  /** Shown when a new proposal replaced one the person had on screen (its input protection restarts). */
  confirmReplaced: 'This replaces the assistant’s earlier proposal.',
  /** A checkbox the agent checks / leaves unchecked. */
  confirmYes: 'Yes',
  confirmNo: 'No',
  /** Admin writes: what the person is asked to do (Capell's preview follows). */
  confirmAdmin: 'The assistant wants to make this change in the admin, as you. Send it only if you agree.',
  /** Admin writes: before one change's old value, and before its new value. */
  confirmBefore: 'Before:',
  confirmAfter: 'After:',
  /** Admin writes: a null value in Capell's preview (e.g. a property with no value yet). */
  confirmEmpty: '(none)',
  /** After sending, when the site refused it with a reason; `{status}` and `{message}` (the server's one line). */
  confirmFailedMessage: 'The site did not accept it (HTTP {status}): {message}',
} as const;

/** Every panel text, resolved. */
export type ConfirmText = { -readonly [Key in keyof typeof CONFIRM_TEXT_DEFAULTS]: string };

/**
 * Resolves every panel text: the island's message when it is a non-empty string, else the default;
 * `confirmSend` and `confirmCancel` both fall back to the defaults when the message for Send reads
 * like not sending (not-sending.ts) or is the same as Cancel's.
 * @param defaults the texts a message left out falls back to: the admin writes' own for the page's
 *   language (write/admin/confirm-text-de.ts), as the admin registry's tools come with no
 *   messages. @default CONFIRM_TEXT_DEFAULTS (English)
 */
export function readConfirmText(messages: Messages, defaults: Readonly<ConfirmText> = CONFIRM_TEXT_DEFAULTS): ConfirmText {
  const text = { ...defaults };
  for (const key of Object.keys(text) as (keyof ConfirmText)[]) {
    const message = Object.hasOwn(messages, key) ? messages[key] : undefined;
    if (typeof message === 'string' && message.trim() !== '') text[key] = message;
  }
  // The panel's Send must read as sending and differ from its Cancel: a site's (or a page
  // script's) `confirmSend: "Cancel"`, `confirmCancel: "Send"` would make the person's "Cancel" send.
  const label = (words: string) => words.replace(/\s+/g, ' ').trim().toLowerCase();
  if (isNotSendingLabel(text.confirmSend) || label(text.confirmSend) === label(text.confirmCancel)) {
    text.confirmSend = defaults.confirmSend;
    text.confirmCancel = defaults.confirmCancel;
  }
  return text;
}

/** Fills `{name}` placeholders. */
export function fillPlaceholders(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The text key of a panel word (ConfirmWriteWords): `formName` → `confirmFormName`. */
export function confirmKey<Key extends string>(key: Key): `confirm${Capitalize<Key>}` {
  return `confirm${key[0]!.toUpperCase()}${key.slice(1)}` as `confirm${Capitalize<Key>}`;
}

/** The panel's words that are the text of the same name (confirmKey); `intro` and `hint` are not. */
const PANEL_WORDS = ['title', 'send', 'cancel', 'close', 'formName', 'personValue', 'formValue', 'agentValue', 'useAgentValue', 'refused', 'reasonTooSoon', 'reasonPanelHidden', 'reasonControlHidden', 'reasonChanged', 'reasonLayout', 'reasonUnread', 'alsoSent', 'emptyValue', 'alsoButton', 'alsoToken', 'alsoHidden', 'alsoHoneypot', 'alsoHoneypotFilled', 'alsoUnseen', 'showWhole', 'unreadHint', 'before', 'after', 'invisibleShown', 'sentAs', 'changedMark', 'noLongerSent'] as const;

/**
 * The panel's words (ConfirmWriteWords) from the resolved texts. `hint` is the form mode's "press
 * Send on this panel" line (omit it for a write endpoint, whose intro is `confirmRequest`).
 */
export function panelWords(text: ConfirmText, hint?: string): ConfirmWriteWords {
  // The loop sets the rest.
  const words = { intro: hint === undefined ? text.confirmRequest : text.confirmForm, hint } as ConfirmWriteWords;
  for (const key of PANEL_WORDS) words[key] = text[confirmKey(key)];
  return words;
}

/**
 * The panel's words for an admin write (write/admin/admin-invoke-write.ts): `panelWords` with the admin
 * intro (`confirmAdmin`) in place of a write endpoint's.
 */
export function adminPanelWords(text: ConfirmText): ConfirmWriteWords {
  return { ...panelWords(text), intro: text.confirmAdmin };
}
