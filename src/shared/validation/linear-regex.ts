/**
 * A linear-time matcher for the regular expressions JSON Schema recommends (ECMA-262 with flag
 * `u`, without lookaround and backreferences; JSON Schema 2020-12 Validation §6.3.3, §4.3).
 * The pattern becomes a Thompson NFA; `test` simulates every NFA state at once (a state set per
 * input position, as in RE2 / a Pike VM without captures), so its cost is at most
 * input code points × NFA states, whatever the pattern: no backtracking anywhere.
 * A single-character atom (a literal, `.`, `\d`, `\p{L}`, a class `[...]`) is decided by a
 * native RegExp anchored to exactly one code point, which cannot backtrack and keeps JavaScript's
 * own Unicode semantics. No eval or `new Function`: CSP-safe.
 */

/**
 * Largest NFA a pattern may compile to, counted in states (about one per atom, alternative and
 * repetition, after expanding counted repetition `{n,m}`). A declaration's pattern over it is
 * rejected by the schema policy. The budget, not the size, bounds a call: a whole budget on a
 * pattern of this size costs no more than on a small one (bench/regex-bench.js).
 */
export const MAX_PATTERN_STATES = 10_000;

/**
 * Most NFA states all the distinct `pattern`s of one schema may compile to together. The schema
 * policy compiles every pattern while it checks a declaration, inside one slice of start-up work:
 * forty patterns near MAX_PATTERN_STATES made one task of 200–365 ms. Within this budget a
 * schema's compile stays near 15 ms in Chromium (bench/regex-bench.js), and real schemas use a
 * few hundred states.
 */
export const MAX_SCHEMA_PATTERN_STATES = 20_000;

/**
 * NFA state visits one validator call may spend on every `pattern` and `format` together. Over it,
 * the call ends with an `isError` reason (deterministic; no clock). Measured in Chromium: a whole
 * budget costs 3–10 ms in the worst cases (bench/regex-bench.js: non-ASCII input against Unicode
 * classes is the slowest), far below a 50 ms long task.
 */
export const VALIDATION_STEP_BUDGET = 200_000;

/** A shared, decreasing count of NFA state visits (`left`); see VALIDATION_STEP_BUDGET. */
export interface StepBudget {
  left: number;
}

/** Thrown by `LinearRegex.test` when the budget runs out; the validator turns it into a reason. */
export class StepBudgetExceeded extends Error {
  constructor() {
    super('the step budget ran out');
  }
}

/** Why a pattern cannot be compiled: invalid syntax, an unsupported feature, or too many states. */
export type CompileFailure =
  | { reason: 'syntax' }
  | { reason: 'feature'; feature: 'lookahead' | 'lookbehind' | 'backreference' | 'modifier group' }
  | { reason: 'size' };

type Node =
  | { k: 'atom'; test: (cp: number) => boolean }
  | { k: 'assert'; a: string }
  | { k: 'cat' | 'alt'; items: Node[] }
  | { k: 'rep'; node: Node; min: number; max: number };

// States: 0 char (test, out), 1 split (outs), 2 assertion (a, out), 3 match.
interface State {
  t: 0 | 1 | 2 | 3;
  out: number;
  outs?: number[];
  test?: (cp: number) => boolean;
  a?: string;
}

class Unsupported {
  constructor(readonly failure: CompileFailure) {}
}

/** ASCII word characters (`\w` and `\b` under flag `u` without `i`), by UTF-16 unit. */
const isWord = (unit: number): boolean => (unit >= 48 && unit <= 57) || (unit >= 65 && unit <= 90) || (unit >= 97 && unit <= 122) || unit === 95;

/** A compiled pattern; `test` answers like `RegExp.prototype.test` with flag `u`. */
export class LinearRegex {
  // Visit marks, kept between calls (a call's cost must not include clearing one per state).
  private readonly mark: Int32Array;
  private generation = 0;

  // Every match starts at index 0 (the pattern begins with `^`): no restarts, and no live state ends the search.
  private readonly anchored: boolean;

  /** @internal */
  constructor(private readonly states: State[], private readonly start: number) {
    this.mark = new Int32Array(states.length).fill(-1);
    this.anchored = states[start]!.a === '^';
  }

  /** NFA size in states. */
  get size(): number {
    return this.states.length;
  }

