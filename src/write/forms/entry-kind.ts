/**
 * What an entry a form sends besides the agent's values is, told from the page's markup alone, so
 * that the panel can name it in plain words ("a security token the site adds", "an anti-spam
 * field, left empty", "a hidden field the site adds"). Words only: the kind never changes what is
 * sent, what is listed or what is refused (docs/writes-and-consent.md, "What the site adds, in
 * plain words"). capell-app/form-builder @ 770cf636 resources/views/livewire/form.blade.php writes
 * Laravel's `_token`, hidden fields and a honeypot (`class="hidden"`, `aria-hidden="true"`,
 * `tabindex="-1"`, no label) into its forms.
 */
import type { AlsoSentKind } from '../../panel/capell-confirm-write.js';
import { callBuiltIn } from '../../start/dom-builtin.js';
import { readVisibilityProblem } from './effective-visibility.js';
import type { FormEntry } from './entry-list.js';

/**
 * Names that sites and frameworks give the CSRF token of a form (Laravel `_token`, Rails
 * `authenticity_token`, Django `csrfmiddlewaretoken`, and the `csrf`/`xsrf` `token` spellings).
 */
const TOKEN_NAME = /^(?:_token|authenticity_token|csrfmiddlewaretoken|_?(?:csrf|xsrf)(?:[-_]?token)?)$/i;

/** Whether `control`, or one of its ancestors, says it is hidden from assistive technology. */
function isAriaHidden(control: Element): boolean {
  return callBuiltIn<Element | null>(control, 'closest', '[aria-hidden="true"]') !== null;
}

/** Whether `control` has a label with text (a `<label>` or `aria-label`/`aria-labelledby`). */
function hasLabel(control: Element): boolean {
  const labels = (control as HTMLInputElement).labels;
  if (labels && [...labels].some((label) => (label.textContent ?? '').trim() !== '')) return true;
  return (callBuiltIn<string | null>(control, 'getAttribute', 'aria-label') ?? '').trim() !== ''
    || callBuiltIn<string | null>(control, 'getAttribute', 'aria-labelledby') !== null;
}

/**
 * The kind of `entry`, first rule that matches (undefined: an ordinary field the person can see,
 * named by its entry name):
 * - `button`: the send button's own name and value;
 * - `token`: an `<input type="hidden">` whose name is a CSRF token's (TOKEN_NAME) or whose value
 *   is the page's `<meta name="csrf-token">` content;
 * - `hidden`: any other `<input type="hidden">`;
 * - `honeypot`: a control the person cannot see (effective-visibility.ts, e.g. hidden by CSS or
 *   `aria-hidden`) that carries a honeypot's sign: `aria-hidden="true"` on it or an ancestor,
 *   `tabindex="-1"`, or `autocomplete="off"` with no label;
 * - `unseen`: any other control the person cannot see.
 * Reads the DOM only (attributes, labels, computed style); never throws for a connected control.
 */
export function readEntryKind(entry: FormEntry): AlsoSentKind | undefined {
  const { control } = entry;
  if (control instanceof HTMLButtonElement || (control instanceof HTMLInputElement && ['submit', 'image'].includes(control.type))) return 'button';
  if (control instanceof HTMLInputElement && control.type === 'hidden') {
    const meta = control.ownerDocument.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
    const value = typeof entry.value === 'string' ? entry.value : '';
    return TOKEN_NAME.test(entry.name) || (meta !== '' && value === meta) ? 'token' : 'hidden';
  }
  if (readVisibilityProblem(control) === undefined) return undefined;
  const honeypot = isAriaHidden(control)
    || callBuiltIn<string | null>(control, 'getAttribute', 'tabindex')?.trim() === '-1'
    || (callBuiltIn<string | null>(control, 'getAttribute', 'autocomplete')?.trim().toLowerCase() === 'off' && !hasLabel(control));
  return honeypot ? 'honeypot' : 'unseen';
}
