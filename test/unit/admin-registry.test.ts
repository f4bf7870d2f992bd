/**
 * The runtime's admin registry: the source row `capell-admin` (registry/sources/admin-registry.ts: nothing
 * is fetched without the option; the registry is read from a real HTTP server's
 * `/admin/agent/v1/tools`; 401 is one "not signed in" problem and no tools) and the binding row
 * `admin-action` (shared/bindings/registry.ts: admin registry only, write only, the person confirms, the
 * target an action identifier), and the rule that a public island cannot declare it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { parseHTML } from 'linkedom';
import { BINDINGS, BINDING_TYPES, WRITE_BINDING_TYPES, bindingRow } from '../../src/shared/bindings/registry.ts';
import type { RuntimeConfig } from '../../src/start/config.ts';
import { readOptions } from '../../src/start/config.ts';
import { checkCapellDeclaration, REF_CHECKS } from '../../src/shared/declarations/normalise.ts';
import { renderReason } from '../../src/shared/declarations/reason-text.ts';
import { adminRegistry, ADMIN_API_BASE } from '../../src/registry/sources/admin-registry.ts';
import { ADMIN_REGISTRY_PATH, normaliseAdminDeclaration, readAdminRegistry } from '../../src/admin/admin-registry-fetch.ts';
import { SOURCES } from '../../src/registry/sources/index.ts';

const ORIGIN = 'https://shop.example';

/** An admin write declaration as the admin registry serves it (the admin contract's table). */
const PROPERTY_WRITE = {
  name: 'admin.property.write',
  description: 'Set a property value of a page (draft) on a site you edit.',
  inputSchema: {
    type: 'object',
    properties: { site: { type: 'string', enum: ['a'] }, page: { type: 'string' }, property: { type: 'string' }, value: { type: 'string' } },
    required: ['site', 'page', 'property', 'value'],
    additionalProperties: false,
  },
  outputSchema: { type: 'object' },
  effect: 'write',
  binding: { type: 'admin-action', target: 'property.write' },
};

const CONTENT_READ = {
  name: 'admin.content.read',
  description: 'Read the pages of a site you edit, drafts included.',
  inputSchema: { type: 'object', properties: { site: { type: 'string', enum: ['a'] }, page: { type: 'string' } }, required: ['site'], additionalProperties: false },
  outputSchema: { type: 'object' },
  effect: 'read',
  binding: { type: 'endpoint', target: '/admin/agent/v1/content' },
};

const context = { source: 'capell-island[0]', origin: ORIGIN, messages: {} };

describe('binding row admin-action', () => {
  const row = bindingRow('admin-action')!;

  it('is a write-only row that the person confirms, named by the admin registry only (not a Capell island type)', async () => {
    assert.ok(row, 'admin-action has no row');
    assert.deepEqual(row.policy.effects, ['write']);
    assert.equal(row.capell, false);
    assert.equal(row.adminOnly, true);
    assert.equal(row.personConfirms, true);
    assert.ok(!(BINDING_TYPES as string[]).includes('admin-action'));
    assert.ok(!(WRITE_BINDING_TYPES as string[]).includes('admin-action'));
    assert.equal(typeof BINDINGS['admin-action'].executors.write, 'function');
    assert.equal(typeof await BINDINGS['admin-action'].executors.write(), 'function');
  });

  it('takes an action identifier as its target, never a path, URL or selector', () => {
    for (const target of ['property.write', 'term.assign', 'draft.create', 'page.publish', 'globalproperty.write', 'x']) {
      assert.deepEqual(row.policy.check(target, 'write', ORIGIN), [], target);
    }
    for (const target of ['/admin/agent/v1/actions/property.write/confirm', 'https://evil.example/x', 'Property.write', 'property..write', 'property.', '.write', '#x', 'a/b', 'a'.repeat(129)]) {
      assert.deepEqual(row.policy.check(target, 'write', ORIGIN), [['binding.target', 'actionIdentifier', target]], target);
    }
  });

  it('refuses effect read on the field effect (admin reads are endpoint bindings)', () => {
    assert.deepEqual(row.policy.check('property.write', 'read', ORIGIN), [['effect', 'adminActionRead']]);
  });
});

