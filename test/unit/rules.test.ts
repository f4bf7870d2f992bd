/**
 * The rule catalogue (src/shared/declarations/rules.ts) against the declaration rows and the texts: each
 * rejecting row is rejected by a reason whose code cites the source rule the row names, every
 * row cites a source of the catalogue, every source is cited by a code, and every code has a text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCapellDeclaration, REF_CHECKS } from '../../src/shared/declarations/normalise.ts';
import { REASON_TEXT, renderReason } from '../../src/shared/declarations/reason-text.ts';
import { RULES, SOURCES, type ReasonCode } from '../../src/shared/declarations/rules.ts';
import { DECLARATION_ROWS, ORIGIN, declarationFor } from '../support/declaration-rows.ts';

const codes = Object.keys(RULES) as ReasonCode[];
const sources = new Set<string>(Object.values(SOURCES));

describe('declaration rows cite the rule catalogue', () => {
  for (const row of DECLARATION_ROWS.filter((candidate) => candidate.rejects)) {
    it(`${row.rule}: rejected by a reason citing ${JSON.stringify(row.source.split(':')[0])}`, () => {
      const result = checkCapellDeclaration(declarationFor(row.change), { source: 'test', origin: ORIGIN, messages: row.messages ?? {} }, REF_CHECKS);
      assert.equal(result.ok, false, 'expected a rejection');
      if (result.ok) return;
      const matching = result.reasons.filter((reason) => row.rejects!.test(renderReason(reason)));
      assert.ok(matching.length > 0, `no reason matches ${row.rejects}: ${result.reasons.map(renderReason).join(' | ')}`);
      const cited = matching.map((reason) => RULES[reason[1]].source);
      assert.ok(cited.includes(row.source), `the row cites ${JSON.stringify(row.source)}; its reasons cite ${JSON.stringify(cited)}`);
    });
  }

  for (const row of DECLARATION_ROWS.filter((candidate) => candidate.warns)) {
    it(`${row.rule}: accepted with a warning citing ${JSON.stringify(row.source.split(':')[0])}`, () => {
      const result = checkCapellDeclaration(declarationFor(row.change), { source: 'test', origin: ORIGIN, messages: row.messages ?? {} }, REF_CHECKS);
      if (!result.ok) return assert.fail(result.reasons.map(renderReason).join(' | '));
      const matching = (result.spec.warnings ?? []).filter((warning) => row.warns!.test(renderReason(warning)));
      assert.ok(matching.length > 0, `no warning matches ${row.warns}`);
      assert.ok(matching.every((warning) => RULES[warning[1]].source === row.source));
    });
  }

  it('every row, accepted or rejected, cites a source of the catalogue', () => {
    for (const row of DECLARATION_ROWS) assert.ok(sources.has(row.source), `${row.rule}: ${row.source}`);
  });
});

describe('the rule catalogue', () => {
  it('cites every source by at least one code', () => {
    const cited = new Set<string>(codes.map((code) => RULES[code].source));
    assert.deepEqual([...sources].filter((source) => !cited.has(source)), []);
  });

  it('has a text for every code, and a code for every text', () => {
    assert.deepEqual(Object.keys(REASON_TEXT).sort(), [...codes].sort());
  });

  it('names the source document first in every citation', () => {
    for (const source of sources) assert.match(source, /^(Capell Agent Schema, [^:]+|AgentGate declared tools, [^:]+|Core normaliser|Capell frontend|Capell packages \([^)]+\), beside the Capell Agent Schema|WebMCP|MCP Tool|JSON Schema 2020-12[^:]*|capell-webmcp validator): \S/);
  });
});
