/**
 * Issue 3, "Done when": the CLI and the runtime reach the same verdict on every row of the
 * normaliser table (test/support/declaration-rows.ts). Each row is served as a tools island on a
 * page of the demo origin, read back from the runtime's Report in Chromium with WebMCP on, and
 * checked by the real `capell-webmcp validate` on a capell.json holding the same declaration
 * (same translations, same origin). Both must accept or both reject, with the same reasons.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normaliseCapellDeclaration } from '../../src/declarations/normalise.ts';
import { DECLARATION_ROWS, declarationFor } from '../support/declaration-rows.ts';
import { expect, readyReport, test } from './demo-fixture.ts';

const DIR = mkdtempSync(join(tmpdir(), 'capell-webmcp-parity-'));

/** The real CLI, asynchronously (the demo server answers from this same process meanwhile). */
function validateWithCLI(args: string[]): Promise<{ code: number; lines: string[] }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/capell-webmcp.js', 'validate', ...args], (error, stdout) => {
      resolve({ code: error ? Number(error.code) : 0, lines: stdout.split('\n').filter(Boolean) });
    });
  });
}

function pageWithIsland(manifest: object): string {
  // The island escape Capell's frontend uses, so no declaration text can close the script element.
  const json = JSON.stringify(manifest).replace(/</g, '\\u003C').replace(/>/g, '\\u003E').replace(/&/g, '\\u0026');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>parity</title>
<script type="application/json" data-capell-agent-tools>${json}</script>
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script>
</head><body></body></html>`;
}

test.describe('the CLI and the runtime agree on every row of the normaliser table', () => {
  DECLARATION_ROWS.forEach((row, index) => {
    test(row.rule, async ({ page, demo }) => {
      const declaration = declarationFor(row.change);
      const messages = row.messages ?? {};

      const path = `/parity/${index}`;
      await page.route(`${demo.url}${path}`, (route) => route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: pageWithIsland({ capellAgentSchema: 1, tools: [declaration], messages }),
      }));
      await page.goto(`${demo.url}${path}`);
      const report = await readyReport(page) as { registered: string[]; rejected: { name: string; source: string; reasons: string[] }[] };

      // Every binding the contract allows is executable, so the runtime's verdict is the
      // contract's: a valid declaration registers, an invalid one is rejected with the same reasons.
      const normalised = normaliseCapellDeclaration(declaration, { source: 'capell-island[0]', origin: demo.url, messages });
      const runtimeReasons = report.rejected.flatMap((rejection) => rejection.reasons);
      if (normalised.ok) expect(report.registered).toEqual([normalised.spec.name]);

      const manifest = join(DIR, `capell-${index}.json`);
      const translations = join(DIR, `messages-${index}.json`);
      writeFileSync(manifest, JSON.stringify({ name: 'vendor/parity', agent_tools: [declaration] }));
      writeFileSync(translations, JSON.stringify(messages));
      const cli = await validateWithCLI([manifest, '--translations', translations, '--origin', demo.url]);
      const prefix = `${typeof declaration.name === 'string' && declaration.name !== '' ? declaration.name : 'agent_tools[0]'}: `;
      expect(cli.lines.every((line) => line.startsWith(prefix)), cli.lines.join('\n')).toBe(true);
      const cliReasons = cli.lines.map((line) => line.slice(prefix.length));

      expect(cliReasons).toEqual(runtimeReasons);
      expect(cli.code).toBe(runtimeReasons.length > 0 ? 1 : 0);
      // And both agree with the table itself.
      if (row.rejects) expect(cliReasons.some((reason) => row.rejects!.test(reason)), cliReasons.join(' | ')).toBe(true);
      else expect(cliReasons).toEqual([]);
    });
  });
});
