/**
 * A site's answer against its outputSchema (src/call/check-output.ts, src/call/validation/
 * forbidden-extras.ts): properties that only an `additionalProperties: false` forbids are left out
 * (nested, in array items, through `$ref` and `allOf`), with one Report warning per tool; nothing
 * else is stripped or changed, and any other failure stays refused. Capell's own answers are the
 * cases: its admin's term read and publish data (test/fixtures/capell/admin, SOURCES.md §2-3) and
 * Core's public envelope (test/fixtures/capell/answers).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

// No request in these tests (the runtime takes `fetch` once, when its modules are first evaluated).
globalThis.fetch = (async () => { throw new Error('no request in these tests'); }) as typeof fetch;
const { stripForbiddenExtras } = await import('../../src/call/validation/forbidden-extras.ts');
const { checkOutput } = await import('../../src/call/check-output.ts');
const { ANSWER_NOTES, answerNotes } = await import('../../src/registry/answer-notes.ts');
const { SOURCE_CHANGE_EVENT } = await import('../../src/registry/sources/source.ts');
type RuntimeConfig = import('../../src/start/config.ts').RuntimeConfig;
type JSONSchema = import('../../src/shared/declarations/tool-spec.ts').JSONSchema;
type JSONValue = import('../../src/shared/declarations/tool-spec.ts').JSONValue;

const fixture = (path: string) => JSON.parse(readFileSync(new URL(`../fixtures/capell/${path}`, import.meta.url), 'utf8'));
const CAPELL_TOOLS = new Map((fixture('admin/tools.json') as { tools: { name: string; outputSchema: JSONSchema }[] }).tools.map((tool) => [tool.name, tool.outputSchema]));
/** Capell's publish data, with the six keys its outputSchema does not list (a rejected preview's: the same shape as executed). */
const PUBLISH_DATA = (fixture('admin/invoke/publish-rejected-422.json') as { body: { data: Record<string, JSONValue> } }).body.data;
/** Core's public envelope of a pages query (PagesController). */
const CORE_PAGES = fixture('answers/pages-page1.json') as JSONValue;

/** A runtime's config as far as check-output.ts reads it, counting the updates it asks for. */
function runtime(): { config: RuntimeConfig; updates: () => number } {
  const document = new EventTarget();
  let updates = 0;
  document.addEventListener(SOURCE_CHANGE_EVENT, () => { updates++; });
  return { config: { document } as unknown as RuntimeConfig, updates: () => updates };
}

/** checkOutput for an answer that is the data itself (Capell's bindings). */
const check = (config: RuntimeConfig, tool: string, schema: JSONSchema, data: JSONValue) => checkOutput(config, tool, schema, data, data);

const strict = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): JSONSchema => ({ type: 'object', properties, additionalProperties: false, ...extra });