  /**
   * Whether `input` contains a match (unanchored search, like `RegExp#test`), read by code points.
   * @param budget decremented by one per NFA state visited; `StepBudgetExceeded` is thrown when it
   *   would go below zero. Cost: at most (2 × code points + 1) × states visits.
   */
  test(input: string, budget: StepBudget): boolean {
    const { states, start, mark, anchored } = this;
    const length = input.length;
    if (this.generation > 0x3fffffff - length) {
      mark.fill(-1);
      this.generation = 0;
    }
    const base = this.generation;
    this.generation += length + 2;
    const stack: number[] = [];
    let current: number[] = [];
    let next: number[] = [];
    // Adds the epsilon closure of `from` at UTF-16 index `pos` to `list`; true when it reaches a match.
    const add = (list: number[], from: number, pos: number): boolean => {
      const stamp = base + pos;
      stack.push(from);
      while (stack.length > 0) {
        const index = stack.pop()!;
        if (mark[index] === stamp) continue;
        mark[index] = stamp;
        if (--budget.left < 0) throw new StepBudgetExceeded();
        const state = states[index]!;
        if (state.t === 0) list.push(index);
        else if (state.t === 3) return (stack.length = 0, true);
        else if (state.t === 1) for (let i = state.outs!.length - 1; i >= 0; i--) stack.push(state.outs![i]!);
        else if (holds(state.a!, pos)) stack.push(state.out);
      }
      return false;
    };
    const holds = (a: string, pos: number): boolean => {
      if (a === '^') return pos === 0;
      if (a === '$') return pos === length;
      // Word characters are ASCII: a surrogate half is never one.
      const boundary = (pos > 0 && isWord(input.charCodeAt(pos - 1))) !== (pos < length && isWord(input.charCodeAt(pos)));
      return a === 'b' ? boundary : !boundary;
    };
    if (add(current, start, 0)) return true;
    for (let pos = 0; pos < length;) {
      if (anchored && current.length === 0) return false;
      const cp = input.codePointAt(pos)!;
      pos += cp > 0xffff ? 2 : 1;
      next.length = 0;
      for (const index of current) {
        if (--budget.left < 0) throw new StepBudgetExceeded();
        const state = states[index]!;
        if (state.test!(cp) && add(next, state.out, pos)) return true;
      }
      // Unanchored: a match may also start at the next position.
      if (!anchored && add(next, start, pos)) return true;
      [current, next] = [next, current];
    }
    return false;
  }
}

const SYNTAX_CHARS = /^[\^$\\.*+?()[\]{}|/]$/;

/** Parses the pattern (already known to be valid with flag `u`) into a tree. */
function parse(source: string, asciiIgnoreCase: boolean): Node {
  let i = 0;
  const atoms = new Map<string, (cp: number) => boolean>();
  const atom = (text: string): Node => {
    let test = atoms.get(text);
    if (!test) {
      const regex = new RegExp(`^(?:${text})$`, 'u');
      const ascii = new Int8Array(128); // 0 unknown, 1 no, 2 yes
      const native = (cp: number) => regex.test(String.fromCharCode(cp))
        || (asciiIgnoreCase && /[a-z]/i.test(String.fromCharCode(cp)) && regex.test(String.fromCharCode(cp ^ 0x20)));
      test = (cp) => {
        if (cp < 128) {
          if (ascii[cp] === 0) ascii[cp] = native(cp) ? 2 : 1;
          return ascii[cp] === 2;
        }
        return regex.test(String.fromCodePoint(cp));
      };
      atoms.set(text, test);
    }
    return { k: 'atom', test };
  };
  const number = (): number => {
    const start = i;
    while (/[0-9]/.test(source[i] ?? '')) i++;
    return start === i ? -1 : Number(source.slice(start, i));
  };
  const alternation = (): Node => {
    const items = [sequence()];
    while (source[i] === '|') {
      i++;
      items.push(sequence());
    }
    return items.length === 1 ? items[0]! : { k: 'alt', items };
  };
  const sequence = (): Node => {
    const items: Node[] = [];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      let node = term();
      const q = source[i];
      let min = -1;
      let max = -1;
      if (q === '*') [min, max] = [0, Infinity];
      else if (q === '+') [min, max] = [1, Infinity];
      else if (q === '?') [min, max] = [0, 1];
      else if (q === '{') {
        i++;
        min = number();
        max = source[i] === ',' ? (i++, source[i] === '}' ? Infinity : number()) : min;
      }
      if (min >= 0) {
        i++;
        if (source[i] === '?') i++; // lazy: the same set of matches
        if (min > MAX_PATTERN_STATES || (max !== Infinity && max > MAX_PATTERN_STATES)) throw new Unsupported({ reason: 'size' });
        node = { k: 'rep', node, min, max };
      }
      items.push(node);
    }
    return items.length === 1 ? items[0]! : { k: 'cat', items };
  };
  const term = (): Node => {
    const c = source[i]!;
    if (c === '(') {
      i++;
      if (source[i] === '?') {
        const kind = source[i + 1];
        const after = source[i + 2];
        if (kind === ':') i += 2;
        else if (kind === '=' || kind === '!') throw new Unsupported({ reason: 'feature', feature: 'lookahead' });
        else if (kind === '<' && (after === '=' || after === '!')) throw new Unsupported({ reason: 'feature', feature: 'lookbehind' });
        else if (kind === '<') i = source.indexOf('>', i) + 1;
        else throw new Unsupported({ reason: 'feature', feature: 'modifier group' });
      }
      const inner = alternation();
      i++; // ')'
      return inner;
    }
    if (c === '[') {
      let j = i + 1;
      while (source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      const text = source.slice(i, j + 1);
      i = j + 1;
      return atom(text);
    }
    if (c === '^' || c === '$') {
      i++;
      return { k: 'assert', a: c };
    }
    if (c === '\\') {
      const d = source[i + 1]!;
      if (d === 'b' || d === 'B') {
        i += 2;
        return { k: 'assert', a: d };
      }
      if (/[1-9k]/.test(d)) throw new Unsupported({ reason: 'feature', feature: 'backreference' });
      let end = i + 2;
      if (/[pPu]/.test(d) && source[i + 2] === '{') end = source.indexOf('}', i) + 1;
      else if (d === 'u') {
        end = i + 6;
        // A surrogate pair written as two escapes is one code point under flag u.
        if (/^\\u[dD][89abAB]..\\u[dD][c-fC-F]/.test(source.slice(i, i + 12))) end = i + 12;
      } else if (d === 'x') end = i + 4;
      else if (d === 'c') end = i + 3;
      const text = source.slice(i, end);
      i = end;
      return atom(text);
    }
    const cp = source.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    return atom(c === '.' ? '.' : SYNTAX_CHARS.test(ch) ? `\\${ch}` : ch);
  };
  const tree = alternation();
  return tree;
}

