/**
 * The CLI and the runtime reach the same verdict (a declaration CI accepted registers in the
 * browser, and one it refused is refused there too) on every row of the normaliser table
 * (test/support/declaration-rows.ts). Each row is served as a tools island in its own document of
 * the demo origin, read back from the runtime's Report in Chromium with WebMCP on, and checked by
 * the real `capell-webmcp validate` on a capell.json holding the same declaration (same
 * translations, same origin). Both must accept or both reject, with the same reasons.
 *
 * All rows are judged at once, then one test per row compares its two verdicts.
 * The runtime side is one page whose same-origin iframes each hold one row's page (its island and
 * the script-tag bundle): every row shares the name catalogue.lookup, so rows cannot share one
 * document (the first declaration of a name wins), but each frame is a document of its own with
 * its own runtime and its own WebMCP registrations. The CLI side is one `validate` process for
 * every row: one file per row, each with its row's translations (`--translations` once per file).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normaliseCapellDeclaration } from '../../src/shared/declarations/normalise.ts';
import { DECLARATION_ROWS, declarationFor } from '../support/declaration-rows.ts';
import { expect, test } from './demo-fixture.ts';

const DIR = mkdtempSync(join(tmpdir(), 'capell-webmcp-parity-'));

type RuntimeReport = { registered: string[]; rejected: { name: string; source: string; reasons: string[] }[] };

/** One row's verdicts: the runtime's Report in its frame, and the CLI's lines for its file. */
interface RowVerdicts {
  report: RuntimeReport;
  /** The CLI's stdout lines for this row's file, without the `<file>: ` prefix. */
  cliLines: string[];
  /** Whether the CLI reported this file valid (its stderr summary). */
  cliValid: boolean;
  /** The exit code of the CLI process that judged this row (1 when any of its files was rejected). */
  cliCode: number;
  /** Whether any other file in that process was rejected. */
  othersRejected: boolean;
}

/** The real CLI, asynchronously (the demo server answers from this same process meanwhile). */
function validateWithCLI(args: string[]): Promise<{ code: number; stdout: string[]; stderr: string[] }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/capell-webmcp.js', 'validate', ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const lines = (text: string) => text.split('\n').filter(Boolean);
      resolve({ code: error ? Number(error.code) : 0, stdout: lines(stdout), stderr: lines(stderr) });
    });
  });
}

/**
 * The form a form tool's declaration names, with a control per input it declares: the runtime
 * checks form tools against their page at registration and `validate` judges the
 * declaration alone, so each row's page holds the form its declaration expects.
 */
function formFor(declaration: { binding?: { type?: unknown; target?: unknown }; inputSchema?: { properties?: unknown } }): string {
  const { binding, inputSchema } = declaration;
  if (binding?.type !== 'form' || typeof binding.target !== 'string' || !/^[A-Za-z][\w-]*$/.test(binding.target)) return '';
  const names = inputSchema?.properties && typeof inputSchema.properties === 'object' ? Object.keys(inputSchema.properties) : [];
  const controls = names.map((name) => `<input name="${name.replace(/[^\w.-]/g, '')}">`).join('');
  return `<form id="${binding.target}" action="/contact" method="post">${controls}<button>Send</button></form>`;
}

