/**
 * The demo admin's two-step writes (a write needs a one-use confirmation, bound to what the person
 * saw, as Core's admin requires): a preview answers with a one-use token bound to actor, site,
 * session, payload and preview; the confirm spends it, rechecks the right and the state, and only
 * then performs the action. Real HTTP against one demo app per describe block.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { previewAndConfirm, startAdminDemo, type AdminDemo, type Editor, type Json } from '../support/demo-admin-client.ts';

const RULE = 'Capell Agent Schema, Navigation, forms, and admin tools';

const TITLE = { site: 'a', page: 'about', property: 'title', value: 'Our story' };

let demo: AdminDemo;
let ada: Editor;
let gil: Editor;

before(async () => {
  demo = await startAdminDemo();
  ada = await demo.signIn('ada');
  gil = await demo.signIn('gil');
});
after(async () => {
  await demo.close();
});
beforeEach(() => {
  demo.app.admin.reset();
});

/** The draft title of /about, or undefined when it has no draft. */
/** The `name` of a public page's graph (its island, as page.get answers it), or undefined without one. */
async function publicName(path: string): Promise<string | undefined> {
  const island = /data-capell-agent-schema\n {4}>(.*?)<\/script>/.exec((await demo.fetch(path)).text)?.[1];
  return island === undefined ? undefined : JSON.parse(island)['@graph'][0].name;
}

/** Every URL of the English site map, following Core's paging links. */
async function siteMap(): Promise<string[]> {
  const urls: string[] = [];
  for (let next: string | null = '/agent/v1/navigation'; next !== null;) {
    const { json }: { json: Json } = await demo.fetch(next.replace(demo.url, ''));
    urls.push(...json.data.map((item: Json) => item.url));
    next = json.links.next;
  }
  return urls;
}

function aboutDraftTitle(): string | undefined {
  return (demo.app.admin.read('a', 'about') as Json).draft?.values.title;
}

/** Confirm a preview's token with a body changed by `change`. */
async function confirmChanged(editor: Editor, preview: Json, change: (body: Json) => Json, action = 'property.write') {
  const body = { token: preview.data.confirmation.token, payload: { ...TITLE }, previewDigest: preview.data.previewDigest };
  return editor.confirm(action, change(body));
}

