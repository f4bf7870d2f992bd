/**
 * Reading Capell's invoke answers (admin/admin-invoke.ts) and showing Capell's preview in the panel
 * (write/admin/admin-preview.ts), against the answers in test/fixtures/capell/admin/invoke/ (each
 * with its Capell file and commit in SOURCES.md and index.json): pure, no DOM, no network.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ADMIN_INVOKE_PATH, invokeRefusal, readInvokeEnvelope } from '../../src/admin/admin-invoke.ts';
import { toAdminPanelPreview } from '../../src/write/admin/admin-preview.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
const exchange = (file: string) => JSON.parse(readFileSync(new URL(`../fixtures/capell/admin/invoke/${file}`, import.meta.url), 'utf8')) as { status: number; bodyBytes: string };
const body = (file: string) => JSON.parse(exchange(file).bodyBytes) as any;

describe('Capell\'s invoke answers', () => {
  it('reads a read\'s, a write\'s first, an approval\'s and a rejected preview\'s envelope', () => {
    assert.deepEqual(readInvokeEnvelope(body('read-page-properties.json')), body('read-page-properties.json'));
    const first = readInvokeEnvelope(body('write-terms-confirmation-required.json'))!;
    assert.equal(first.mode, 'confirmation_required');
    assert.match(first.confirmationToken!, /^[a-f0-9]{64}$/);
    assert.equal(first.message, 'Explicit confirmation is required before this admin write.');
    assert.deepEqual(readInvokeEnvelope(body('write-terms-approved-executed.json')), { ok: true, mode: 'executed', tool: 'admin.page.terms.write', data: { page_id: 42, term_ids: [7, 3], assigned: true } });
    assert.equal(readInvokeEnvelope(body('publish-rejected-422.json'))!.mode, 'rejected');
  });

  it('Laravel\'s refusals are no envelope (their message is read apart)', () => {
    for (const file of ['write-terms-token-reused-403.json', 'site-id-refused-422.json', 'validation-payload-422.json', 'unknown-tool-500.json', 'permission-denied-403.json']) {
      assert.equal(readInvokeEnvelope(body(file)), undefined, file);
    }
    for (const broken of [{ ok: 'yes', mode: 'executed', tool: 't', data: {} }, { ok: true, mode: 'executed', tool: 't' }, { ok: true, mode: 'executed', tool: 't', data: {}, confirmationToken: 1 }]) {
      assert.equal(readInvokeEnvelope(broken), undefined, JSON.stringify(broken));
    }
  });

  it('a refusal is one line naming the status, the route and Capell\'s message', () => {
    assert.equal(ADMIN_INVOKE_PATH, '/admin/agent/v1/tools/invoke');
    assert.equal(invokeRefusal('admin.page.terms.write', 403, body('permission-denied-403.json').message), 'admin.page.terms.write: HTTP 403 from /admin/agent/v1/tools/invoke: This action is unauthorized.');
    assert.equal(invokeRefusal('admin.x', 500, ''), 'admin.x: HTTP 500 from /admin/agent/v1/tools/invoke');
  });
});

describe('Capell\'s preview in the panel', () => {
  it('terms: before_term_ids / after_term_ids become one change, page_id a line, the message the summary', () => {
    const { data, message } = body('write-terms-confirmation-required.json');
    assert.deepEqual(toAdminPanelPreview('admin.page.terms.write', data, message, '(none)'), {
      summary: 'Explicit confirmation is required before this admin write.',
      changes: [{ target: 'term_ids', before: '[3]', after: '[7,3]' }],
      items: [{ label: 'page_id', value: '42' }],
    });
  });

  it('publication: before_state / after_state a change, every other key a line, null as the none word', () => {
    const { data } = body('publish-rejected-422.json');
    const preview = toAdminPanelPreview('admin.page.publish', data, undefined, '(none)');
    assert.equal(preview.summary, 'admin.page.publish');
    assert.deepEqual(preview.changes, [{ target: 'state', before: 'draft', after: 'published' }]);
    assert.deepEqual(preview.items.map((item) => item.label), ['page_id', 'transition', 'outcome', 'reason', 'visible_from', 'visible_until', 'blocking_checks', 'missing_publish_required']);
    assert.equal(preview.items.find((item) => item.label === 'visible_from')!.value, '(none)');
    assert.equal(preview.items.find((item) => item.label === 'missing_publish_required')!.value, '["commerce.product.price"]');
  });

  it('properties: the property\'s previous → value is the change, its other members lines; settings: before → after under the tool\'s name', () => {
    const property = toAdminPanelPreview('admin.page.properties.write', { page_id: 42, property: { key: 'commerce.product.price', type: 'money', previous: 129.5, value: 119, currency: 'EUR', unit: null, position: 0, translation_id: null } }, 'Confirm.', '(none)');
    assert.deepEqual(property.changes, [{ target: 'property commerce.product.price', before: '129.5', after: '119' }]);
    assert.deepEqual(property.items, [
      { label: 'page_id', value: '42' }, { label: 'property.type', value: 'money' }, { label: 'property.currency', value: 'EUR' },
      { label: 'property.unit', value: '(none)' }, { label: 'property.position', value: '0' }, { label: 'property.translation_id', value: '(none)' },
    ]);
    const settings = toAdminPanelPreview('admin.settings.write', { group: 'core', before: { site_name: 'A' }, after: { site_name: 'B' } }, 'Confirm.', '(none)');
    assert.deepEqual(settings.changes, [{ target: 'admin.settings.write', before: '{"site_name":"A"}', after: '{"site_name":"B"}' }]);
    assert.deepEqual(settings.items, [{ label: 'group', value: 'core' }]);
  });

  it('nothing of data is left out: a lone before_x without after_x is a line, a non-object data one line', () => {
    const lone = toAdminPanelPreview('t', { before_x: 1, y: 'z' }, 'm', '(none)');
    assert.deepEqual(lone.changes, []);
    assert.deepEqual(lone.items, [{ label: 'before_x', value: '1' }, { label: 'y', value: 'z' }]);
    assert.deepEqual(toAdminPanelPreview('t', [1, 2], 'm', '(none)').items, [{ label: 'data', value: '[1,2]' }]);
  });
});
