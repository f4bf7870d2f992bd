/**
 * The form's send controls as the panel names them, fixed when the proposal is first shown: which
 * submit control the person is told to press, where a submit with each control goes, and why a
 * click on any other control (added after the panel showed, changed since, sending elsewhere, or
 * labelled like "Cancel") can never send the proposal. A page that relabels its button "Cancel"
 * and points it elsewhere, or slides a new submit button under the pointer, must not get the
 * person's click counted as consent, now or after any wait: only a new proposal reads the
 * controls again.
 */
import { callBuiltIn } from '../../start/dom-builtin.js';
import { parseURL } from '../../shared/parse-url.js';
import { readFormProperty } from './form-property.js';
import { readRenderedLabel } from './rendered-label.js';
import { primitives } from '../../start/primitives.js';

/**
 * Where a submit goes (HTML, "form submission"): `method` (lower case), `action` (absolute URL),
 * `enctype` and `target` (the attribute as written, '' when absent), each the submitter's
 * `formmethod`/`formaction`/`formenctype`/`formtarget` when it has one, else the form's.
 */
export interface Destination {
  method: string;
  action: string;
  enctype: string;
  target: string;
}

/**
 * The first words of a label that a person reads as "do not send", English and German. A label
 * starting with one (`Cancel`, `No, thanks`, `Zurück`) is never named as the send control, and a
 * click on such a control never sends: the person meant to stop.
 */
const NOT_SENDING_WORDS: ReadonlySet<string> = new Set([
  'cancel', 'close', 'back', 'no', 'abort', 'dismiss', 'discard', 'previous',
  'abbrechen', 'schließen', 'schliessen', 'zurück', 'zurueck', 'nein', 'verwerfen', 'abbruch',
]);

/**
 * Whether `label` reads like not sending: its first word is in NOT_SENDING_WORDS, or it starts
 * with "go back" (punctuation and arrows ignored, case-insensitive).
 */
function isNotSendingLabel(label: string): boolean {
  const words = label.toLowerCase().replace(/[^\p{L}\s]+/gu, ' ').trim().split(/\s+/);
  return NOT_SENDING_WORDS.has(words[0] ?? '') || (words[0] === 'go' && words[1] === 'back');
}

/** Whether `element` is a submit control (a submit `<button>`, `<input type="submit|image">`). */
function isSubmitControl(element: Element): element is HTMLButtonElement | HTMLInputElement {
  return (element instanceof HTMLButtonElement && element.type === 'submit')
    || (element instanceof HTMLInputElement && (element.type === 'submit' || element.type === 'image'));
}

/**
 * The form's submit controls in tree order, those associated by `form=` included, and image
 * buttons (which `form.elements` leaves out).
 */
function readSubmitControls(form: HTMLFormElement): (HTMLButtonElement | HTMLInputElement)[] {
  const doc = form.ownerDocument;
  return [...callBuiltIn<NodeListOf<Element>>(doc, 'querySelectorAll', 'button, input')]
    .filter((element): element is HTMLButtonElement | HTMLInputElement => isSubmitControl(element) && element.form === form);
}

/** A submit control's text as the person reads it (its value or alt for an input). */
function readControlLabel(control: Element | null): string {
  if (control instanceof HTMLInputElement) return (control.value || control.alt || '').replace(/\s+/g, ' ').trim();
  return (control && primitives.textContent(control))?.replace(/\s+/g, ' ').trim() ?? '';
}

/** Where a submit of `form` with `submitter` (or none: implicit submission without a button) goes. */
export function readDestination(form: HTMLFormElement, submitter: Element | null): Destination {
  const own = (name: string) => (submitter && callBuiltIn<boolean>(submitter, 'hasAttribute', name)
    ? (callBuiltIn<string | null>(submitter, 'getAttribute', name) ?? '')
    : undefined);
  const button = submitter as HTMLButtonElement | null;
  return {
    method: (own('formmethod') !== undefined ? button!.formMethod : readFormProperty(form, 'method')).toLowerCase(),
    action: own('formaction') !== undefined ? button!.formAction : readFormProperty(form, 'action'),
    enctype: own('formenctype') !== undefined ? button!.formEnctype : readFormProperty(form, 'enctype'),
    target: own('formtarget') ?? callBuiltIn<string | null>(form, 'getAttribute', 'target') ?? '',
  };
}

