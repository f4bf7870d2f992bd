/**
 * A DOM object's own built-in property or method, read past DOM clobbering: a form's field named
 * `getAttribute`, or an `<img name="querySelectorAll">` on the document, shadows the built-in of
 * that name on the object itself (HTML, "named properties" of `HTMLFormElement` and `Document`).
 * Works on any DOM whose built-ins live on prototypes (the browser's, linkedom's in the CLI).
 */

/**
 * The value of `key` as the object's prototype chain defines it (a getter is called on `target`),
 * ignoring what a named element put on the object itself.
 * @returns the built-in value (a method comes back unbound), or `target[key]` when no prototype
 *   defines it.
 * @example builtIn<string>(form, 'localName') // 'form', even with <input name="localName"> inside
 */
export function builtIn<T>(target: object, key: string): T {
  for (let proto = Object.getPrototypeOf(target); proto; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, key);
    if (descriptor) return (descriptor.get ? descriptor.get.call(target) : descriptor.value) as T;
  }
  return (target as Record<string, T>)[key] as T;
}

/**
 * Calls the built-in method `key` of `target` with `args` (see `builtIn`).
 * @example callBuiltIn<string | null>(form, 'getAttribute', 'toolname')
 */
export function callBuiltIn<T>(target: object, key: string, ...args: unknown[]): T {
  return builtIn<(...parameters: unknown[]) => T>(target, key).apply(target, args);
}
