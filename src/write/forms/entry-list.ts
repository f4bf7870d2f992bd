/**
 * A form's data set as the browser builds it for a submit (HTML, "constructing the entry list"),
 * read from its controls without firing `formdata`: the panel shows every entry of it, the
 * person's submit is compared against it, and it is what goes out. A page that renames, adds (by
 * the `form` attribute), disables, re-associates or changes a control after the panel showed, or
 * rewrites the entries in a `formdata` listener, changes what the browser would build; the
 * comparison names that, and the send never builds a fresh FormData.
 */
import { callBuiltIn } from '../../start/dom-builtin.js';
import { readFormProperty } from './form-property.js';

/**
 * One entry: its `name`, its `value` (a string, or a File for a file control), and the `control`
 * that gives it. `point`: the click coordinate an image submit button adds (`x`, `y`), known only
 * from the person's click; its value is then '' here and taken from the submit itself.
 */
export interface FormEntry {
  name: string;
  value: string | File;
  control: Element;
  point?: true;
}

/** Whether `element` is a control of the kind that only counts when it is the submitter. */
function isButtonLike(element: Element): boolean {
  return element instanceof HTMLButtonElement
    || (element instanceof HTMLInputElement && ['submit', 'image', 'button', 'reset'].includes(element.type));
}

/**
 * The entry list of `form` for a submit by `submitter` (null: none), read from the controls HTML
 * describes (input, select, textarea, button), in tree order; `dirname` entries from the
 * control's directionality (`:dir(rtl)`); an image submitter's coordinates as `point` entries.
 * @returns the entries, or a one-line reason naming a control whose entries cannot be read
 *   without building a FormData (a form-associated custom element, an `<object>` with a name):
 *   then the panel could not show everything the form sends.
 */
export function readEntryList(form: HTMLFormElement, submitter: Element | null): { entries: FormEntry[] } | { reason: string } {
  const entries: FormEntry[] = [];
  const add = (name: string, value: string | File, control: Element) => entries.push({ name, value, control });
  // `form.elements` leaves image buttons out; an image submitter adds its click point.
  const listed = [...readFormProperty(form, 'elements')];
  if (submitter instanceof HTMLInputElement && submitter.type === 'image') listed.push(submitter);
  for (const element of listed) {
    const name = callBuiltIn<string | null>(element, 'getAttribute', 'name') ?? '';
    if (callBuiltIn<boolean>(element, 'matches', ':disabled') || callBuiltIn<Element | null>(element, 'closest', 'datalist')) continue;
    if (isButtonLike(element)) {
      if (element !== submitter) continue;
      if (element instanceof HTMLInputElement && element.type === 'image') {
        const prefix = name === '' ? '' : `${name}.`;
        entries.push({ name: `${prefix}x`, value: '', control: element, point: true }, { name: `${prefix}y`, value: '', control: element, point: true });
        continue;
      }
      if (name !== '') add(name, (element as HTMLButtonElement).value, element);
      continue;
    }
    if (element instanceof HTMLFieldSetElement || element instanceof HTMLOutputElement) continue;
    if (name === '') continue;
    if (element instanceof HTMLInputElement) {
      if (element.type === 'checkbox' || element.type === 'radio') {
        if (element.checked) add(name, element.getAttribute('value') ?? 'on', element);
      } else if (element.type === 'file') {
        if (!element.files || element.files.length === 0) add(name, new File([], '', { type: 'application/octet-stream' }), element);
        else for (const file of element.files) add(name, file, element);
      } else if (element.type === 'hidden' && name.toLowerCase() === '_charset_') {
        add(name, 'UTF-8', element);
      } else add(name, element.value, element);
    } else if (element instanceof HTMLSelectElement) {
      for (const option of element.selectedOptions) if (!option.disabled) add(name, option.value, element);
    } else if (element instanceof HTMLTextAreaElement) {
      add(name, element.value, element);
    } else {
      return { reason: `its control <${element.localName} name="${name}"> keeps its data where the runtime cannot read it without the page's formdata listeners` };
    }
    const dirname = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.getAttribute('dirname') : null;
    if (dirname) add(dirname, element.matches(':dir(rtl)') ? 'rtl' : 'ltr', element);
  }
  return { entries };
}