describe('stripForbiddenExtras: what an additionalProperties: false forbids, left out of a copy', () => {
  const rows: { case: string; schema: JSONSchema; value: JSONValue; expected: JSONValue; leftOut: string[] }[] = [
    { case: 'a root property', schema: strict({ a: { type: 'integer' } }), value: { a: 1, b: 2 }, expected: { a: 1 }, leftOut: ['b'] },
    { case: 'a nested object\'s property', schema: strict({ p: strict({ key: { type: 'string' } }) }), value: { p: { key: 'k', updated: true } }, expected: { p: { key: 'k' } }, leftOut: ['p.updated'] },
    {
      case: 'each array item\'s, named once with []',
      schema: strict({ rows: { type: 'array', items: strict({ key: { type: 'string' } }) } }),
      value: { rows: [{ key: 'a', semantic: null }, { key: 'b', semantic: 'x' }, { key: 'c' }] },
      expected: { rows: [{ key: 'a' }, { key: 'b' }, { key: 'c' }] }, leftOut: ['rows[].semantic'],
    },
    {
      case: 'draft-07 tuple items, each by its own schema',
      schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [strict({ a: {} }), { type: 'object' }] },
      value: [{ a: 1, x: 1 }, { b: 2, y: 2 }], expected: [{ a: 1 }, { b: 2, y: 2 }], leftOut: ['[].x'],
    },
    {
      case: 'through a local $ref into $defs',
      schema: { type: 'object', properties: { term: { $ref: '#/$defs/Term' } }, $defs: { Term: strict({ id: { type: 'integer' } }) } },
      value: { term: { id: 3, taxonomy: 'topics' }, other: true }, expected: { term: { id: 3 }, other: true }, leftOut: ['term.taxonomy'],
    },
    {
      case: 'through a recursive $ref',
      schema: { $ref: '#/$defs/Node', $defs: { Node: strict({ name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }) } },
      value: { name: 'a', children: [{ name: 'b', children: [{ name: 'c', depth: 2 }] }] },
      expected: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] }, leftOut: ['children[].children[].depth'],
    },
    {
      case: 'draft-07: a $ref hides its siblings, so its additionalProperties: false forbids nothing',
      schema: { $schema: 'http://json-schema.org/draft-07/schema#', $ref: '#/definitions/Open', additionalProperties: false, definitions: { Open: { type: 'object' } } },
      value: { a: 1 }, expected: { a: 1 }, leftOut: [],
    },
    { case: 'a branch of allOf', schema: { allOf: [strict({ a: {} }), { required: ['a'] }] }, value: { a: 1, b: 2 }, expected: { a: 1 }, leftOut: ['b'] },
    {
      case: 'an additionalProperties schema is followed into the extras it allows',
      schema: { type: 'object', additionalProperties: strict({ v: {} }) }, value: { x: { v: 1, w: 2 } }, expected: { x: { v: 1 } }, leftOut: ['x.w'],
    },
    { case: 'nothing without additionalProperties: false', schema: { type: 'object', properties: { a: {} } }, value: { a: 1, b: 2 }, expected: { a: 1, b: 2 }, leftOut: [] },
    { case: 'nothing where additionalProperties is true', schema: { type: 'object', properties: { a: {} }, additionalProperties: true }, value: { a: 1, b: 2 }, expected: { a: 1, b: 2 }, leftOut: [] },
    { case: 'nothing inside anyOf (which branch applies is not known)', schema: { anyOf: [strict({ a: {} }), strict({ b: {} })] }, value: { a: 1, c: 3 }, expected: { a: 1, c: 3 }, leftOut: [] },
    { case: 'nothing inside oneOf or not', schema: { oneOf: [strict({ a: {} })], not: strict({}) }, value: { a: 1, c: 3 }, expected: { a: 1, c: 3 }, leftOut: [] },
  ];
  for (const row of rows) {
    it(row.case, () => {
      const original = structuredClone(row.value);
      const stripped = stripForbiddenExtras(row.schema, row.value)!;
      assert.deepEqual(stripped.value, row.expected);
      assert.deepEqual(stripped.leftOut, row.leftOut);
      assert.deepEqual(row.value, original, 'the answer itself is not changed');
    });
  }

  it('copies only what lost a property: untouched parts are the answer\'s own, values never changed', () => {
    const value = { keep: { deep: [1, 2] }, rows: [{ a: 1, x: 0 }, { a: 2 }] } as const;
    const schema = strict({ keep: { type: 'object' }, rows: { type: 'array', items: strict({ a: { type: 'integer' } }) } });
    const stripped = stripForbiddenExtras(schema, value as never)!;
    const copy = stripped.value as unknown as typeof value;
    assert.equal(copy.keep, value.keep);
    assert.equal(copy.rows[1], value.rows[1]);
    assert.notEqual(copy.rows[0], value.rows[0]);
    assert.deepEqual(copy.rows[0], { a: 1 });
  });

  it('gives up (undefined: the answer stays refused) on a value deeper than the validator\'s depth bound', () => {
    let value: JSONValue = { end: true };
    for (let i = 0; i < 300; i++) value = { next: value };
    const schema = { $ref: '#/$defs/Link', $defs: { Link: strict({ next: { $ref: '#/$defs/Link' }, end: {} }) } };
    assert.equal(stripForbiddenExtras(schema, value), undefined);
  });
});

