/**
 * A form tool against its page: the form its binding names exists, is a `<form>`, and has a
 * control for every input the tool's `inputSchema` names. Capell Agent Schema, "Navigation,
 * forms, and admin tools": write tools use existing public forms; a tool whose form or control
 * is missing would fail every call. Pure DOM reads (the browser's, or linkedom's in the CLI),
 * past DOM clobbering (dom-builtin.ts).
 */
import { builtIn, callBuiltIn } from '../start/dom-builtin.js';
import { isPlainObject } from './is-plain-object.js';
import { bindingRow } from './bindings/registry.js';
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
  const names = new Set<string>();
  const collect = (root: ParentNode, selector: string) => {
    for (const control of Array.from(callBuiltIn<ArrayLike<Element>>(root, 'querySelectorAll', selector))) {
      const name = callBuiltIn<string | null>(control, 'getAttribute', 'name');
      if (name) names.add(name);
    }
  };
  collect(form, element.controls.split(',').map((selector) => `${selector.trim()}[name]`).join(', '));
  // Controls outside the form that join it with form="id".
  for (const control of Array.from(callBuiltIn<ArrayLike<Element>>(doc, 'querySelectorAll', '[form][name]'))) {
    if (callBuiltIn<string | null>(control, 'getAttribute', 'form') === id) names.add(callBuiltIn<string>(control, 'getAttribute', 'name'));
  }
  const properties = isPlainObject(spec.inputSchema.properties) ? Object.keys(spec.inputSchema.properties) : [];
  return properties.filter((name) => !names.has(name)).map((name) => `${tag} #${id} has no control named ${JSON.stringify(name)}`);
}
