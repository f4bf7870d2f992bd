/**
 * The runtime's admin registry against Capell's admin (test/fixtures/capell/admin/: tools.json is
 * what capell-app/capell `packages/admin` answers `GET /admin/agent/v1/tools`, SOURCES.md cites each
 * file and commit): the source row `capell-admin` (registry/sources/admin-registry.ts: nothing is
 * fetched without the option; the answer's `tools` read from a real HTTP server; 401 is one "not
 * signed in" problem), the admin normaliser (every definition bound to Capell's invoke route,
 * `admin-invoke`, whatever binding it names, with a warning saying so), the binding row, and the
 * rule that a public island cannot declare it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { parseHTML } from 'linkedom';
import { BINDINGS, BINDING_TYPES, READ_BINDING_TYPES, WRITE_BINDING_TYPES, bindingRow } from '../../src/shared/bindings/registry.ts';
import type { RuntimeConfig } from '../../src/start/config.ts';
import { readOptions } from '../../src/start/config.ts';
import { checkCapellDeclaration, REF_CHECKS } from '../../src/shared/declarations/normalise.ts';
import { renderReason } from '../../src/shared/declarations/reason-text.ts';
import { renderWarnings } from '../../src/shared/declarations/warning-text.ts';
import { adminRegistry, ADMIN_API_BASE } from '../../src/registry/sources/admin-registry.ts';
import { ADMIN_REGISTRY_PATH, normaliseAdminDeclaration, readAdminRegistry } from '../../src/admin/admin-registry-fetch.ts';
import { SOURCES } from '../../src/registry/sources/index.ts';
import type { ToolSpec } from '../../src/shared/declarations/tool-spec.ts';

const ORIGIN = 'https://shop.example';

/** Capell's answer to a global administrator, and its 13 definitions. */
const CAPELL_ANSWER_TEXT = readFileSync(new URL('../fixtures/capell/admin/tools.json-encoded.txt', import.meta.url), 'utf8');
const CAPELL_TOOLS = (JSON.parse(CAPELL_ANSWER_TEXT) as { tools: Record<string, unknown>[] }).tools;
const definition = (name: string) => CAPELL_TOOLS.find((tool) => tool.name === name)!;
const PROPERTIES_READ = definition('admin.page.properties.read');
const TERMS_WRITE = definition('admin.page.terms.write');

const context = { source: 'capell-island[0]', origin: ORIGIN, messages: {} };
const adminContext = { ...context, source: 'capell-admin[0]' };

async function normaliseAll(): Promise<ToolSpec[]> {
  const specs: ToolSpec[] = [];
  for (const raw of CAPELL_TOOLS) {
    const result = await normaliseAdminDeclaration(raw, adminContext);
    assert.ok(result.ok, `${String(raw.name)}: ${result.ok ? '' : result.reasons.map((reason) => (typeof reason === 'string' ? reason : renderReason(reason))).join('; ')}`);
    specs.push(result.spec);
  }
  return specs;
}

describe('binding row admin-invoke', () => {
  const row = bindingRow('admin-invoke')!;

  it('reads and writes, the person confirms writes, named by the admin registry only (not a Capell island type)', async () => {
    assert.ok(row, 'admin-invoke has no row');
    assert.deepEqual(row.policy.effects, ['read', 'write']);
    assert.equal(row.capell, false);
    assert.equal(row.adminOnly, true);
    assert.equal(row.personConfirms, true);
    assert.equal(row.pagesByLinks, false);
    assert.equal(bindingRow('admin-action'), undefined, 'the demo\'s guessed binding is gone');
    for (const types of [BINDING_TYPES, READ_BINDING_TYPES, WRITE_BINDING_TYPES]) assert.ok(!(types as string[]).includes('admin-invoke'));
    assert.equal(typeof await BINDINGS['admin-invoke'].executors.read(), 'function');
    assert.equal(typeof await BINDINGS['admin-invoke'].executors.write(), 'function');
  });

  it(`takes the tool's name as its target, up to the 191 characters Capell's invoke route accepts`, () => {
    for (const target of ['admin.page.terms.write', 'admin.page.agent_readiness.read', 'x'.repeat(191)]) assert.deepEqual(row.policy.check(target, 'write', ORIGIN), [], target);
    const long = 'x'.repeat(192);
    assert.deepEqual(row.policy.check(long, 'read', ORIGIN), [['binding.target', 'adminInvokeTarget', long]]);
  });
});

