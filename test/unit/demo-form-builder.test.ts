/**
 * The demo's form-builder forms against form-builder's own output (test/fixtures/capell/form-builder/):
 * the renderer gives the fixture's markup for the fixture's form (first render, after a validation
 * failure, after success; whitespace aside), the manifest is BuildFormAgentToolManifestAction's,
 * and the demo's Livewire update endpoint answers as Livewire and FormComponent do: 404 without
 * X-Livewire, 419 for another token, 400 for a snapshot it did not sign, 200 with the redrawn
 * errors, 200 with the success message (stored), a filled honeypot as a success with nothing stored.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderFormComponent, buildFormToolManifest } from '../../demo/server/form-builder/render-form.js';
import { LIVEWIRE_UPDATE_PATH } from '../../demo/server/form-builder/livewire-component.js';
import { startDemoServer } from '../../demo/server/start.js';

const FIXTURES = new URL('../fixtures/capell/form-builder/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

/** The fixture's form (SOURCES.md §6) as the demo defines a form. */
const FIXTURE_FORM = {
  instanceId: '5d1f6a3c-8b2e-4f7a-9c41-2e7b9d0a6f35',
  name: { en: 'Contact us', de: 'Contact us' },
  description: { en: "Tell us what you need and we'll reply within two working days.", de: '' },
  fields: [
    { key: 'name', type: 'text', label: { en: 'Name', de: '' }, required: true, rules: ['min:2'] },
    { key: 'email', type: 'email', label: { en: 'Email', de: '' }, required: true, help: { en: 'We only use this to reply to you.', de: '' } },
    {
      key: 'topic', type: 'select', label: { en: 'Topic', de: '' },
      options: [['general', 'General enquiry'], ['support', 'Support'], ['sales', 'Sales']].map(([value, label]) => ({ value: value!, label: { en: label!, de: '' } })),
    },
    { key: 'message', type: 'textarea', label: { en: 'Message', de: '' }, required: true, rules: ['max:2000'] },
    { key: 'newsletter', type: 'checkbox', label: { en: 'Send me the newsletter', de: '' } },
    { key: 'source', type: 'hidden', defaultValue: 'contact-page' },
    { key: 'company_website', type: 'honeypot' },
  ],
} as const;

/** HTML with whitespace between tags and around text dropped, and runs of it as one space. */
function normalise(html: string): string {
  return html.replace(/\s+/g, ' ').replace(/>\s+/g, '>').replace(/\s+</g, '<').replace(/\s+(\/?>)/g, '$1').trim();
}

describe("demo form-builder: markup as form-builder's view renders it", () => {
  const componentId = 'Kq7ZtR2mXv9LcB4nWp1s';

  test('the first render is contact-form.html (root attributes, island, form, controls, hidden field, honeypot, button spans)', () => {
    const html = fixture('contact-form.html');
    const snapshot = /wire:snapshot="([^"]*)"/.exec(html)![1]!.replaceAll('&quot;', '"');
    assert.equal(normalise(renderFormComponent(FIXTURE_FORM as never, { lang: 'en', componentId, snapshot })), normalise(html));
  });

  test('a validation failure is contact-form-after-validation-error.html (summary, aria-invalid, aria-describedby, the -error paragraph)', () => {
    const rendered = renderFormComponent(FIXTURE_FORM as never, { lang: 'en', componentId, errors: { name: ['The data.name field must be at least 2 characters.'] } });
    assert.equal(normalise(rendered), normalise(fixture('contact-form-after-validation-error.html')));
  });

  test('success is contact-form-after-success.html (the island stays, the form goes), with form-builder\'s default message', () => {
    const rendered = renderFormComponent(FIXTURE_FORM as never, { lang: 'en', componentId, submitted: true });
    // The fixture's form sets its own successMessage; the demo's forms keep form-builder's default.
    const expected = fixture('contact-form-after-success.html').replace('Thanks for getting in touch. We will reply soon.', 'Form submitted.');
    assert.equal(normalise(rendered), normalise(expected));
  });

  test('the manifest is BuildFormAgentToolManifestAction\'s, key order included (contact-form-tools.json)', () => {
    assert.equal(JSON.stringify(buildFormToolManifest(FIXTURE_FORM as never, 'en')), JSON.stringify(JSON.parse(fixture('contact-form-tools.json'))));
  });
});

