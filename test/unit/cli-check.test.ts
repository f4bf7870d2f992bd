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

  it('a demo page as served: every tool would register, exit 0', async () => {
    const result = await cli('check', `${server.url.replace(/\/$/, '')}/contact`);
    assert.deepEqual(result.stdout, []);
    assert.equal(result.code, 0);
    assert.match(result.stderr, /\d+ tools would register, 0 rejected/);
  });

  it('an island that is not JSON is named with its line and column (Capell Agent Schema: the manifest island is JSON)', async () => {
    const result = await cli('check', page('bad-json.html', island('{\n  "capellAgentSchema": 1,\n  tools: []\n}')));
    assert.equal(result.code, 1);
    assert.equal(result.stdout.length, 1);
    assert.match(result.stdout[0]!, /^capell-island\[0\]: \(manifest\): manifest: not valid JSON .* at line 3, column 3$/);
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
    const result = await cli('check', page('claims.html', island({ capellAgentSchema: 1, tools: [FORM_TOOL('contact', { name: { type: 'string' } })] })
      + island({ capellAgentSchema: 1, tools: [FORM_TOOL('contact', { name: { type: 'string' } })] }),
    '<form id="contact" toolname="contact_native" action="/c" method="post"><input name="name"></form>'));
    assert.equal(result.code, 1);
    assert.equal(result.stdout.length, 2);
    assert.match(result.stdout[0]!, /^capell-island\[0\]: form.submit.contact: form #contact carries toolname="contact_native"/);
    assert.match(result.stdout[1]!, /^capell-island\[1\]: form.submit.contact: .*already declared by capell-island\[0\]/);
  });

  it('no file is a usage error (exit 2)', async () => {
    const result = await cli('check');
    assert.equal(result.code, 2);
  });
});