describe(`Capell's admin definitions and the admin normaliser`, () => {
  it(`all 13 of Capell's definitions register, each bound to the invoke route under its own name, with the editor's session`, async () => {
    const specs = await normaliseAll();
    assert.equal(specs.length, 13);
    for (const spec of specs) {
      assert.deepEqual(spec.binding, { type: 'admin-invoke', target: spec.name });
      assert.equal(spec.session, true);
      assert.equal(spec.source, 'capell-admin[0]');
    }
    const byName = new Map(specs.map((spec) => [spec.name, spec]));
    assert.deepEqual(byName.get('admin.page.properties.read')!.annotations, { readOnlyHint: true });
    assert.deepEqual(byName.get('admin.page.terms.write')!.annotations, { readOnlyHint: false, consequentialHint: true });
    assert.deepEqual(specs.filter((spec) => spec.effect === 'read').map((spec) => spec.name).sort(), [
      'admin.blueprint.read', 'admin.page.agent_readiness.read', 'admin.page.properties.read', 'admin.site.agent_readiness.read', 'admin.term.properties.read',
    ]);
    // Capell's outputSchema describes data, which is what a read answers.
    assert.deepEqual(byName.get('admin.page.properties.read')!.outputSchema, PROPERTIES_READ.outputSchema);
  });

  it(`the Report warns per tool that its definition's binding is not used, naming it; the four beside the seed also warn as a Capell page's would`, async () => {
    const specs = await normaliseAll();
    const audit = renderWarnings(specs.map((spec) => ({ name: spec.name, warnings: spec.warnings ?? [] })));
    for (const spec of specs) {
      const binding = JSON.stringify(definition(spec.name).binding);
      assert.ok(audit.some((entry) => entry.surface === `tool ${spec.name}` && entry.message === `binding: ${binding} is not used: Capell's admin runs every tool through POST /admin/agent/v1/tools/invoke (reads at once, writes after the editor's approval in the panel), as its own admin bridge does`), spec.name);
    }
    assert.ok(audit.every((entry) => entry.level === 'warning'));
    const others = audit.filter((entry) => !entry.message.startsWith('binding: ')).map((entry) => entry.surface);
    assert.deepEqual([...new Set(others)].sort(), ['tool admin.page.agent_readiness.read', 'tool admin.page.properties.write', 'tool admin.page.terms.write', 'tool admin.site.agent_readiness.read']);
  });

  it('whatever binding a definition names (none, another type, a URL elsewhere) the tool is bound to the invoke route', async () => {
    for (const binding of [undefined, { type: 'graphql', target: 'x' }, { type: 'endpoint', target: 'https://evil.example/x' }, 'endpoint']) {
      const result = await normaliseAdminDeclaration({ ...TERMS_WRITE, binding }, adminContext);
      assert.ok(result.ok, JSON.stringify(binding));
      assert.deepEqual(result.spec.binding, { type: 'admin-invoke', target: 'admin.page.terms.write' });
    }
  });

  it('every other Capell rule still applies (an unknown key, a bad effect, a bad name)', async () => {
    const bad = await normaliseAdminDeclaration({ ...TERMS_WRITE, effect: 'delete', handler: 'x' }, adminContext);
    assert.equal(bad.ok, false);
    assert.deepEqual(!bad.ok && bad.reasons.map((reason) => (typeof reason === 'string' ? reason : reason[1])).sort(), ['declarationKey', 'effect']);
    const unnamed = await normaliseAdminDeclaration({ ...TERMS_WRITE, name: 'Admin Terms!' }, adminContext);
    assert.equal(unnamed.ok, false);
  });

  it('a public island declaring admin-invoke is rejected with its reason, and a public read is never given the session', () => {
    const result = checkCapellDeclaration({ ...TERMS_WRITE, binding: { type: 'admin-invoke', target: 'admin.page.terms.write' } }, context, REF_CHECKS);
    assert.equal(result.ok, false);
    assert.deepEqual(!result.ok && result.reasons.map((reason) => renderReason(reason as never)).filter((text) => text.startsWith('binding')), [
      'binding.type: "admin-invoke" is an admin binding: only the admin registry (fetched with the editor\'s session on a page with data-admin-registry) may declare it, never a page\'s tools island',
    ]);
    const read = checkCapellDeclaration(PROPERTIES_READ, context, REF_CHECKS);
    assert.equal(read.ok && 'session' in read.spec, false);
  });
});

describe('option adminRegistry', () => {
  const script = (value?: string) => {
    const attribute = value === undefined ? '' : ` data-admin-registry="${value}"`;
    return parseHTML(`<!doctype html><script data-capell-webmcp${attribute}></script>`).document.querySelector('script') as unknown as HTMLScriptElement;
  };

  it('is absent (off) unless given; data-admin-registry present or "true" switches it on, "false" leaves it off', () => {
    assert.equal('adminRegistry' in readOptions({ script: script() }, ORIGIN).settings, false);
    assert.equal(readOptions({ script: script('') }, ORIGIN).settings.adminRegistry, true);
    assert.equal(readOptions({ script: script('true') }, ORIGIN).settings.adminRegistry, true);
    assert.equal(readOptions({ script: script('false') }, ORIGIN).settings.adminRegistry, false);
    assert.equal(readOptions({ values: { adminRegistry: true } }, ORIGIN).settings.adminRegistry, true);
    assert.deepEqual(readOptions({ script: script('yes') }, ORIGIN).problems.map((problem) => problem.message), ['data-admin-registry="yes" is not present (or "true") to switch it on, "false" to leave it off']);
  });
});

