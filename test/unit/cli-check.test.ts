/**
 * `capell-webmcp check <page>`: a page checked without a WebMCP browser, through the runtime's own
 * rules (start/read-islands.ts, the normaliser, registration-rules.ts, form-tool-check.ts, the
 * audit). The built command's runCLI in this process (test/support/run-cli.ts), against HTML
 * files and the real demo server.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDemoServer } from '../../demo/server/start.js';
import { cli } from '../support/run-cli.ts';

const DIR = mkdtempSync(join(tmpdir(), 'capell-webmcp-check-'));

function page(name: string, head: string, body = ''): string {
  const path = join(DIR, name);
  writeFileSync(path, `<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
  return path;
}
const island = (value: unknown) => `<script type="application/json" data-capell-agent-tools>${typeof value === 'string' ? value : JSON.stringify(value)}</script>`;
const FORM_TOOL = (target: string, properties: object) => ({
  name: `form.submit.${target}`, description: 'Send the form.', effect: 'write', binding: { type: 'form', target },
  inputSchema: { type: 'object', properties },
});

describe('capell-webmcp check', () => {
  let server: Awaited<ReturnType<typeof startDemoServer>>;
  before(async () => { server = await startDemoServer({ host: '127.0.0.1', port: 0 }); });
  after(async () => { await server.close(); });

  it('a demo page as served: every tool would register, exit 0; form-builder\'s name is the one warning', async () => {
    const result = await cli('check', `${server.url.replace(/\/$/, '')}/contact`);
    // The contact form's tool has form-builder's name (../shared/DESIGN.md §4): a '-' inside a segment.
    assert.deepEqual(result.stdout, [
      'warning: tool form.submit.capell-form-contact: name: "form.submit.capell-form-contact" has "-" or "_" inside a segment, outside the Capell Agent Schema\'s lowercase dotted name (^[a-z][a-z0-9]*(?:\\.[a-z0-9]+)+$); registered, as Capell\'s own packages name tools',
    ]);
    assert.equal(result.code, 0);
    assert.match(result.stderr, /\d+ tools would register, 0 rejected/);
  });

  it('an island that is not JSON is named with its line and column (Capell Agent Schema: the manifest island is JSON)', async () => {
    const result = await cli('check', page('bad-json.html', island('{\n  "capellAgentSchema": 1,\n  tools: []\n}')));
    assert.equal(result.code, 1);
    assert.equal(result.stdout.length, 1);
    assert.match(result.stdout[0]!, /^capell-island\[0\]: \(manifest\): manifest: not valid JSON .* at line 3, column 3$/);
  });

  // The island starts on line 4 of its file, its JSON one line further down: every error is placed
  // in the file a site owner edits, not in the island.
  const LATE_ISLAND = (json: string) => `<!doctype html>\n<html>\n<head>\n<title>Late</title><script type="application/json" data-capell-agent-tools>\n${json}\n</script>\n</head><body></body></html>\n`;
  for (const { what, json, line, column, message } of [
    { what: 'a trailing comma in an object', json: '{"capellAgentSchema": 1,\n  "tools": [],\n}', line: 6, column: 14, message: /trailing comma before "\}"/ },
    { what: 'a trailing comma in an array', json: '{"capellAgentSchema": 1, "tools": [\n  {"name": "a"},\n]}', line: 6, column: 16, message: /trailing comma before "\]"/ },
    { what: 'a missing comma at the end of a line', json: '{"capellAgentSchema": 1\n  "tools": []}', line: 6, column: 3, message: /expected "," or "\}" after a property value, found "tools" \(a comma missing at the end of the line before\?\)/ },
    { what: 'a property name without quotes', json: '{"capellAgentSchema": 1,\n\n   tools: []}', line: 7, column: 4, message: /property name in double quotes, found "tools"/ },
  ]) {
    it(`${what}: the line and column counted in the page's file`, async () => {
      const file = join(DIR, `late-${line}-${column}.html`);
      writeFileSync(file, LATE_ISLAND(json));
      const result = await cli('check', file);
      assert.equal(result.code, 1);
      assert.equal(result.stdout.length, 1, result.stdout.join('\n'));
      assert.match(result.stdout[0]!, /^capell-island\[0\]: \(manifest\): manifest: not valid JSON \(/);
      assert.match(result.stdout[0]!, message);
      assert.ok(result.stdout[0]!.endsWith(` at line ${line}, column ${column}`), result.stdout[0]);
    });
  }

  it('a second island is placed after the first, and a commented-out island does not count', async () => {
    const file = join(DIR, 'two-islands.html');
    writeFileSync(file, `<!doctype html>\n<!-- <script type="application/json" data-capell-agent-tools>{"x": 1,}</script> -->\n${island({ capellAgentSchema: 1, tools: [] })}\n${island('{"capellAgentSchema": 1,\n "tools": [1,]}')}\n`);
    const result = await cli('check', file);
    assert.deepEqual(result.stdout, ['capell-island[1]: (manifest): manifest: not valid JSON (trailing comma before "]") at line 5, column 13']);
  });

  for (const attribute of ['data-capell-agent-tool', 'data-capell-tools', 'data-capel-agent-tools']) {
    it(`a page with no tools island but a script carrying ${attribute} is an error naming data-capell-agent-tools (exit 1)`, async () => {
      const file = join(DIR, `near-miss-${attribute}.html`);
      writeFileSync(file, `<!doctype html>\n<html><head>\n<script type="application/json" ${attribute}>{"capellAgentSchema": 1, "tools": []}</script>\n</head><body></body></html>\n`);
      const result = await cli('check', file);
      assert.equal(result.code, 1);
      assert.deepEqual(result.stdout, [
        `error: script[${attribute}] (line 3): this page has no tools island: the runtime reads only <script data-capell-agent-tools>; this script carries ${attribute}, so nothing in it registers (did you mean data-capell-agent-tools?)`,
      ]);
      assert.match(result.stderr, /0 tools would register, 0 rejected, 0 audit entries, 1 misspelt island attribute/);
    });
  }

  it('beside a tools island that is read, a near miss is a warning (exit 0); Capell\'s other data-capell-* attributes are not near misses', async () => {
    const result = await cli('check', page('near-miss-beside.html', island({ capellAgentSchema: 1, tools: [] })
      + '<script type="application/json" data-capell-tools>{}</script>'
      + '<script type="application/ld+json" data-capell-agent-schema>{}</script>'
      + '<script data-capell-widget-tooltip data-capell-stylesheet-recovery-runtime src="/x.js"></script>'));
    assert.equal(result.code, 0);
    assert.equal(result.stdout.length, 1);
    assert.match(result.stdout[0]!, /^warning: script\[data-capell-tools\] \(line 1\): the runtime reads only <script data-capell-agent-tools>/);
    const strict = await cli('check', '--strict', page('near-miss-beside.html', island({ capellAgentSchema: 1, tools: [] }) + '<script type="application/json" data-capell-tools>{}</script>'));
    assert.equal(strict.code, 1);
  });

  it('a page without any island or near miss: nothing would register, exit 0', async () => {
    const result = await cli('check', page('plain.html', '<script src="/app.js"></script>'));
    assert.equal(result.code, 0);
    assert.deepEqual(result.stdout, []);
  });

  it('every rule a declaration breaks is one line, and the other islands still count', async () => {
    const result = await cli('check', page('rules.html', island({ capellAgentSchema: 1, tools: [{ name: 'Bad Name', effect: 'read', binding: { type: 'endpoint', target: 'https://evil.example/x' } }] })
      + island({ capellAgentSchema: 1, tools: [{ name: 'site.search', description: 'Search.', effect: 'read', binding: { type: 'search', target: 'pages' } }] })));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.map((line) => line.split(': ').slice(0, 3).join(': ')), [
      'capell-island[0]: Bad Name: name',
      'capell-island[0]: Bad Name: description',
      'capell-island[0]: Bad Name: binding.target',
    ]);
    assert.match(result.stderr, /1 tool would register, 1 rejected/);
  });

  it('form tools: a missing form, a target that is not a form, a named control the form lacks; a form="id" control counts', async () => {
    const result = await cli('check', page('forms.html', island({ capellAgentSchema: 1, tools: [
      FORM_TOOL('missing', {}),
      FORM_TOOL('notaform', {}),
      FORM_TOOL('order', { qty: { type: 'integer' }, note: { type: 'string' }, colour: { type: 'string' } }),
    ] }), '<div id="notaform"></div><form id="order" action="/order" method="post" data-agent-tools="none" data-agent-tools-reason="test"><input name="qty"><button>Send</button></form><input form="order" name="colour">'));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout, [
      'capell-island[0]: form.submit.missing: form #missing is not on this page',
      'capell-island[0]: form.submit.notaform: #notaform is a <div>, not a <form>',
      'capell-island[0]: form.submit.order: form #order has no control named "note"',
    ]);
  });

  it('first name wins across islands, and a form that is already a native toolname tool is refused, as the runtime does', async () => {
    const result = await cli('check', page('claims.html', island({ capellAgentSchema: 1, tools: [FORM_TOOL('enquiry', { name: { type: 'string' } })] })
      + island({ capellAgentSchema: 1, tools: [FORM_TOOL('enquiry', { name: { type: 'string' } })] }),
    '<form id="enquiry" toolname="contact_native" action="/c" method="post"><input name="name"></form>'));
    assert.equal(result.code, 1);
    assert.equal(result.stdout.length, 2);
    assert.match(result.stdout[0]!, /^capell-island\[0\]: form.submit.enquiry: form #enquiry carries toolname="contact_native"/);
    assert.match(result.stdout[1]!, /^capell-island\[1\]: form.submit.enquiry: .*already declared by capell-island\[0\]/);
  });

  it('no file is a usage error (exit 2)', async () => {
    const result = await cli('check');
    assert.equal(result.code, 2);
  });
});
