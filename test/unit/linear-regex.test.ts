/**
 * The linear-time matcher (src/shared/validation/linear-regex.ts) and the formats built on it
 * (src/call/validation/formats.ts): no pattern a site declares can freeze the tab, and a property test
 * over generated patterns. Native RegExp is the oracle wherever it finishes; a `vm` timeout stops
 * it where it would backtrack for minutes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import vm from 'node:vm';
// Imported before validation.ts replaces the validator's formats: the originals are the oracle.
import { format as cfworkerFormat } from '@cfworker/json-schema';
import { compileLinear, LinearRegex, StepBudgetExceeded, VALIDATION_STEP_BUDGET, type StepBudget } from '../../src/shared/validation/linear-regex.ts';
import { LINEAR_FORMATS, useBudget } from '../../src/call/validation/formats.ts';
import { validateValue } from '../../src/call/validation.ts';
import { propertyRuns } from '../support/property-runs.ts';

const ORIGINAL_FORMATS: Record<string, (input: string) => boolean> = { ...(cfworkerFormat as unknown as Record<string, (input: string) => boolean>) };

function compiled(source: string): LinearRegex {
  const regex = compileLinear(source);
  assert.ok(regex instanceof LinearRegex, `${source} compiles: ${JSON.stringify(regex)}`);
  return regex;
}

const big = (): StepBudget => ({ left: Number.MAX_SAFE_INTEGER });

// One context for every native run: a timeout there interrupts a backtracking RegExp.
const oracle = vm.createContext({});
/** Native `new RegExp(source, 'u').test(input)`, or `undefined` when it takes longer than `ms`. */
function nativeTest(source: string, input: string, ms = 20): boolean | undefined {
  oracle.source = source;
  oracle.input = input;
  try {
    return vm.runInContext("new RegExp(source, 'u').test(input)", oracle, { timeout: ms }) as boolean;
  } catch (error) {
    if (/timed out/.test(String((error as Error).message))) return undefined;
    throw error;
  }
}

