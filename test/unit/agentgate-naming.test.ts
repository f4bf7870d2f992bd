/**
 * What names AgentGate on a page (src/agentgate/discover/agentgate-naming.ts): the island member's rows
 * (accepted namings and refusals, each refusal with its reason), the namings of a page in order
 * (script tag first, then islands in document order; refused islands name nothing), the URL each
 * naming stands for (only ever this origin's well-known path or /v1/agent-tools/{siteKey}), and
 * the source's synchronous answer when nothing names AgentGate.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHTML } from 'linkedom';
import { manifestURLOf } from '../../src/agentgate/discover/manifest-fetch.ts';
import { renderReason } from '../../src/shared/declarations/reason-text.ts';
import type { Reason } from '../../src/shared/declarations/reason.ts';
import { readAgentGateMember, readAgentGateNamings } from '../../src/agentgate/discover/agentgate-naming.ts';
import { agentGateManifests } from '../../src/registry/sources/agentgate.ts';
import type { RuntimeConfig } from '../../src/start/config.ts';

const ORIGIN = 'https://shop.example';

/** The options as `start()` would complete them, AgentGate not named by the options. */
const CONFIG = { origin: ORIGIN, agentgate: false, timeoutMs: 15_000 } as RuntimeConfig;

function pageWith(...islands: unknown[]): Document {
  const scripts = islands.map((island) => `<script type="application/json" data-capell-agent-tools>${typeof island === 'string' ? island : JSON.stringify(island)}</script>`).join('\n');
  return parseHTML(`<!doctype html><html><head>${scripts}</head><body></body></html>`).document as unknown as Document;
}

describe('an island\'s agentgate member', () => {
  const accepted: [string, unknown, object | null][] = [
    ['absent names nothing', undefined, null],
    ['false names nothing', false, null],
    ['true names the well-known manifest', true, {}],
    ['{} names the well-known manifest', {}, {}],
    ['{ siteKey } names /v1/agent-tools/{siteKey}', { siteKey: 'site_demo' }, { siteKey: 'site_demo' }],
  ];
  for (const [title, value, naming] of accepted) {
    it(title, () => assert.deepEqual(readAgentGateMember(value), naming));
  }

  const refused: [string, unknown][] = [
    ['a URL string', 'https://elsewhere.example/.well-known/agentgate-tools.json'],
    ['a path string', '/v1/agent-tools/site_demo'],
    ['"true" as a string', 'true'],
    ['a number', 1],
    ['null', null],
    ['an array', [{ siteKey: 'site_demo' }]],
    ['an object with a url', { url: 'https://elsewhere.example/tools.json' }],
    ['an object with an origin beside the site key', { siteKey: 'site_demo', origin: 'https://elsewhere.example' }],
    ['a site key with a slash', { siteKey: '../../agent/submit' }],
    ['a site key with a query', { siteKey: 'site_demo?x=1' }],
    ['an empty site key', { siteKey: '' }],
    ['a site key of 129 characters', { siteKey: 'k'.repeat(129) }],
    ['a site key that is not a string', { siteKey: 7 }],
  ];
  for (const [title, value] of refused) {
    it(`refuses ${title}, with its reason`, () => {
      const reason = readAgentGateMember(value) as Reason;
      assert.ok(Array.isArray(reason));
      assert.equal(reason[1], 'islandAgentGate');
      assert.match(renderReason(reason), /^agentgate: .* does not name an AgentGate manifest: use true \(this origin's \/\.well-known\/agentgate-tools\.json\) or \{"siteKey"/);
    });
  }
});

describe('the manifest URL a naming stands for', () => {
  it('is this origin\'s well-known path, or /v1/agent-tools/{siteKey}', () => {
    assert.equal(manifestURLOf(ORIGIN, {}).href, `${ORIGIN}/.well-known/agentgate-tools.json`);
    assert.equal(manifestURLOf(ORIGIN, { siteKey: 'site_demo' }).href, `${ORIGIN}/v1/agent-tools/site_demo`);
  });
});

describe('the namings of a page', () => {
  it('lists the options\' naming first, then each island\'s in document order', () => {
    const doc = pageWith(
      { capellAgentSchema: 1, tools: [], agentgate: { siteKey: 'site_a' } },
      { capellAgentSchema: 1, tools: [] },
      { capellAgentSchema: 1, tools: [], agentgate: true },
    );
    assert.deepEqual(readAgentGateNamings(doc, { agentgate: true, agentgateSiteKey: 'site_tag' }), [
      { naming: { siteKey: 'site_tag' } }, { naming: { siteKey: 'site_a' } }, { naming: {} },
    ]);
    assert.deepEqual(readAgentGateNamings(doc, { agentgate: false }), [{ naming: { siteKey: 'site_a' } }, { naming: {} }]);
  });

  it('an island refused as a whole names nothing; a refused member is listed with its island', () => {
    const doc = pageWith(
      { capellAgentSchema: 2, tools: [], agentgate: true },
      '{"capellAgentSchema": 1, "agentgate": true',
      { capellAgentSchema: 1, tools: [], agentgate: 'https://elsewhere.example/' },
    );
    const found = readAgentGateNamings(doc, { agentgate: false });
    assert.equal(found.length, 1);
    assert.ok('problem' in found[0]!);
    assert.equal((found[0] as { island: Element }).island, doc.querySelectorAll('script')[2]);
  });

  it('the source answers [] synchronously, fetching nothing, when nothing names AgentGate or without options', () => {
    const named = pageWith({ capellAgentSchema: 1, tools: [], agentgate: true });
    const unnamed = pageWith({ capellAgentSchema: 1, tools: [] });
    assert.deepEqual(agentGateManifests.read(unnamed, CONFIG), []);
    assert.deepEqual(agentGateManifests.read(named), []);
  });

  it('the source answers a refused member with its own unit and reason, fetching nothing', async () => {
    const doc = pageWith({ capellAgentSchema: 1, tools: [], agentgate: { url: 'https://elsewhere.example/' } });
    const units = await agentGateManifests.read(doc, CONFIG);
    assert.equal(units.length, 1);
    assert.deepEqual(units[0]!.declarations, []);
    assert.deepEqual(units[0]!.problem, ['agentgate', 'islandAgentGate', { url: 'https://elsewhere.example/' }]);
  });
});
