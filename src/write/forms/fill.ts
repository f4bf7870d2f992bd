/**
 * Setting control values so that the page's own code sees them. Frameworks that control inputs
 * (React and others) shadow `value`/`checked` on the element to track what they set themselves;
 * a plain `input.value = x` goes through that shadow and the framework later puts its own state
 * back. The native setter of the element's prototype bypasses the shadow, and the `input` and
 * `change` events then tell the framework that the value changed, as a person's typing would.
 * The runtime never clicks: a click would toggle a checkbox or submit the form.
 */
import { readControlState, type ControlState, type FillableControl, type FillStep } from './controls.js';

/**
 * What `fillControls` changed: each control with its state before (`previous`) and the state it
 * really held right after the fill set it (`next`, read back: the page's own `input`/`change`
 * handlers may have rewritten the planned value).
 */
export interface FillRecord {
  control: FillableControl;
  previous: ControlState;
  next: ControlState;
}

/** Finds the native setter of `property` on the element's prototype chain (not an own shadow). */
function nativeSetter(element: object, property: 'value' | 'checked' | 'selected'): ((value: unknown) => void) | undefined {
  for (let proto = Object.getPrototypeOf(element) as object | null; proto; proto = Object.getPrototypeOf(proto) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, property);
    if (descriptor?.set) return descriptor.set;
  }
  return undefined;
}

function sameState(a: ControlState, b: ControlState): boolean {
  return Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((item, index) => item === b[index]) : a === b;
}

/**
 * Sets one control's state with the native setter and fires `input` then `change` (both bubble,
 * `input` also crosses shadow roots), as the browser does after a person's edit. An unchecked
 * radio gets no events: the browser fires them on the radio that became checked.
 */
function writeControlState(control: FillableControl, state: ControlState): void {
  if (control instanceof HTMLSelectElement) {
    const wanted = Array.isArray(state) ? state : [String(state)];
    if (!control.multiple) nativeSetter(control, 'value')?.call(control, wanted[0] ?? '');
    else for (const option of control.options) nativeSetter(option, 'selected')?.call(option, wanted.includes(option.value));
  } else if (typeof state === 'boolean') {
    nativeSetter(control, 'checked')?.call(control, state);
    if (control instanceof HTMLInputElement && control.type === 'radio' && !state) return;
  } else {
    nativeSetter(control, 'value')?.call(control, String(state));
  }
  announceValue(control);
}

/**
 * Fires `input` and `change` on `control` as a fill does, so that a site's own script that keeps
 * its own state from those events (Livewire's `wire:model`) takes what the control holds now.
 */
export function announceValue(control: Element): void {
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * Applies a plan from `planFill`. Controls already in the wanted state are left alone (no events).
 * Radios are written unchecked-first so the group's own exclusivity never fights the plan.
 * @returns what changed, for `restoreControls` (and `unheldSteps`).
 */
export function fillControls(steps: readonly FillStep[]): FillRecord[] {
  const records: FillRecord[] = [];
  const ordered = [...steps].sort((a, b) => Number(a.next === true) - Number(b.next === true));
  for (const { control, next } of ordered) {
    const previous = readControlState(control);
    if (sameState(previous, next)) continue;
    writeControlState(control, next);
    // Read back, not the planned state: restore must recognise what the fill really left there.
    records.push({ control, previous, next: readControlState(control) });
  }
  return records;
}

/**
 * The steps whose control does not hold the planned state now (the page's own handlers rewrote
 * it, or changed one control while another was set), each with the state it holds instead.
 * Read right after `fillControls`: what the panel would list must be what the form holds.
 */
export function unheldSteps(steps: readonly FillStep[]): { step: FillStep; held: ControlState }[] {
  return steps
    .map((step) => ({ step, held: readControlState(step.control) }))
    .filter(({ step, held }) => !sameState(held, step.next));
}

/**
 * Puts back the values the person had before the agent filled the form (on cancel, abort or
 * timeout, or a fill refused after the fact). A control is put back when it still holds what the
 * fill stored in it (FillRecord `next`, read back after setting); a control the person (or the
 * page) changed since keeps that value: it is theirs.
 */
export function restoreControls(records: readonly FillRecord[]): void {
  const ordered = [...records].sort((a, b) => Number(a.previous === true) - Number(b.previous === true));
  for (const { control, previous, next } of ordered) {
    if (control.isConnected && sameState(readControlState(control), next)) writeControlState(control, previous);
  }
}