describe('linear matcher: the same answers as RegExp#test with flag u', () => {
  const table: [string, string[]][] = [
    ['abc', ['abc', 'xabcx', 'ab', '']],
    ['^abc$', ['abc', 'abcd', 'xabc']],
    ['^$', ['', 'a']],
    ['a|b|', ['', 'c']],
    ['^(?:a|ab)(?:c|bcd)(?:d*)$', ['abcd', 'abcdd', 'ac', 'abd']],
    ['^(a|b)*c$', ['ababc', 'abab', 'c']],
    ['colou?r', ['color', 'colour', 'colouur']],
    ['^a{3}$', ['aa', 'aaa', 'aaaa']],
    ['^a{2,}$', ['a', 'aa', 'aaaaaa']],
    ['^a{2,4}$', ['a', 'aa', 'aaaa', 'aaaaa']],
    ['^a{0}b$', ['b', 'ab']],
    ['^(?:ab){1,2}?c$', ['abc', 'ababc', 'abababc']],
    ['^x*?y+?z??$', ['xxyy', 'y', 'yz', 'xz']],
    ['[a-c]+', ['zzbzz', 'zzz']],
    ['^[^a-c]+$', ['xyz', 'xaz']],
    ['^[\\]\\\\-]+$', [']\\-', 'a']],
    ['^[]$', ['', 'a']],
    ['^[^]$', ['\n', 'a', '😀']],
    ['^.$', ['a', '\n', '\r', '\u2028', '😀', '\uD83D']],
    ['^\\d+\\.\\d\\d$', ['12.50', '12.5', '١٢.٥٠']],
    ['^\\w+$', ['snake_case9', 'naïve', 'ſ']],
    ['^\\s*$', [' \t\n\u00a0\ufeff', 'a']],
    ['\\bcat\\b', ['a cat!', 'concat', 'cat_', 'cat']],
    ['\\Bcat\\B', ['concatenate', 'cat']],
    ['^\\p{Lu}{2}-\\d{4}$', ['CW-1001', 'cw-1001', 'ÄÖ-1234']],
    ['^\\p{L}+$', ['Grüße', 'Привет', '日本語', 'abc1']],
    ['^\\P{L}+$', ['123', 'a1']],
    ['^\\p{Script=Greek}+$', ['αβγ', 'abc']],
    ['😀{2}', ['😀😀', '😀']],
    ['^[😀-😂]$', ['😁', '😃']],
    ['^\\u{1F600}$', ['😀']],
    ['^\\uD83D\\uDE00$', ['😀', '\uD83D']],
    ['^\\x41\\u0042\\cJ\\0$', ['AB\n\0']],
    ['^\\/\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$$', ['/.*+?()[]{}|^$']],
    ['^(?<year>\\d{4})-(?<month>\\d{2})$', ['2026-12', '2026-1']],
    ['^(?:(?:a)|(?:b(?:c|d)))+$', ['abcabd', 'abe']],
    ['(?:)', ['', 'x']],
    ['^(?:a*)*$', ['aaa', 'b']],
    ['^(?:a?){5}a{5}$', ['aaaaa', 'aaaa', 'aaaaaaaaaa', 'aaaaaaaaaaa']],
    ['^[a-z0-9]+(?:[._-]?[a-z0-9]+)*$', ['my-slug.v2', 'a__b', '-a', 'a-']],
    ['^[a-z0-9]+(?:-[a-z0-9]+)*$', ['my-slug', 'my--slug']],
  ];
  for (const [source, inputs] of table) {
    it(`${source} answers like RegExp#test on ${JSON.stringify(inputs)}`, () => {
      const regex = compiled(source);
      for (const input of inputs) assert.equal(regex.test(input, big()), new RegExp(source, 'u').test(input), `${source} on ${JSON.stringify(input)}`);
    });
  }

  it('refuses what it cannot run in linear time, with the reason: lookahead, lookbehind, backreferences, modifier groups', () => {
    assert.deepEqual(compileLinear('(?=a)a'), { reason: 'feature', feature: 'lookahead' });
    assert.deepEqual(compileLinear('a(?!b)'), { reason: 'feature', feature: 'lookahead' });
    assert.deepEqual(compileLinear('(?<=a)b'), { reason: 'feature', feature: 'lookbehind' });
    assert.deepEqual(compileLinear('(?<!a)b'), { reason: 'feature', feature: 'lookbehind' });
    assert.deepEqual(compileLinear('(a)\\1'), { reason: 'feature', feature: 'backreference' });
    assert.deepEqual(compileLinear('(?<n>a)\\k<n>'), { reason: 'feature', feature: 'backreference' });
    assert.deepEqual(compileLinear('('), { reason: 'syntax' });
    assert.deepEqual(compileLinear('a{2,1}'), { reason: 'syntax' });
  });

  it('refuses a pattern over MAX_PATTERN_STATES, and compiling a huge empty repetition stays bounded', () => {
    assert.deepEqual(compileLinear('a{100000}'), { reason: 'size' });
    assert.deepEqual(compileLinear('(?:[a-z]{1,100}){100}'), { reason: 'size' });
    assert.deepEqual(compileLinear('(?:(?:(?:){4000}){4000}){4000}'), { reason: 'size' });
  });
});

