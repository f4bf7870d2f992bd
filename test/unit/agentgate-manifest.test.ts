/**
 * The AgentGate manifest's rules (src/agentgate/discover/manifest-rules.ts): a row table of manifests and
 * tools refused, each by a reason citing its source rule (src/shared/declarations/rules.ts), the others
 * registering; the mapping onto ToolSpec (name, description, schemas and hints); and the demo
 * site's own manifest accepted as it is served.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAgentGateTool, readAgentGateManifest } from '../../src/agentgate/discover/manifest-rules.ts';
import { REF_CHECKS } from '../../src/shared/declarations/ref-checks.ts';
import { renderReason } from '../../src/shared/declarations/reason-text.ts';
import { RULES, SOURCES, type RuleSource } from '../../src/shared/declarations/rules.ts';
import { agentGateManifestURL } from '../../src/agentgate/discover/manifest-fetch.ts';
import { renderManifest, SITES } from '../../demo/server/agentgate/manifest.js';

const ORIGIN = 'https://shop.example';
const context = { source: 'agentgate[0]', origin: ORIGIN, messages: {} };

/** The seed's send_message tool on ORIGIN; each row changes it. */
const SEND_MESSAGE = {
  name: 'send_message',
  title: 'Send a message',
  description: 'Send a message to the site\'s inbox.',
  inputSchema: {
    type: 'object',
    properties: { id: { type: 'string', minLength: 8, maxLength: 128 }, message: { type: 'string', minLength: 1, maxLength: 1000 } },
    required: ['id', 'message'], additionalProperties: false,
  },
  outputSchema: { type: 'object', properties: { status: { type: 'string', enum: ['accepted', 'already_accepted'] } } },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  action: 'agent_submit',
  endpoint: { method: 'POST', url: `${ORIGIN}/agent/submit`, contentType: 'application/json' },
  auth: [{ type: 'web-bot-auth', components: ['@authority', '@method', '@path', 'content-digest'], tag: 'web-bot-auth' }],
};

function toolWith(change: Record<string, unknown>): Record<string, unknown> {
  const tool: Record<string, unknown> = structuredClone(SEND_MESSAGE);
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete tool[key];
    else tool[key] = value;
  }
  return tool;
}

const endpoint = (change: Record<string, unknown>) => ({ endpoint: { ...SEND_MESSAGE.endpoint, ...change } });