describe('demo admin: preview', () => {
  test(`${RULE}: a preview shows the change before and after, the site and the actor, with a one-use 256-bit token and a short expiry`, async () => {
    const started = Date.now();
    const answer = await ada.preview('property.write', TITLE);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const { data } = answer.json;
    assert.equal(data.action, 'property.write');
    assert.deepEqual(data.site, { key: 'a', name: 'Capell Outfitters' });
    assert.deepEqual(data.actor, { id: 'ada', name: 'Ada Lindqvist (editor, site A)' });
    assert.equal(data.summary, 'Set title of /about (draft) to “Our story”');
    assert.deepEqual(data.changes, [{ target: '/about › title (draft)', before: 'About us', after: 'Our story' }]);
    assert.match(data.previewDigest, /^sha-256=:[A-Za-z0-9+/]{43}=:$/);
    assert.match(data.confirmation.token, /^[A-Za-z0-9_-]{43}$/);
    // Two minutes from when the server made it, somewhere between the request and its answer
    // (however slow the machine: no bound on how long the preview took).
    const answered = Date.now();
    const expiresAt = Date.parse(data.confirmation.expiresAt);
    assert.ok(expiresAt >= started + 119_000 && expiresAt <= answered + 120_000, `expires ${expiresAt - started} ms after the request, ${expiresAt - answered} ms after its answer`);
    assert.equal(aboutDraftTitle(), undefined, 'a preview changes nothing');
  });

  test(`${RULE}: a preview refuses a bad payload with 422 naming the field and an unknown page with 404`, async () => {
    const cases: [Json, number, string, RegExp][] = [
      [{ site: 'a', page: 'about', property: 'title' }, 422, 'invalid_payload', /value/],
      [{ ...TITLE, extra: 'x' }, 422, 'invalid_payload', /extra/],
      [{ ...TITLE, value: 5 }, 422, 'invalid_payload', /value/],
      [{ ...TITLE, site: 'z' }, 422, 'invalid_payload', /site/],
      [{ ...TITLE, property: 'capell:commerce.product.nope' }, 422, 'invalid_payload', /property/],
      [{ site: 'a', page: 'trail-runner', property: 'capell:commerce.product.price', value: 'cheap' }, 422, 'invalid_payload', /capell:commerce\.product\.price/],
      [{ ...TITLE, page: 'no-such-page' }, 404, 'not_found', /no-such-page/],
      [[TITLE], 422, 'invalid_payload', /object/],
    ];
    for (const [payload, status, code, message] of cases) {
      const answer = await ada.preview('property.write', payload);
      assert.equal(answer.status, status, JSON.stringify(payload));
      assert.equal(answer.json.error.code, code);
      assert.match(answer.json.error.message, message);
      assert.equal(answer.json.data, undefined);
    }
    assert.equal((await ada.preview('no.such.action', TITLE)).status, 404);
  });

  test(`${RULE}: "confirmation tokens never enter" a URL or a log line: the server stores only SHA-256 of each token`, async () => {
    const tokens: string[] = [];
    for (const value of ['One', 'Two', 'Three']) tokens.push((await ada.preview('property.write', { ...TITLE, value })).json.data.confirmation.token);
    const { confirm } = await previewAndConfirm(ada, 'property.write', TITLE);
    assert.equal(confirm.status, 200);
    const records = demo.app.admin.confirmationRecords();
    const stored = JSON.stringify(records);
    const log = demo.app.admin.log.join('\n');
    for (const token of tokens) {
      assert.ok(!stored.includes(token), 'no raw token in the stored records');
      assert.ok(!log.includes(token), 'no raw token in the log');
      const hash = createHash('sha256').update(token).digest('hex');
      const record = records.find((candidate) => candidate.tokenHash === hash);
      assert.ok(record, 'the token is stored as its SHA-256');
      assert.deepEqual(Object.keys(record).sort(), ['action', 'actor', 'expiresAt', 'payloadDigest', 'previewDigest', 'sessionId', 'site', 'tokenHash', 'used']);
      assert.equal(record.actor, 'ada');
      assert.equal(record.site, 'a');
      assert.equal(record.sessionId, ada.sessionId);
      assert.equal(record.used, false);
    }
    assert.ok(!demo.app.requests.some((request) => tokens.some((token) => request.query.includes(token) || request.path.includes(token))));
  });
});

