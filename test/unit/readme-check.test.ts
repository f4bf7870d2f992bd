/**
 * README's example page, checked as README says a site owner checks it: `check contact.html`
 * prints exactly the summary README quotes (the same verdict the runtime reaches in Chromium:
 * test/e2e/readme-example.on.spec.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { cli } from '../support/run-cli.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

it("README's example page: check prints the summary README quotes, and the warning about form-builder's name", async () => {
  const page = [...README.matchAll(/^```html\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).find((block) => block.startsWith('<!doctype html>'));
  assert.ok(page, 'README.md has an html block that is a whole document');
  const quoted = /`(contact\.html: \d+ tools would register, \d+ rejected, \d+ audit entr(?:y|ies))`/.exec(README)?.[1];
  assert.ok(quoted, 'README quotes the summary check prints');
  const dir = mkdtempSync(join(tmpdir(), 'capell-webmcp-readme-'));
  writeFileSync(join(dir, 'contact.html'), page);
  const result = await cli('check', join(dir, 'contact.html'));
  assert.equal(result.stderr.trim().replace(/^.*\/contact\.html:/, 'contact.html:'), quoted);
  assert.deepEqual(result.stdout, ['warning: tool form.submit.capell-form-contact: name: "form.submit.capell-form-contact" has "-" or "_" inside a segment, outside the Capell Agent Schema\'s lowercase dotted name (^[a-z][a-z0-9]*(?:\\.[a-z0-9]+)+$); registered, as Capell\'s own packages name tools']);
  assert.equal(result.code, 0);
});