describe('admin declarations and the Capell rules', () => {
  it('a public island declaring admin-action is rejected with its reason', () => {
    const result = checkCapellDeclaration(PROPERTY_WRITE, context, REF_CHECKS);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(result.reasons.map(renderReason), [
      'binding.type: "admin-action" is an admin binding: only the admin registry (fetched with the editor\'s session on a page with data-admin-registry) may declare it, never a page\'s tools island',
    ]);
  });

  it('the admin registry\'s rules accept it, and its tools carry the session', async () => {
    const write = await normaliseAdminDeclaration(PROPERTY_WRITE, { ...context, source: 'capell-admin[0]' });
    assert.equal(write.ok, true);
    if (!write.ok) return;
    assert.deepEqual(write.spec.binding, { type: 'admin-action', target: 'property.write' });
    assert.equal(write.spec.session, true);
    assert.deepEqual(write.spec.annotations, { readOnlyHint: false, consequentialHint: true });
    const read = await normaliseAdminDeclaration(CONTENT_READ, context);
    assert.equal(read.ok && read.spec.session, true);
  });

  it('a public read is never given the session', () => {
    const read = checkCapellDeclaration(CONTENT_READ, context, REF_CHECKS);
    assert.equal(read.ok, true);
    assert.equal(read.ok && 'session' in read.spec, false);
  });

  it('the admin registry still applies every other Capell rule (a bad target, a read admin-action, an unknown key)', async () => {
    const bad = await normaliseAdminDeclaration({ ...PROPERTY_WRITE, effect: 'read', binding: { type: 'admin-action', target: '/admin/x' }, handler: 'x' }, context);
    assert.equal(bad.ok, false);
    if (bad.ok) return;
    assert.deepEqual(bad.reasons.map((reason) => (typeof reason === 'string' ? reason : reason[1])).sort(), ['actionIdentifier', 'adminActionRead', 'declarationKey']);
    const readOnly = await normaliseAdminDeclaration({ ...PROPERTY_WRITE, effect: 'read' }, context);
    assert.equal(readOnly.ok, false);
    assert.deepEqual(!readOnly.ok && readOnly.reasons.map((reason) => renderReason(reason as never)), ['effect: an admin-action binding must declare effect "write" (admin reads are endpoint bindings)']);
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
    answer = { status: 401, body: { capellAgentSchema: 1, error: { code: 'unauthenticated', message: 'sign in to the admin first' } } };
    const units = await adminRegistry.read(freshDocument(), configOn(true));
    assert.equal(units.length, 1);
    assert.deepEqual(units[0]!.declarations, []);
    assert.deepEqual(units[0]!.problem, ['manifest', 'adminSignedOut']);
    assert.equal(renderReason(units[0]!.problem!), 'manifest: not signed in to the admin (the admin registry answered 401): no admin tool is registered');
    assert.equal(seen.at(-1)!.path, '/admin/agent/v1/tools');
  });

  it('reads the envelope\'s data as the declarations, once per document', async () => {
    answer = { status: 200, body: { capellAgentSchema: 1, data: [CONTENT_READ, PROPERTY_WRITE], links: { next: null, previous: null } } };
    const doc = freshDocument();
    const before = seen.length;
    const [unit] = await readAdminRegistry(doc, configOn(true));
    assert.deepEqual(unit!.declarations, [CONTENT_READ, PROPERTY_WRITE]);
    assert.equal(unit!.problem, undefined);
    const [again] = await readAdminRegistry(doc, configOn(true));
    assert.equal(again!.owner, unit!.owner);
    assert.equal(again!.fingerprint, unit!.fingerprint);
    assert.equal(seen.length, before + 1, 'an unchanged registry is fetched once per document');
  });

  it('another status names it with the server\'s one line; a body that is not an envelope is refused', async () => {
    answer = { status: 500, body: { capellAgentSchema: 1, error: { code: 'broken', message: 'the admin is down' } } };
    const [failed] = await readAdminRegistry(freshDocument(), configOn(true));
    assert.deepEqual(failed!.problem, ['manifest', 'adminFetch', '/admin/agent/v1/tools answered 500: the admin is down']);
    answer = { status: 200, body: { capellAgentSchema: 1, tools: [] } };
    const [wrong] = await readAdminRegistry(freshDocument(), configOn(true));
    assert.deepEqual(wrong!.problem, ['manifest', 'adminRegistry', 'data is not an array']);
  });

  it('a reading with a problem is fetched again by the next update (the editor may have signed in)', async () => {
    const doc = freshDocument();
    answer = { status: 401, body: {} };
    const [signedOut] = await readAdminRegistry(doc, configOn(true));
    assert.deepEqual(signedOut!.problem, ['manifest', 'adminSignedOut']);
    answer = { status: 200, body: { capellAgentSchema: 1, data: [PROPERTY_WRITE], links: { next: null, previous: null } } };
    const [signedIn] = await readAdminRegistry(doc, configOn(true));
    assert.deepEqual(signedIn!.declarations, [PROPERTY_WRITE]);
    assert.equal(signedIn!.owner, signedOut!.owner, 'one owner per document');
  });
});
