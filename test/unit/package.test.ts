/**
 * The package as a user gets it: `npm pack` of the built dist/ (built by `npm test` before this
 * suite, or `npm run build`), installed into a scratch project (test/package/consumer) from the
 * npm cache, then type-checked with its declarations (Bundler and Node16 resolution; a misspelt
 * option must fail) and bundled with Vite. One tarball and one install serve every test.
 * The three type checks are the repository's own TypeScript compiler run through its API in this
 * process, with TypeScript's lib files parsed once for all three: three `tsc` processes spent
 * most of their time starting and parsing those same files.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { build } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');
const CONSUMER = join(ROOT, 'test/package/consumer');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string; version: string; scripts: Record<string, string>; exports: Record<string, string | Record<string, string>>;
  types: string; bin: Record<string, string>;
};

/** Runs a command to its end; never rejects (the exit code says how it went). */
function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, output: `${stdout}${stderr}` });
    });
  });
}

/**
 * TypeScript's own lib files (lib.es2022.d.ts, lib.dom.d.ts, ...) parsed once, by file name and
 * language version; the package's declarations are left to each program, since their module format
 * depends on the resolution being checked.
 */
const libFiles = new Map<string, ts.SourceFile | undefined>();
const LIB_DIR = dirname(ts.getDefaultLibFilePath({}));

/**
 * Type-checks the scratch project with one of its tsconfig files, as `tsc -p <config>` does.
 * @returns `code` 0 when there is no diagnostic, 1 otherwise, and the diagnostics as tsc prints
 *   them without colour (`file(line,col): error TSnnnn: message`).
 */
function typeCheck(config: string): { code: number; output: string } {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(PROJECT, config), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => { throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')); },
  });
  assert.ok(parsed, `${config} could not be read`);
  const host = ts.createCompilerHost(parsed.options);
  const readSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (dirname(fileName) !== LIB_DIR) return readSourceFile(fileName, languageVersion, ...rest);
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!libFiles.has(key)) libFiles.set(key, readSourceFile(fileName, languageVersion, ...rest));
    return libFiles.get(key);
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host, configFileParsingDiagnostics: parsed.errors });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const output = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => PROJECT, getNewLine: () => '\n' });
  return { code: diagnostics.length === 0 ? 0 : 1, output };
}