/**
 * A destination as the panel shows it: `POST /contact`, with the origin when it is not `origin`
 * (`POST https://other.example/contact`), then `enctype` and `target` when they are not the
 * defaults (`POST /contact text/plain target=_self`).
 */
export function describeDestination(destination: Destination, origin: string): string {
  const url = parseURL(destination.action);
  const extras = [
    destination.enctype === 'application/x-www-form-urlencoded' || destination.method === 'get' ? '' : destination.enctype,
    destination.target === '' ? '' : `target=${destination.target}`,
  ].filter(Boolean);
  // The fragment is never sent.
  const where = url.origin === 'null' ? url.href : `${url.origin === origin ? '' : url.origin}${url.rest.split('#')[0]}`;
  return [`${destination.method.toUpperCase()} ${where}`, ...extras].join(' ');
}

/** Whether two destinations are the same. */
function isSameDestination(a: Destination, b: Destination): boolean {
  return a.method === b.method && a.action === b.action && a.enctype === b.enctype && a.target === b.target;
}

/** What a control was when the panel showed: its label, type, own name and value, and destination. */
interface Fingerprint {
  label: string;
  type: string;
  name: string;
  value: string;
  destination: Destination;
}

function fingerprint(form: HTMLFormElement, control: HTMLButtonElement | HTMLInputElement): Fingerprint {
  return { label: readControlLabel(control), type: control.type, name: control.name, value: control.value, destination: readDestination(form, control) };
}

/**
 * What differs between two fingerprints, e.g. `label “Send message” → “Cancel”, sends to POST
 * /signups instead of POST /contact`; '' when nothing does.
 */
function describeChange(before: Fingerprint, after: Fingerprint): string {
  const { origin } = parseURL(before.destination.action);
  const parts = (['label', 'type', 'name', 'value'] as const).flatMap((part) => before[part] === after[part] ? [] : [`${part} “${before[part]}” → “${after[part]}”`]);
  if (!isSameDestination(before.destination, after.destination)) {
    parts.push(`sends to ${describeDestination(after.destination, origin)} instead of ${describeDestination(before.destination, origin)}`);
  }
  return parts.join(', ');
}

/**
 * Why a click on a send control refuses, with what the message needs: `control` (its label),
 * `change` (for `changed`: what differs, e.g. `formaction`), `request` (for `elsewhere`: where it
 * sends, as describeDestination), `why` (for `disguised`: why the person cannot read it as the
 * panel names it, rendered-label.ts).
 */
type SendControlRefusal =
  | { kind: 'added'; control: string }
  | { kind: 'changed'; control: string; change: string }
  | { kind: 'elsewhere'; control: string; request: string }
  | { kind: 'not-sending'; control: string }
  | { kind: 'disguised'; control: string; why: string };

/**
 * The send controls of one proposal, read once when its panel first shows (readSendControls).
 * `named` is the control the panel names (null when the form has no submit control: implicit
 * submission), `label` its text, `destination` where the proposal goes; `controls` the accepted
 * send controls (same destination, same own name and value as `named`, not labelled like
 * "Cancel"), which the panel watches for visibility and stillness.
 */
export interface SendControls {
  readonly named: HTMLButtonElement | HTMLInputElement | null;
  readonly label: string;
  readonly destination: Destination;
  readonly controls: readonly (HTMLButtonElement | HTMLInputElement)[];
  /**
   * Why the person's submit with `submitter` (the submit event's submitter) cannot send this
   * proposal, read now: a control that was not a submit control of the form when the panel
   * showed, one changed since (label, type, name, value or destination), one a person cannot
   * read as what it is (rendered-label.ts, read again now), one whose destination differs from
   * the panel's, or one labelled like not sending. The form's own destination is
   * part of every control's: pointing the form elsewhere refuses them all. The answer never
   * changes back to "accepted" for a control once it was refused for being added.
   * @returns undefined when the submit may send the proposal.
   */
  refusalFor(submitter: Element | null): SendControlRefusal | undefined;
}