describe('demo admin: confirm', () => {
  test(`${RULE}: a confirm with the preview's token, payload and digest performs the action once`, async () => {
    const { preview, confirm } = await previewAndConfirm(ada, 'property.write', TITLE);
    assert.equal(confirm.status, 200);
    assert.equal(confirm.json.data.action, 'property.write');
    assert.equal(confirm.json.data.done, true);
    assert.equal(confirm.json.data.summary, preview.json.data.summary);
    assert.equal(confirm.json.data.result.draft.values.title, 'Our story');
    assert.equal(aboutDraftTitle(), 'Our story');
  });

  test(`${RULE}: "a one-use confirmation": a token used twice is refused with confirmation_used`, async () => {
    const { preview, confirm } = await previewAndConfirm(ada, 'property.write', TITLE);
    assert.equal(confirm.status, 200);
    demo.app.admin.reset();
    const again = await confirmChanged(ada, preview.json, (body) => body);
    assert.equal(again.status, 403);
    assert.equal(again.json.error.code, 'confirmation_used');
    assert.equal(aboutDraftTitle(), undefined, 'the second use changed nothing');
  });

  test(`${RULE}: an expired token is refused with confirmation_expired`, async () => {
    // The server's clock moves on by the token's lifetime between preview and confirm.
    let ahead = 0;
    const shortLived = await startAdminDemo({ adminConfirmationTtlMs: 40, now: () => new Date(Date.now() + ahead) });
    try {
      const editor = await shortLived.signIn('ada');
      const preview = await editor.preview('property.write', TITLE);
      ahead = 40;
      const answer = await confirmChanged(editor, preview.json, (body) => body);
      assert.equal(answer.status, 403);
      assert.equal(answer.json.error.code, 'confirmation_expired');
      assert.equal((shortLived.app.admin.read('a', 'about') as Json).draft, null);
    } finally {
      await shortLived.close();
    }
  });

  /** Each binding changed in turn, and what the confirm must answer. */
  const BINDINGS: [string, () => Promise<{ preview: Json, confirm: (preview: Json) => Promise<Json> }>][] = [
    ['used by another actor', async () => ({
      preview: (await ada.preview('property.write', TITLE)).json,
      confirm: (preview) => confirmChanged(gil, preview, (body) => body),
    })],
    ['from another session of the same actor', async () => {
      const second = await demo.signIn('ada');
      return { preview: (await ada.preview('property.write', TITLE)).json, confirm: (preview) => confirmChanged(second, preview, (body) => body) };
    }],
    ['for another site', async () => {
      const payload = { site: 'a', page: 'home', property: 'title', value: 'Welcome' };
      return {
        preview: (await gil.preview('property.write', payload)).json,
        confirm: (preview) => gil.confirm('property.write', { token: preview.data.confirmation.token, payload: { ...payload, site: 'b' }, previewDigest: preview.data.previewDigest }),
      };
    }],
    ['with another payload', async () => ({
      preview: (await ada.preview('property.write', TITLE)).json,
      confirm: (preview) => confirmChanged(ada, preview, (body) => ({ ...body, payload: { ...TITLE, value: 'Something else' } })),
    })],
    ['with a changed previewDigest', async () => ({
      preview: (await ada.preview('property.write', TITLE)).json,
      confirm: (preview) => confirmChanged(ada, preview, (body) => ({ ...body, previewDigest: `sha-256=:${createHash('sha256').update('other').digest('base64')}:` })),
    })],
    ['for another action', async () => ({
      preview: (await ada.preview('property.write', TITLE)).json,
      confirm: (preview) => ada.confirm('page.publish', { token: preview.data.confirmation.token, payload: { site: 'a', page: 'about' }, previewDigest: preview.data.previewDigest }),
    })],
    ['unknown', async () => ({
      preview: (await ada.preview('property.write', TITLE)).json,
      confirm: (preview) => confirmChanged(ada, preview, (body) => ({ ...body, token: 'A'.repeat(43) })),
    })],
  ];

  for (const [name, setUp] of BINDINGS) {
    test(`${RULE}: confirmation "bound to the actor, site, session, payload and preview": a token ${name} is refused with confirmation_refused and spent`, async () => {
      const { preview, confirm } = await setUp();
      const answer = await confirm(preview);
      assert.equal(answer.status, 403, answer.text);
      assert.equal(answer.json.error.code, 'confirmation_refused');
      assert.equal(aboutDraftTitle(), undefined);
      assert.equal((demo.app.admin.read('b', 'home') as Json).draft, null);
      assert.equal((demo.app.admin.read('a', 'home') as Json).draft, null);
      if (name === 'unknown') return;
      // The refused attempt spent the token: even its own actor, session and payload cannot use it now.
      const retry = await ada.confirm('property.write', { token: preview.data.confirmation.token, payload: TITLE, previewDigest: preview.data.previewDigest });
      assert.equal(retry.status, 403);
      assert.equal(retry.json.error.code, 'confirmation_used');
      assert.equal(aboutDraftTitle(), undefined);
    });
  }

  test(`${RULE}: "confirmation rechecks authorisation": a right revoked between preview and confirm refuses with 403 forbidden`, async () => {
    const preview = await ada.preview('property.write', TITLE);
    demo.app.admin.revoke('ada', 'a', 'property.write');
    try {
      const answer = await confirmChanged(ada, preview.json, (body) => body);
      assert.equal(answer.status, 403);
      assert.equal(answer.json.error.code, 'forbidden');
      assert.equal(aboutDraftTitle(), undefined);
    } finally {
      demo.app.admin.grant('ada', 'a', 'property.write');
    }
  });

  test(`${RULE}: "confirmation rechecks … state": a value changed between preview and confirm refuses with 409 state_changed`, async () => {
    const preview = await ada.preview('property.write', TITLE);
    demo.app.admin.setDraftValue('a', 'about', 'title', 'Changed by someone else');
    const answer = await confirmChanged(ada, preview.json, (body) => body);
    assert.equal(answer.status, 409);
    assert.equal(answer.json.error.code, 'state_changed');
    assert.match(answer.json.error.message, /changed since the preview; preview again/);
    assert.equal(aboutDraftTitle(), 'Changed by someone else');

    // The same for publication: the draft it would publish changed after the preview.
    demo.app.admin.setDraftValue('a', 'about', 'title', 'Draft one');
    const publish = await ada.preview('page.publish', { site: 'a', page: 'about' });
    demo.app.admin.setDraftValue('a', 'about', 'title', 'Draft two');
    const refused = await ada.confirm('page.publish', { token: publish.json.data.confirmation.token, payload: { site: 'a', page: 'about' }, previewDigest: publish.json.data.previewDigest });
    assert.equal(refused.status, 409);
    assert.equal(refused.json.error.code, 'state_changed');
    assert.equal(await publicName('/about'), 'About us');
  });

  test(`${RULE}: a signed-out session cannot confirm (401), even with a valid token`, async () => {
    const second = await demo.signIn('ada');
    const preview = await second.preview('property.write', TITLE);
    demo.app.admin.endSession(second.sessionId);
    const answer = await confirmChanged(second, preview.json, (body) => body);
    assert.equal(answer.status, 401);
    assert.equal(answer.json.error.code, 'unauthenticated');
    assert.equal(aboutDraftTitle(), undefined);
  });
});

