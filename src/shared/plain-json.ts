/**
 * JSON text of plain data, written without running any page code: what a write sends is what the
 * panel showed, whatever a page script added after the runtime started. `JSON.stringify` calls a
 * `toJSON` found anywhere on a value's prototype chain and every getter it meets: a page that set
 * `Object.prototype.toJSON` after the panel showed "to bob, 5" made an endpoint write send
 * `{"to":"mallory","amount":5000}` (issue 37). This walk reads only own data properties and never
 * calls a function of the value. Strings and numbers are written by the `JSON.stringify` taken at
 * start (start/primitives.ts); the reflection functions below are taken when this module loads
 * (with the first write, not at start: the first-load entry's budget), so a page that replaces
 * them before the first write changes how a body is read, as it can for `Object` and `Array`
 * elsewhere (docs/security.md, "Replace the language's own built-ins").
 */
import { primitives } from '../start/primitives.js';

const { ownKeys } = Reflect;
const { getOwnPropertyDescriptor: ownDescriptor, getPrototypeOf: prototypeOf } = Object;
/** The realm's own prototypes (`Object.prototype` cannot be replaced; neither can these literals'). */
const OBJECT_PROTOTYPE = prototypeOf({}) as object;
const ARRAY_PROTOTYPE = prototypeOf([]) as object;

/**
 * The JSON text of `value`, which must be plain data: `null`, a boolean, a string, a finite number,
 * an array of this realm (its prototype the realm's `Array.prototype`; its indexes `0…length-1`; a
 * hole is `null`), or an object whose prototype is the realm's `Object.prototype` or `null`, with own enumerable string-keyed *data*
 * properties (an `undefined` one is left out, in an array it is `null`, as JSON.stringify does;
 * symbol keys and non-enumerable properties are left out). No `toJSON` is looked up and no getter
 * is called (a Proxy's traps still run: docs/security.md). Strings and numbers are written by the `JSON.stringify` taken at
 * start, which reads nothing of a primitive.
 * @param indent the indentation of each nesting level (`'  '` for the panel's view), or `''` for
 *   compact text (what is sent).
 * @returns the JSON text.
 * @throws TypeError with a one-line reason naming where in the value (`$.a[0]`) the first thing
 *   that is not plain data sits: an accessor property (a getter), a function, a symbol, a bigint, a
 *   non-finite number, an object of another kind (a Date, a Map, a class instance), or a cycle.
 * @example plainJSON({ to: 'bob', amount: 5 }) // '{"to":"bob","amount":5}', whatever Object.prototype.toJSON is
 */
export function plainJSON(value: unknown, indent = ''): string {
  return write(value, '$', indent, '', []);
}

/**
 * The own enumerable string-keyed data properties of a plain object (as plainJSON reads them), in
 * property order, each `[key, value]`; an `undefined` value is left out.
 * @throws TypeError as plainJSON does, for the object itself (not its values).
 */
export function plainEntries(value: object): [string, unknown][] {
  return ownData(value, '$', false);
}

function refuse(path: string, what: string): never {
  throw new TypeError(`${path} is ${what}, not plain JSON data; nothing was sent`);
}

/** Each own enumerable string-keyed data property of `value`; `array`: indexes only, holes `undefined`. */
function ownData(value: object, path: string, array: boolean): [string, unknown][] {
  const found: [string, unknown][] = [];
  if (array) {
    // An array's own `length` is a data property that cannot be redefined as a getter.
    const length = ownDescriptor(value, 'length')?.value;
    if (typeof length !== 'number') refuse(path, 'an object of another kind than an array');
    for (let index = 0; index < length; index += 1) {
      const descriptor = ownDescriptor(value, `${index}`);
      if (descriptor && !('value' in descriptor)) refuse(`${path}[${index}]`, 'a getter');
      found[found.length] = [`${index}`, descriptor?.value];
    }
    return found;
  }
  const prototype = prototypeOf(value);
  if (prototype !== OBJECT_PROTOTYPE && prototype !== null) refuse(path, 'an object of another kind than a plain object');
  const keys = ownKeys(value);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    if (typeof key !== 'string') continue;
    const descriptor = ownDescriptor(value, key)!;
    if (!descriptor.enumerable) continue;
    if (!('value' in descriptor)) refuse(`${path}.${key}`, 'a getter');
    if (descriptor.value !== undefined) found[found.length] = [key, descriptor.value];
  }
  return found;
}

function write(value: unknown, path: string, indent: string, at: string, open: object[]): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return primitives.stringify(value);
  if (typeof value === 'number') return value - value === 0 ? primitives.stringify(value) : refuse(path, `${value}`);
  if (typeof value !== 'object') return refuse(path, `a ${typeof value}`);
  for (let index = 0; index < open.length; index += 1) if (open[index] === value) refuse(path, 'a cycle');
  const array = prototypeOf(value) === ARRAY_PROTOTYPE;
  const entries = ownData(value, path, array);
  const [first, last] = array ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return first + last;
  const inner = at + indent;
  const gap = indent ? '\n' + inner : '';
  open[open.length] = value;
  let text = first;
  for (let index = 0; index < entries.length; index += 1) {
    const [key, item] = entries[index]!;
    const where = array ? `${path}[${key}]` : `${path}.${key}`;
    const written = array && item === undefined ? 'null' : write(item, where, indent, inner, open);
    text += (index > 0 ? ',' : '') + gap + (array ? '' : primitives.stringify(key) + (indent ? ': ' : ':')) + written;
  }
  open.length -= 1;
  return text + (indent ? '\n' + at : '') + last;
}