describe('No call can freeze the tab: patterns run in linear time', () => {
  it('the slug pattern that froze Chromium answers a 40-character near-miss in a few hundred steps', () => {
    const budget = { left: VALIDATION_STEP_BUDGET };
    assert.equal(compiled('^[a-z0-9]+(?:[._-]?[a-z0-9]+)*$').test(`${'a'.repeat(40)}!`, budget), false);
    assert.ok(VALIDATION_STEP_BUDGET - budget.left < 1000, `${VALIDATION_STEP_BUDGET - budget.left} steps`);
  });

  it('a call whose patterns exceed the step budget ends with an isError reason, not a frozen page', () => {
    const schema = { type: 'object', properties: { q: { type: 'string', pattern: '^(?:a|a)*(?:a|a)*(?:a|a)*$' } } };
    const issues = validateValue(schema, { q: `${'a'.repeat(200_000)}!` });
    assert.equal(issues.length, 1);
    assert.match(issues[0]!.message, /needs more than 200000 steps/);
    assert.equal(issues[0]!.schemaError, undefined);
  });

  it('format "url" (the validator\'s own exponential regex) answers a 40-character near-miss', () => {
    assert.deepEqual(validateValue({ type: 'string', format: 'url' }, 'https://example.org/a'), []);
    const issues = validateValue({ type: 'string', format: 'url' }, `http://${'a'.repeat(40)}!`);
    assert.match(issues[0]!.message, /does not match format "url"/);
  });

  it('a pattern failure still names the pattern: q: value does not match pattern "^[a-z]+$" (pattern)', () => {
    const schema = { type: 'object', properties: { q: { type: 'string', pattern: '^[a-z]+$', format: 'email' } } };
    assert.deepEqual(validateValue(schema, { q: 'a1' }).map((issue) => `${issue.path}: ${issue.message}`).sort(), [
      'q: string does not match format "email" (format)',
      'q: value does not match pattern "^[a-z]+$" (pattern)',
    ]);
    assert.deepEqual(validateValue(schema, { q: 'abc' }).map((issue) => issue.message), ['string does not match format "email" (format)']);
  });

  it('a $ref to #/%24defs/a resolves in the validator as it did in the policy (no failure on every call)', () => {
    const schema = { type: 'object', properties: { q: { $ref: '#/%24defs/a' }, r: { $ref: '#/$defs/b%20c' } }, $defs: { a: { type: 'string', pattern: '^x' }, 'b c': { type: 'integer' } } };
    assert.deepEqual(validateValue(schema, { q: 'xy', r: 1 }), []);
    assert.deepEqual(validateValue(schema, { q: 'y', r: 'no' }).map((issue) => `${issue.path}: ${issue.message}`), [
      'q: value does not match pattern "^x" (pattern)',
      'r: expected integer, got string',
    ]);
  });
});

// A small deterministic generator (mulberry32), so a failure names a seed that reproduces it.
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Seeds 1…n: 400 (and 100 for the budget) took 7 s of every run on two cores; the suite runs the
// first few, `npm run fuzz` all of them (test/support/property-runs.ts).
const PATTERN_SEEDS = propertyRuns(60, 400);
const BUDGET_SEEDS = propertyRuns(20, 100);