describe('demo admin: sites and global settings', () => {
  test(`${RULE}: an editor of site A can neither preview nor confirm on site B (403)`, async () => {
    const onB = { site: 'b', page: 'hours', property: 'title', value: 'Hours' };
    for (const action of ['property.write', 'page.publish', 'term.assign', 'draft.create']) {
      const answer = await ada.preview(action, action === 'draft.create' ? { site: 'b', title: 'x', path: '/x' } : onB);
      assert.equal(answer.status, 403, action);
      assert.equal(answer.json.error.code, 'forbidden');
    }
    // A token of site a, confirmed with a payload for site b.
    const preview = await ada.preview('property.write', { ...onB, site: 'a', page: 'about' });
    const crafted = await ada.confirm('property.write', { token: preview.json.data.confirmation.token, payload: onB, previewDigest: preview.json.data.previewDigest });
    assert.equal(crafted.status, 403);
    assert.equal((demo.app.admin.read('b', 'hours') as Json).draft, null);
    // bo, the editor of site b, may; and may not on site a.
    const bo = await demo.signIn('bo');
    assert.equal((await previewAndConfirm(bo, 'property.write', onB)).confirm.status, 200);
    assert.equal((demo.app.admin.read('b', 'hours') as Json).draft.values.title, 'Hours');
    assert.equal((await bo.preview('property.write', TITLE)).status, 403);
  });

  test(`${RULE}: "global property sets … require global-admin capability": ada gets 403, even with a crafted request; gil may`, async () => {
    const payload = { set: 'brand', property: 'tagline', value: 'Dry feet, always' };
    const preview = await ada.preview('globalproperty.write', payload);
    assert.equal(preview.status, 403);
    assert.equal(preview.json.error.code, 'forbidden');
    // Crafted: ada's own token from another action, and a made-up token.
    const own = await ada.preview('property.write', TITLE);
    for (const token of [own.json.data.confirmation.token, 'A'.repeat(43)]) {
      const answer = await ada.confirm('globalproperty.write', { token, payload, previewDigest: own.json.data.previewDigest });
      assert.equal(answer.status, 403);
    }
    // Even with the right site-wide capabilities granted, ada stays out of the global sets.
    assert.equal((await ada.preview('globalproperty.write', { ...payload, site: 'a' })).status, 403);
    assert.equal(demo.app.admin.globalSets.brand?.tagline, 'Kit for wet hills and long days');

    const { preview: gilPreview, confirm } = await previewAndConfirm(gil, 'globalproperty.write', payload);
    assert.deepEqual(gilPreview.json.data.changes, [{ target: 'global › brand › tagline', before: 'Kit for wet hills and long days', after: 'Dry feet, always' }]);
    assert.equal(confirm.status, 200);
    assert.equal(demo.app.admin.globalSets.brand?.tagline, 'Dry feet, always');
  });
});

