import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CONFIRM_TIMEOUT_MS, normaliseOptions, readScriptOptions } from '../../src/config.ts';
import { CONFIRM_TEXT_DEFAULTS, fillPlaceholders, readConfirmText } from '../../src/ui/confirm-text.ts';

const document = { location: { href: 'https://shop.example/contact' } } as unknown as Document;

describe('confirmTimeoutMs', () => {
  test('defaults to DEFAULT_CONFIRM_TIMEOUT_MS (5 minutes)', () => {
    assert.equal(DEFAULT_CONFIRM_TIMEOUT_MS, 300_000);
    assert.equal(normaliseOptions({ document }).confirmTimeoutMs, DEFAULT_CONFIRM_TIMEOUT_MS);
  });

  test('accepts 1 to 3600000 ms and throws a TypeError naming the option otherwise', () => {
    assert.equal(normaliseOptions({ document, confirmTimeoutMs: 1 }).confirmTimeoutMs, 1);
    for (const bad of [0, 3_600_001, 1.5, Number.NaN]) {
      assert.throws(() => normaliseOptions({ document, confirmTimeoutMs: bad }), { name: 'TypeError', message: /option "confirmTimeoutMs"/ });
    }
  });

  test('is read from data-confirm-timeout-ms', () => {
    const script = { dataset: { confirmTimeoutMs: '700' } } as unknown as HTMLScriptElement;
    assert.equal(readScriptOptions(script).confirmTimeoutMs, 700);
  });
});

describe('confirmation panel text', () => {
  test('takes non-empty strings from the manifest messages and English defaults for the rest', () => {
    const text = readConfirmText({ confirmSend: 'Senden', confirmCancel: '', confirmTitle: 42 });
    assert.equal(text.confirmSend, 'Senden');
    assert.equal(text.confirmCancel, CONFIRM_TEXT_DEFAULTS.confirmCancel);
    assert.equal(text.confirmTitle, CONFIRM_TEXT_DEFAULTS.confirmTitle);
  });

  test('fills {placeholders} and leaves unknown ones', () => {
    assert.equal(fillPlaceholders('HTTP {status} {other}', { status: '422' }), 'HTTP 422 {other}');
  });
});
