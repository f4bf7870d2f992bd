/**
 * The inspector's words (src/inspector/inspector-text.ts): the islands' `messages` localise them like
 * the confirmation panel's, the first island with a key wins, and placeholders are filled.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillInspectorText, INSPECTOR_TEXT_DEFAULTS, readInspectorText } from '../../src/inspector/inspector-text.ts';

describe('readInspectorText', () => {
  it('gives the English defaults when no island has a key', () => {
    assert.deepEqual(readInspectorText([]), INSPECTOR_TEXT_DEFAULTS);
    assert.deepEqual(readInspectorText([{ confirmTitle: 'Prüfen' }]), INSPECTOR_TEXT_DEFAULTS);
  });

  it('takes the first island’s non-empty string for a key; blank or non-string ones fall through', () => {
    const text = readInspectorText([
      { inspectorTitle: '  ', inspectorClose: 5 },
      { inspectorTitle: 'capell-webmcp-Inspektor', inspectorClose: 'Schließen' },
      { inspectorTitle: 'second' },
    ]);
    assert.equal(text.inspectorTitle, 'capell-webmcp-Inspektor');
    assert.equal(text.inspectorClose, 'Schließen');
    assert.equal(text.inspectorNone, INSPECTOR_TEXT_DEFAULTS.inspectorNone);
  });

  it('never reads inherited keys', () => {
    assert.equal(readInspectorText([Object.create({ inspectorTitle: 'inherited' })]).inspectorTitle, INSPECTOR_TEXT_DEFAULTS.inspectorTitle);
  });
});

describe('fillInspectorText', () => {
  it('fills each named placeholder and leaves an unknown one as written', () => {
    assert.equal(fillInspectorText(INSPECTOR_TEXT_DEFAULTS.inspectorCallLine, { outcome: 'ok', duration: 12, bytes: 285 }), 'ok, 12 ms, 285 bytes');
    assert.equal(fillInspectorText('{a} {b}', { a: 1 }), '1 {b}');
  });
});