/** One tool rule: the change to SEND_MESSAGE, the source rule it cites, the reason it gives (or none: accepted). */
const TOOL_ROWS: { rule: string; source: RuleSource; change: Record<string, unknown>; rejects?: RegExp }[] = [
  { rule: 'the seed\'s send_message is accepted', source: SOURCES.agentgateTool, change: {} },
  { rule: 'a name outside the MCP Tool rule is refused', source: SOURCES.mcpName, change: { name: 'send message!' }, rejects: /^name: "send message!" is not an MCP tool name/ },
  { rule: 'a name of 129 characters is refused', source: SOURCES.mcpName, change: { name: 'a'.repeat(129) }, rejects: /^name: "a{129}" is not an MCP tool name/ },
  { rule: 'a missing description is refused', source: SOURCES.agentgateTool, change: { description: undefined }, rejects: /^description: required/ },
  { rule: 'a bad inputSchema is refused', source: SOURCES.schemaKeywords, change: { inputSchema: { type: 'object', properties: { id: { type: 'string', contentMediaType: 'text/x' } } } }, rejects: /unsupported schema keyword "contentMediaType"/ },
  { rule: 'an inputSchema whose root is not an object is refused', source: SOURCES.rootObject, change: { inputSchema: { type: 'string' } }, rejects: /^inputSchema\/type: the root must be "object"/ },
  { rule: 'a missing inputSchema is refused (MCP Tool requires one)', source: SOURCES.schemaValues, change: { inputSchema: undefined }, rejects: /^inputSchema: must be a JSON Schema object/ },
  { rule: 'a hint that is not a boolean is refused', source: SOURCES.agentgateTool, change: { annotations: { readOnlyHint: 'no' } }, rejects: /^annotations\.readOnlyHint: must be true or false/ },
  { rule: 'a tool without an action is refused', source: SOURCES.agentgateEndpoint, change: { action: undefined }, rejects: /^action: required/ },
  { rule: 'a browser-only action (no endpoint) is refused', source: SOURCES.agentgateEndpoint, change: { endpoint: undefined }, rejects: /^endpoint: required.*browser-only action/ },
  { rule: 'an endpoint on a foreign origin is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ url: 'https://evil.example/agent/submit' }), rejects: /^endpoint\.url: "https:\/\/evil\.example\/agent\/submit" is not on this page's origin/ },
  { rule: 'an endpoint on another port is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ url: 'https://shop.example:8443/agent/submit' }), rejects: /is not on this page's origin/ },
  { rule: 'a relative endpoint URL is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ url: '/agent/submit' }), rejects: /^endpoint\.url: "\/agent\/submit" is not an absolute http\(s\) URL/ },
  { rule: 'a prefix route (wildcard) is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ url: `${ORIGIN}/agent/*` }), rejects: /is not an exact route: it has a wildcard/ },
  { rule: 'a template route is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ url: `${ORIGIN}/agent/{id}` }), rejects: /is not an exact route: it has a template/ },
  { rule: 'a route with a query is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ url: `${ORIGIN}/agent/submit?x=1` }), rejects: /is not an exact route: it has a query/ },
  { rule: 'a route with a fragment is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ url: `${ORIGIN}/agent/submit#x` }), rejects: /is not an exact route: it has a fragment/ },
  { rule: 'a route with dot segments is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ url: `${ORIGIN}/agent/../admin` }), rejects: /is not an exact route: it has "\." or "\.\." segments/ },
  { rule: 'the manifest\'s handoff.poll on the own origin with one {id} segment is accepted', source: SOURCES.agentgateHandoff, change: { handoff: { poll: `${ORIGIN}/v1/handoff/{id}` } } },
  { rule: 'a handoff.poll on a foreign origin is refused', source: SOURCES.agentgateHandoff, change: { handoff: { poll: 'https://evil.example/v1/handoff/{id}' } }, rejects: /^handoff\.poll: "https:\/\/evil\.example\/v1\/handoff\/\{id\}" is not a handoff poll URL/ },
  { rule: 'a handoff.poll without {id} is refused', source: SOURCES.agentgateHandoff, change: { handoff: { poll: `${ORIGIN}/v1/handoff` } }, rejects: /^handoff\.poll: .* is not a handoff poll URL/ },
  { rule: 'a handoff.poll with {id} inside a segment or twice is refused', source: SOURCES.agentgateHandoff, change: { handoff: { poll: `${ORIGIN}/v1/h-{id}/{id}` } }, rejects: /^handoff\.poll: .* is not a handoff poll URL/ },
  { rule: 'a handoff without poll is refused', source: SOURCES.agentgateHandoff, change: { handoff: {} }, rejects: /^handoff\.poll: missing is not a handoff poll URL|^handoff\.poll: .* is not a handoff poll URL/ },
  { rule: 'GET cannot carry the JSON input and is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ method: 'GET' }), rejects: /^endpoint\.method: "GET" is not a method the runtime can send/ },
  { rule: 'a form content type is refused', source: SOURCES.agentgateEndpoint, change: endpoint({ contentType: 'application/x-www-form-urlencoded' }), rejects: /^endpoint\.contentType: .* is not a content type the runtime can send/ },
  { rule: 'an unknown auth type is refused', source: SOURCES.agentgateAuth, change: { auth: [{ type: 'oauth2' }] }, rejects: /^auth\[0\]\.type: "oauth2" is not "web-bot-auth" or "shared-key"/ },
  { rule: 'no auth is refused', source: SOURCES.agentgateAuth, change: { auth: [] }, rejects: /^auth: required/ },
  { rule: 'web-bot-auth without components is refused', source: SOURCES.agentgateAuth, change: { auth: [{ type: 'web-bot-auth' }] }, rejects: /^auth\[0\]\.components: required for web-bot-auth/ },
  { rule: 'a component the signer cannot sign is refused', source: SOURCES.agentgateAuth, change: { auth: [{ type: 'web-bot-auth', components: ['@authority', '@status'] }] }, rejects: /"@status" is not a component the runtime can sign/ },
  { rule: 'a shared-key auth tagged web-bot-auth is refused', source: SOURCES.agentgateAuth, change: { auth: [{ type: 'shared-key', components: ['@authority'], tag: 'web-bot-auth' }] }, rejects: /^auth\[0\]\.tag: "web-bot-auth": a shared-key \(HMAC\) signature must not carry/ },
  { rule: 'a shared-key auth is accepted', source: SOURCES.agentgateAuth, change: { auth: [{ type: 'shared-key', components: ['@authority', '@method', '@path', 'content-digest'] }] } },
];

describe('AgentGate tools: the row table', () => {
  for (const row of TOOL_ROWS) {
    it(row.rule, () => {
      const result = checkAgentGateTool(toolWith(row.change), context, REF_CHECKS);
      if (!row.rejects) {
        assert.equal(result.ok, true, result.ok ? '' : result.reasons.map(renderReason).join(' | '));
        return;
      }
      assert.equal(result.ok, false, 'expected a rejection');
      if (result.ok) return;
      const matching = result.reasons.filter((reason) => row.rejects!.test(renderReason(reason)));
      assert.ok(matching.length > 0, `no reason matches ${row.rejects}: ${result.reasons.map(renderReason).join(' | ')}`);
      assert.ok(matching.some((reason) => RULES[reason[1]].source === row.source), `the row cites ${row.source}`);
    });
  }
});

/** Manifest rules: the text, the reason on the whole manifest (or none). */
const MANIFEST_ROWS: { rule: string; text: string; rejects?: RegExp }[] = [
  { rule: 'a manifest with a bad version is refused', text: JSON.stringify({ version: 'agentgate-tools/2', site: { siteKey: 's' }, tools: [] }), rejects: /^manifest\.version: "agentgate-tools\/2" is not a supported AgentGate manifest version/ },
  { rule: 'a manifest without a version is refused', text: JSON.stringify({ site: { siteKey: 's' }, tools: [] }), rejects: /^manifest\.version: missing is not a supported/ },
  { rule: 'a manifest without site is refused', text: JSON.stringify({ version: 'agentgate-tools/1', tools: [] }), rejects: /^manifest\.site: required/ },
  { rule: 'a manifest whose tools is not an array is refused', text: JSON.stringify({ version: 'agentgate-tools/1', site: { siteKey: 's' }, tools: {} }), rejects: /^manifest\.tools: must be an array/ },
  { rule: 'a manifest that is not JSON is refused', text: '<html>', rejects: /^manifest: the AgentGate manifest is not valid JSON/ },
  { rule: 'a manifest that is not an object is refused', text: '[]', rejects: /^manifest: the AgentGate manifest must be a JSON object/ },
  { rule: 'a well-formed manifest gives its tools', text: JSON.stringify({ version: 'agentgate-tools/1', site: { siteKey: 's', name: 'S' }, tools: [SEND_MESSAGE] }) },
];

describe('AgentGate manifests: the row table', () => {
  for (const row of MANIFEST_ROWS) {
    it(row.rule, () => {
      const reading = readAgentGateManifest(row.text);
      if (!row.rejects) {
        assert.equal(reading.problem, undefined);
        assert.equal(reading.tools.length, 1);
        return;
      }
      assert.ok(reading.problem, 'expected the manifest to be refused');
      assert.match(renderReason(reading.problem!), row.rejects);
      assert.equal(RULES[reading.problem![1]].source, SOURCES.agentgateManifest);
      assert.deepEqual(reading.tools, []);
    });
  }

  it('refuses each malformed tool while the others register', () => {
    const reading = readAgentGateManifest(JSON.stringify({
      version: 'agentgate-tools/1', site: { siteKey: 's' },
      tools: [toolWith({ name: 'bad name' }), SEND_MESSAGE, toolWith({ name: 'other', endpoint: undefined })],
    }));
    const results = reading.tools.map((tool) => checkAgentGateTool(tool, context, REF_CHECKS));
    assert.deepEqual(results.map((result) => result.ok), [false, true, false]);
  });
});

describe('AgentGate tools: the mapping onto ToolSpec', () => {
  it('maps the MCP Tool fields one to one, sends only WebMCP hints, keeps MCP-only hints apart', () => {
    const result = checkAgentGateTool(SEND_MESSAGE, context, REF_CHECKS);
    assert.ok(result.ok);
    const { spec } = result;
    assert.equal(spec.name, 'send_message');
    assert.equal(spec.title, 'Send a message');
    assert.equal(spec.description, SEND_MESSAGE.description);
    assert.deepEqual(spec.inputSchema, SEND_MESSAGE.inputSchema);
    assert.deepEqual(spec.outputSchema, SEND_MESSAGE.outputSchema);
    // readOnlyHint as is; no consequentialHint invented from destructiveHint.
    assert.deepEqual(spec.annotations, { readOnlyHint: false });
    assert.deepEqual(spec.hints, { destructiveHint: false, idempotentHint: true, openWorldHint: false });
    assert.equal(spec.effect, 'write');
    assert.deepEqual(spec.binding, {
      type: 'agentgate', target: `${ORIGIN}/agent/submit`, method: 'POST', contentType: 'application/json',
      auth: { type: 'web-bot-auth', components: ['@authority', '@method', '@path', 'content-digest'], tag: 'web-bot-auth' },
    });
  });

  it('passes consequentialHint and untrustedContentHint through when the site sets them', () => {
    const result = checkAgentGateTool(toolWith({ annotations: { readOnlyHint: true, consequentialHint: false, untrustedContentHint: true } }), context, REF_CHECKS);
    assert.ok(result.ok);
    assert.deepEqual(result.spec.annotations, { readOnlyHint: true, consequentialHint: false, untrustedContentHint: true });
    assert.equal(result.spec.effect, 'read');
    assert.equal(result.spec.hints, undefined);
  });

  it('marks a priced tool (its manifest has payment) consequential whatever its readOnlyHint says', () => {
    const priced = (tool: Record<string, unknown>) => {
      const reading = readAgentGateManifest(JSON.stringify({ version: 'agentgate-tools/1', site: { siteKey: 'shop' }, tools: [tool], payment: { price: 'crawler-price' } }));
      const result = checkAgentGateTool(reading.tools[0], context, REF_CHECKS);
      assert.ok(result.ok);
      return result.spec;
    };
    const read = priced(toolWith({ annotations: { readOnlyHint: true, consequentialHint: false } }));
    assert.deepEqual(read.annotations, { readOnlyHint: true, consequentialHint: true });
    assert.equal(read.effect, 'read');
    assert.deepEqual(priced(SEND_MESSAGE).annotations, { readOnlyHint: false, consequentialHint: true });
    // Without payment the site's hints stand as set.
    const free = readAgentGateManifest(JSON.stringify({ version: 'agentgate-tools/1', site: { siteKey: 'shop' }, tools: [toolWith({ annotations: { readOnlyHint: true } })] }));
    const result = checkAgentGateTool(free.tools[0], context, REF_CHECKS);
    assert.ok(result.ok);
    assert.deepEqual(result.spec.annotations, { readOnlyHint: true });
  });

  it('accepts the demo site\'s manifest as served: send_message (web-bot-auth), message_status (shared-key), request_callback (handoff), stock_report (priced)', () => {
    const origin = 'http://127.0.0.1:5173';
    const reading = readAgentGateManifest(renderManifest(SITES[0]!, origin).json);
    assert.equal(reading.problem, undefined);
    const results = reading.tools.map((tool) => checkAgentGateTool(tool, { ...context, origin }, REF_CHECKS));
    assert.deepEqual(results.map((result) => (result.ok ? result.spec.name : result.reasons.map(renderReason))), ['send_message', 'message_status', 'request_callback', 'stock_report']);
    for (const result of results) assert.equal(result.ok && result.spec.binding.type === 'agentgate' && result.spec.binding.handoffPoll, `${origin}/v1/handoff/{id}`);
  });
});

describe('AgentGate discovery: the manifest URL', () => {
  it('is the well-known path by host, /v1/agent-tools/{siteKey} with a site key, none when off', () => {
    assert.equal(agentGateManifestURL({ origin: ORIGIN, agentgate: true })?.href, `${ORIGIN}/.well-known/agentgate-tools.json`);
    assert.equal(agentGateManifestURL({ origin: ORIGIN, agentgate: true, agentgateSiteKey: 'site_demo' })?.href, `${ORIGIN}/v1/agent-tools/site_demo`);
    assert.equal(agentGateManifestURL({ origin: ORIGIN, agentgate: false, agentgateSiteKey: 'site_demo' }), undefined);
  });
});
