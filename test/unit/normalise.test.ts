/**
 * The Capell declaration normaliser as a table: one row per rule, accepted and rejected. The rows
 * live in test/support/declaration-rows.ts, shared with the CLI/runtime parity test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseCapellDeclaration } from '../../src/shared/declarations/normalise.ts';
import { WEBMCP_NAME_PATTERN } from '../../src/shared/declarations/names.ts';
import { countCodePoints } from '../../src/shared/declarations/i18n.ts';
import { validateEndpointTarget } from '../../src/shared/bindings/targets.ts';
import { BASE_DECLARATION, DECLARATION_ROWS, ORIGIN, declarationFor } from '../support/declaration-rows.ts';

const base = BASE_DECLARATION;
const rows = DECLARATION_ROWS;

function withBinding(type: string, target: string, effect = 'read'): Record<string, unknown> {
  return { binding: { type, target }, effect };
}

describe('normaliseCapellDeclaration: one row per rule', () => {
  for (const row of rows) {
    it(row.rule, () => {
      const result = normaliseCapellDeclaration(declarationFor(row.change), { source: 'test', origin: ORIGIN, messages: row.messages ?? {} });
      if (row.rejects) {
        assert.equal(result.ok, false, 'expected a rejection');
        if (!result.ok) assert.ok(result.reasons.some((reason) => row.rejects!.test(reason)), `reasons were: ${result.reasons.join(' | ')}`);
      } else {
        assert.equal(result.ok, true, result.ok ? '' : result.reasons.join(' | '));
        if (!result.ok) return;
        if (row.warns) assert.ok(result.warnings.some((warning) => row.warns!.test(warning)), `warnings were: ${result.warnings.join(' | ')}`);
        else assert.deepEqual(result.warnings, []);
      }
    });
  }
});

describe('names the normaliser accepts are names WebMCP accepts', () => {
  it('every accepted name in the table matches ^[A-Za-z0-9_.-]{1,128}$', () => {
    const accepted = DECLARATION_ROWS.filter((row) => !row.rejects).map((row) => declarationFor(row.change).name);
    for (const name of accepted) assert.match(name as string, WEBMCP_NAME_PATTERN);
    assert.ok(accepted.some((name) => (name as string).length === 128));
  });
});

describe('normaliseCapellDeclaration: the normalised shape', () => {
  const context = { source: 'capell-island[0]', origin: ORIGIN, messages: {} };

  it('treats an inputSchema that only names $schema as "no arguments"', () => {
    const result = normaliseCapellDeclaration({ ...base, ...withBinding('inline', 'page'), inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#' } }, context);
    assert.ok(result.ok);
    assert.deepEqual(result.spec.inputSchema, { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false });
  });

  it('gives read tools readOnlyHint and write tools consequentialHint', () => {
    const read = normaliseCapellDeclaration(base, context);
    const write = normaliseCapellDeclaration({ ...base, ...withBinding('form', 'contact', 'write') }, context);
    assert.ok(read.ok && write.ok);
    assert.deepEqual(read.spec.annotations, { readOnlyHint: true });
    assert.deepEqual(write.spec.annotations, { readOnlyHint: false, consequentialHint: true });
  });

  // Core's paginated reads answer Laravel's paginator links, whose query site.search's inputSchema
  // (only q) cannot say: every Core API read accepts the runtime's cursor (a link it handed out).
  it('adds the optional cursor, and a sentence on it, to every read of a Core API binding', () => {
    for (const [type, target] of [['endpoint', '/agent/v1/search'], ['search', 'pages'], ['property-query', 'product']] as const) {
      const result = normaliseCapellDeclaration({ ...base, ...withBinding(type, target), inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false } }, context);
      assert.ok(result.ok, type);
      const properties = result.spec.inputSchema.properties as Record<string, Record<string, unknown>>;
      assert.deepEqual(Object.keys(properties), ['q', 'cursor'], type);
      assert.equal(properties.cursor!.type, 'string');
      assert.deepEqual(result.spec.inputSchema.required, ['q']);
      assert.equal(result.spec.pagesByLinks, true);
      assert.match(result.spec.description, /call again with cursor set to links\.next or links\.previous \(alone, or with the same input\)\.$/);
    }
  });

  it('adds cursor to a Core API read that declares no properties at all', () => {
    for (const inputSchema of [undefined, { type: 'object', additionalProperties: false }]) {
      const declaration: Record<string, unknown> = { ...base, ...withBinding('search', 'pages'), inputSchema };
      if (inputSchema === undefined) delete declaration.inputSchema;
      const result = normaliseCapellDeclaration(declaration, context);
      assert.ok(result.ok);
      assert.deepEqual(Object.keys(result.spec.inputSchema.properties as object), ['cursor']);
    }
  });

  it('adds no cursor to inline reads, writes, or a tool that declares its own cursor', () => {
    const own = { type: 'string', maxLength: 40 };
    const cases = [
      normaliseCapellDeclaration({ ...base, ...withBinding('inline', 'page') }, context),
      normaliseCapellDeclaration({ ...base, ...withBinding('endpoint', '/agent/v1/newsletter', 'write'), inputSchema: { type: 'object', properties: { email: { type: 'string' } } } }, context),
      normaliseCapellDeclaration({ ...base, ...withBinding('search', 'pages'), inputSchema: { type: 'object', properties: { cursor: own } } }, context),
    ];
    for (const result of cases) {
      assert.ok(result.ok);
      assert.equal(result.spec.pagesByLinks, undefined);
      assert.doesNotMatch(result.spec.description, /cursor/);
    }
    assert.ok(cases[2]!.ok);
    assert.deepEqual((cases[2]!.spec.inputSchema.properties as Record<string, unknown>).cursor, own);
  });

  it('collects every reason instead of stopping at the first', () => {
    const result = normaliseCapellDeclaration({ name: 'Bad Name', effect: 'maybe', binding: { type: 'endpoint', target: '//evil.example' } }, context);
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.name, 'Bad Name');
      assert.ok(result.reasons.length >= 4, result.reasons.join(' | '));
    }
  });

  it('rejects a declaration that is not an object without throwing', () => {
    for (const raw of [null, 'page.get', 42, []]) {
      const result = normaliseCapellDeclaration(raw, context);
      assert.equal(result.ok, false);
    }
  });
});

describe('normaliseCapellDeclaration: schemas no validator can finish', () => {
  const context = { source: 'test', origin: ORIGIN, messages: {} };
  const rejects = (inputSchema: unknown) => {
    const result = normaliseCapellDeclaration({ ...base, inputSchema }, context);
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.reasons.join(' | '), /loops back to itself/);
  };

  it('rejects a $ref to itself', () => rejects({ type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/a' } } }));
  it('rejects a root that refers to itself through allOf', () => rejects({ type: 'object', allOf: [{ $ref: '#' }] }));
  it('rejects two definitions that refer to each other through anyOf', () => rejects({ type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { anyOf: [{ $ref: '#/$defs/b' }] }, b: { not: { $ref: '#/$defs/a' } } } }));
  it('accepts a tree that recurses through properties', () => {
    const result = normaliseCapellDeclaration({ ...base, inputSchema: { type: 'object', properties: { node: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } } } }, context);
    assert.equal(result.ok, true, result.ok ? '' : result.reasons.join(' | '));
  });
});

describe('the checks behind the rows: exact and cached by value', () => {
  it('countCodePoints counts as iterating the string does: pairs once, lone surrogates once each', () => {
    const units = ['a', 'é', '\uD83D', '\uDE00', '\uD800', '\uDFFF', 'z'];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let run = 0; run < 2000; run++) {
      const text = Array.from({ length: next() % 12 }, () => units[next() % units.length]).join('');
      assert.equal(countCodePoints(text), [...text].length, JSON.stringify(text));
    }
    assert.equal(countCodePoints('😀'.repeat(300)), 300);
  });

  it('a description of 500 code points in 1000 UTF-16 units is accepted, 501 are not (Core: 1–500 characters after translation)', () => {
    assert.equal(normaliseCapellDeclaration({ ...base, description: '😀'.repeat(500) }, { source: 'test', origin: ORIGIN, messages: {} }).ok, true);
    const over = normaliseCapellDeclaration({ ...base, description: '😀'.repeat(501) }, { source: 'test', origin: ORIGIN, messages: {} });
    assert.equal(over.ok, false);
    if (!over.ok) assert.match(over.reasons.join(' '), /501/);
  });

  it('validateEndpointTarget gives the same verdict again, per origin, as a fresh array each time', () => {
    const first = validateEndpointTarget('/agent/v1/x', 'https://a.example');
    const again = validateEndpointTarget('/agent/v1/x', 'https://a.example');
    assert.deepEqual(first, []);
    assert.notEqual(first, again);
    const bad = validateEndpointTarget('/a#b', 'https://a.example');
    bad.push(['binding.target', 'whitespace', 'changed by a caller']);
    assert.deepEqual(validateEndpointTarget('/a#b', 'https://a.example'), [['binding.target', 'fragment', '/a#b']]);
    // Judged per origin: another origin gets its own verdict.
    assert.deepEqual(validateEndpointTarget('/agent/v1/x', 'https://b.example'), []);
    for (let index = 0; index < 1100; index++) validateEndpointTarget(`/p${index}`, 'https://a.example'); // past the kept bound
    assert.deepEqual(validateEndpointTarget('/a#b', 'https://a.example'), [['binding.target', 'fragment', '/a#b']]);
  });
});
