/**
 * The copy of a declared schema the validator (@cfworker/json-schema) is given, so that it never
 * runs a native RegExp on input and resolves every `$ref` the schema policy resolved:
 * - each `pattern` becomes a synthetic format, `PATTERN_FORMAT + source`, which the linear matcher
 *   decides (a node with its own `format` keeps it and gets the pattern in an added `allOf`);
 * - each local `$ref` is written the way the validator indexes schemas (`#/%24defs/a` →
 *   `#/$defs/a`): JSON Pointer fragments may be percent-encoded (RFC 6901 §6), the validator
 *   only compares them as written;
 * - each `enum` (and each `const` whose JSON is longer than MAX_QUOTED_CHARS, as a one-member
 *   `enum`) gets a `toJSON` that gives a short, capped quotation: the validator writes
 *   `JSON.stringify(enum)` into the message of every failing value, which for a large enum and
 *   many values took seconds and then ran out of string length.
 */
import { isPlainObject } from '../../shared/is-plain-object.js';
import { SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUED } from '../../shared/declarations/schema-keywords.js';

/** Prefix of the synthetic format names that stand for a `pattern`; a NUL cannot start a real format name in a declaration. */
export const PATTERN_FORMAT = '\u0000pattern\u0000';

/** Longest quotation of an `enum` or `const` in an issue's message, in UTF-16 units (then `…`). */
export const MAX_QUOTED_CHARS = 200;

/** Key of the object an `enum`'s `toJSON` gives the validator, read back by `quotedFrom`. */
export const QUOTED = '\u0000quoted';

/** What an enum's `toJSON` gives the validator to quote: which keyword, and the capped JSON text. */
export interface Quoted {
  [QUOTED]: 'enum' | 'const';
  text: string;
}

/** `value`'s JSON, capped at MAX_QUOTED_CHARS (an array cut at a member, with how many there are). */
function capQuote(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  if (json.length <= MAX_QUOTED_CHARS) return json;
  if (Array.isArray(value)) {
    let text = '[';
    for (const member of value) {
      const next = JSON.stringify(member) ?? 'null';
      if (text.length + next.length + 1 > MAX_QUOTED_CHARS) break;
      text += `${text === '[' ? '' : ','}${next}`;
    }
    return `${text === '[' ? '[' : `${text},`}…] (${value.length} values)`;
  }
  return `${json.slice(0, MAX_QUOTED_CHARS)}…`;
}

function quotable(members: unknown[], keyword: 'enum' | 'const', quoted: unknown): unknown[] {
  const copy = members.slice();
  const answer: Quoted = { [QUOTED]: keyword, text: capQuote(quoted) };
  Object.defineProperty(copy, 'toJSON', { value: () => answer });
  return copy;
}

/** `items` is walked both ways: as one schema, or as draft-07's list of schemas. */
const SCHEMA_LIST_VALUED = [...SCHEMA_LISTS, 'items'];

/** `#/%24defs/a~1b` → `#/$defs/a~1b`, each token as the validator's `encodePointer` writes it. */
function canonicalRef(ref: string): string {
  if (!ref.startsWith('#/')) return ref;
  try {
    return `#/${ref.slice(2).split('/').map((token) => encodeURI(decodeURIComponent(token)).replace(/#/g, '%23')).join('/')}`;
  } catch {
    return ref; // malformed: the policy refuses it
  }
}

/**
 * Rewrites a schema for the validator (see the module comment). The input is not changed.
 * @param schema a schema that passed the schema policy (object or boolean).
 * @param onPattern called with each `pattern` source met, to register its synthetic format.
 * @returns the rewritten copy.
 */
export function prepareSchema(schema: unknown, onPattern: (source: string) => void): unknown {
  if (!isPlainObject(schema)) return schema;
  const copy: Record<string, unknown> = { ...schema };
  for (const keyword of SCHEMA_VALUED) if (isPlainObject(copy[keyword])) copy[keyword] = prepareSchema(copy[keyword], onPattern);
  for (const keyword of SCHEMA_LIST_VALUED) {
    const list = copy[keyword];
    if (Array.isArray(list)) copy[keyword] = list.map((item) => prepareSchema(item, onPattern));
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = copy[keyword];
    if (isPlainObject(map)) copy[keyword] = Object.fromEntries(Object.entries(map).map(([key, sub]) => [key, prepareSchema(sub, onPattern)]));
  }
  if (typeof copy.$ref === 'string') copy.$ref = canonicalRef(copy.$ref);
  if (Array.isArray(copy.enum)) copy.enum = quotable(copy.enum, 'enum', copy.enum);
  if (copy.const !== undefined && (JSON.stringify(copy.const)?.length ?? 0) > MAX_QUOTED_CHARS) {
    // Same test as const (=== for a primitive, deep equality otherwise), with a capped quotation.
    const members = quotable([copy.const], 'const', copy.const);
    delete copy.const;
    if (copy.enum === undefined) copy.enum = members;
    else copy.allOf = [...(Array.isArray(copy.allOf) ? copy.allOf : []), { enum: members }];
  }
  if (typeof copy.pattern === 'string') {
    const name = PATTERN_FORMAT + copy.pattern;
    onPattern(copy.pattern);
    delete copy.pattern;
    if (copy.format === undefined) copy.format = name;
    else copy.allOf = [...(Array.isArray(copy.allOf) ? copy.allOf : []), { format: name }];
  }
  return copy;
}
