/**
 * What an agent may fill in a form, and how each input value maps onto the form's controls.
 * Nothing here changes the page: `planFill` only reads, so a refusal leaves the form untouched.
 * Capell Agent Schema, "Navigation, forms, and admin tools": "Write tools use existing public
 * forms and the browser's user-mediation flow."
 */

import { readVisibilityProblem } from './effective-visibility.js';
import { readFormProperty } from './form-property.js';
import { findControls } from '../../shared/form-control-rule.js';

/**
 * Input types an agent never writes: values the person cannot see or check (hidden, password),
 * files, and the controls that submit or reset the form.
 */
const PROTECTED_INPUT_TYPES: ReadonlySet<string> = new Set(['hidden', 'password', 'file', 'submit', 'button', 'reset', 'image']);

/** A control the runtime can fill. */
export type FillableControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * A control's state as the runtime reads and writes it: `string` for text-like inputs and
 * textareas, `boolean` (checked) for checkboxes and radios, `string[]` (selected option values)
 * for selects.
 */
export type ControlState = string | boolean | string[];

/** One control to change, and the state it gets; `key` is the input property it comes from. */
export interface FillStep {
  key: string;
  control: FillableControl;
  next: ControlState;
}

/** One line of what the agent proposes, as a person reads it: the field's label and the value. */
export interface ProposedValue {
  key: string;
  label: string;
  value: string;
}

/** Words the summary uses for a checkbox's state (from the manifest's `messages`). */
export interface CheckboxWords {
  yes: string;
  no: string;
}

/** The outcome of `planFill`; never thrown. */
export type FillPlan =
  | { ok: true; steps: FillStep[]; proposed: ProposedValue[] }
  | { ok: false; reason: string };

function isTextLike(control: FillableControl): control is HTMLInputElement | HTMLTextAreaElement {
  return control instanceof HTMLTextAreaElement || (control instanceof HTMLInputElement && control.type !== 'checkbox' && control.type !== 'radio');
}

/** Reads a control's current state (see ControlState). */
export function readControlState(control: FillableControl): ControlState {
  if (control instanceof HTMLSelectElement) return [...control.selectedOptions].map((option) => option.value);
  if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) return control.checked;
  return control.value;
}

/**
 * What hides the control from the person (effective-visibility.ts), or undefined. A checkbox or
 * radio that is itself visually hidden but has a visible label counts as shown: that is the
 * common custom-control pattern (the label draws the box), and the person reads and toggles it
 * through the label; the panel lists its value too.
 */
function hiddenFromPeople(control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): string | undefined {
  const problem = readVisibilityProblem(control);
  if (!problem || !(control instanceof HTMLInputElement) || (control.type !== 'checkbox' && control.type !== 'radio')) return problem;
  // Not a label that is hidden as well (aria-hidden, off-screen, …): that is still a honeypot.
  return [...(control.labels ?? [])].some((label) => readVisibilityProblem(label) === undefined) ? undefined : problem;
}

/** Why a single control may not be filled, or undefined. */
function refusal(control: Element): string | undefined {
  if (!(control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement || control instanceof HTMLSelectElement)) {
    return `a <${control.localName}> cannot be filled`;
  }
  if (control instanceof HTMLInputElement && PROTECTED_INPUT_TYPES.has(control.type)) {
    return `it is a protected ${control.type} control; an agent never writes it`;
  }
  // :disabled also covers controls inside a disabled <fieldset>.
  if (control.matches(':disabled')) return 'the control is disabled';
  if (!(control instanceof HTMLSelectElement) && control.readOnly) return 'the control is read-only';
  const hidden = hiddenFromPeople(control);
  if (hidden) return `the control is not visible to the person (${hidden}); an agent never writes what the person cannot check`;
  return undefined;
}

function labelOf(control: Element, fallback: string): string {
  const labelled = (control as HTMLInputElement).labels?.[0]?.textContent?.replace(/\s+/g, ' ').trim();
  return labelled || control.getAttribute('aria-label')?.trim() || fallback;
}

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

type PlanPart = { steps: Omit<FillStep, 'key'>[]; proposed: ProposedValue } | { reason: string };

