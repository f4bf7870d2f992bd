/**
 * A text input and a checkbox controlled the way React controls them, for fill tests. React
 * shadows `value` (and `checked`) on the element to remember what it last wrote; on an `input`
 * (or `change`) event it compares the element's real value with that memory and calls its
 * onChange only when they differ; then it renders its state back into the element. A value set
 * through the element's own (shadowed) property is therefore "already known", no onChange runs,
 * and the next render puts the old state back. Only a native prototype setter plus the event
 * reaches the component's state.
 */

/** A mounted controlled control: the element and the component's state. */
export interface Controlled<T> {
  element: HTMLInputElement;
  state(): T;
}

function controlled<T extends string | boolean>(element: HTMLInputElement, property: 'value' | 'checked', event: 'input' | 'change', initial: T): Controlled<T> {
  const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, property)!;
  let state = initial;
  let tracked = initial as unknown;
  Object.defineProperty(element, property, {
    configurable: true,
    get() { return native.get!.call(this); },
    set(value: unknown) { tracked = property === 'value' ? String(value) : Boolean(value); native.set!.call(this, value); },
  });
  const render = () => { if (native.get!.call(element) !== state) (element as unknown as Record<string, unknown>)[property] = state; };
  element.addEventListener(event, () => {
    const actual = native.get!.call(element) as T;
    if (actual !== tracked) {
      tracked = actual;
      state = actual; // the component's onChange → setState
    }
    queueMicrotask(render); // the re-render after the event
  });
  (element as unknown as Record<string, unknown>)[property] = initial;
  return { element, state: () => state };
}

/** Appends a React-like controlled text input named `name` to `form`. */
export function mountControlledText(form: HTMLFormElement, name: string): Controlled<string> {
  const element = document.createElement('input');
  element.name = name;
  form.append(element);
  return controlled(element, 'value', 'input', '');
}

/** Appends a React-like controlled checkbox named `name` to `form` (state follows `change`). */
export function mountControlledCheckbox(form: HTMLFormElement, name: string): Controlled<boolean> {
  const element = document.createElement('input');
  element.type = 'checkbox';
  element.name = name;
  form.append(element);
  return controlled(element, 'checked', 'change', false);
}
