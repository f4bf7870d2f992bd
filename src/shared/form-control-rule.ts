/**
 * How a form tool's input key finds its controls: the one rule the registration check
 * (form-tool-check.ts), the fill plan (write/forms/controls.ts, so the fill and the panel's
 * listing) and the page observer (registry/page-observer.ts, through the form row's
 * `controlAttributes`) share.
 *
 * In order, the first that finds a control wins:
 * 1. `name`: the controls whose `name` attribute is the key (HTML's own tie of a control to a
 *    submitted field);
 * 2. `wire:model`: else the controls without a `name` bound by form-builder's
 *    `wire:model="data.<key>"` (or `wire:model.<modifiers>`, e.g. `wire:model.live`);
 * 3. `id`: else the control without a `name` whose id is `<formId>-<key>`.
 * Rules 2 and 3 are how capell-app/form-builder's `livewire/form.blade.php` ties a control to a
 * field key (before 770cf636 its controls carried no `name`); a control that has a `name` is only
 * ever found by it, so a named control is never filled under another key.
 * Pure DOM reads past DOM clobbering (dom-builtin.ts), so linkedom's DOM in the CLI works too.
 */
import { builtIn, callBuiltIn } from '../start/dom-builtin.js';

/** Which rule found a key's controls (see the module's rule). */
export type ControlRule = 'name' | 'wire:model' | 'id';

/** The key's controls and the rule that found them. */
export interface ControlMatch {
  controls: Element[];
  rule: ControlRule;
}

/** form-builder's prefix of a field key in `wire:model` (its component state `data`). */
const WIRE_MODEL_PREFIX = 'data.';

/**
 * Livewire's `wire:model` attributes the page observer watches: a MutationObserver filters by
 * exact attribute names, so these are the bare directive and Livewire 3's modifiers form-builder
 * or a theme may write (livewire/livewire `js/directives/wire-model.js`).
 */
export const WIRE_MODEL_ATTRIBUTES: readonly string[] = ['wire:model', ...['live', 'blur', 'change', 'lazy', 'defer', 'number', 'boolean', 'fill'].map((modifier) => `wire:model.${modifier}`)];

function isWireModel(attribute: string): boolean {
  return attribute === 'wire:model' || attribute.startsWith('wire:model.');
}

/** The field key a control is bound to by `wire:model…="data.<key>"`, or undefined. */
function wireModelKey(control: Element): string | undefined {
  for (const attribute of Array.from(builtIn<NamedNodeMap>(control, 'attributes'))) {
    if (isWireModel(attribute.name) && attribute.value.startsWith(WIRE_MODEL_PREFIX)) return attribute.value.slice(WIRE_MODEL_PREFIX.length);
  }
  return undefined;
}

/**
 * Finds `key`'s controls among `candidates` (a form's controls, in document order) by the
 * module's rule.
 * @param formId the form's id (rule 3 reads `<formId>-<key>`).
 * @returns the controls and the rule, or undefined when no rule finds one.
 * @example findControls(form.elements, 'capell-form-5d1f…', 'email') // { controls: [input], rule: 'wire:model' }
 */
export function findControls(candidates: Iterable<Element>, formId: string, key: string): ControlMatch | undefined {
  const all = [...candidates];
  const nameOf = (control: Element) => callBuiltIn<string | null>(control, 'getAttribute', 'name');
  const named = all.filter((control) => nameOf(control) === key);
  if (named.length > 0) return { controls: named, rule: 'name' };
  const unnamed = all.filter((control) => nameOf(control) === null);
  const bound = unnamed.filter((control) => wireModelKey(control) === key);
  if (bound.length > 0) return { controls: bound, rule: 'wire:model' };
  const byId = unnamed.filter((control) => callBuiltIn<string | null>(control, 'getAttribute', 'id') === `${formId}-${key}`);
  return byId.length > 0 ? { controls: byId, rule: 'id' } : undefined;
}
