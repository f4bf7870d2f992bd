/**
 * The one rule that finds a form tool's controls (src/shared/form-control-rule.ts): `name`, else
 * form-builder's `wire:model…="data.<key>"`, else the id `<formId>-<key>`, on linkedom's DOM as
 * the CLI reads it; and `capell-webmcp check` on form-builder's own form (test/fixtures/capell/
 * form-builder/contact-form.html, capell-app/form-builder @ 770cf636) with and without `name`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseHTML } from 'linkedom';
import { cli } from '../support/run-cli.ts';
import { capellFormBuilderPage } from '../support/capell-fixtures.ts';
import { findControls } from '../../src/shared/form-control-rule.ts';

const FORM_ID = 'capell-form-5d1f6a3c-8b2e-4f7a-9c41-2e7b9d0a6f35';

function controlsOf(html: string): Element[] {
  const { document } = parseHTML(`<form id="f">${html}</form>`);
  return [...document.querySelectorAll('input, select, textarea, button')];
}

describe('findControls', () => {
  const rows: [string, string, string, string | undefined, number][] = [
    // [what, controls, key, rule, count]
    ['a name wins over a wire:model of the same key', '<input wire:model="data.x" id="f-x"><input name="x">', 'x', 'name', 1],
    ['wire:model="data.<key>"', '<input wire:model="data.email">', 'email', 'wire:model', 1],
    ['wire:model.live.debounce.250ms="data.<key>"', '<input wire:model.live.debounce.250ms="data.email">', 'email', 'wire:model', 1],
    ['a radio group bound by wire:model', '<input type="radio" wire:model="data.size" value="s"><input type="radio" wire:model="data.size" value="m">', 'size', 'wire:model', 2],
    ['the id <formId>-<key>', '<input id="f-email">', 'email', 'id', 1],
    ['not wire:model of another state property', '<input wire:model="other.email">', 'email', undefined, 0],
    ['not a named control by its wire:model', '<input name="mail" wire:model="data.email">', 'email', undefined, 0],
    ['not a named control by its id', '<input name="mail" id="f-email">', 'email', undefined, 0],
    ['not wire:modelx', '<input wire:modelx="data.email">', 'email', undefined, 0],
  ];
  for (const [what, html, key, rule, count] of rows) {
    it(`${rule ? `finds by ${rule}` : 'finds nothing'}: ${what}`, () => {
      const match = findControls(controlsOf(html), 'f', key);
      assert.equal(match?.rule, rule);
      assert.equal(match?.controls.length ?? 0, count);
    });
  }
});

describe("check on form-builder's contact form", () => {
  const dir = mkdtempSync(join(tmpdir(), 'capell-webmcp-form-builder-'));
  const script = '<script type="module" src="/vendor/capell-webmcp/capell-webmcp.js" data-capell-webmcp></script>';

  it('with name (770cf636): the tool would register; no line about the rule', async () => {
    const path = join(dir, 'named.html');
    writeFileSync(path, capellFormBuilderPage(script));
    const result = await cli('check', path);
    assert.equal(result.code, 0, result.stdout.join('\n'));
    assert.match(result.stderr, /: 1 tool would register, 0 rejected/);
    assert.equal(result.stdout.some((line) => line.includes('not name')), false);
  });

  it('without name (the older view): the tool would register, and one line says wire:model found its controls', async () => {
    const path = join(dir, 'unnamed.html');
    writeFileSync(path, capellFormBuilderPage(script, { withoutNames: true }));
    const result = await cli('check', path);
    assert.equal(result.code, 0, result.stdout.join('\n'));
    assert.match(result.stderr, /: 1 tool would register, 0 rejected/);
    assert.ok(result.stdout.includes(`warning: tool form.submit.${FORM_ID}: form #${FORM_ID} controls found by form-builder's binding, not name (wire:model: name, email, topic, message, newsletter)`), result.stdout.join('\n'));
  });
});
