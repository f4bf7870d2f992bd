import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CONFIRM_TIMEOUT_MS, DEFAULT_WRITE_WAIT_MS, normaliseOptions, readScriptOptions } from '../../src/start/config.ts';
import { callAnswer, NEXT_STEPS, SITE_SENT_NEXT, statusAnswer } from '../../src/write/write-answers.ts';
import { CONFIRM_TEXT_DEFAULTS, adminPanelWords, fillPlaceholders, readConfirmText } from '../../src/write/confirm-text.ts';
import { CONFIRM_TEXT_DE, confirmTextDefaults } from '../../src/write/admin/confirm-text-de.ts';

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

describe('writeWaitMs', () => {
  test('defaults to 10 s, below the 20–60 s after which MCP clients give up on a call', () => {
    assert.equal(DEFAULT_WRITE_WAIT_MS, 10_000);
    assert.equal(normaliseOptions({ document }).writeWaitMs, DEFAULT_WRITE_WAIT_MS);
  });

  test('accepts 1 to 600000 ms and throws a TypeError naming the option otherwise', () => {
    assert.equal(normaliseOptions({ document, writeWaitMs: 600_000 }).writeWaitMs, 600_000);
    for (const bad of [0, 600_001, 2.5, Number.NaN]) {
      assert.throws(() => normaliseOptions({ document, writeWaitMs: bad }), { name: 'TypeError', message: /option "writeWaitMs"/ });
    }
  });

  test('is read from data-write-wait-ms', () => {
    const script = { dataset: { writeWaitMs: '250' } } as unknown as HTMLScriptElement;
    assert.equal(readScriptOptions(script).writeWaitMs, 250);
  });
});

describe('write answers', () => {
  const base = { writeId: 'w1', tool: 'form.submit.capell-form-contact', expiresAt: '2026-01-01T00:00:00.000Z' };

  test('awaiting_person carries writeId, expiresAt and next; a final status drops them', () => {
    assert.deepEqual(callAnswer({ ...base, status: 'awaiting_person' }), { status: 'awaiting_person', writeId: 'w1', expiresAt: base.expiresAt, next: NEXT_STEPS.awaiting_person });
    assert.deepEqual(callAnswer({ ...base, status: 'submitted', httpStatus: 201 }), { status: 'submitted', httpStatus: 201 });
    assert.deepEqual(statusAnswer({ ...base, status: 'superseded', supersededBy: 'w2' }), { status: 'superseded', tool: 'form.submit.capell-form-contact', supersededBy: 'w2', next: NEXT_STEPS.superseded });
  });

  test('sent by the site\'s own script: sentBy site, never httpStatus; the writeId and next until the site showed something', () => {
    const site = { ...base, status: 'submitted' as const, sentBy: 'site' as const };
    assert.deepEqual(callAnswer(site), { status: 'submitted', writeId: 'w1', sentBy: 'site', next: SITE_SENT_NEXT });
    assert.match(SITE_SENT_NEXT, /^[A-Z][^.]*(?:\.[a-z][^.]*)*\.$/);
    assert.doesNotMatch(SITE_SENT_NEXT, /nothing was sent/i);
    assert.deepEqual(callAnswer({ ...site, siteShowed: 'Thanks.' }), { status: 'submitted', sentBy: 'site', siteShowed: 'Thanks.' });
    assert.deepEqual(statusAnswer({ ...site, siteShowed: 'Please check the highlighted fields.', fieldErrors: { name: 'Too short.' } }), {
      status: 'submitted', tool: 'form.submit.capell-form-contact', sentBy: 'site', siteShowed: 'Please check the highlighted fields.', fieldErrors: { name: 'Too short.' },
    });
  });

  test('every status but submitted carries a one-sentence next', () => {
    for (const [status, next] of Object.entries(NEXT_STEPS)) {
      assert.equal((callAnswer({ ...base, status: status as never }) as { next: string }).next, next);
      assert.match(next, /^[A-Z][^.]*(?:\.[a-z][^.]*)*\.$/);
    }
  });
});

describe('confirmation panel text', () => {
  test('takes non-empty strings from the manifest messages and English defaults for the rest', () => {
    const text = readConfirmText({ confirmSend: 'Senden', confirmCancel: '', confirmTitle: 42 });
    assert.equal(text.confirmSend, 'Senden');
    assert.equal(text.confirmCancel, CONFIRM_TEXT_DEFAULTS.confirmCancel);
    assert.equal(text.confirmTitle, CONFIRM_TEXT_DEFAULTS.confirmTitle);
  });

  test('a page in German (lang "de…") gets German defaults, for tools without messages (the admin registry\'s); messages still win', () => {
    const german = readConfirmText({}, confirmTextDefaults('de-CH'));
    assert.equal(german.confirmSend, 'Senden');
    assert.equal(german.confirmBefore, 'Vorher:');
    assert.equal(german.confirmAdmin, CONFIRM_TEXT_DE.confirmAdmin);
    assert.deepEqual(Object.keys(CONFIRM_TEXT_DE).sort(), Object.keys(CONFIRM_TEXT_DEFAULTS).sort());
    assert.equal(readConfirmText({}, confirmTextDefaults('en')).confirmSend, 'Send');
    assert.equal(readConfirmText({}).confirmEmpty, '(none)');
    assert.equal(readConfirmText({ confirmSend: 'Abschicken' }, confirmTextDefaults('de')).confirmSend, 'Abschicken');
    assert.equal(adminPanelWords(german).intro, CONFIRM_TEXT_DE.confirmAdmin);
    assert.equal(adminPanelWords(readConfirmText({})).after, 'After:');
  });

  test('fills {placeholders} and leaves unknown ones', () => {
    assert.equal(fillPlaceholders('HTTP {status} {other}', { status: '422' }), 'HTTP 422 {other}');
  });
});
