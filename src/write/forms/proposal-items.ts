/**
 * What the panel lists for a form proposal, read from the form itself: the panel must always show
 * what the form holds (and so what a submit sends), and a fill never silently overwrites what the
 * person typed (docs/writes-and-consent.md, "What the person sees is what is sent").
 */
import { readControlState, type CheckboxWords, type FillableControl, type FillStep, type ProposedValue } from './controls.js';
import { readFormProperty } from './form-property.js';
import { callBuiltIn } from '../../start/dom-builtin.js';
import { WIRE_MODEL_ATTRIBUTES } from '../../shared/form-control-rule.js';
import type { FormEntry } from './entry-list.js';

/** One line of the panel (see ConfirmWriteItem): `value` is what the form holds now. */
export interface ProposalItem {
  key: string;
  label: string;
  value: string;
  /** Set when the form holds something else than the agent proposed: the agent's value. */
  agentValue?: string;
  /** The names its entries are sent under (withSentEntries). */
  names?: string[];
  /** Its values as sent, when they read otherwise than `value` (withSentEntries). */
  sent?: string;
}

function defaultSelection(select: HTMLSelectElement): string[] {
  const options = [...select.options];
  const marked = options.filter((option) => option.defaultSelected);
  if (select.multiple) return marked.map((option) => option.value);
  // One-value select: the last option marked `selected` wins; with none, the first enabled one.
  const chosen = marked.at(-1) ?? options.find((option) => !option.disabled);
  return chosen ? [chosen.value] : [];
}

/**
 * Whether a control holds something else than its page-given default (`value` vs
 * `defaultValue`, `checked` vs `defaultChecked`, the selected options vs those marked
 * `selected`): then the value is the person's (typed, picked, or put there by the browser's
 * autofill for them), and the agent's fill must not overwrite it.
 */
function isChangedFromDefault(control: FillableControl): boolean {
  if (control instanceof HTMLSelectElement) {
    const now = readControlState(control) as string[];
    const initial = defaultSelection(control);
    return now.length !== initial.length || now.some((value, index) => value !== initial[index]);
  }
  if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) return control.checked !== control.defaultChecked;
  return control.value !== control.defaultValue;
}

/** The input keys whose controls hold the person's values (any control of the key changed from its default). */
export function readPersonKeys(steps: readonly FillStep[]): Set<string> {
  return new Set(steps.filter((step) => isChangedFromDefault(step.control)).map((step) => step.key));
}

function textOf(element: Element | null | undefined): string {
  return element?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

function labelText(control: FillableControl): string {
  return textOf(control.labels?.[0]) || control.getAttribute('aria-label')?.trim() || control.value;
}

/** How a person reads what the controls of one key hold now (as controls.ts words a proposal). */
function describeHeld(controls: FillableControl[], words: CheckboxWords): string {
  const [first] = controls;
  if (!first) return '';
  if (first instanceof HTMLSelectElement) return [...first.selectedOptions].map((option) => option.text.trim()).join(', ');
  if (first instanceof HTMLInputElement && first.type === 'radio') return controls.filter((radio) => (radio as HTMLInputElement).checked).map(labelText).join(', ');
  if (first instanceof HTMLInputElement && first.type === 'checkbox') {
    if (controls.length === 1) return first.checked ? words.yes : words.no;
    return controls.filter((box) => (box as HTMLInputElement).checked).map(labelText).join(', ') || words.no;
  }
  return first.value;
}

function sameState(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((item, index) => item === b[index]) : a === b;
}

/**
 * The panel's lines, read from the form now: for each proposed key, what its controls hold; when
 * that is not the agent's planned state, also the agent's value (`agentValue`).
 */
export function readProposalItems(steps: readonly FillStep[], proposed: readonly ProposedValue[], words: CheckboxWords): ProposalItem[] {
  return proposed.map(({ key, label, value }) => {
    const own = steps.filter((step) => step.key === key);
    const asPlanned = own.every((step) => sameState(readControlState(step.control), step.next));
    if (asPlanned) return { key, label, value };
    return { key, label, value: describeHeld(own.map((step) => step.control), words), agentValue: value };
  });
}

/** A control's name when it gives no entry: its `name`, else its `wire:model` (what a site's own Livewire script sends it under). */
function nameWithoutEntry(control: Element): string {
  const name = callBuiltIn<string | null>(control, 'getAttribute', 'name');
  if (name) return name;
  for (const attribute of WIRE_MODEL_ATTRIBUTES) {
    const model = callBuiltIn<string | null>(control, 'getAttribute', attribute);
    if (model) return model;
  }
  return '';
}

/**
 * The items with what each is sent as (item 2 of "what the person sees is what is sent": the
 * panel lists an entry by the name it is sent under and its value as sent): `names`, the names of
 * the entries its controls give in `entries` (the form's data set as the panel shows it), or for a
 * control that gives none (an unchecked box, a control only the site's own script sends) its
 * `name`, else its `wire:model`; `sent`, the entries' values joined by ", " when that reads
 * otherwise than `value` (a select's option value `sales` for the option text `Sales`).
 */
export function withSentEntries(items: readonly ProposalItem[], steps: readonly FillStep[], entries: readonly FormEntry[]): ProposalItem[] {
  return items.map((item) => {
    const controls = new Set<Element>(steps.filter((step) => step.key === item.key).map((step) => step.control));
    const own = entries.filter((entry) => controls.has(entry.control));
    const names = [...new Set(own.length > 0 ? own.map((entry) => entry.name) : [...controls].map(nameWithoutEntry).filter(Boolean))];
    const sent = own.map((entry) => (typeof entry.value === 'string' ? entry.value : entry.value.name)).join(', ');
    return { ...item, names, ...(own.length > 0 && sent !== item.value ? { sent } : {}) };
  });
}

/** Whether two lists of lines say the same (their names and values as sent included). */
export function isSameItems(a: readonly ProposalItem[], b: readonly ProposalItem[]): boolean {
  return a.length === b.length && a.every((item, index) => {
    const other = b[index]!;
    return item.key === other.key && item.label === other.label && item.value === other.value && item.agentValue === other.agentValue
      && (item.names ?? []).join('\n') === (other.names ?? []).join('\n') && item.sent === other.sent;
  });
}

/** The text of the last heading before `form` in document order, or ''. */
function precedingHeading(form: HTMLFormElement): string {
  const headings = [...form.ownerDocument.querySelectorAll('h1, h2, h3, h4, h5, h6')]
    .filter((heading) => heading.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING);
  return textOf(headings.at(-1));
}

/**
 * The form's name as a person would recognise it: its `aria-label`, the text of its
 * `aria-labelledby`, its `title`, its first legend or heading, the last heading before it, else
 * `#id`.
 */
export function readFormName(form: HTMLFormElement): string {
  const doc = form.ownerDocument;
  const labelledBy = (callBuiltIn<string | null>(form, 'getAttribute', 'aria-labelledby') ?? '').split(/\s+/).filter(Boolean).map((id) => textOf(doc.getElementById(id))).join(' ').trim();
  return callBuiltIn<string | null>(form, 'getAttribute', 'aria-label')?.trim()
    || labelledBy
    || callBuiltIn<string | null>(form, 'getAttribute', 'title')?.trim()
    || textOf(callBuiltIn<Element | null>(form, 'querySelector', 'legend, h1, h2, h3, h4'))
    || precedingHeading(form)
    || `#${readFormProperty(form, 'id')}`;
}
