/**
 * A form tool against its page: the form its binding names exists, is a `<form>`, and has a
 * control for every input the tool's `inputSchema` names. Capell Agent Schema, "Navigation,
 * forms, and admin tools": write tools use existing public forms; a tool whose form or control
 * is missing would fail every call. A control is found by the one rule of form-control-rule.ts
 * (`name`, else form-builder's `wire:model` or `<formId>-<key>` id). Pure DOM reads (the browser's, or linkedom's in the CLI),
 * past DOM clobbering (dom-builtin.ts).
 */
import { builtIn, callBuiltIn } from '../start/dom-builtin.js';
import { isPlainObject } from './is-plain-object.js';
import { bindingRow } from './bindings/registry.js';
import { findControls, type ControlRule } from './form-control-rule.js';
import type { ToolSpec } from './declarations/tool-spec.js';

/**
 * What is missing for a form tool on `doc`: one line per problem, e.g.
 * `form #order is not on this page`, `form #contact has no control named "qty"`.
 * @param spec a normalised ToolSpec; a binding whose row names no page element (registry.ts,
 *   PageElement) has no problems.
 * @param doc the page (`getElementById`, `querySelectorAll`).
 * @returns problems, empty when the form and every named control exist.
 */
export function formToolProblems(spec: ToolSpec, doc: Document): string[] {
  const element = bindingRow(spec.binding.type)?.pageElement;
  if (!element) return [];
  const { tag } = element;
  const id = spec.binding.target;
  const form = callBuiltIn<Element | null>(doc, 'getElementById', id);
  if (!form) return [`${tag} #${id} is not on this page`];
  if (builtIn<string>(form, 'localName') !== tag) return [`#${id} is a <${builtIn<string>(form, 'localName')}>, not a <${tag}>`];
  const candidates = formToolControls(form, element.controls, id, doc);
  const properties = isPlainObject(spec.inputSchema.properties) ? Object.keys(spec.inputSchema.properties) : [];
  return properties.filter((name) => !findControls(candidates, id, name)).map((name) => `${tag} #${id} has no control named ${JSON.stringify(name)}`);
}

/** A form's controls: those inside it matching `selector`, then those outside that join it with `form="id"`. */
function formToolControls(form: Element, selector: string, id: string, doc: Document): Element[] {
  const inside = Array.from(callBuiltIn<ArrayLike<Element>>(form, 'querySelectorAll', selector));
  const joined = Array.from(callBuiltIn<ArrayLike<Element>>(doc, 'querySelectorAll', '[form]'))
    .filter((control) => callBuiltIn<string | null>(control, 'getAttribute', 'form') === id);
  return [...inside, ...joined];
}

/**
 * Which inputs of a form tool on `doc` are found by a rule other than `name`
 * (form-control-rule.ts), as one short line for the Report's audit and `check`, e.g.
 * `form #capell-form-5d1f… controls found by wire:model (no name attribute): name, email`;
 * undefined when every input is found by `name` (or the form is missing: formToolProblems says so).
 */
export function formToolRuleNote(spec: ToolSpec, doc: Document): string | undefined {
  const element = bindingRow(spec.binding.type)?.pageElement;
  if (!element) return undefined;
  const id = spec.binding.target;
  const form = callBuiltIn<Element | null>(doc, 'getElementById', id);
  if (!form || builtIn<string>(form, 'localName') !== element.tag) return undefined;
  const candidates = formToolControls(form, element.controls, id, doc);
  const byRule = new Map<ControlRule, string[]>();
  const properties = isPlainObject(spec.inputSchema.properties) ? Object.keys(spec.inputSchema.properties) : [];
  for (const key of properties) {
    const match = findControls(candidates, id, key);
    if (match && match.rule !== 'name') byRule.set(match.rule, [...(byRule.get(match.rule) ?? []), key]);
  }
  if (byRule.size === 0) return undefined;
  const parts = [...byRule].map(([rule, keys]) => `${rule === 'id' ? `id ${id}-<key>` : rule}: ${keys.join(', ')}`);
  return `${element.tag} #${id} controls found by form-builder's binding, not name (${parts.join('; ')})`;
}
