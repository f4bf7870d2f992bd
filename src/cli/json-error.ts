/**
 * Where a JSON text breaks RFC 8259, for the command line's messages to a site owner: the offset of
 * the first error and a short description of it. `JSON.parse` gives an offset for some errors and
 * not for others (Node 20: `Unexpected token ']', "[1,]" is not valid JSON`, a trailing comma in an
 * array, has none), and Node 22 adds a line and column counted from the start of the text it was
 * given, which for an island is not the line of the page's file. This scanner finds every error at
 * its own offset, so the CLI can count the line and column in the file (`lineColumnAt`).
 * Node only (the CLI): the browser runtime reports `JSON.parse`'s own message.
 */

/** The first syntax error of a JSON text: where it is and what it is. */
export interface JSONError {
  /** Offset in the text, in UTF-16 code units, of the character the error is at. */
  offset: number;
  /** What is wrong there, e.g. `trailing comma before "]"`, `expected "," or "}" after a property value`. */
  message: string;
}

/** JSON's whitespace (RFC 8259 §2): space, tab, line feed, carriage return. */
const WHITESPACE = /[ \t\n\r]*/y;
/** A JSON number (RFC 8259 §6). */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A run of letters, digits and the like: what a bare word (`tools`, `tru`, `NaN`) spans. */
const WORD = /[A-Za-z0-9_$.+-]+/y;
/** The characters that may follow a backslash in a JSON string (RFC 8259 §7), `u` apart. */
const ESCAPES = '"\\/bfnrt';

/**
 * Deepest nesting the scanner follows (arrays and objects, a few stack frames each, well within
 * Node's stack); deeper text is named as such at the bracket where it passes this depth.
 */
const MAX_DEPTH = 1_000;

/** Thrown inside the scanner at the first error; never leaves `findJSONError`. */
class Stop {
  constructor(readonly error: JSONError) {}
}

/**
 * The first syntax error of `text` as JSON, or undefined when `text` is valid JSON.
 * @param text the whole JSON text (an island's content, a manifest file's)
 * @returns the error's offset in `text` and its description; never throws.
 * @example findJSONError('{"a": 1,}') // { offset: 7, message: 'trailing comma before "}"' }
 */
export function findJSONError(text: string): JSONError | undefined {
  let at = 0;
  const fail = (offset: number, message: string): never => {
    throw new Stop({ offset, message });
  };
  const skipWhitespace = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  /**
   * What is at `at`, for a message: a string's first characters in their quotes, a bare word
   * whole, else one character; the end named as such.
   */
  const found = (): string => {
    if (at >= text.length) return 'the end of the text';
    if (text[at] === '"') {
      const close = text.indexOf('"', at + 1);
      return close !== -1 && close - at <= 40 && !text.slice(at, close).includes('\n') ? text.slice(at, close + 1) : '"';
    }
    WORD.lastIndex = at;
    const word = WORD.exec(text)?.[0];
    return JSON.stringify(word && word.length > 1 ? word : text[at]);
  };
  /**
   * After a value, where a "," was expected: when what follows could start the next value, the
   * comma is likely missing, at the end of the line before when there is a line break between.
   * @param end the offset just past the previous value
   */
  const commaHint = (end: number): string => {
    if (!/^["{[\dtfn-]/.test(text[at] ?? '')) return '';
    return text.slice(end, at).includes('\n') ? ' (a comma missing at the end of the line before?)' : ' (a comma missing?)';
  };
  const string = () => {
    // `at` is on the opening quote.
    at++;
    for (;;) {
      if (at >= text.length) fail(at, 'a string is not closed');
      const char = text.charCodeAt(at);
      if (char === 0x22) {
        at++;
        return;
      }
      if (char < 0x20) fail(at, 'a line break or control character inside a string (write it as \\n, \\t or \\u00XX)');
      if (char === 0x5c) {
        const next = text[at + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) fail(at, 'a \\u escape needs four hex digits');
          at += 6;
          continue;
        }
        if (next === undefined || !ESCAPES.includes(next)) fail(at, `${JSON.stringify(`\\${next ?? ''}`)} is not a JSON escape`);
        at += 2;
        continue;
      }
      at++;
    }
  };
  const value = (depth: number) => {
    skipWhitespace();
    const char = text[at];
    if (char === '{') return object(depth + 1);
    if (char === '[') return array(depth + 1);
    if (char === '"') return string();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, at)) {
        at += literal.length;
        return;
      }
    }
    if (char === '0' && /\d/.test(text[at + 1] ?? '')) fail(at, 'a number with a leading zero');
    NUMBER.lastIndex = at;
    if (char !== undefined && /[-0-9]/.test(char) && NUMBER.exec(text)) {
      at = NUMBER.lastIndex;
      return;
    }
    if (char === "'") fail(at, 'a string in single quotes (JSON needs double quotes)');
    fail(at, `expected a value, found ${found()}`);
  };
  const object = (depth: number) => {
    if (depth > MAX_DEPTH) fail(at, 'nested too deep to check');
    const open = at;
    at++;
    skipWhitespace();
    if (text[at] === '}') {
      at++;
      return;
    }
    for (;;) {
      skipWhitespace();
      if (text[at] !== '"') {
        if (at >= text.length) fail(open, 'an object is not closed (no "}" for this "{")');
        fail(at, text[at] === "'" ? 'a property name in single quotes (JSON needs double quotes)' : `expected a property name in double quotes, found ${found()}`);
      }
      string();
      skipWhitespace();
      if (text[at] !== ':') fail(at, `expected ":" after a property name, found ${found()}`);
      at++;
      value(depth);
      const end = at;
      skipWhitespace();
      if (text[at] === '}') {
        at++;
        return;
      }
      if (text[at] !== ',') {
        if (at >= text.length) fail(open, 'an object is not closed (no "}" for this "{")');
        fail(at, `expected "," or "}" after a property value, found ${found()}${commaHint(end)}`);
      }
      const comma = at;
      at++;
      skipWhitespace();
      if (text[at] === '}') fail(comma, 'trailing comma before "}"');
    }
  };
  const array = (depth: number) => {
    if (depth > MAX_DEPTH) fail(at, 'nested too deep to check');
    const open = at;
    at++;
    skipWhitespace();
    if (text[at] === ']') {
      at++;
      return;
    }
    for (;;) {
      value(depth);
      const end = at;
      skipWhitespace();
      if (text[at] === ']') {
        at++;
        return;
      }
      if (text[at] !== ',') {
        if (at >= text.length) fail(open, 'an array is not closed (no "]" for this "[")');
        fail(at, `expected "," or "]" after an array item, found ${found()}${commaHint(end)}`);
      }
      const comma = at;
      at++;
      skipWhitespace();
      if (text[at] === ']') fail(comma, 'trailing comma before "]"');
    }
  };
  try {
    skipWhitespace();
    if (at >= text.length) return { offset: 0, message: 'empty: no JSON value' };
    value(0);
    skipWhitespace();
    if (at < text.length) fail(at, `text after the JSON value: ${found()}`);
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return error.error;
    throw error;
  }
}

/**
 * The 1-based line and column of `offset` in `text`: lines end at `\n` (a `\r\n` file counts
 * the same), columns count characters (code points, as editors do), not UTF-16 units.
 * @example lineColumnAt('{\n  tools: []\n}', 4) // { line: 2, column: 3 }
 */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  let line = 1;
  for (let index = before.indexOf('\n'); index !== -1; index = before.indexOf('\n', index + 1)) line++;
  return { line, column: [...before.slice(lineStart).replace(/\r$/, '')].length + 1 };
}
