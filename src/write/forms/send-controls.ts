/**
 * The form's named submit control, fixed when the proposal is first shown: the control the
 * panel's own Send submits the form through (`requestSubmit(named)`), so that the site's own
 * submit handling (native, Livewire's `wire:submit`) runs as for a click on it, and where such a
 * submit goes. Nothing a page control draws is read: the person never presses a page control
 * to send (a page control's submit is refused while a proposal is open, submit-guard.ts), so a
 * label, icon, font or layout that reads otherwise than it sends decides nothing.
 */
import { callBuiltIn } from '../../start/dom-builtin.js';
import { parseURL } from '../../shared/parse-url.js';
import { readFormProperty } from './form-property.js';
import { primitives } from '../../start/primitives.js';
import { isNotSendingLabel } from '../not-sending.js';

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

/** Whether `element` is a submit control (a submit `<button>`, `<input type="submit|image">`). */
function isSubmitControl(element: Element): element is HTMLButtonElement | HTMLInputElement {
  return (element instanceof HTMLButtonElement && element.type === 'submit')
    || (element instanceof HTMLInputElement && (element.type === 'submit' || element.type === 'image'));
}

/**
 * Whether the panel's Send may submit through `control`: not an image button (`requestSubmit`
 * has no click point to give it, and the point entries it adds are not what a person saw), and
 * its text does not read like "do not send" (not-sending.ts).
 */
function canSendThrough(control: HTMLButtonElement | HTMLInputElement): boolean {
  return !(control instanceof HTMLInputElement && control.type === 'image') && !isNotSendingLabel(readControlLabel(control));
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

/** What the named control was when the panel showed: its type, own name and value, and destination. */
interface Fingerprint {
  type: string;
  name: string;
  value: string;
  destination: Destination;
}

function fingerprint(form: HTMLFormElement, control: HTMLButtonElement | HTMLInputElement | null): Fingerprint {
  return { type: control?.type ?? '', name: control?.name ?? '', value: control?.value ?? '', destination: readDestination(form, control) };
}

/**
 * What differs between two fingerprints, e.g. `value “a” → “b”, sends to POST /signups instead
 * of POST /contact`; '' when nothing does.
 */
function describeChange(before: Fingerprint, after: Fingerprint): string {
  const { origin } = parseURL(before.destination.action);
  const parts = (['type', 'name', 'value'] as const).flatMap((part) => before[part] === after[part] ? [] : [`${part} “${before[part]}” → “${after[part]}”`]);
  if (!isSameDestination(before.destination, after.destination)) {
    parts.push(`sends to ${describeDestination(after.destination, origin)} instead of ${describeDestination(before.destination, origin)}`);
  }
  return parts.join(', ');
}

/**
 * The send control of one proposal, read once when its panel first shows (readSendControls).
 * `named` is the submit control the panel's Send submits through (null when the form has none:
 * then the form is submitted without a submitter, as Enter would), `destination` where the
 * proposal goes.
 */
export interface SendControls {
  readonly named: HTMLButtonElement | HTMLInputElement | null;
  readonly destination: Destination;
  /**
   * Why a submit with `submitter` (the submit event's submitter) cannot send this proposal, read
   * now: another control than `named` (or none where there was one), or `named` changed since
   * the panel showed (type, own name or value, or destination; the form's own destination is
   * part of it, so pointing the form elsewhere refuses).
   * @returns e.g. `the form's submit control changed after this panel showed it (sends to POST
   *   /delete instead of POST /contact)`, or undefined when the submit may send the proposal.
   */
  refusalFor(submitter: Element | null): string | undefined;
}

/**
 * Reads the form's send control for a proposal (see SendControls): the first submit control inside
 * the form that Send may submit through (canSendThrough: no image button, no text that reads like
 * "Cancel"), else the first such
 * control associated from elsewhere by `form=`; a form whose only submit controls read so has none
 * named.
 * @returns the send control and its destination. Never throws.
 */
export function readSendControls(form: HTMLFormElement): SendControls {
  const sending = readSubmitControls(form).filter(canSendThrough);
  // One inside the form first: a `<button form=…>` a page put before it (in its header) is not
  // what the form's author made its send control.
  const named = sending.find((control) => primitives.contains(form, control)) ?? sending[0] ?? null;
  const shown = fingerprint(form, named);
  const refusalFor = (submitter: Element | null): string | undefined => {
    if (submitter !== named) return 'the form was submitted with another control than the one this panel sends it with; nothing was sent';
    const change = describeChange(shown, fingerprint(form, named));
    return change === '' ? undefined : `the form’s submit control changed after this panel showed it (${change}); nothing was sent`;
  };
  return { named, destination: shown.destination, refusalFor };
}