describe('source row capell-admin', () => {
  let server: Server;
  let origin = '';
  /** What the server answers next: status and body. */
  let answer: { status: number; body: unknown } = { status: 401, body: {} };
  const seen: { path: string; cookie: string | undefined }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', cookie: req.headers.cookie });
      res.writeHead(answer.status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    origin = `http://127.0.0.1:${address.port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const configOn = (adminRegistryOn: boolean) => ({ origin, timeoutMs: 5_000, adminRegistry: adminRegistryOn }) as unknown as RuntimeConfig;
  const freshDocument = () => parseHTML('<!doctype html><html><head></head><body></body></html>').document as unknown as Document;

  it('is the third row of the sources table, after the islands and AgentGate', () => {
    assert.deepEqual(SOURCES.map((source) => source.kind), ['capell-island', 'agentgate', 'capell-admin']);
    assert.equal(ADMIN_REGISTRY_PATH, `${ADMIN_API_BASE}/tools`);
    assert.equal(ADMIN_REGISTRY_PATH, '/admin/agent/v1/tools');
  });

  it('fetches nothing without the option (a public page), or without config (the audit, the CLI)', async () => {
    const before = seen.length;
    assert.deepEqual(adminRegistry.read(freshDocument()), []);
    assert.deepEqual(adminRegistry.read(freshDocument(), configOn(false)), []);
    assert.equal(seen.length, before);
  });

  it('a 401 is one "not signed in to the admin" problem and no tools', async () => {
    answer = { status: 401, body: { message: 'Unauthenticated.' } };
    const units = await adminRegistry.read(freshDocument(), configOn(true));
    assert.equal(units.length, 1);
    assert.deepEqual(units[0]!.declarations, []);
    assert.deepEqual(units[0]!.problem, ['manifest', 'adminSignedOut']);
    assert.equal(renderReason(units[0]!.problem!), 'manifest: not signed in to the admin (the admin registry answered 401): no admin tool is registered');
    assert.equal(seen.at(-1)!.path, '/admin/agent/v1/tools');
  });

  it('reads Capell\'s answer: its tools are the declarations, once per document', async () => {
    answer = { status: 200, body: JSON.parse(CAPELL_ANSWER_TEXT) };
    const doc = freshDocument();
    const before = seen.length;
    const [unit] = await readAdminRegistry(doc, configOn(true));
    assert.deepEqual(unit!.declarations, CAPELL_TOOLS);
    assert.equal(unit!.problem, undefined);
    const [again] = await readAdminRegistry(doc, configOn(true));
    assert.equal(again!.owner, unit!.owner);
    assert.equal(again!.fingerprint, unit!.fingerprint);
    assert.equal(seen.length, before + 1, 'an unchanged registry is fetched once per document');
  });

  it('another status names it with Capell\'s message; a body without a tools array is refused', async () => {
    answer = { status: 422, body: { message: 'An active site is required for admin agent tools.' } };
    const [failed] = await readAdminRegistry(freshDocument(), configOn(true));
    assert.deepEqual(failed!.problem, ['manifest', 'adminFetch', '/admin/agent/v1/tools answered 422: An active site is required for admin agent tools.']);
    answer = { status: 200, body: { capellAgentSchema: 1, data: [] } };
    const [wrong] = await readAdminRegistry(freshDocument(), configOn(true));
    assert.deepEqual(wrong!.problem, ['manifest', 'adminRegistry', 'tools is not an array']);
    assert.equal(renderReason(wrong!.problem!), 'manifest: the admin registry\'s answer is not a Capell Agent Schema envelope with a tools array of definitions: tools is not an array');
  });

  it('a reading with a problem is fetched again by the next update (the editor may have signed in)', async () => {
    const doc = freshDocument();
    answer = { status: 401, body: {} };
    const [signedOut] = await readAdminRegistry(doc, configOn(true));
    assert.deepEqual(signedOut!.problem, ['manifest', 'adminSignedOut']);
    answer = { status: 200, body: { capellAgentSchema: 1, tools: [TERMS_WRITE] } };
    const [signedIn] = await readAdminRegistry(doc, configOn(true));
    assert.deepEqual(signedIn!.declarations, [TERMS_WRITE]);
    assert.equal(signedIn!.owner, signedOut!.owner, 'one owner per document');
  });
});
