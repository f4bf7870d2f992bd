/**
 * Computed styles as the checks read them: `getComputedStyle` and `getPropertyValue` as the
 * realm had them at start (primitives.ts). A page that later replaces `window.getComputedStyle`,
 * or an accessor such as `color` or `content` on `CSSStyleDeclaration.prototype`, cannot make a
 * hidden text, a transparent control or generated content read as something else.
 */
import { primitives } from '../start/primitives.js';

/** `backgroundColor` → `background-color`, `webkitTextFillColor` → `-webkit-text-fill-color`. */
function toPropertyName(key: string): string {
  const name = key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  return name.startsWith('webkit-') ? `-${name}` : name;
}

/**
 * The computed style of `element` (or of its `pseudo` element, e.g. `'::after'`), read-only: each
 * property read (`style.opacity`, `style.getPropertyValue('opacity')`) asks the declaration by
 * the built-in `getPropertyValue` taken at start, never through the declaration's prototype.
 * @returns a live view (it reads the style as it is when a property is read); '' for a property
 *   the browser does not know, as `getPropertyValue` answers.
 * @throws TypeError when `element` is not an Element (as `getComputedStyle` does).
 * @example readComputedStyle(span, '::after').content // 'none'
 */
export function readComputedStyle(element: Element, pseudo?: string): CSSStyleDeclaration {
  const style = primitives.getComputedStyle(element, pseudo);
  const read = (name: string) => primitives.propertyValue(style, name);
  return new Proxy(style, {
    get: (_target, key) => (key === 'getPropertyValue' ? read : typeof key === 'string' ? read(toPropertyName(key)) : undefined),
  });
}
