/**
 * The agent's signer in real Chromium: the key kept in IndexedDB (idb-keyval) as a
 * non-extractable CryptoKey, and signRequest on a browser Request.
 */
import { expect } from 'chai';
import { del, get } from 'idb-keyval';
import { parseDictionary, type InnerList, type Parameters } from 'structured-headers';
import { buildSignatureBase, type Component } from '../../src/agentgate/signature-base.ts';
import { signRequest } from '../../src/agentgate/signer.ts';
import { loadStoredSigner } from '../../src/agentgate/stored-signer.ts';

const STORAGE_KEY = 'capell-webmcp:test:signing-key';

afterEach(async () => {
  await del(STORAGE_KEY);
});

describe('agent signer in the browser', () => {
  it('keeps a non-extractable Ed25519 key in IndexedDB and reuses it', async () => {
    const first = await loadStoredSigner({ alg: 'ed25519', signatureAgent: 'https://agent.example', storageKey: STORAGE_KEY });
    const stored = (await get(STORAGE_KEY)) as { privateKey: CryptoKey; publicJwk: JsonWebKey };
    expect(stored.privateKey).to.be.instanceOf(CryptoKey);
    expect(stored.privateKey.extractable).to.equal(false);
    let exported = true;
    try {
      await crypto.subtle.exportKey('jwk', stored.privateKey);
    } catch {
      exported = false;
    }
    expect(exported).to.equal(false);
    expect(stored.publicJwk).to.not.have.property('d');
    const again = await loadStoredSigner({ alg: 'ed25519', signatureAgent: 'https://agent.example', storageKey: STORAGE_KEY });
    expect(again.signer.keyid).to.equal(first.signer.keyid);
    expect(again.directory).to.deep.equal({ keys: [first.publicJwk] });
  });

  it('signs a browser Request: body kept, headers added, signature verifies with the published key', async () => {
    const { signer, publicJwk } = await loadStoredSigner({ alg: 'ed25519', signatureAgent: 'https://agent.example', storageKey: STORAGE_KEY });
    const body = JSON.stringify({ id: 'order-7f3a-0001', message: 'hello' });
    const request = new Request(`${location.origin}/agent/submit`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, credentials: 'omit', redirect: 'error' });
    const signed = await signRequest(request, signer, { components: ['@authority', '@method', '@path', 'content-digest'] });
    expect(await signed.text()).to.equal(body);
    expect(signed.credentials).to.equal('omit');
    expect(signed.redirect).to.equal('error');
    expect(signed.headers.get('signature-agent')).to.equal('sig1="https://agent.example"');
    const [items, params] = parseDictionary(signed.headers.get('signature-input') ?? '').get('sig1') as InnerList as [[string, Parameters][], Parameters];
    const components: Component[] = items.map(([name, p]) => (p.has('key') ? { name, key: String(p.get('key')) } : name));
    const { base } = buildSignatureBase(signed, components, Object.fromEntries(params));
    expect(base.split('\n')[0]).to.equal(`"@authority": ${location.host}`);
    const signature = parseDictionary(signed.headers.get('signature') ?? '').get('sig1')?.[0] as ArrayBuffer;
    const key = await crypto.subtle.importKey('jwk', publicJwk as JsonWebKey, { name: 'Ed25519' }, false, ['verify']);
    expect(await crypto.subtle.verify('Ed25519', key, signature, new TextEncoder().encode(base))).to.equal(true);
  });
});
