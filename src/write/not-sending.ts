/**
 * Words a person reads as "do not send". Shared by the form's send control (send-controls.ts: a
 * submit control labelled so is never the one the panel's Send submits through) and the panel's
 * own words (confirm-text.ts: a site's `confirmSend` that reads so is not used).
 */

/**
 * The first words of a label that a person reads as "do not send", English and German
 * (`Cancel`, `No, thanks`, `Zurück`, `Nicht senden`).
 */
const NOT_SENDING_WORDS: ReadonlySet<string> = new Set([
  'cancel', 'close', 'back', 'no', 'abort', 'dismiss', 'discard', 'previous', 'stop', 'don', 'dont',
  'abbrechen', 'schließen', 'schliessen', 'zurück', 'zurueck', 'nein', 'verwerfen', 'abbruch', 'nicht',
]);

/**
 * Whether `label` reads like not sending: its first word is in NOT_SENDING_WORDS, or it starts
 * with "go back" or "do not" (punctuation and arrows ignored, case-insensitive).
 * @example isNotSendingLabel('Cancel') // true; isNotSendingLabel('Send message') // false
 */
export function isNotSendingLabel(label: string): boolean {
  const words = label.toLowerCase().replace(/[^\p{L}\s]+/gu, ' ').trim().split(/\s+/);
  return NOT_SENDING_WORDS.has(words[0] ?? '') || (words[0] === 'go' && words[1] === 'back') || (words[0] === 'do' && words[1] === 'not');
}
