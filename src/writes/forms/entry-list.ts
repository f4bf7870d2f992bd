/**
 * What a form's submit sends, read from its controls, against the FormData the browser built. A
 * `formdata` event listener of the page may change the FormData after the panel's check of the
 * controls (HTML, "constructing the entry list": the event fires on the form with the entry list,
 * which listeners may `set`, `append` or `delete` on): the agent's values would go out rewritten,
 * with fields the panel never showed. Found by the red-team pass of 2026-12-02.
 */
import { readFormProperty } from './form-property.js';

/** One entry as compared: name and value (a file by its name, as `file:<name>`); line breaks as LF. */
type Entry = string;

const entry = (name: string, value: string | File): Entry => `${name}\u0000${typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : `file:${value.name}`}`;

const nameOf = (item: Entry): string => item.slice(0, item.indexOf('\u0000'));

/**
 * The entries the form's controls give for a submit by `submitter`, for the controls HTML
 * describes (input, select, textarea, button); `unread` gets the names of what it cannot read
 * (a form-associated custom element, an image button's click coordinates, a `dirname`): entries
 * of those names are not compared.
 */
function controlEntries(form: HTMLFormElement, submitter: HTMLElement | null, unread: Set<string>): Entry[] {
  const entries: Entry[] = [];
  for (const element of readFormProperty(form, 'elements')) {
    const control = element as HTMLInputElement;
    const name = control.getAttribute('name') ?? '';
    if (control.matches(':disabled') || control.closest('datalist')) continue;
    if (control.hasAttribute('dirname')) unread.add(control.getAttribute('dirname')!);
    if (element instanceof HTMLButtonElement || (element instanceof HTMLInputElement && ['submit', 'image', 'button', 'reset'].includes(element.type))) {
      if (element !== submitter) continue;
      if (element instanceof HTMLInputElement && element.type === 'image') {
        unread.add(name === '' ? 'x' : `${name}.x`).add(name === '' ? 'y' : `${name}.y`);
        continue;
      }
      if (name !== '') entries.push(entry(name, (element as HTMLButtonElement).value));
      continue;
    }
    if (name === '') continue;
    if (element instanceof HTMLInputElement) {
      if (element.type === 'checkbox' || element.type === 'radio') {
        if (element.checked) entries.push(entry(name, element.getAttribute('value') ?? 'on'));
      } else if (element.type === 'file') {
        if (!element.files || element.files.length === 0) entries.push(entry(name, new File([], '')));
        else for (const file of element.files) entries.push(entry(name, file));
      } else if (element.type === 'hidden' && name === '_charset_') {
        entries.push(entry(name, 'UTF-8'));
      } else entries.push(entry(name, element.value));
    } else if (element instanceof HTMLSelectElement) {
      for (const option of element.selectedOptions) if (!option.disabled) entries.push(entry(name, option.value));
    } else if (element instanceof HTMLTextAreaElement) {
      entries.push(entry(name, element.value));
    } else if (!(element instanceof HTMLFieldSetElement || element instanceof HTMLOutputElement)) {
      unread.add(name); // a form-associated custom element or an <object>
    }
  }
  return entries;
}

/**
 * Whether `data` (a `new FormData(form, submitter)`, built when the person submitted) holds what
 * the form's controls hold.
 * @returns undefined when it does; else the names of the entries that differ (at most three,
 *   e.g. `email, extra`), for a one-line reason.
 */
export function readFormDataChange(form: HTMLFormElement, submitter: HTMLElement | null, data: FormData): string | undefined {
  const unread = new Set<string>();
  const expected = controlEntries(form, submitter, unread);
  const compared = (list: Entry[]) => list.filter((item) => !unread.has(nameOf(item)));
  const sent = compared([...data].map(([name, value]) => entry(name, value)));
  const left = compared(expected);
  const differing = new Set<string>();
  for (const item of sent) {
    const at = left.indexOf(item);
    if (at === -1) differing.add(nameOf(item));
    else left.splice(at, 1);
  }
  for (const item of left) differing.add(nameOf(item));
  return differing.size === 0 ? undefined : [...differing].slice(0, 3).join(', ');
}