function pageWithIsland(manifest: { capellAgentSchema: number; tools: object[]; messages: object }): string {
  // The island escape Capell's frontend uses, so no declaration text can close the script element.
  const json = JSON.stringify(manifest).replace(/</g, '\\u003C').replace(/>/g, '\\u003E').replace(/&/g, '\\u0026');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>parity</title>
<script type="application/json" data-capell-agent-tools>${json}</script>
<script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-log="silent"></script>
</head><body>${manifest.tools.map(formFor).join('')}</body></html>`;
}

/** The page holding one iframe per row, `/parity/<index>` each. */
function pageWithFrames(count: number): string {
  const frames = Array.from({ length: count }, (_, index) => `<iframe src="/parity/${index}" title="row ${index}"></iframe>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>parity rows</title></head><body>\n${frames}\n</body></html>`;
}

/** Every row's runtime verdict: one page, one frame (document, island, runtime) per row. */
async function runtimeReports(browser: import('@playwright/test').Browser, origin: string): Promise<RuntimeReport[]> {
  const page = await browser.newPage();
  try {
    await page.route(`${origin}/parity/**`, (route) => {
      const segment = new URL(route.request().url()).pathname.slice('/parity/'.length);
      if (segment === '') return route.fulfill({ contentType: 'text/html; charset=utf-8', body: pageWithFrames(DECLARATION_ROWS.length) });
      const row = DECLARATION_ROWS[Number(segment)]!;
      return route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: pageWithIsland({ capellAgentSchema: 1, tools: [declarationFor(row.change)], messages: row.messages ?? {} }),
      });
    });
    // `load` waits for every frame's load, and a module script runs before its document's load.
    await page.goto(`${origin}/parity/`, { waitUntil: 'load' });
    return await page.evaluate(() => Promise.all([...document.querySelectorAll('iframe')].map((frame, index) => {
      const global = (frame.contentWindow as Window | null)?.capellWebMCP;
      if (!global) throw new Error(`row ${index}: the runtime did not load in its frame`);
      return global.ready;
    }))) as RuntimeReport[];
  } finally {
    await page.close();
  }
}

/** Every row's CLI verdict: one `validate` process, one file per row with that row's translations. */
async function cliVerdicts(origin: string): Promise<Omit<RowVerdicts, 'report'>[]> {
  // One translations file per distinct set of messages, given for each row that has it.
  const translationsFiles = new Map<string, string>();
  const translations = DECLARATION_ROWS.map((row) => {
    const messages = JSON.stringify(row.messages ?? {});
    let file = translationsFiles.get(messages);
    if (!file) {
      file = join(DIR, `messages-${translationsFiles.size}.json`);
      writeFileSync(file, messages);
      translationsFiles.set(messages, file);
    }
    return file;
  });
  const files = DECLARATION_ROWS.map((row, index) => {
    const manifest = join(DIR, `capell-${index}.json`);
    writeFileSync(manifest, JSON.stringify({ name: 'vendor/parity', agent_tools: [declarationFor(row.change)] }));
    return manifest;
  });
  // Several files: every line is `<file>: <name>: <reason>`; a valid file's summary goes to stderr.
  const cli = await validateWithCLI([...files, ...translations.flatMap((file) => ['--translations', file]), '--origin', origin]);
  const rejectedFiles = new Set(files.filter((file) => cli.stdout.some((line) => line.startsWith(`${file}: `))));
  expect(cli.stdout.every((line) => files.some((file) => line.startsWith(`${file}: `))), cli.stdout.join('\n')).toBe(true);
  return files.map((file) => ({
    cliLines: cli.stdout.filter((line) => line.startsWith(`${file}: `)).map((line) => line.slice(file.length + 2)),
    cliValid: cli.stderr.includes(`${file}: 1 agent_tools declarations valid`),
    cliCode: cli.code,
    othersRejected: [...rejectedFiles].some((other) => other !== file),
  }));
}

test.describe('the CLI and the runtime agree on every row of the normaliser table', () => {
  // One worker for every row, so beforeAll (one page, one CLI process) runs once.
  test.describe.configure({ mode: 'default' });
  let verdicts: RowVerdicts[] = [];

  test.beforeAll(async ({ browser, demo }) => {
    test.setTimeout(120_000);
    const [reports, cli] = await Promise.all([runtimeReports(browser, demo.url), cliVerdicts(demo.url)]);
    expect(reports).toHaveLength(DECLARATION_ROWS.length);
    verdicts = reports.map((report, index) => ({ report, ...cli[index]! }));
  });

  DECLARATION_ROWS.forEach((row, index) => {
    test(row.rule, async ({ demo }) => {
      const declaration = declarationFor(row.change);
      const messages = row.messages ?? {};
      const { report, cliLines, cliValid, cliCode, othersRejected } = verdicts[index]!;

      // Every binding the contract allows is executable, so the runtime's verdict is the
      // contract's: a valid declaration registers, an invalid one is rejected with the same reasons.
      const normalised = normaliseCapellDeclaration(declaration, { source: 'capell-island[0]', origin: demo.url, messages });
      const runtimeReasons = report.rejected.flatMap((rejection) => rejection.reasons);
      if (normalised.ok) expect(report.registered).toEqual([normalised.spec.name]);

      const prefix = `${typeof declaration.name === 'string' && declaration.name !== '' ? declaration.name : 'agent_tools[0]'}: `;
      expect(cliLines.every((line) => line.startsWith(prefix)), cliLines.join('\n')).toBe(true);
      const cliReasons = cliLines.map((line) => line.slice(prefix.length));

      expect(cliReasons).toEqual(runtimeReasons);
      // This file's own verdict (exit 1 when rejected, 0 when valid, as the CLI run on it alone):
      // rejected files print lines and no summary, valid ones a summary; the process exits 1 when any file is rejected.
      expect(cliValid).toBe(runtimeReasons.length === 0);
      expect(cliCode).toBe(runtimeReasons.length > 0 || othersRejected ? 1 : 0);
      // And both agree with the table itself.
      if (row.rejects) expect(cliReasons.some((reason) => row.rejects!.test(reason)), cliReasons.join(' | ')).toBe(true);
      else expect(cliReasons).toEqual([]);
    });
  });
});
