/**
 * The demo admin's invoke route against Capell's rules (capell-app/capell `packages/admin`:
 * `AgentAdminToolController.php` @73e5701, `AgentAdminToolInvocationService.php` @2c15f27,
 * `AgentAdminConfirmationStore.php` @73e5701; test/fixtures/capell/admin/SOURCES.md §3 and the
 * invoke/*.json exchanges), over real HTTP against one demo app: a read answers at once; a write
 * answers confirmation_required with a 64-hex token and changes nothing; the approval
 * `{ tool, confirmation_token }` runs the stored payload once; the token is bound to the actor,
 * session, tool, site, payload and preview, and lives 10 minutes; refusals have Capell's statuses
 * and messages.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startAdminDemo, type AdminDemo, type Json } from '../support/demo-admin-client.ts';
import { PAGES } from '../../demo/server/catalogue.js';

const RULE = 'Capell admin, AgentAdminToolInvocationService';

/** The About page (site a) and the trail runner (a product of site a), by storage id. */
const ABOUT = 810702;
const TRAIL_RUNNER = PAGES.find((page) => page.key === 'trail-runner')!.id;
/** Terms of site a: `care` and `trails` (topics), `shoes` and `bags` (categories). */
const CARE = 810404;
const SHOES = 810401;
const BAGS = 810402;

/** Capell's exchange fixtures (test/fixtures/capell/admin/invoke/*.json): the body bytes Capell answers. */
const exchange = (file: string) => JSON.parse(readFileSync(new URL(`../fixtures/capell/admin/invoke/${file}`, import.meta.url), 'utf8')) as { status: number; bodyBytes: string; body: Json };

let demo: AdminDemo;
let clockAhead = 0;

before(async () => {
  demo = await startAdminDemo({ now: () => new Date(Date.now() + clockAhead) } as Parameters<typeof startAdminDemo>[0]);
});
after(async () => {
  await demo.close();
});
beforeEach(() => {
  clockAhead = 0;
  demo.app.admin.reset();
});

