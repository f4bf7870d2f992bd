/**
 * `capell-webmcp check` on Capell's own page (test/fixtures/capell/: the agent data byte for byte
 * as capell-app/frontend @ 83fd9244 writes it, Core's island as capell-app/core @ ac73cd2d builds
 * it): the same verdict as the runtime in Chromium (test/e2e/capell-conformance.on.spec.ts), every
 * Core tool would register. And each island, parsed as the runtime parses it, is what Core built.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseHTML } from 'linkedom';
import { cli } from '../support/run-cli.ts';
import { capellProductPage, fixtureText } from '../support/capell-fixtures.ts';
import { readIslands } from '../../src/start/read-islands.ts';

const DIR = mkdtempSync(join(tmpdir(), 'capell-webmcp-conformance-'));
const PAGE = capellProductPage('<script type="module" src="/vendor/capell-webmcp/capell-webmcp.js" data-capell-webmcp></script>');

describe("Capell's own page", () => {
  it('check: the five Core tools would register, nothing rejected, no audit entry', async () => {
    const path = join(DIR, 'trail-boots.html');
    writeFileSync(path, PAGE);
    const result = await cli('check', path);
    assert.deepEqual(result.stdout, []);
    assert.match(result.stderr, /: 5 tools would register, 0 rejected, 0 audit entries\n$/);
    assert.equal(result.code, 0);
  });

  it("reads Core's island, escaped slashes and all, as the manifest Core built", () => {
    const { document } = parseHTML(PAGE);
    const units = readIslands(document as unknown as ParentNode);
    assert.equal(units.length, 1);
    const manifest = JSON.parse(fixtureText('core-tools-island.json')) as { tools: unknown[]; messages: Record<string, string> };
    assert.deepEqual(units[0]!.declarations, manifest.tools);
    assert.deepEqual(units[0]!.messages, manifest.messages);
    assert.equal(units[0]!.problem, undefined);
  });
});
