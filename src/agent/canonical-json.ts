/**
 * The bytes the agent signs must be the bytes it meant. A site's JSON parser may read a body
 * otherwise than JavaScript does: the first of two members of one name instead of the last, an
 * integer past 2^53 exactly instead of rounded, `1.0` as a float rather than the integer `1`, a
 * lone surrogate as an error. So the agent signs a JSON body only when it is exactly what
 * `JSON.stringify` writes for the value it parses to: one reading, the one the agent compared
 * with its intent. The runtime sends `JSON.stringify(input)`, which always passes. I-JSON
 * (RFC 7493) names the same hazards: no duplicate member names (§2.3), no surrogate code points
 * (§2.1), integers only within ±(2^53 − 1) to be read exactly everywhere (§2.2).
 */

/** Largest integer every JSON reader reads exactly (2^53 − 1). */
const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * Parses a request body that must be canonical JSON: UTF-8, and byte for byte
 * `JSON.stringify(JSON.parse(text))`, with no lone surrogate in any string.
 * @param bytes the body as sent
 * @returns the parsed value
 * @throws SyntaxError whose message is the one-line reason: not UTF-8, not JSON, a duplicate
 *   member (`a duplicate member "id"`), an integer past 2^53 (`the integer 9007199254740993 is
 *   past 2^53`), a number or string written otherwise than `JSON.stringify` writes it, whitespace,
 *   a lone surrogate.
 * @example parseCanonicalJSON(new TextEncoder().encode('{"id":"a"}')) // → { id: 'a' }
 */
export function parseCanonicalJSON(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SyntaxError('the body is not UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SyntaxError('the body is not JSON');
  }
  if (JSON.stringify(value) !== text) throw new SyntaxError(`the body ${whyNotCanonical(text)}`);
  if (!wellFormed(value)) throw new SyntaxError('the body holds a lone surrogate in a string');
  return value;
}

/** A UTF-16 code unit of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether every string of a parsed value (member names too) is well-formed UTF-16. */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(wellFormed);
  if (typeof value === 'object' && value !== null) return Object.entries(value).every(([name, member]) => !LONE_SURROGATE.test(name) && wellFormed(member));
  return true;
}

/**
 * Why valid JSON is not its own `JSON.stringify`: the first duplicate member or inexact number a
 * scan of the text finds, else the general reason. Only called on text `JSON.parse` accepted.
 */
function whyNotCanonical(text: string): string {
  /** The open objects and arrays, innermost last: an object's member names so far, and whether a name comes next. */
  const open: ({ names: Set<string>; expectName: boolean } | 'array')[] = [];
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    const top = open.at(-1);
    if (character === '"') {
      const end = stringEnd(text, index);
      if (top !== undefined && top !== 'array' && top.expectName) {
        const name = JSON.parse(text.slice(index, end)) as string;
        if (top.names.has(name)) return `has a duplicate member ${JSON.stringify(name).slice(0, 80)}`;
        top.names.add(name);
        top.expectName = false;
      }
      index = end;
      continue;
    }
    if (character === '{') open.push({ names: new Set(), expectName: true });
    else if (character === '[') open.push('array');
    else if (character === '}' || character === ']') open.pop();
    else if (character === ',' && top !== undefined && top !== 'array') top.expectName = true;
    else if (character === '-' || (character >= '0' && character <= '9')) {
      let end = index + 1;
      while (end < text.length && /[0-9eE.+-]/.test(text[end]!)) end += 1;
      const token = text.slice(index, end);
      if (/^-?\d+$/.test(token) && Math.abs(Number(token)) > MAX_EXACT_INTEGER) return `has the integer ${token.slice(0, 40)}, past 2^53 (not every reader reads it alike)`;
      if (JSON.stringify(Number(token)) !== token) return `writes the number ${token.slice(0, 40)} otherwise than JSON.stringify does (${JSON.stringify(Number(token))})`;
      index = end;
      continue;
    }
    index += 1;
  }
  return 'is not written as JSON.stringify writes it (whitespace, escapes or member layout)';
}

/** The index just past the JSON string token starting at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
  return index + 1;
}