function planSelect(key: string, select: HTMLSelectElement, value: unknown): PlanPart {
  const wanted = select.multiple ? value : [value];
  if (!Array.isArray(wanted) || !wanted.every((item) => typeof item === 'string')) {
    return { reason: select.multiple ? 'the select takes an array of option values' : 'the select takes one option value (a string)' };
  }
  const options = [...select.options].filter((option) => !option.disabled);
  const chosen: HTMLOptionElement[] = [];
  for (const item of wanted as string[]) {
    const option = options.find((candidate) => candidate.value === item);
    if (!option) {
      const byLabel = options.find((candidate) => candidate.text.trim() === item.trim());
      const values = options.map((candidate) => candidate.value).filter((optionValue) => optionValue !== '');
      return {
        reason: byLabel
          ? `${describe(item)} is the label of an option, not its value (give ${describe(byLabel.value)})`
          : `${describe(item)} is not an option value of the select (values: ${values.map(describe).join(', ')})`,
      };
    }
    chosen.push(option);
  }
  return {
    steps: [{ control: select, next: chosen.map((option) => option.value) }],
    proposed: { key, label: labelOf(select, key), value: chosen.map((option) => option.text.trim()).join(', ') },
  };
}

function planChoices(key: string, inputs: HTMLInputElement[], value: unknown, words: CheckboxWords): PlanPart {
  const [first] = inputs;
  if (!first) return { reason: 'no control' };
  if (first.type === 'radio') {
    if (typeof value !== 'string') return { reason: 'a radio group takes one of its values (a string)' };
    const match = inputs.find((radio) => radio.value === value);
    if (!match) return { reason: `${describe(value)} is not a value of the radio group (values: ${inputs.map((radio) => describe(radio.value)).join(', ')})` };
    return {
      steps: inputs.map((radio) => ({ control: radio, next: radio === match })),
      proposed: { key, label: first.closest('fieldset')?.querySelector('legend')?.textContent?.trim() || key, value: labelOf(match, value) },
    };
  }
  if (inputs.length === 1) {
    if (typeof value !== 'boolean') return { reason: 'a checkbox takes true or false' };
    return { steps: [{ control: first, next: value }], proposed: { key, label: labelOf(first, key), value: value ? words.yes : words.no } };
  }
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    return { reason: 'a checkbox group takes an array of its values' };
  }
  const unknown = value.find((item) => !inputs.some((box) => box.value === item));
  if (unknown !== undefined) return { reason: `${describe(unknown)} is not a value of the checkbox group (values: ${inputs.map((box) => describe(box.value)).join(', ')})` };
  const checked = inputs.filter((box) => value.includes(box.value));
  return {
    steps: inputs.map((box) => ({ control: box, next: value.includes(box.value) })),
    proposed: { key, label: first.closest('fieldset')?.querySelector('legend')?.textContent?.trim() || key, value: checked.map((box) => labelOf(box, box.value)).join(', ') || words.no },
  };
}

/**
 * Attributes that change how an input sanitises a value set by script (HTML "value sanitization
 * algorithm"): the type, and min/max/step (range clamps and snaps to them), multiple (email).
 */
const SANITISING_ATTRIBUTES = ['type', 'min', 'max', 'step', 'multiple'] as const;

/**
 * What `control` would hold after its value is set to `value`, found on a detached copy of the
 * same kind (no events, nothing on the page changes). The browser sanitises on set: number,
 * range, date, time, datetime-local, month, week and color keep only valid (normalised) values
 * (range clamps to min/max and snaps to step; colour is lower-case `#rrggbb`); email and url drop
 * surrounding white space; text-like inputs drop line breaks; a textarea turns CR LF into LF.
 */
function heldValue(control: HTMLInputElement | HTMLTextAreaElement, value: string): string {
  const doc = control.ownerDocument;
  if (control instanceof HTMLTextAreaElement) {
    const probe = doc.createElement('textarea');
    probe.value = value;
    return probe.value;
  }
  const probe = doc.createElement('input');
  for (const name of SANITISING_ATTRIBUTES) {
    const attribute = control.getAttribute(name);
    if (attribute !== null) probe.setAttribute(name, attribute);
  }
  probe.value = value;
  return probe.value;
}

