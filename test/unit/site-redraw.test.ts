/**
 * The pure parts of write/forms/site-redraw.ts: which forms the site's own script sends (Livewire's
 * `wire:submit`, with any modifiers: form-builder @ 770cf636 writes `wire:submit="submit"`), and
 * how what the site showed becomes one line for the agent. The redraw watch itself runs in
 * Chromium (test/browser/site-sent-forms.on.test.ts). Node with linkedom, the parser the CLI uses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHTML } from 'linkedom';
import { isSentBySiteScript, MAX_SITE_LINE, toSiteLine } from '../../src/write/forms/site-redraw.ts';

function formOf(html: string): HTMLFormElement {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return document.querySelector('form') as unknown as HTMLFormElement;
}

describe('isSentBySiteScript', () => {
  it('is true for wire:submit with or without modifiers, false for a plain form or another wire: directive', () => {
    assert.equal(isSentBySiteScript(formOf('<form id="f" wire:submit="submit"></form>')), true);
    assert.equal(isSentBySiteScript(formOf('<form id="f" wire:submit.prevent="save"></form>')), true);
    assert.equal(isSentBySiteScript(formOf('<form id="f" action="/contact" method="post"></form>')), false);
    assert.equal(isSentBySiteScript(formOf('<form id="f" wire:target="submit" wire:submitting="x"></form>')), false);
  });

  it('reads the form\'s own attributes past a control named "attributes"', () => {
    assert.equal(isSentBySiteScript(formOf('<form id="f" wire:submit="submit"><input name="attributes"></form>')), true);
  });
});

describe('toSiteLine', () => {
  it('collapses whitespace into one line', () => {
    assert.equal(toSiteLine('\n   Thanks for getting in touch.\n   We will reply soon.\n  '), 'Thanks for getting in touch. We will reply soon.');
  });

  it(`cuts a line longer than ${MAX_SITE_LINE} characters with "…", ${MAX_SITE_LINE} in all`, () => {
    const line = toSiteLine('word '.repeat(100));
    assert.equal(line.length, MAX_SITE_LINE);
    assert.ok(line.endsWith('…'));
    assert.equal(toSiteLine('x'.repeat(MAX_SITE_LINE)), 'x'.repeat(MAX_SITE_LINE));
  });
});
