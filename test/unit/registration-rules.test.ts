/**
 * The registration rules every source shares (src/shared/registration-rules.ts), judged once for the
 * runtime and the CLI: first name wins, the runtime's own tool name is reserved, WebMCP's name
 * limits, and a form the browser registers natively (`toolname`) is not registered twice.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHTML } from 'linkedom';
import { renderReason } from '../../src/shared/declarations/reason-text.ts';
import type { ToolSpec } from '../../src/shared/declarations/tool-spec.ts';
import { NameClaims, nativeFormToolReason, registrationRefusal, webMCPNameReason, WRITE_STATUS_TOOL } from '../../src/shared/registration-rules.ts';
import { validateManifest } from '../../src/cli/cli.ts';

function spec(name: string, binding: ToolSpec['binding'] = { type: 'inline', target: 'page' }): ToolSpec {
  return {
    name, description: 'A tool.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true },
    effect: binding.type === 'form' ? 'write' : 'read', binding, source: 'test[0]', messages: {},
  };
}

describe('registration rules', () => {
  it('the first claim of a name wins; a later one names the first holder (Capell Agent Schema: names are unique)', () => {
    const claims = new NameClaims([]);
    assert.equal(claims.claim('site.search', 'capell-island[0]'), undefined);
    const duplicate = claims.claim('site.search', 'capell-island[1]');
    assert.deepEqual(duplicate, ['name', 'duplicate', 'site.search', 'capell-island[0]']);
    assert.equal(renderReason(duplicate!), 'name: "site.search" is already declared by capell-island[0] (the first declaration wins)');
  });

  it('reserves the runtime\'s own write status tool by default', () => {
    const reason = new NameClaims().claim(WRITE_STATUS_TOOL, 'capell-island[0]');
    assert.match(renderReason(reason!), /already declared by capell-webmcp \(its own write status tool\)/);
  });

  it('applies WebMCP\'s name limits (registerTool refuses names outside ^[A-Za-z0-9_.-]{1,128}$)', () => {
    assert.equal(webMCPNameReason('send_message'), undefined);
    assert.equal(webMCPNameReason('a'.repeat(128)), undefined);
    assert.match(renderReason(webMCPNameReason('a'.repeat(129))!), /is not a WebMCP tool name/);
    assert.match(renderReason(webMCPNameReason('send message')!), /is not a WebMCP tool name/);
    assert.match(renderReason(webMCPNameReason('')!), /is not a WebMCP tool name/);
  });

  it('refuses a form tool whose form carries toolname (declarative WebMCP registers it natively)', () => {
    const { document } = parseHTML('<html><body><form id="enquiry" toolname="contact"></form><form id="plain"></form></body></html>');
    const doc = document as unknown as Document;
    assert.match(nativeFormToolReason(spec('form.submit.enquiry', { type: 'form', target: 'enquiry' }), doc)!, /carries toolname="contact"/);
    assert.equal(nativeFormToolReason(spec('form.submit.plain', { type: 'form', target: 'plain' }), doc), undefined);
    assert.equal(nativeFormToolReason(spec('form.submit.none', { type: 'form', target: 'none' }), doc), undefined);
    const claims = new NameClaims();
    assert.match(String(registrationRefusal(spec('form.submit.enquiry', { type: 'form', target: 'enquiry' }), 'capell-island[0]', claims, doc)), /toolname/);
  });

  it('the CLI judges duplicates with the same rules and words as the runtime', () => {
    const declaration = { name: 'page.get', description: 'This page.', effect: 'read', binding: { type: 'inline', target: 'page' } };
    const lines = validateManifest({ agent_tools: [declaration, declaration, { ...declaration, name: WRITE_STATUS_TOOL }] }, { origin: 'https://shop.example', messages: {} });
    assert.deepEqual(lines, [
      'page.get: name: "page.get" is already declared by agent_tools[0] (the first declaration wins)',
      'capell.write.status: name: "capell.write.status" is already declared by capell-webmcp (its own write status tool) (the first declaration wins)',
    ]);
  });
});

describe('registration rules: AgentGate tools', () => {
  it('an AgentGate tool registers without any signer: the page cannot know whether the agent\'s browser signs', () => {
    const agentGate = spec('send_message', {
      type: 'agentgate', target: 'https://shop.example/agent/submit', method: 'POST', contentType: 'application/json',
      auth: { type: 'web-bot-auth', components: ['@authority'], tag: 'web-bot-auth' },
    });
    assert.equal(registrationRefusal(agentGate, 'agentgate[0]', new NameClaims(), { getElementById: () => null } as never), undefined);
  });
});
