/**
 * Reading a form's own properties safely. `HTMLFormElement` lets a control named like a property
 * shadow it (`<input name="action">` makes `form.action` that input: "DOM clobbering"), so the
 * runtime reads them through the prototype's getters.
 */

type FormProperty = 'action' | 'method' | 'enctype' | 'elements' | 'id';

/**
 * The form's real `action` (absolute URL), `method`, `enctype`, `elements` or `id`, whatever its
 * controls are named.
 */
export function readFormProperty<Key extends FormProperty>(form: HTMLFormElement, key: Key): HTMLFormElement[Key] {
  const getter = Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, key)?.get
    ?? Object.getOwnPropertyDescriptor(Element.prototype, key)?.get;
  return (getter ? getter.call(form) : form[key]) as HTMLFormElement[Key];
}