/** The limits an input's sanitising uses, for a reason: ` (min 0, max 10, step 2)` or `''`. */
function limits(control: HTMLInputElement | HTMLTextAreaElement): string {
  if (!(control instanceof HTMLInputElement)) return '';
  const parts = (['min', 'max', 'step'] as const).filter((name) => control.hasAttribute(name)).map((name) => `${name} ${control.getAttribute(name)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function planText(key: string, control: HTMLInputElement | HTMLTextAreaElement, value: unknown): PlanPart {
  const kind = control instanceof HTMLTextAreaElement ? 'textarea' : `${control.type} input`;
  let text: string;
  if (typeof value === 'number' && control instanceof HTMLInputElement && (control.type === 'number' || control.type === 'range')) text = String(value);
  else if (typeof value === 'string') text = value;
  else return { reason: `a ${kind} takes a string` };
  // The panel lists what the form will hold; a value the browser would change on set (or drop)
  // would show the person one thing and send another, and could not be recognised on restore.
  const held = heldValue(control, text);
  if (held !== text) {
    return {
      reason: held === ''
        ? `the ${kind} would be left empty by ${describe(text)}${limits(control)}; give a value it holds as given`
        : `the ${kind} would hold ${describe(held)}, not ${describe(text)}${limits(control)}; give a value it holds as given`,
    };
  }
  return { steps: [{ control, next: text }], proposed: { key, label: labelOf(control, key), value: text } };
}

/**
 * Maps a validated input onto `form`'s controls, without changing anything. A key's controls are
 * found by the one rule of shared/form-control-rule.ts: `name`, else form-builder's
 * `wire:model="data.<key>"` or id `<formId>-<key>` on a control without a name.
 * Refused (first reason wins, naming the field): a name with no control; protected controls
 * (PROTECTED_INPUT_TYPES); disabled (also by a disabled fieldset) and read-only controls;
 * controls a person cannot see (effective-visibility.ts: honeypots hidden by `display`,
 * `visibility`, `hidden`, `inert`, `aria-hidden`, opacity, clipping, zero size, a transform or
 * an off-screen position; each member of a radio or checkbox group is checked); a select value that
 * is not an option value (a label is not a value); a radio or checkbox-group value the group does
 * not have; a value of the wrong kind; several non-choice controls sharing a name; a value a
 * text-like control would not hold as given (the browser's value sanitising, checked on a
 * detached copy of the control: e.g. `"twelve"` for a number input, 500 for a range input with
 * max 10, `"red"` for a colour input, a line break in a text input), so `proposed` only ever
 * lists values the form really holds once filled.
 * Accepted: text-like inputs and textareas (string; number for number/range inputs), single
 * checkboxes (boolean), checkbox groups (array of values), radio groups (one value), selects
 * (one value, or an array for `multiple`).
 * @returns `{ ok: true, steps, proposed }` or `{ ok: false, reason }` such as
 *   `topic: "Order question" is the label of an option, not its value (give "order")`.
 */
export function planFill(form: HTMLFormElement, input: Record<string, unknown>, words: CheckboxWords): FillPlan {
  const steps: FillStep[] = [];
  const proposed: ProposedValue[] = [];
  for (const [key, value] of Object.entries(input)) {
    const controls = findControls(readFormProperty(form, 'elements'), readFormProperty(form, 'id'), key)?.controls ?? [];
    if (controls.length === 0) return { ok: false, reason: `${key}: form #${readFormProperty(form, 'id')} has no control named ${describe(key)}` };
    for (const control of controls) {
      const why = refusal(control);
      if (why) return { ok: false, reason: `${key}: ${why}` };
    }
    const fillable = controls as FillableControl[];
    const first = fillable[0]!;
    let part: PlanPart;
    if (fillable.every((control) => control instanceof HTMLInputElement && (control.type === 'radio' || control.type === 'checkbox'))) {
      const types = new Set(fillable.map((control) => (control as HTMLInputElement).type));
      part = types.size === 1 ? planChoices(key, fillable as HTMLInputElement[], value, words) : { reason: 'radios and checkboxes share this name' };
    } else if (fillable.length > 1) {
      part = { reason: 'several controls share this name; only radio and checkbox groups can be filled' };
    } else if (first instanceof HTMLSelectElement) {
      part = planSelect(key, first, value);
    } else if (isTextLike(first)) {
      part = planText(key, first, value);
    } else {
      part = { reason: 'the control cannot be filled' };
    }
    if ('reason' in part) return { ok: false, reason: `${key}: ${part.reason}` };
    steps.push(...part.steps.map((step) => ({ key, ...step })));
    proposed.push(part.proposed);
  }
  return { ok: true, steps, proposed };
}