/** Every file under the folder `dir`, as paths relative to `base` with `/`. */
function filesUnder(dir: string, base = ROOT): string[] {
  return readdirSync(join(base, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(base, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

const SCRATCH = mkdtempSync(join(tmpdir(), 'capell-webmcp-package-'));
const PROJECT = join(SCRATCH, 'site');
let packed: string[] = [];
let installed = '';

describe('the packed package', () => {
  before(async () => {
    for (const built of ['dist/lib/index.js', 'dist/types/index.d.ts', 'dist/capell-webmcp.js', 'dist/cli.js', 'dist/agent/index.js', 'dist/types/agent/index.d.ts']) {
      assert.ok(existsSync(join(ROOT, built)), `${built} is missing: run \`npm run build\` first (npm test does)`);
    }
    // The build already ran; prepack (asserted below) would only repeat it.
    const pack = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', SCRATCH], ROOT);
    assert.equal(pack.code, 0, pack.output);
    const [result] = JSON.parse(pack.output.slice(pack.output.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    packed = result!.files.map((file) => file.path);
    cpSync(CONSUMER, PROJECT, { recursive: true });
    // From the npm cache (`npm ci` filled it with the package's dependencies); the registry only if one is missing.
    const install = await run(NPM, ['install', join(SCRATCH, result!.filename), '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], PROJECT);
    assert.equal(install.code, 0, install.output);
    installed = join(PROJECT, 'node_modules', manifest.name);
  });

  after(() => rmSync(SCRATCH, { recursive: true, force: true }));

  it('builds before it packs (prepack), so a fresh clone packs a working package', () => {
    assert.equal(manifest.scripts.prepack, 'npm run build');
    assert.match(manifest.scripts.build!, /tsc -p tsconfig\.types\.json/);
  });

  it('holds what a user needs: every built file but the source maps, bin, README, package.json', () => {
    const wanted = ['package.json', 'README.md', manifest.bin['capell-webmcp']!.replace(/^\.\//, ''), ...filesUnder('dist').filter((path) => !path.endsWith('.map'))];
    if (existsSync(join(ROOT, 'LICENSE'))) wanted.push('LICENSE');
    assert.deepEqual(wanted.filter((path) => !packed.includes(path)), []);
    assert.deepEqual(packed.filter((path) => path.endsWith('.map')), []);
    for (const path of ['dist/capell-webmcp.js', 'dist/capell-webmcp.iife.js', 'dist/capell-webmcp.single.iife.js', 'dist/lib/index.js', 'dist/types/index.d.ts', 'dist/cli.js']) {
      assert.ok(packed.includes(path), path);
    }
    assert.ok(packed.some((path) => /^dist\/chunks\/.+\.js$/.test(path)), 'the script entry\'s chunks/ beside it');
    // The classic script loads the module build's chunks by import(): each one ships beside it.
    const iifeChunks = [...readFileSync(join(ROOT, 'dist/capell-webmcp.iife.js'), 'utf8').matchAll(/\bimport\((["'`])\.\/(chunks\/[^"'`]+)\1\)/g)].map((match) => `dist/${match[2]}`);
    assert.ok(iifeChunks.length > 0, 'the classic script imports no chunk');
    assert.deepEqual(iifeChunks.filter((path) => !packed.includes(path)), []);
    assert.deepEqual(packed.filter((path) => !/^(dist\/|bin\/|package\.json$|README\.md$|LICENSE$)/.test(path)), []);
  });

  it('exports its entries and ./package.json, each to a file it ships', () => {
    const require = createRequire(join(PROJECT, 'package.json'));
    assert.equal((require(`${manifest.name}/package.json`) as { version: string }).version, manifest.version);
    const targets = Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
    for (const target of [...targets, manifest.types]) assert.ok(existsSync(join(installed, target)), target);
  });

  it('carries the docstrings in its declarations', () => {
    const runtime = readFileSync(join(installed, 'dist/types/start/runtime.d.ts'), 'utf8');
    assert.match(runtime, /@throws TypeError naming the option when an option is invalid/);
    assert.match(readFileSync(join(installed, 'dist/types/start/config.d.ts'), 'utf8'), /Options of `start\(\)`/);
  });

  it('type-checks a consumer under Bundler and Node16 resolution, and refuses a misspelt option', async () => {
    const [bundler, node16, misspelt] = ['bundler', 'node16', 'misspelt'].map((config) => typeCheck(`tsconfig.${config}.json`));
    assert.equal(bundler!.code, 0, bundler!.output);
    assert.equal(node16!.code, 0, node16!.output);
    assert.notEqual(misspelt!.code, 0, 'start({ apiBse }) compiled');
    // TS2561: unknown property of an object literal ("Did you mean to write 'apiBase'?"); TS2559: no option in common.
    assert.match(misspelt!.output, /misspelt\.ts\(8,\d+\): error TS2561: .*'apiBse' does not exist in type 'RuntimeOptions'\. Did you mean to write 'apiBase'\?/);
    assert.match(misspelt!.output, /misspelt\.ts\(11,\d+\): error TS2559: .*no properties in common with type 'RuntimeOptions'/);
  });

  it('bundles with Vite from `import { start } from \'capell-webmcp\'`', async () => {
    const outDir = join(SCRATCH, 'bundle');
    await build({ root: PROJECT, configFile: false, logLevel: 'silent', build: { outDir, minify: false, emptyOutDir: true } });
    const code = filesUnder('.', outDir).filter((path) => path.endsWith('.js')).map((path) => readFileSync(join(outDir, path), 'utf8')).join('\n');
    // start()'s own code: the per-document runtime slot and its change event.
    assert.match(code, /Symbol\.for\(["`']capell-webmcp\.runtime["`']\)/);
    assert.match(code, /capell-webmcp:change/);
  });

  it('imports capell-webmcp/agent in Node from the install: createAgent, refusing a bad option with a TypeError naming it', async () => {
    const script = [
      "import { createAgent } from 'capell-webmcp/agent';",
      "const jwk = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' };",
      "const agent = createAgent({ privateJwk: jwk, signatureAgent: 'https://agent.example/.well-known/http-message-signatures-directory' });",
      "let refused = '';",
      "try { createAgent({ privateJwk: jwk, signatureAgent: 'https://agent.example/keys', maxPrice: 'lots' }); } catch (error) { refused = `${error.name}: ${error.message}`; }",
      "console.log(JSON.stringify({ methods: Object.keys(agent).sort(), receipts: agent.receipts(), refused }));",
    ].join('\n');
    const ran = await run(process.execPath, ['--input-type=module', '-e', script], PROJECT);
    assert.equal(ran.code, 0, ran.output);
    const seen = JSON.parse(ran.output.trim().split('\n').at(-1)!) as { methods: string[]; receipts: unknown[]; refused: string };
    assert.deepEqual(seen.methods, ['attach', 'callTool', 'detach', 'receipts']);
    assert.deepEqual(seen.receipts, []);
    assert.match(seen.refused, /^TypeError: createAgent: maxPrice must be a price/);
  });

  it('runs its command from the install (bin → dist/cli.js with its dependencies)', async () => {
    const cli = await run(process.execPath, [join(PROJECT, 'node_modules/.bin/capell-webmcp'), 'audit', join(PROJECT, 'index.html')], PROJECT);
    assert.equal(cli.code, 0, cli.output);
    assert.doesNotMatch(cli.output, /dist\/cli\.js is missing/);
  });
});
