/**
 * Tool input → query string in PHP/Laravel bracket notation (`filter[tag]=a`, `ids[0]=1`), as
 * Core's read API parses it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverParameterName, toQueryPairs, withQuery } from '../../src/call/reads/query-string.ts';

describe('toQueryPairs', () => {
  it('writes scalars as they are and leaves nulls out', () => {
    assert.deepEqual(toQueryPairs({ q: 'boots', limit: 5, note: null }), [['q', 'boots'], ['limit', '5']]);
  });
  it('writes booleans as 1 and 0, as Laravel\'s boolean rule reads them', () => {
    assert.deepEqual(toQueryPairs({ inStock: true, sale: false }), [['inStock', '1'], ['sale', '0']]);
  });
  it('writes nested objects and arrays in bracket notation', () => {
    assert.deepEqual(toQueryPairs({ filter: { tag: 'a', price: { max: 100 } }, ids: [1, 2] }), [
      ['filter[tag]', 'a'], ['filter[price][max]', '100'], ['ids[0]', '1'], ['ids[1]', '2'],
    ]);
  });
});

describe('withQuery', () => {
  it('keeps the target\'s own query and percent-encodes values', () => {
    const url = withQuery(new URL('https://shop.example/agent/v1/search?scope=pages'), { q: 'a&b=c' });
    assert.equal(url.search, '?scope=pages&q=a%26b%3Dc');
  });
  it('skips keys the binding sets itself', () => {
    const url = withQuery(new URL('https://shop.example/s?scope=pages'), { scope: 'all', q: 'x' }, ['scope']);
    assert.equal(url.search, '?scope=pages&q=x');
  });
  it('skips input keys PHP files under the binding\'s or the target\'s own names (" scope" is scope to Laravel)', () => {
    const search = withQuery(new URL('https://shop.example/s?scope=pages'), { q: 'boots', ' scope': 'admin-drafts', '  scope[x]': 'y', 'scope\u0000x': 'z' }, ['scope']);
    assert.equal(search.search, '?scope=pages&q=boots');
    const navigation = withQuery(new URL('https://shop.example/agent/v1/navigation?limit=1'), { ' limit': 50, 'limit.': 2 });
    // "limit." is limit_ to PHP: another parameter, sent.
    assert.equal(navigation.search, '?limit=1&limit.=2');
  });
});

describe('serverParameterName', () => {
  it('names a parameter as php_register_variable_ex files it', () => {
    assert.equal(serverParameterName(' scope'), 'scope');
    assert.equal(serverParameterName('filter[price][max]'), 'filter');
    assert.equal(serverParameterName(' a.b c'), 'a_b_c');
    assert.equal(serverParameterName('scope\u0000evil'), 'scope');
  });
});