/** Builds the NFA backwards: `build(node, next)` returns the state that matches `node`, then goes on to `next`. */
function toNFA(tree: Node, limit: number): { states: State[]; start: number } {
  const states: State[] = [{ t: 3, out: -1 }];
  const push = (state: State): number => {
    if (states.length >= limit) throw new Unsupported({ reason: 'size' });
    return states.push(state) - 1;
  };
  let work = 0;
  const build = (node: Node, next: number): number => {
    // Empty bodies add no state (`(?:){4000}` nested): count the work too, so compiling is bounded.
    if (++work > 8 * limit) throw new Unsupported({ reason: 'size' });
    switch (node.k) {
      case 'atom':
        return push({ t: 0, out: next, test: node.test });
      case 'assert':
        return push({ t: 2, out: next, a: node.a });
      case 'cat':
        for (let i = node.items.length - 1; i >= 0; i--) next = build(node.items[i]!, next);
        return next;
      case 'alt':
        return push({ t: 1, out: -1, outs: node.items.map((item) => build(item, next)) });
      case 'rep': {
        let tail = next;
        if (node.max === Infinity) {
          const loop = push({ t: 1, out: -1, outs: [] });
          states[loop]!.outs = [build(node.node, loop), next];
          tail = loop;
        } else {
          for (let n = node.min; n < node.max; n++) tail = push({ t: 1, out: -1, outs: [build(node.node, tail), next] });
        }
        for (let n = 0; n < node.min; n++) tail = build(node.node, tail);
        return tail;
      }
    }
  };
  const start = build(tree, 0);
  return { states, start };
}

/**
 * Compiles a pattern for `LinearRegex.test`.
 * @param source an ECMA-262 pattern, read with flag `u` (JSON Schema `pattern` semantics).
 * @param options `ignoreCase`: ASCII letters match either case, as flag `i` does for the ASCII-only
 *   built-in formats (without `u`'s extra folds such as ſ → s); `maxStates` caps the NFA
 *   (default MAX_PATTERN_STATES).
 * @returns the matcher, or why not: invalid syntax, lookahead, lookbehind, a backreference, a
 *   modifier group `(?i:…)`, or more than `maxStates` states. Never throws.
 */
export function compileLinear(
  source: string, options: { ignoreCase?: boolean; maxStates?: number } = {},
): LinearRegex | CompileFailure {
  try {
    new RegExp(source, 'u'); // syntax check only; never run on input
  } catch {
    return { reason: 'syntax' };
  }
  try {
    const { states, start } = toNFA(parse(source, options.ignoreCase === true), options.maxStates ?? MAX_PATTERN_STATES);
    return new LinearRegex(states, start);
  } catch (error) {
    if (error instanceof Unsupported) return error.failure;
    throw error;
  }
}