describe('demo admin: domain actions', () => {
  test(`${RULE}: "publication" of a site-a page whose draft changed shows the new value on the public page and in /agent/v1`, async () => {
    assert.equal((await previewAndConfirm(ada, 'property.write', TITLE)).confirm.status, 200);
    // A draft is never public.
    assert.ok(!(await demo.fetch('/about')).text.includes('Our story'));
    assert.equal(await publicName('/about'), 'About us');

    const { preview, confirm } = await previewAndConfirm(ada, 'page.publish', { site: 'a', page: 'about' });
    assert.deepEqual(preview.json.data.changes, [{ target: '/about › title', before: 'About us', after: 'Our story' }]);
    assert.equal(confirm.status, 200);
    assert.equal(confirm.json.data.result.draft, null);
    assert.equal(confirm.json.data.result.published.values.title, 'Our story');

    const html = (await demo.fetch('/about')).text;
    assert.match(html, /<h1[^>]*>Our story<\/h1>/);
    assert.match(html, /<title>Our story · /);
    assert.equal(await publicName('/about'), 'Our story', 'the page graph island carries the new title');
    assert.ok((await demo.fetch('/agent/v1/navigation')).json.data.some((item: Json) => item.url === '/about' && item.title === 'Our story'), 'the site map lists the published title');
    assert.ok((await demo.fetch('/agent/v1/search?q=story')).json.data.some((item: Json) => item.url === `${demo.url}/about`), 'search finds the published title');
    // The German page has its own text and stays as it was.
    assert.ok((await demo.fetch('/de/ueber-uns')).text.includes('Über uns'));
    // Another app of the same process keeps its own public site.
    const other = await startAdminDemo();
    try {
      assert.ok(!(await other.fetch('/about')).text.includes('Our story'));
    } finally {
      await other.close();
    }
  });

  test(`${RULE}: "scratch drafts": a created page is not public until published, then it is`, async () => {
    const created = await previewAndConfirm(ada, 'draft.create', { site: 'a', title: 'Spring repairs', path: '/spring-repairs' });
    assert.equal(created.confirm.status, 200);
    assert.equal(created.confirm.json.data.result.status, 'draft');
    assert.equal((await demo.fetch('/spring-repairs')).status, 404);
    assert.ok(!(await siteMap()).includes('/spring-repairs'));
    assert.equal((await ada.preview('draft.create', { site: 'a', title: 'Again', path: '/spring-repairs' })).status, 422);
    const published = await previewAndConfirm(ada, 'page.publish', { site: 'a', page: 'spring-repairs' });
    assert.deepEqual(published.preview.json.data.changes[0], { target: '/spring-repairs › visibility', before: 'draft', after: 'published' });
    assert.equal(published.confirm.status, 200);
    const page = await demo.fetch('/spring-repairs');
    assert.equal(page.status, 200);
    assert.match(page.text, /Spring repairs/);
    assert.ok((await siteMap()).includes('/spring-repairs'));
  });

  test(`${RULE}: "term assignment" writes the draft; publishing makes it the page's term`, async () => {
    const payload = { site: 'a', page: 'leather-care', taxonomy: 'topics', term: 'trails' };
    const { preview, confirm } = await previewAndConfirm(ada, 'term.assign', payload);
    assert.deepEqual(preview.json.data.changes, [{ target: '/journal/caring-for-leather-boots › topics (draft)', before: 'care', after: 'trails' }]);
    assert.equal(confirm.status, 200);
    assert.deepEqual(confirm.json.data.result.draft.terms, [{ taxonomy: 'topics', term: 'trails' }]);
    assert.equal((await ada.preview('term.assign', { ...payload, term: 'no-such-term' })).status, 422);
    const published = await previewAndConfirm(ada, 'page.publish', { site: 'a', page: 'leather-care' });
    assert.equal(published.confirm.status, 200);
    assert.deepEqual((demo.app.admin.read('a', 'leather-care') as Json).published.terms, [{ taxonomy: 'topics', term: 'trails' }]);
  });

  test(`${RULE}: "publication" of a scheduled page publishes it now`, async () => {
    assert.equal((await demo.fetch('/journal/orbisalt-preview')).status, 404);
    const { preview, confirm } = await previewAndConfirm(ada, 'page.publish', { site: 'a', page: 'orbisalt-preview' });
    assert.deepEqual(preview.json.data.changes, [{ target: '/journal/orbisalt-preview › publication', before: 'scheduled for 2099-09-01T08:00:00Z', after: 'now' }]);
    assert.equal(confirm.status, 200);
    assert.equal(confirm.json.data.result.status, 'published');
    assert.equal((await demo.fetch('/journal/orbisalt-preview')).status, 200);
  });

  test(`${RULE}: publishing a page without draft changes is refused with 422 naming page`, async () => {
    const answer = await ada.preview('page.publish', { site: 'a', page: 'about' });
    assert.equal(answer.status, 422);
    assert.match(answer.json.error.message, /page/);
  });
});
