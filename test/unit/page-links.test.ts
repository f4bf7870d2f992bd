/**
 * Paging by Core's links (call/reads/page-links.ts): a cursor is a link an earlier answer of the
 * same tool handed out; its query is read on the tool's own route. The links are Core's, as
 * test/fixtures/capell/answers/ holds them (capell-app/frontend @ 83fd9244).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MAX_LINKS_PER_TOOL, rememberPageLinks, resolveCursor } from '../../src/call/reads/page-links.ts';
import type { RuntimeConfig } from '../../src/start/config.ts';

const ORIGIN = 'http://127.0.0.1:5173';
const answer = (file: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/capell/answers/${file}`, import.meta.url), 'utf8'));
const runtime = (): RuntimeConfig => ({}) as RuntimeConfig;
const route = (path: string) => new URL(path, ORIGIN);

describe('page links', () => {
  it("follows site.pages.query's links.next: its query, page[number] kept, on the tool's route", () => {
    const config = runtime();
    const first = answer('pages-page1.json') as { links: { next: string } };
    rememberPageLinks(config, 'site.pages.query', first, route('/agent/v1/pages?set=commerce.product&page%5Bsize%5D=2'));
    const resolved = resolveCursor(config, 'site.pages.query', { cursor: first.links.next }, route('/agent/v1/pages'));
    assert.ok('url' in resolved, JSON.stringify(resolved));
    assert.equal(resolved.url.href, first.links.next);
  });

  it("keeps a link's query byte for byte (page[number] twice, as Core's previous link has it)", () => {
    const config = runtime();
    const second = answer('pages-page2.json') as { links: { previous: string } };
    rememberPageLinks(config, 'site.pages.query', second, route('/agent/v1/pages?x=1'));
    const resolved = resolveCursor(config, 'site.pages.query', { cursor: second.links.previous }, route('/agent/v1/pages'));
    assert.ok('url' in resolved);
    assert.equal(resolved.url.search, new URL(second.links.previous).search);
  });

  it("reads site.search's root-relative link (/?q=boots&page=2) on /agent/v1/search", () => {
    const config = runtime();
    rememberPageLinks(config, 'site.search', { links: { next: '/?q=boots&page=2', previous: null } }, route('/agent/v1/search?q=boots'));
    const resolved = resolveCursor(config, 'site.search', { cursor: '/?q=boots&page=2' }, route('/agent/v1/search'));
    assert.ok('url' in resolved);
    assert.equal(resolved.url.href, `${ORIGIN}/agent/v1/search?q=boots&page=2`);
    // The same link written absolute is the same link.
    assert.ok('url' in resolveCursor(config, 'site.search', { cursor: `${ORIGIN}/?q=boots&page=2` }, route('/agent/v1/search')));
  });

  it("keeps the route's own parameters (a search binding's scope) over the link's", () => {
    const config = runtime();
    rememberPageLinks(config, 'site.find', { links: { next: '/agent/v1/search?scope=pages&q=a&page=2', previous: null } }, route('/agent/v1/search?scope=pages&q=a'));
    const resolved = resolveCursor(config, 'site.find', { cursor: '/agent/v1/search?scope=pages&q=a&page=2' }, route('/agent/v1/search?scope=pages'));
    assert.ok('url' in resolved);
    assert.equal(resolved.url.searchParams.get('scope'), 'pages');
    assert.equal(resolved.url.searchParams.get('page'), '2');
  });

  it('refuses a link no answer handed out, one of another tool, and one of another runtime', () => {
    const config = runtime();
    rememberPageLinks(config, 'site.navigation', { links: { next: `${ORIGIN}/agent/v1/navigation?page=2`, previous: null } }, route('/agent/v1/navigation'));
    const forged = resolveCursor(config, 'site.navigation', { cursor: `${ORIGIN}/agent/v1/navigation?page=3` }, route('/agent/v1/navigation'));
    assert.ok('reason' in forged);
    assert.match(forged.reason, /^invalid input for site\.navigation: cursor "[^"]+page=3" was not handed out by an earlier answer of site\.navigation on this page: call site\.navigation without cursor first$/);
    assert.ok('reason' in resolveCursor(config, 'site.search', { cursor: `${ORIGIN}/agent/v1/navigation?page=2` }, route('/agent/v1/search')));
    assert.ok('reason' in resolveCursor(runtime(), 'site.navigation', { cursor: `${ORIGIN}/agent/v1/navigation?page=2` }, route('/agent/v1/navigation')));
  });

  it('takes a cursor with the input of the call that handed it out (what the link already says)', () => {
    const config = runtime();
    const first = answer('pages-page1.json') as { links: { next: string } };
    rememberPageLinks(config, 'site.pages.query', first, route('/agent/v1/pages?set=commerce.product&page%5Bsize%5D=2'));
    const again = resolveCursor(config, 'site.pages.query', { set: 'commerce.product', page: { size: 2 }, cursor: first.links.next }, route('/agent/v1/pages'));
    assert.ok('url' in again, JSON.stringify(again));
    assert.equal(again.url.href, first.links.next);
    const otherSet = resolveCursor(config, 'site.pages.query', { set: 'content.article', cursor: first.links.next }, route('/agent/v1/pages'));
    assert.ok('reason' in otherSet);
    assert.match(otherSet.reason, /^invalid input for site\.pages\.query: set=content\.article is not in the query of cursor /);
  });

  it('refuses a cursor given with other inputs, on another origin, or with a fragment', () => {
    const config = runtime();
    const link = `${ORIGIN}/agent/v1/navigation?page=2`;
    rememberPageLinks(config, 'site.navigation', { links: { next: link, previous: null } }, route('/agent/v1/navigation'));
    const mixed = resolveCursor(config, 'site.navigation', { cursor: link, page: 3 }, route('/agent/v1/navigation'));
    assert.ok('reason' in mixed);
    assert.equal(mixed.reason, `invalid input for site.navigation: page=3 is not in the query of cursor "${link}": give cursor alone, or with the input of the call that answered it`.replace('answered it', 'handed it out'));
    for (const cursor of ['https://evil.example/agent/v1/navigation?page=2', `${link}#x`, '//evil.example/?page=2']) {
      const refused = resolveCursor(config, 'site.navigation', { cursor }, route('/agent/v1/navigation'));
      assert.ok('reason' in refused, cursor);
    }
  });

  it('keeps no link of another origin, and at most MAX_LINKS_PER_TOOL, the newest', () => {
    const config = runtime();
    rememberPageLinks(config, 't.x', { links: { next: 'https://evil.example/?page=2', previous: null } }, route('/agent/v1/x'));
    assert.ok('reason' in resolveCursor(config, 't.x', { cursor: 'https://evil.example/?page=2' }, route('/agent/v1/x')));
    for (let page = 1; page <= MAX_LINKS_PER_TOOL + 1; page++) {
      rememberPageLinks(config, 't.x', { links: { next: `/agent/v1/x?page=${page}`, previous: null } }, route('/agent/v1/x'));
    }
    assert.ok('reason' in resolveCursor(config, 't.x', { cursor: '/agent/v1/x?page=1' }, route('/agent/v1/x')));
    assert.ok('url' in resolveCursor(config, 't.x', { cursor: `/agent/v1/x?page=${MAX_LINKS_PER_TOOL + 1}` }, route('/agent/v1/x')));
  });
});