describe('checkOutput: Capell\'s answers as they are', () => {
  it('admin.term.properties.read: Capell\'s data is accepted without taxonomy, and the Report gets one warning for the tool however many calls', () => {
    const { config, updates } = runtime();
    const schema = CAPELL_TOOLS.get('admin.term.properties.read')!;
    // AgentTermPropertiesReadTool.php @cdb7004: { term_id, taxonomy, properties }.
    const data = { term_id: 810401, taxonomy: 'topics', properties: [] };
    const checked = checkOutput(config, 'admin.term.properties.read', schema, data, data);
    assert.deepEqual(checked, { ok: true, answer: { term_id: 810401, properties: [] } });
    const warning = {
      level: 'warning', surface: 'tool admin.term.properties.read',
      message: 'the site answered taxonomy, which its outputSchema does not allow (additionalProperties: false); left out of the answer',
    };
    assert.deepEqual(answerNotes(config, ['admin.term.properties.read']), [warning]);
    assert.equal(updates(), 1, 'one update asked for, so a Report carries the warning');
    checkOutput(config, 'admin.term.properties.read', schema, data, data);
    assert.deepEqual(answerNotes(config, ['admin.term.properties.read']), [warning]);
    assert.equal(updates(), 1, 'the same warning again asks for nothing');
    assert.deepEqual(answerNotes(config, ['admin.page.publish']), [], 'listed for a registered tool only');
  });

  it('admin.page.publish: the six keys Capell adds are left out, named in one warning', () => {
    const { config } = runtime();
    const checked = checkOutput(config, 'admin.page.publish', CAPELL_TOOLS.get('admin.page.publish')!, PUBLISH_DATA, PUBLISH_DATA);
    assert.deepEqual(checked, { ok: true, answer: { page_id: 42, transition: 'publish-now', outcome: 'changed', reason: 'publication.transition.changed' } });
    assert.equal(ANSWER_NOTES.get(config)!.get('admin.page.publish')!.message,
      'the site answered before_state, after_state, visible_from, visible_until, blocking_checks, missing_publish_required, which its outputSchema does not allow (additionalProperties: false); left out of the answer');
  });

  it('a later answer with another extra widens the one warning', () => {
    const { config, updates } = runtime();
    const schema = strict({ a: {} });
    check(config, 't', schema, { a: 1, b: 1 });
    check(config, 't', schema, { a: 1, c: 1 });
    assert.deepEqual(answerNotes(config, ['t']).map((entry) => entry.message), ['the site answered b, c, which its outputSchema does not allow (additionalProperties: false); left out of the answer']);
    assert.equal(updates(), 2);
  });

  it('a type error is still refused, extras or not, and nothing is noted', () => {
    const { config, updates } = runtime();
    const schema = CAPELL_TOOLS.get('admin.term.properties.read')!;
    const data = { term_id: '810401', taxonomy: 'topics', properties: [] };
    const checked = checkOutput(config, 'admin.term.properties.read', schema, data, data);
    assert.equal(checked.ok, false);
    assert.match((checked as { issues: string }).issues, /term_id: expected integer, got string/);
    assert.match((checked as { issues: string }).issues, /taxonomy: not an allowed property/);
    assert.deepEqual(answerNotes(config, ['admin.term.properties.read']), []);
    assert.equal(updates(), 0);
  });

  it('an extra allowed by an additionalProperties schema but of the wrong type is refused, not left out', () => {
    const { config } = runtime();
    const schema = { type: 'object', properties: { a: {} }, additionalProperties: { type: 'string' } };
    assert.equal(check(config, 't', schema, { a: 1, b: 2 }).ok, false);
  });

  it('leaving a property out may not make the answer fail otherwise (minProperties): refused', () => {
    const { config } = runtime();
    const schema = strict({ a: {} }, { minProperties: 2 });
    assert.equal(check(config, 't', schema, { a: 1, b: 2 }).ok, false);
  });

  it('an extra inside anyOf is refused as before', () => {
    const { config } = runtime();
    const schema = { anyOf: [strict({ a: {} })] };
    assert.equal(check(config, 't', schema, { a: 1, b: 2 }).ok, false);
  });

  it('more extras than the issues listed (every item of a long list) are all left out', () => {
    const { config } = runtime();
    const schema = { type: 'array', items: strict({ id: { type: 'integer' } }) };
    const data = Array.from({ length: 40 }, (_, id) => ({ id, note: 'x' }));
    assert.deepEqual(checkOutput(config, 't', schema, data, data), { ok: true, answer: data.map(({ id }) => ({ id })) });
  });

  it('an answer that wraps the data (an AgentGate call with its payment) gets the data without the extras, the wrapper kept', () => {
    const { config } = runtime();
    const data = { a: 1, b: 2 };
    const answer = { answer: data, payment: { price: '0.01' } };
    assert.deepEqual(checkOutput(config, 't', strict({ a: {} }), answer, data), { ok: true, answer: { answer: { a: 1 }, payment: { price: '0.01' } } });
  });

  it('Core\'s public envelope (pages query) against a strict schema of its items: each item\'s properties left out, the rest as Core answered', () => {
    const { config } = runtime();
    const schema: JSONSchema = {
      type: 'object',
      required: ['capellAgentSchema', 'data', 'links'],
      properties: {
        capellAgentSchema: { const: 1 },
        data: { type: 'array', items: strict({ url: { type: 'string' }, title: { type: 'string' } }, { required: ['url', 'title'] }) },
        links: { type: 'object' },
      },
      additionalProperties: false,
    };
    const checked = checkOutput(config, 'site.pages.query', schema, CORE_PAGES, CORE_PAGES);
    const envelope = CORE_PAGES as { data: { url: string; title: string }[]; links: unknown };
    assert.deepEqual(checked, { ok: true, answer: { capellAgentSchema: 1, data: envelope.data.map(({ url, title }) => ({ url, title })), links: envelope.links } });
    assert.match(answerNotes(config, ['site.pages.query'])[0]!.message, /^the site answered data\[\]\.properties, which/);
    // Core's own outputSchema ({"type": "object"}, BuildAgentToolManifestAction) keeps everything.
    assert.deepEqual(checkOutput(config, 'site.pages.query', { type: 'object' }, CORE_PAGES, CORE_PAGES), { ok: true, answer: CORE_PAGES });
  });
});
