/**
 * The `$ref` graph checks as an injected module (src/shared/declarations/ref-checks.ts): the runtime's
 * async entry loads them only for a declaration with a `$ref` and reaches the same verdict as the
 * synchronous check with REF_CHECKS, on every declaration row.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCapellDeclaration, checkCapellDeclarationAsync, needsRefChecks } from '../../src/shared/declarations/check-declaration.ts';
import { REF_CHECKS } from '../../src/shared/declarations/ref-checks.ts';
import { BASE_DECLARATION, DECLARATION_ROWS, ORIGIN, declarationFor } from '../support/declaration-rows.ts';

const context = { source: 'test', origin: ORIGIN, messages: {} };
const withRef = { ...BASE_DECLARATION, inputSchema: { type: 'object', properties: { q: { $ref: '#/$defs/q' } }, $defs: { q: { type: 'string' } } } };

describe('needsRefChecks', () => {
  it('is true for a declaration whose inputSchema or outputSchema holds a $ref, false otherwise', () => {
    assert.equal(needsRefChecks(withRef), true);
    assert.equal(needsRefChecks({ ...BASE_DECLARATION, outputSchema: { anyOf: [{ $ref: '#' }] } }), true);
    assert.equal(needsRefChecks(BASE_DECLARATION), false);
    assert.equal(needsRefChecks({ ...BASE_DECLARATION, description: 'uses "$ref"' }), false);
    assert.equal(needsRefChecks(null), false);
  });

  it('every row it is false for is checked without them', () => {
    for (const row of DECLARATION_ROWS) {
      const declaration = declarationFor(row.change);
      if (needsRefChecks(declaration)) continue;
      assert.doesNotThrow(() => checkCapellDeclaration(declaration, { ...context, messages: row.messages ?? {} }), row.rule);
    }
  });
});

describe('checkCapellDeclaration without the $ref checks', () => {
  it('throws a TypeError for a schema with a local $ref (a caller\'s mistake, not a reason)', () => {
    assert.throws(() => checkCapellDeclaration(withRef, context), { name: 'TypeError', message: /\$ref checks/ });
  });

  it('does not need them for a remote $ref, which is a reason of its own', () => {
    const result = checkCapellDeclaration({ ...BASE_DECLARATION, inputSchema: { type: 'object', properties: { a: { $ref: 'https://evil.example/s.json' } } } }, context);
    assert.equal(result.ok, false);
  });
});

describe('checkCapellDeclarationAsync', () => {
  it('reaches the same verdict as checkCapellDeclaration with REF_CHECKS on every row', async () => {
    for (const row of DECLARATION_ROWS) {
      const declaration = declarationFor(row.change);
      const rowContext = { ...context, messages: row.messages ?? {} };
      assert.deepEqual(await checkCapellDeclarationAsync(declaration, rowContext), checkCapellDeclaration(declaration, rowContext, REF_CHECKS), row.rule);
    }
  });
});