/** The key order of an object at every level, for comparing shapes with Capell's answers. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shape(value[0])] : [];
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]));
  return value === null ? null : typeof value;
}

describe('demo admin: invoke', () => {
  test(`${RULE}: a read answers at once, { ok, mode: "executed", tool, data }, with the rows Capell's presenter writes`, async () => {
    const ada = await demo.signIn('ada');
    const answer = await ada.invoke('admin.page.properties.read', { page_id: TRAIL_RUNNER });
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.json), ['ok', 'mode', 'tool', 'data']);
    assert.deepEqual(shape(answer.json), shape(exchange('read-page-properties.json').body));
    const price = answer.json.data.properties.find((row: Json) => row.key === 'commerce.product.price');
    assert.deepEqual({ type: price.type, semantic: price.semantic, currency: price.currency }, { type: 'money', semantic: 'schema:price', currency: 'EUR' });
  });

  test(`${RULE}: a write answers confirmation_required with the preview, a 64-hex token and Capell's message, and changes nothing`, async () => {
    const ada = await demo.signIn('ada');
    const before = demo.app.admin.page('a', 'about');
    const answer = await ada.invoke('admin.page.terms.write', { page_id: ABOUT, term_ids: [CARE] });
    assert.equal(answer.status, 200);
    const capell = exchange('write-terms-confirmation-required.json').body;
    assert.deepEqual(Object.keys(answer.json), Object.keys(capell));
    assert.match(answer.json.confirmationToken, /^[a-f0-9]{64}$/);
    assert.equal(answer.json.message, capell.message);
    assert.deepEqual(answer.json.data, { page_id: ABOUT, before_term_ids: [], after_term_ids: [CARE] });
    assert.deepEqual(demo.app.admin.page('a', 'about'), before);
    // The store keeps no token: records are keyed by a hash of it.
    assert.ok(!JSON.stringify(demo.app.admin.confirmationRecords()).includes(answer.json.confirmationToken));
  });

  test(`${RULE}: the approval { tool, confirmation_token } runs the stored payload once (a payload sent with it is ignored); a second use is 403`, async () => {
    const ada = await demo.signIn('ada');
    const { json } = await ada.invoke('admin.page.terms.write', { page_id: ABOUT, term_ids: [CARE] });
    const approval = await ada.post('/tools/invoke', { tool: 'admin.page.terms.write', payload: { page_id: ABOUT, term_ids: [BAGS] }, confirmation_token: json.confirmationToken });
    assert.equal(approval.status, 200);
    assert.equal(approval.text, `{"ok":true,"mode":"executed","tool":"admin.page.terms.write","data":{"page_id":${ABOUT},"term_ids":[${CARE}],"assigned":true}}`);
    assert.deepEqual(demo.app.admin.page('a', 'about')!.record.terms, [{ taxonomy: 'topics', term: 'care' }]);
    const again = await ada.approve('admin.page.terms.write', json.confirmationToken);
    assert.equal(again.status, 403);
    assert.equal(again.text, exchange('write-terms-token-reused-403.json').bodyBytes);
  });

  test(`${RULE}: a token is looked up with the actor and session: another session's attempt is 403 and leaves it for its own session`, async () => {
    const ada = await demo.signIn('ada');
    const adaElsewhere = await demo.signIn('ada');
    const gil = await demo.signIn('gil');
    const { json } = await ada.invoke('admin.page.terms.write', { page_id: ABOUT, term_ids: [CARE] });
    for (const other of [adaElsewhere, gil]) {
      const stolen = await other.approve('admin.page.terms.write', json.confirmationToken);
      assert.equal(stolen.status, 403, other.actor);
      assert.equal(stolen.text, exchange('write-terms-token-other-session-403.json').bodyBytes);
    }
    assert.deepEqual(demo.app.admin.page('a', 'about')!.record.terms, []);
    assert.equal((await ada.approve('admin.page.terms.write', json.confirmationToken)).status, 200);
  });

  test(`${RULE}: a token sent with another tool, after 10 minutes, or after the preview changed is refused with 403 and spent`, async () => {
    const ada = await demo.signIn('ada');
    const wrongTool = await ada.invoke('admin.page.terms.write', { page_id: ABOUT, term_ids: [CARE] });
    assert.equal((await ada.approve('admin.page.publish', wrongTool.json.confirmationToken)).status, 403);
    assert.equal((await ada.approve('admin.page.terms.write', wrongTool.json.confirmationToken)).status, 403, 'spent by the failed attempt');

    const late = await ada.invoke('admin.page.terms.write', { page_id: ABOUT, term_ids: [CARE] });
    clockAhead = 10 * 60_000;
    const expired = await ada.approve('admin.page.terms.write', late.json.confirmationToken);
    assert.equal(expired.status, 403);
    assert.equal(expired.text, exchange('write-terms-token-expired-403.json').bodyBytes);
    clockAhead = 0;

    const changing = await ada.invoke('admin.page.terms.write', { page_id: ABOUT, term_ids: [CARE] });
    const other = await ada.invoke('admin.page.terms.write', { page_id: ABOUT, term_ids: [SHOES] });
    assert.equal((await ada.approve('admin.page.terms.write', other.json.confirmationToken)).status, 200);
    const changed = await ada.approve('admin.page.terms.write', changing.json.confirmationToken);
    assert.equal(changed.status, 403);
    assert.deepEqual(changed.json, { message: 'The agent confirmation is no longer valid because the preview changed.' });
    assert.deepEqual(demo.app.admin.page('a', 'about')!.record.terms, [{ taxonomy: 'categories', term: 'shoes' }]);
  });

  test(`${RULE}: a site_id anywhere in the request is refused with 422 before anything runs; the site is the session's`, async () => {
    const ada = await demo.signIn('ada');
    const capell = exchange('site-id-refused-422.json');
    for (const body of [{ site_id: 2, tool: 'admin.page.properties.read', payload: { page_id: ABOUT } }, { site_id: null, tool: 'admin.page.terms.write', payload: { page_id: ABOUT, term_ids: [CARE] } }]) {
      const answer = await ada.post('/tools/invoke', body);
      assert.equal(answer.status, 422);
      assert.equal(answer.text, capell.bodyBytes);
    }
    const query = await ada.post('/tools/invoke?site_id=1', { tool: 'admin.page.properties.read', payload: { page_id: ABOUT } });
    assert.equal(query.status, 422);
    assert.deepEqual(demo.app.admin.confirmationRecords().filter((record: Json) => record.session_id === ada.sessionId), []);
    // A page of another site is not found in the session's site.
    const workshop = await ada.invoke('admin.page.properties.read', { page_id: 820702 });
    assert.equal(workshop.status, 404);
    assert.equal(workshop.text, exchange('page-not-found-404.json').bodyBytes);
  });

  test(`${RULE}: policy, validation, a rejected preview and an unknown tool answer as Capell's admin does`, async () => {
    const ada = await demo.signIn('ada');
    const settings = await ada.invoke('admin.settings.write', { group: 'core', values: { site_name: 'Outfitters' } });
    assert.equal(settings.status, 403);
    assert.equal(settings.text, exchange('permission-denied-403.json').bodyBytes);
    const invalid = await ada.invoke('admin.page.terms.write', { page_id: ABOUT });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.text, exchange('validation-payload-422.json').bodyBytes);
    const unknown = await ada.invoke('admin.no.such.tool', {});
    assert.equal(unknown.status, 500);
    assert.equal(unknown.text, exchange('unknown-tool-500.json').bodyBytes);
    const token = await ada.post('/tools/invoke', { tool: 'admin.page.terms.write', confirmation_token: 'abc' });
    assert.equal(token.status, 422);
    assert.equal(token.text, exchange('validation-token-size-422.json').bodyBytes);
    // A product without its SKU is not ready to publish: the preview is rejected, 422 with the envelope.
    const page = demo.app.admin.page('a', 'trail-runner');
    assert.ok(page);
    const bare = await ada.invoke('admin.page.properties.write', { page_id: TRAIL_RUNNER, property_key: 'commerce.product.sku', value: '' });
    assert.equal((await ada.approve('admin.page.properties.write', bare.json.confirmationToken)).status, 200);
    const blocked = await ada.invoke('admin.page.publish', { page_id: TRAIL_RUNNER });
    assert.equal(blocked.status, 422);
    assert.deepEqual(Object.keys(blocked.json), ['ok', 'mode', 'tool', 'data', 'message']);
    assert.deepEqual({ ok: blocked.json.ok, mode: blocked.json.mode, message: blocked.json.message }, { ok: false, mode: 'rejected', message: exchange('publish-rejected-422.json').body.message });
    assert.deepEqual(blocked.json.data.missing_publish_required, ['commerce.product.sku']);
    assert.deepEqual(Object.keys(blocked.json.data), Object.keys(exchange('publish-rejected-422.json').body.data));
  });

  test(`${RULE}: the rights are read again at the approval: revoked between invoke and approval, 403 "This action is unauthorized." and nothing changes`, async () => {
    const ada = await demo.signIn('ada');
    const { json } = await ada.invoke('admin.page.terms.write', { page_id: ABOUT, term_ids: [CARE] });
    demo.app.admin.revoke('ada', 'a', 'page.update');
    try {
      const refused = await ada.approve('admin.page.terms.write', json.confirmationToken);
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.json, { message: 'This action is unauthorized.' });
    } finally {
      demo.app.admin.grant('ada', 'a', 'page.update');
    }
    assert.deepEqual(demo.app.admin.page('a', 'about')!.record.terms, []);
  });

  test(`${RULE}: a publication approved makes the draft the public page`, async () => {
    const ada = await demo.signIn('ada');
    const draft = await ada.invoke('admin.page.draft.save', { page_id: ABOUT, locale: 'en', fields: { name: 'Our story' } });
    assert.equal(draft.json.data.publication_impact, 'unchanged_until_editor_save');
    assert.equal((await ada.approve('admin.page.draft.save', draft.json.confirmationToken)).json.data.scratch_saved, true);
    assert.ok(!(await (await fetch(`${demo.url}/about`)).text()).includes('Our story'));
    const publish = await ada.invoke('admin.page.publish', { page_id: ABOUT });
    assert.equal(publish.json.data.transition, 'publish-now');
    const done = await ada.approve('admin.page.publish', publish.json.confirmationToken);
    assert.equal(done.status, 200);
    assert.equal(done.json.data.after_state, 'published');
    assert.ok((await (await fetch(`${demo.url}/about`)).text()).includes('Our story'));
  });
});

describe('demo admin: scheduling', () => {
  test(`${RULE}: admin.page.publish.schedule publishes the page from the time asked for: scheduled until then`, async () => {
    const ada = await demo.signIn('ada');
    const at = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const preview = await ada.invoke('admin.page.publish.schedule', { page_id: ABOUT, publish_at: at });
    assert.equal(preview.status, 200);
    assert.deepEqual({ transition: preview.json.data.transition, after: preview.json.data.after_state, from: preview.json.data.visible_from }, { transition: 'schedule-publish', after: 'scheduled', from: at });
    const done = await ada.approve('admin.page.publish.schedule', preview.json.confirmationToken);
    assert.equal(done.status, 200);
    assert.equal(done.json.data.after_state, 'scheduled');
    assert.equal((demo.app.admin.page('a', 'about')!.record as Json).publishAt, at);
  });
});