describe('property: generated patterns and adversarial inputs', () => {
  const ATOMS = ['a', 'b', '.', '[ab]', '[^b]', '\\w', '\\d', '\\s', '\\p{L}', 'é', '😀', '[a-z0-9]', '[._-]'];
  const QUANTIFIERS = ['', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '{2,}'];
  let groups = 0;
  function pattern(next: () => number, depth: number): string {
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const length = 1 + Math.floor(next() * 3);
    const parts: string[] = [];
    for (let i = 0; i < length; i++) {
      const roll = next();
      let atom: string;
      if (depth < 3 && roll < 0.35) {
        const alternatives = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pattern(next, depth + 1));
        atom = `(${pick(['', '?:', `?<g${groups++}>`])}${alternatives.join('|')})`;
      } else atom = roll < 0.4 ? pick(['\\b', '\\B']) : pick(ATOMS);
      parts.push(atom.startsWith('\\b') || atom.startsWith('\\B') ? atom : atom + pick(QUANTIFIERS));
    }
    return parts.join('');
  }
  const inputs = (n: number): string[] => [
    '', 'a', 'ab', 'a b', 'é😀', `${'a'.repeat(n)}!`, `${'ab'.repeat(n)}c`, `${'a'.repeat(n)}\n`, '😀'.repeat(n) + 'x', `${'a.'.repeat(n)}-`,
  ];

  it('whenever native RegExp finishes, the matcher gives its answer; every call stays within (2n+1) × states steps', () => {
    let compared = 0;
    let nativeGaveUp = 0;
    for (let seed = 1; seed <= PATTERN_SEEDS; seed++) {
      const next = random(seed);
      const source = `${next() < 0.5 ? '^' : ''}${pattern(next, 0)}${next() < 0.5 ? '$' : ''}`;
      const regex = compileLinear(source);
      if (!(regex instanceof LinearRegex)) {
        assert.equal(regex.reason, 'size', `seed ${seed}: ${source} ${JSON.stringify(regex)}`);
        continue;
      }
      for (const input of inputs(30)) {
        const budget = big();
        const ours = regex.test(input, budget);
        const steps = Number.MAX_SAFE_INTEGER - budget.left;
        assert.ok(steps <= (2 * input.length + 1) * regex.size, `seed ${seed}: ${source} took ${steps} steps on ${JSON.stringify(input)}`);
        const native = nativeTest(source, input);
        if (native === undefined) nativeGaveUp++;
        else {
          compared++;
          assert.equal(ours, native, `seed ${seed}: ${source} on ${JSON.stringify(input)}`);
        }
      }
    }
    // Three in four of the ten inputs of each seed reach a comparison (3000 of 4000 at 400 seeds).
    assert.ok(compared > PATTERN_SEEDS * 7.5, `${compared} comparisons from ${PATTERN_SEEDS} seeds`);
    // Not asserted: how many patterns made native RegExp backtrack past the timeout.
    void nativeGaveUp;
  });

  it('a call never spends more than its step budget: StepBudgetExceeded, however hostile the pattern', () => {
    for (let seed = 1; seed <= BUDGET_SEEDS; seed++) {
      const next = random(seed * 7919);
      const regex = compileLinear(`^(?:${pattern(next, 0)})*$`);
      if (!(regex instanceof LinearRegex)) continue;
      const budget = { left: 5_000 };
      try {
        regex.test(`${'a'.repeat(10_000)}!`, budget);
      } catch (error) {
        assert.ok(error instanceof StepBudgetExceeded);
      }
      assert.ok(budget.left >= -1, `seed ${seed}: spent ${5_000 - budget.left}`);
    }
  });
});