/**
 * Reads the form's send controls for a proposal (see SendControls).
 * The panel names the first control whose rendered text (rendered-label.ts: what the browser
 * draws, no text hidden, no generated content, the accessible name containing it) is its text
 * and does not read like "Cancel"; a disguised control is never named or accepted.
 * @returns the controls, or a one-line reason when the form has submit controls but none a
 *   person would read as sending this proposal (every one reads like "Cancel", has no text, or
 *   is disguised: each named with why).
 */
export function readSendControls(form: HTMLFormElement): SendControls | { reason: string } {
  const all = readSubmitControls(form);
  const prints = new Map(all.map((control) => [control, fingerprint(form, control)]));
  // What a person reads on each, as rendered now: the panel names a button by that, and only a
  // button whose text is what it reads can be named (or send).
  const rendered = new Map(all.map((control) => [control, readRenderedLabel(control)]));
  const readable = (control: HTMLButtonElement | HTMLInputElement) => {
    const seen = rendered.get(control)!;
    // Its name from content (its text) must contain what it reads, as an authored name must.
    return 'label' in seen && readControlLabel(control).toLowerCase().includes(seen.label.toLowerCase()) ? seen.label : '';
  };
  const named = all.find((control) => readable(control) !== '' && !isNotSendingLabel(readable(control))) ?? null;
  if (all.length > 0 && !named) {
    const labels = all.map((control) => {
      const seen = rendered.get(control)!;
      const why = 'reason' in seen ? `: ${seen.reason}` : readable(control) === '' ? `: it reads “${seen.label}”` : '';
      return `“${readControlLabel(control)}”${why}`;
    }).join('; ');
    return { reason: `form #${readFormProperty(form, 'id')} has no submit button that a person can read as sending (${labels}), so the panel could not name one for the person to press` };
  }
  const destination = readDestination(form, named);
  const ownEntry = (control: Element | null) => JSON.stringify(control ? [(control as HTMLButtonElement).name, (control as HTMLButtonElement).value] : []);
  const controls = all.filter((control) => readable(control) !== '' && !isNotSendingLabel(readControlLabel(control))
    && isSameDestination(readDestination(form, control), destination) && ownEntry(control) === ownEntry(named));
  const refusalFor = (submitter: Element | null): SendControlRefusal | undefined => {
    if (submitter === null) {
      // Implicit submission without a button: only when the form had none either.
      if (named !== null) return { kind: 'changed', control: readControlLabel(named), change: 'removed' };
      const now = readDestination(form, null);
      if (isSameDestination(now, destination)) return undefined;
      const { origin } = parseURL(destination.action);
      return { kind: 'changed', control: '', change: `sends to ${describeDestination(now, origin)} instead of ${describeDestination(destination, origin)}` };
    }
    const control = readControlLabel(submitter) || submitter.localName;
    const before = prints.get(submitter as HTMLButtonElement);
    if (before === undefined) return { kind: 'added', control };
    const change = describeChange(before, fingerprint(form, submitter as HTMLButtonElement));
    if (change !== '') return { kind: 'changed', control, change };
    // Read again at the person's act: CSS can hide the text and draw other words at any time.
    const now = readRenderedLabel(submitter as HTMLButtonElement);
    if ('reason' in now) return { kind: 'disguised', control, why: now.reason };
    const shown = rendered.get(submitter as HTMLButtonElement);
    if (shown && 'label' in shown && now.label !== shown.label) return { kind: 'disguised', control, why: `it reads “${now.label}”, not “${shown.label}”` };
    if (isNotSendingLabel(control)) return { kind: 'not-sending', control };
    if (!controls.includes(submitter as HTMLButtonElement)) {
      return { kind: 'elsewhere', control, request: describeDestination(readDestination(form, submitter), parseURL(destination.action).origin) };
    }
    return undefined;
  };
  return { named, label: (named && readable(named)) || 'Submit', destination, controls, refusalFor };
}