describe('demo form-builder: the Livewire update endpoint', () => {
  let server: Awaited<ReturnType<typeof startDemoServer>>;
  let url: string;

  before(async () => {
    server = await startDemoServer({ host: '127.0.0.1', port: 0 });
    url = server.url.replace(/\/$/, '');
  });
  after(() => server.close());

  /** A visitor on `path`: its cookie, token and the contact component's snapshot. */
  async function visit(path = '/contact') {
    const answer = await fetch(`${url}${path}`);
    const html = await answer.text();
    const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
    const token = /<meta name="csrf-token" content="([A-Za-z]+)">/.exec(html)![1]!;
    const snapshot = /wire:snapshot="([^"]*)"/.exec(html)![1]!.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
    const endpoint = /data-update-uri="([^"]+)"/.exec(html)![1]!;
    return { cookie, token, snapshot, endpoint, html };
  }

  function update(cookie: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json', 'x-livewire': '1' }) {
    return fetch(`${url}${LIVEWIRE_UPDATE_PATH}`, { method: 'POST', headers: { origin: url, cookie, ...headers }, body: JSON.stringify(body) });
  }

  const call = [{ method: 'submit', params: [], metadata: {} }];
  const good = { 'data.name': 'Ada Lovelace', 'data.email': 'ada@example.test', 'data.topic': 'repair', 'data.message': 'My boot sole came off.', 'data.newsletter': true };

  test('the page names the endpoint (/livewire-<8 hex>/update) in the stand-in\'s tag', async () => {
    const { endpoint } = await visit();
    assert.equal(endpoint, LIVEWIRE_UPDATE_PATH);
    assert.match(endpoint, /^\/livewire-[0-9a-f]{8}\/update$/);
  });

  test('404 without X-Livewire; 419 with another token; 400 for a snapshot it did not sign; none stored', async () => {
    const { cookie, token, snapshot } = await visit();
    const stored = server.app.submissions.length;
    const body = { _token: token, components: [{ snapshot, updates: good, calls: call }] };
    assert.equal((await update(cookie, body, { 'content-type': 'application/json' })).status, 404);
    assert.equal((await update(cookie, { ...body, _token: 'nope' })).status, 419);
    const forged = JSON.stringify({ ...JSON.parse(snapshot), data: { ...JSON.parse(snapshot).data, instanceId: 'product-enquiry' } });
    assert.equal((await update(cookie, { ...body, components: [{ snapshot: forged, updates: good, calls: call }] })).status, 400);
    assert.equal(server.app.submissions.length, stored);
    assert.deepEqual(server.app.livewirePosts.slice(-3).map((post: { outcome: string }) => post.outcome), ['not-livewire', 'expired', 'corrupt']);
  });

  test('a field the rules refuse: 200, the errors in memo.errors and the html; then only the change is sent, and it is stored', async () => {
    const { cookie, token, snapshot } = await visit();
    const stored = server.app.submissions.length;
    const first = await update(cookie, { _token: token, components: [{ snapshot, updates: { ...good, 'data.name': 'A', 'data.email': 'not an address' }, calls: call }] });
    assert.equal(first.status, 200);
    const answer = (await first.json()).components[0];
    const next = JSON.parse(answer.snapshot);
    assert.deepEqual(next.memo.errors, {
      'data.name': ['The data.name field must be at least 2 characters.'],
      'data.email': ['The data.email field must be a valid email address.'],
    });
    assert.match(answer.effects.html, /<p\s+id="capell-form-contact-name-error"\s+class="[^"]*"\s+role="alert"\s*>\s*The data\.name field must be at least 2 characters\.\s*<\/p>/);
    assert.match(answer.effects.html, /aria-describedby="capell-form-contact-email-help capell-form-contact-email-error"\s+aria-invalid="true"/);
    assert.match(answer.effects.html, /role="alert"[\s\S]*Please check the highlighted fields\./);
    assert.doesNotMatch(answer.effects.html, /wire:snapshot/);
    assert.equal(server.app.submissions.length, stored);
    const second = await update(cookie, { _token: token, components: [{ snapshot: answer.snapshot, updates: { 'data.name': 'Ada Lovelace', 'data.email': 'ada@example.test' }, calls: call }] });
    const done = (await second.json()).components[0];
    assert.match(done.effects.html, /role="status"[\s\S]*Form submitted\./);
    assert.doesNotMatch(done.effects.html, /<form/);
    assert.deepEqual(JSON.parse(done.snapshot).data.data, [[], { s: 'arr' }]);
    assert.deepEqual(server.app.submissions.at(-1), {
      lang: 'en', form: 'capell-form-contact', name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair', message: 'My boot sole came off.', newsletter: true,
      values: { name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair', message: 'My boot sole came off.', newsletter: true, source: 'contact-page' },
    });
  });

  test('a filled honeypot: the success message, nothing stored (form-builder keeps it as spam)', async () => {
    const { cookie, token, snapshot } = await visit();
    const stored = server.app.submissions.length;
    const answer = await update(cookie, { _token: token, components: [{ snapshot, updates: { 'data.company_website': 'https://spam.example' }, calls: call }] });
    assert.equal(answer.status, 200);
    assert.match((await answer.json()).components[0].effects.html, /Form submitted\./);
    assert.equal(server.app.submissions.length, stored);
    assert.equal(server.app.livewirePosts.at(-1)?.outcome, 'spam');
  });

  test('the enquiry form: a number over the editor\'s max is refused with Laravel\'s numeric message; the German page answers in German', async () => {
    const { cookie, token, snapshot } = await visit('/de/produkte/summit-lederstiefel');
    const answer = await update(cookie, { _token: token, components: [{ snapshot, updates: { 'data.name': 'Grete', 'data.email': 'grete@example.test', 'data.size': '41', 'data.quantity': '50' }, calls: call }] });
    const html = (await answer.json()).components[0].effects.html;
    assert.match(html, /data\.quantity darf maximal 10 sein\./);
    assert.match(html, /Bitte prüfen Sie die markierten Felder\./);
  });
});