/** An entry's value as compared: line breaks as LF; a file by its name, size, type and date. */
function valueKey(value: string | File): string {
  return typeof value === 'string' ? `s:${value.replace(/\r\n?/g, '\n')}` : `f:${value.name}:${value.size}:${value.type}:${value.lastModified}`;
}

/** Values by name, in order; a point entry (an image button's click) is left out. */
function byName(entries: Iterable<readonly [string, string | File] | FormEntry>): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const item of entries) {
    if ('point' in item && item.point) continue;
    const [name, value] = Array.isArray(item) ? item : [(item as FormEntry).name, (item as FormEntry).value];
    names.set(name, [...(names.get(name) ?? []), valueKey(value)]);
  }
  return names;
}

/** How many changes readEntryChanges names before it says "…". */
const MAX_NAMED_CHANGES = 4;

/**
 * What differs between the entries the panel showed (`shown`) and those a submit would send now
 * (`now`: read from the controls, or the pairs of a FormData the browser built): per name, in
 * the order first met, `email changed`, `extra added`, `name removed` (a rename is one removed
 * and one added; the same name given by one more control, `email added`). Names of image-button
 * click points are not compared.
 * @returns undefined when both hold the same values for every name in the same order; else the
 *   changes, at most MAX_NAMED_CHANGES (then `…`), joined by ", ".
 */
export function readEntryChanges(shown: readonly FormEntry[], now: Iterable<readonly [string, string | File] | FormEntry>): string | undefined {
  const before = byName(shown);
  const after = byName(now);
  const points = new Set(shown.filter((entry) => entry.point).map((entry) => entry.name));
  const changes: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    if (points.has(name)) continue;
    const was = before.get(name) ?? [];
    const is = after.get(name) ?? [];
    if (was.length === is.length && was.every((value, index) => value === is[index])) continue;
    changes.push(`${name} ${is.length > was.length ? 'added' : is.length < was.length ? 'removed' : 'changed'}`);
  }
  if (changes.length === 0) return undefined;
  return changes.length > MAX_NAMED_CHANGES ? `${changes.slice(0, MAX_NAMED_CHANGES).join(', ')}, …` : changes.join(', ');
}

/**
 * Which names changed between the entries the panel showed (`shown`) and those read now (as
 * readEntryChanges compares them, per name): `changed`, the names sent now whose values differ
 * (added ones included); `removed`, the names no longer sent. `except`: the controls the person
 * just changed themselves (an edit, "Use the assistant's value"); a name whose entries (before
 * and after) all come from them is left out.
 */
export function readChangedNames(shown: readonly FormEntry[], now: readonly FormEntry[], except: ReadonlySet<Element> = new Set()): { changed: string[]; removed: string[] } {
  const before = byName(shown);
  const after = byName(now);
  const onlyFrom = (name: string) => except.size > 0 && [...shown, ...now].every((entry) => entry.name !== name || except.has(entry.control));
  const changed: string[] = [];
  const removed: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(name) ?? [];
    const is = after.get(name) ?? [];
    if ((was.length === is.length && was.every((value, index) => value === is[index])) || onlyFrom(name)) continue;
    (is.length === 0 ? removed : changed).push(name);
  }
  return { changed, removed };
}

/**
 * The entries that are sent: those the panel showed, in order, with an image button's click
 * point taken from `built` (the FormData of the person's submit). Plain pairs, never a FormData a
 * `formdata` listener saw (send-form.ts builds the body from them).
 */
export function toSentEntries(entries: readonly FormEntry[], built: FormData | undefined): [string, string | File][] {
  return entries.map((entry) => [entry.name, entry.point ? (built?.get(entry.name) ?? '') : entry.value]);
}
