/**
 * The `capell-webmcp` command (dist/cli.js, built by `npm test` before this suite): output lines
 * and exit codes (0 ok, 1 rejected, 2 usage). The cases call the built `runCLI` in this process
 * (test/support/run-cli.ts); the last suite runs the real bin/capell-webmcp.js in child processes,
 * for what only a process shows: the exit code and the two streams.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDemoServer } from '../../demo/server/start.js';
import { cli, type CLIRun } from '../support/run-cli.ts';

const BIN = 'bin/capell-webmcp.js';
const DIR = mkdtempSync(join(tmpdir(), 'capell-webmcp-cli-'));

/** Runs bin/capell-webmcp.js in a child process (the demo server answers from this process meanwhile). */
function runBin(...args: string[]): Promise<CLIRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: stdout.split('\n').filter(Boolean), stderr });
    });
  });
}


function writeJSON(name: string, value: unknown): string {
  const path = join(DIR, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const LOOKUP = {
  name: 'catalogue.lookup',
  descriptionKey: 'vendor-catalogue::agent.lookup',
  inputSchema: { type: 'object', additionalProperties: false },
  outputSchema: { type: 'object' },
  effect: 'read',
  binding: { type: 'endpoint', target: '/agent/v1/catalogue/lookup' },
};
const SEARCH = { name: 'site.search', description: 'Search.', effect: 'read', binding: { type: 'search', target: 'pages' } };

// Each test writes files of its own names, so the tests of a suite run at once (node:test runs
// them one after another by default; the audit cases mostly wait for the demo server).
describe('capell-webmcp validate', { concurrency: true }, () => {
  it('exits 0 and prints no rejection for a valid capell.json', async () => {
    const result = await cli('validate', writeJSON('valid.json', { name: 'vendor/x', agent_tools: [SEARCH] }));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout, []);
    assert.match(result.stderr, /1 agent_tools declarations valid/);
  });

  it('exits 1 with one "<name>: <reason>" line per reason for an invalid declaration', async () => {
    const result = await cli('validate', writeJSON('invalid.json', {
      agent_tools: [SEARCH, { name: 'Bad Name', description: 'x', effect: 'maybe', binding: { type: 'endpoint', target: '//evil.example/x' } }],
    }));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.map((line) => line.split(': ')[0]), ['Bad Name', 'Bad Name', 'Bad Name']);
    assert.match(result.stdout[0]!, /^Bad Name: name: "Bad Name" is not a lowercase dotted name/);
    assert.match(result.stdout[1]!, /^Bad Name: effect: required, must be "read" or "write" \(got "maybe"\)$/);
    assert.match(result.stdout[2]!, /^Bad Name: binding\.target: "\/\/evil\.example\/x" is not an origin-relative path/);
  });

  it('rejects a second declaration of a name as the runtime does', async () => {
    const result = await cli('validate', writeJSON('duplicate.json', { agent_tools: [SEARCH, SEARCH] }));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout, ['site.search: name: "site.search" is already declared by agent_tools[0] (the first declaration wins)']);
  });

  it('accepts "agent_tools": "none" with a human-readable agent_tools_reason', async () => {
    const result = await cli('validate', writeJSON('none.json', { agent_tools: 'none', agent_tools_reason: 'This theme package only styles pages.' }));
    assert.equal(result.code, 0, result.stdout.join('\n'));
    assert.deepEqual(result.stdout, []);
  });

  it('rejects "agent_tools": "none" without a reason, or with a blank one', async () => {
    for (const manifest of [{ agent_tools: 'none' }, { agent_tools: 'none', agent_tools_reason: '  ' }]) {
      const result = await cli('validate', writeJSON('none-bare.json', manifest));
      assert.equal(result.code, 1);
      assert.deepEqual(result.stdout, ['(manifest): agent_tools: "none" needs a human-readable "agent_tools_reason" (a non-empty string)']);
    }
  });

  it('accepts the agentgate member the runtime reads from a tools island (true, false, { siteKey })', async () => {
    for (const [index, agentgate] of [true, false, {}, { siteKey: 'site_demo' }].entries()) {
      const result = await cli('validate', writeJSON(`agentgate-${index}.json`, { agent_tools: [SEARCH], agentgate }));
      assert.equal(result.code, 0, `${JSON.stringify(agentgate)}: ${result.stdout.join('\n')}`);
      assert.deepEqual(result.stdout, []);
    }
  });

  it('rejects an agentgate member that names anything but this origin\'s manifest, as the runtime reports it', async () => {
    const result = await cli('validate', writeJSON('agentgate-url.json', { agent_tools: [SEARCH], agentgate: { url: 'https://elsewhere.example/tools.json' } }));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout, [
      '(manifest): agentgate: {"url":"https://elsewhere.example/tools.json"} does not name an AgentGate manifest: use true (this origin\'s /.well-known/agentgate-tools.json) or {"siteKey": "<1 to 128 of A-Za-z0-9_->"} (this origin\'s /v1/agent-tools/{siteKey}); no other value or member is read',
    ]);
  });

  it('rejects a manifest without agent_tools, or that is not JSON', async () => {
    const missing = await cli('validate', writeJSON('missing.json', { name: 'vendor/x' }));
    assert.equal(missing.code, 1);
    assert.match(missing.stdout[0]!, /^\(manifest\): agent_tools: required/);
    const broken = await cli('validate', writeJSON('broken.json', '{"agent_tools": ['));
    assert.equal(broken.code, 1);
    assert.match(broken.stdout[0]!, /^\(manifest\): not valid JSON/);
  });

  it('resolves descriptionKey through --translations, and rejects it without them', async () => {
    const manifest = writeJSON('lookup.json', { agent_tools: [LOOKUP] });
    const without = await cli('validate', manifest);
    assert.equal(without.code, 1);
    assert.deepEqual(without.stdout, ['catalogue.lookup: descriptionKey: no translation for "vendor-catalogue::agent.lookup" (the island\'s messages, or the CLI\'s --translations)']);
    const translations = writeJSON('en.json', { 'vendor-catalogue::agent.lookup': 'Look up a product by SKU.' });
    const withThem = await cli('validate', manifest, '--translations', translations);
    assert.equal(withThem.code, 0, withThem.stdout.join('\n'));
  });

  it('takes --translations once per manifest, in their order, so one process judges manifests with different translations', async () => {
    const manifest = writeJSON('lookup-per-file.json', { agent_tools: [LOOKUP] });
    const english = writeJSON('per-file-en.json', { 'vendor-catalogue::agent.lookup': 'Look up a product by SKU.' });
    const none = writeJSON('per-file-none.json', {});
    const result = await cli('validate', manifest, manifest, manifest, '--translations', english, '--translations', none, '--translations', english);
    assert.equal(result.code, 1);
    // Only the second manifest, paired with the empty translations, lacks the text.
    assert.deepEqual(result.stdout, [`${manifest}: catalogue.lookup: descriptionKey: no translation for "vendor-catalogue::agent.lookup" (the island's messages, or the CLI's --translations)`]);
    assert.equal(result.stderr.split('\n').filter((line) => line === `${manifest}: 1 agent_tools declarations valid`).length, 2, result.stderr);
    // Once holds for every manifest.
    assert.equal((await cli('validate', manifest, manifest, '--translations', english)).code, 0);
  });

  it('exits 2 when --translations is given neither once nor once per manifest', async () => {
    const manifest = writeJSON('lookup-count.json', { agent_tools: [LOOKUP] });
    const english = writeJSON('count-en.json', { 'vendor-catalogue::agent.lookup': 'Look up a product by SKU.' });
    const result = await cli('validate', manifest, manifest, manifest, '--translations', english, '--translations', english);
    assert.equal(result.code, 2);
    assert.deepEqual(result.stdout, []);
    assert.match(result.stderr, /^capell-webmcp: --translations: given 2 times for 3 manifests; give it once \(for every manifest\) or once per manifest/);
  });

  it('checks endpoint targets against --origin', async () => {
    const manifest = writeJSON('endpoint.json', { agent_tools: [{ ...SEARCH, binding: { type: 'endpoint', target: '/agent/v1/navigation' } }] });
    assert.equal((await cli('validate', manifest, '--origin', 'https://shop.example')).code, 0);
  });

  it('judges several files each on its own: lines prefixed with the file, exit 1 when any is rejected', async () => {
    const valid = writeJSON('several-valid.json', { agent_tools: [SEARCH] });
    const alsoValid = writeJSON('several-also-valid.json', { agent_tools: [SEARCH] });
    const invalid = writeJSON('several-invalid.json', { agent_tools: [SEARCH, SEARCH, { ...SEARCH, name: 'Bad Name' }] });
    const broken = writeJSON('several-broken.json', '{');
    const result = await cli('validate', valid, invalid, alsoValid, broken);
    assert.equal(result.code, 1);
    // The same name in two files is no rejection: first name wins only within a file.
    assert.equal(result.stdout.length, 3, result.stdout.join('\n'));
    assert.equal(result.stdout[0], `${invalid}: site.search: name: "site.search" is already declared by agent_tools[0] (the first declaration wins)`);
    assert.ok(result.stdout[1]!.startsWith(`${invalid}: Bad Name: name: "Bad Name" is not a lowercase dotted name`), result.stdout[1]);
    assert.ok(result.stdout[2]!.startsWith(`${broken}: (manifest): not valid JSON (`), result.stdout[2]);
    assert.ok(result.stderr.includes(`${valid}: 1 agent_tools declarations valid`), result.stderr);
    assert.ok(result.stderr.includes(`${alsoValid}: 1 agent_tools declarations valid`), result.stderr);
    assert.ok(!result.stderr.includes(`${invalid}:`), result.stderr);

    const allValid = await cli('validate', valid, alsoValid, '--origin', 'https://shop.example');
    assert.equal(allValid.code, 0, allValid.stdout.join('\n'));
    assert.deepEqual(allValid.stdout, []);
  });

  it('prints no verdict and exits 2 when one of several files cannot be read', async () => {
    const invalid = writeJSON('several-invalid2.json', { agent_tools: [{ ...SEARCH, name: 'Bad Name' }] });
    const result = await cli('validate', invalid, join(DIR, 'nope.json'));
    assert.equal(result.code, 2);
    assert.deepEqual(result.stdout, []);
    assert.match(result.stderr, /^capell-webmcp: cannot read manifest .*nope\.json/);
  });

  it('exits 2 on usage errors: no file, an unknown option, a bad --origin, a missing file', async () => {
    const valid = writeJSON('valid2.json', { agent_tools: [SEARCH] });
    const runs: Promise<{ args: string[]; result: Awaited<ReturnType<typeof cli>> }>[] = [];
    for (const args of [['validate'], ['validate', valid, '--bogus'], ['validate', valid, '--origin', 'ftp://x'],
      ['validate', join(DIR, 'nope.json')], ['validate', valid, '--translations', join(DIR, 'nope.json')], [], ['publish']]) {
      runs.push(cli(...args).then((result) => ({ args, result })));
    }
    for (const { args, result } of await Promise.all(runs)) {
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stdout.join('\n')}`);
      assert.match(result.stderr, /^capell-webmcp: /);
    }
  });

  it('prints the usage with exit 0 for --help', async () => {
    const result = await cli('--help');
    assert.equal(result.code, 0);
    assert.match(result.stdout.join('\n'), /Exit codes: 0 ok, 1 rejected/);
    assert.match(result.stdout.join('\n'), /validate <capell\.json>\.\.\. /);
  });
});

describe('capell-webmcp audit', { concurrency: true }, () => {
  let server: Awaited<ReturnType<typeof startDemoServer>>;
  before(async () => { server = await startDemoServer({ host: '127.0.0.1', port: 0 }); });
  after(async () => { await server.close(); });

  async function savePage(path: string, name: string): Promise<string> {
    const html = await (await fetch(`${server.url}${path}`)).text();
    return writeJSON(name, html);
  }

  it('reports the undeclared back-in-stock form of a demo page file, not the newsletter form marked none', async () => {
    const result = await cli('audit', await savePage('/products/rolltop-backpack', 'rolltop.html'));
    assert.equal(result.code, 0);
    assert.ok(result.stdout.includes('warning: form#back-in-stock: no tool declaration covers this form, and it is not marked data-agent-tools="none"'), result.stdout.join('\n'));
    assert.ok(!result.stdout.some((line) => line.includes('form#newsletter')), result.stdout.join('\n'));
  });

  it('audits a page by URL from the demo server', async () => {
    const result = await cli('audit', `${server.url}/products/rolltop-backpack`);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.some((line) => line.startsWith('warning: form#back-in-stock: ')), result.stdout.join('\n'));
  });

  it('exits 1 with --strict when there is an entry, and prints it as an error', async () => {
    const result = await cli('audit', `${server.url}/products/rolltop-backpack`, '--strict');
    assert.equal(result.code, 1);
    assert.ok(result.stdout.some((line) => line.startsWith('error: form#back-in-stock: ')), result.stdout.join('\n'));
  });

  it('exits 0 with --strict on a page without an entry', async () => {
    const result = await cli('audit', `${server.url}/products`, '--strict');
    assert.equal(result.code, 0, result.stdout.join('\n'));
    assert.deepEqual(result.stdout, []);
  });

  it('takes data-audit="error" from the page\'s runtime script tag', async () => {
    const page = writeJSON('strict-page.html', '<!doctype html><script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-audit="error"></script><form id="quote"></form>');
    const result = await cli('audit', page);
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout, ['error: form#quote: no tool declaration covers this form, and it is not marked data-agent-tools="none"']);
  });

  it('reads the page\'s script tag options as the runtime does: an invalid data-audit is named as written and left at its default', async () => {
    const page = writeJSON('bad-option-page.html', '<!doctype html><script type="module" src="/dist/capell-webmcp.js" data-capell-webmcp data-audit="strict" data-timeout-ms="fast"></script><form id="quote"></form>');
    const result = await cli('audit', page);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout, ['warning: form#quote: no tool declaration covers this form, and it is not marked data-agent-tools="none"']);
    assert.ok(result.stderr.includes(`capell-webmcp: ${page}: data-timeout-ms="fast" is not an integer from 1 to 600000 (ms); using its default\n`), result.stderr);
    assert.ok(result.stderr.includes(`capell-webmcp: ${page}: data-audit="strict" is not "warning" or "error"; using its default\n`), result.stderr);
  });

  it('counts a form covered by a declaration in the page\'s island, even a rejected one', async () => {
    const island = JSON.stringify({ capellAgentSchema: 1, tools: [{ name: 'form.submit.quote', description: 'Ask for a quote.', effect: 'read', binding: { type: 'form', target: 'quote' } }] });
    const page = writeJSON('covered.html', `<!doctype html><script type="application/json" data-capell-agent-tools>${island}</script><form id="quote"></form>`);
    const result = await cli('audit', page, '--strict');
    assert.equal(result.code, 0, result.stdout.join('\n'));
  });

  it('exits 2 for a missing file or an unreachable URL', async () => {
    assert.equal((await cli('audit', join(DIR, 'nope.html'))).code, 2);
    assert.equal((await cli('audit', `${server.url}/no-such-page-here`)).code, 2);
  });
});

describe('the capell-webmcp command in a process of its own (bin/capell-webmcp.js)', { concurrency: true }, () => {
  it('exits 0 for a valid manifest, the verdict on stderr and nothing on stdout', async () => {
    const result = await runBin('validate', writeJSON('bin-valid.json', { agent_tools: [SEARCH] }));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout, []);
    assert.match(result.stderr, /1 agent_tools declarations valid/);
  });

  it('exits 1 with one line per reason on stdout for a rejected manifest', async () => {
    const result = await runBin('validate', writeJSON('bin-duplicate.json', { agent_tools: [SEARCH, SEARCH] }));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout, ['site.search: name: "site.search" is already declared by agent_tools[0] (the first declaration wins)']);
  });

  it('exits 2 with the reason and the usage on stderr for a command line it does not know', async () => {
    const result = await runBin('publish');
    assert.equal(result.code, 2);
    assert.deepEqual(result.stdout, []);
    assert.match(result.stderr, /^capell-webmcp: unknown command "publish"\n\n/);
    assert.match(result.stderr, /Exit codes: 0 ok, 1 rejected/);
  });
});