describe('formats: the same answers as @cfworker/json-schema, in linear time', () => {
  const corpus: Record<string, string[]> = {
    date: ['2026-11-30', '2024-02-29', '2023-02-29', '2026-13-01', '2026-00-10', '30.11.2026', '2026-1-1', '2026-11-30x'],
    time: ['10:00:00Z', '10:00:00.123z', '10:00:00+01:00', '23:59:60Z', '22:59:60-01:00', '22:59:60Z', '25:00:00Z', '10:00:00', '10:60:00Z'],
    'date-time': ['2026-11-30T10:00:00Z', '2026-11-30t10:00:00+02:00', '2026-11-30 10:00:00Z', '2026-11-30 25:00', '2026-11-30T10:00:00'],
    duration: ['P1D', 'PT1H30M', 'P1Y2M3DT4H5M6S', 'P2W', 'P', 'PT', 'P1H', '1D'],
    email: ['someone@example.org', 'a.b+c@shop.example', '"quoted name"@example.org', '"a\\"b"@example.org', 'someone', '.a@example.org', 'a..b@example.org',
      'a@[192.0.2.1]', 'a@[IPv6:2001:db8::1]', 'a@[999.0.0.1]', 'a@-bad-.example', `${'a'.repeat(65)}@example.org`, 'a@b@c', 'a@exa\nmple.org'],
    hostname: ['shop.example', 'a', 'xn--bcher-kva.example', '-bad-.example', `${'a'.repeat(63)}.example`, `${'a'.repeat(64)}.example`, `${'a.'.repeat(126)}ab`, `${'a.'.repeat(127)}a`, 'ſhop.example', 'K.example', 'a_b.example', ''],
    ipv4: ['192.0.2.1', '999.0.0.1', '1.2.3', '01.2.3.4', '255.255.255.255', '256.0.0.1'],
    ipv6: ['::1', '2001:db8::1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7::', '::ffff:192.0.2.1', 'fe80::1%eth0', '1::2::3', 'g::1', ':::'],
    uri: ['https://example.org/a', 'mailto:someone@example.org', 'urn:isbn:0451450523', 'https://[2001:db8::1]:8080/p?q=1#f', 'not a uri', '/relative', 'https://exa mple.org', 'a:b"c'],
    'uri-reference': ['https://example.org/a', '/relative/path?x=1', '#frag', '', 'a"b', 'exa mple', '//host/p', 'http://[v1.x]/'],
    'uri-template': ['https://example.org/{id}', '/search{?q,lang}', '{+path}/here', '{', '/a{b', '/{a:10}', '/{a:0}', '/{a*}'],
    url: ['https://example.org/a', 'http://localhost/', 'ftp://files.example.org', 'http://8.8.8.8/', 'http://10.0.0.1/', 'http://127.0.0.1',
      'http://169.254.1.1/', 'http://169.253.1.1/', 'http://192.168.0.1/', 'http://192.169.0.1/', 'http://172.16.0.1/', 'http://172.32.0.1/',
      'http://172.15.0.1/', 'http://user:pw@example.org:8080/p', 'http://example.org:1/', 'http://10.1.1.1.example/', 'http://münchen.de/',
      'http://a-b.example/', 'http://a--b.example/', 'http://-a.example/', 'mailto:a@b.example', 'http://example', 'http://1.2.3.255/', 'http://1.2.3.254/',
      'http://223.1.1.1/', 'http://224.1.1.1/', 'http://100.1.1.1/', 'http://126.1.1.1/', 'http://128.1.1.1/', 'http://168.1.1.1/', 'http://170.1.1.1/',
      'http://171.1.1.1/', 'http://173.1.1.1/', 'http://191.1.1.1/', 'http://193.1.1.1/', 'http://192.016.1.1/', 'http://192.16.1.1/', 'http://172.016.1.1/',
      'http://172.05.1.1/', 'http://172.160.1.1/', 'http://169.25.1.1/', 'http://169.255.1.1/', 'http://a@10.0.0.1@8.8.8.8/', 'http://11.0.0.1/'],
    uuid: ['123e4567-e89b-12d3-a456-426614174000', '123E4567-E89B-12D3-A456-426614174000', '123', '123e4567e89b12d3a456426614174000'],
    regex: ['^[a-z]+$', '(', 'a\\Z', '\\\\Z'],
    'json-pointer': ['', '/a/b', '/a~0b/~1', '/a~2', 'a'],
    'json-pointer-uri-fragment': ['#', '#/a/%20b', '#/a~2', '/a', '#/É'],
    'relative-json-pointer': ['0', '1/a', '2#', '01', '-1', '0/a~2'],
  };

  it('covers every format docs/declarations.md lists as enforced', () => {
    assert.deepEqual(Object.keys(LINEAR_FORMATS).sort(), Object.keys(corpus).sort());
  });

  for (const [name, values] of Object.entries(corpus)) {
    it(`${name}: the same verdicts as before on ${values.length} values, and a generated near-miss stays cheap`, () => {
      useBudget({ left: Number.MAX_SAFE_INTEGER });
      for (const value of values) assert.equal(LINEAR_FORMATS[name]!(value), ORIGINAL_FORMATS[name]!(value), `${name}: ${JSON.stringify(value)}`);
      // Mutations of the corpus: one character dropped, doubled or replaced.
      const next = random(name.length);
      for (const value of values) {
        for (let k = 0; k < 20 && value.length > 0; k++) {
          const at = Math.floor(next() * value.length);
          const mutated = [value.slice(0, at) + value.slice(at + 1), value.slice(0, at) + value[at]! + value.slice(at), value.slice(0, at) + '.:-/@a1[%'[Math.floor(next() * 9)]! + value.slice(at + 1)][k % 3]!;
          assert.equal(LINEAR_FORMATS[name]!(mutated), ORIGINAL_FORMATS[name]!(mutated), `${name}: ${JSON.stringify(mutated)}`);
        }
      }
      const budget = { left: VALIDATION_STEP_BUDGET };
      useBudget(budget);
      try {
        LINEAR_FORMATS[name]!(`${'a'.repeat(40)}!`);
      } catch (error) {
        assert.ok(error instanceof StepBudgetExceeded);
      }
      assert.ok(budget.left >= -1);
    });
  }
});
