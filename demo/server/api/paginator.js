/**
 * Links as Laravel's LengthAwarePaginator writes them for Core's lists
 * (test/fixtures/capell/SOURCES.md §4): `path?<query>` where the query is
 * `Arr::query(array_merge($appended, [$pageName => $n]))`, i.e. PHP's
 * `http_build_query(…, PHP_QUERY_RFC3986)`: brackets written `%5B`/`%5D`, a space `%20`.
 */

/**
 * PHP's `rawurlencode`: every byte but `A-Z a-z 0-9 - _ . ~` percent-encoded.
 * @param {string} text
 * @returns {string}
 */
function rawUrlEncode(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * PHP's `http_build_query($params, '', '&', PHP_QUERY_RFC3986)` (Laravel's `Arr::query`): nested
 * values as `key%5Bchild%5D=value`, in key order; null left out, true and false as 1 and 0.
 * @param {Record<string, unknown>} params
 * @returns {string} without the leading `?`
 * @example buildQuery({ set: 'commerce.product', page: { size: '2' }, 'page[number]': 2 })
 *   // 'set=commerce.product&page%5Bsize%5D=2&page%5Bnumber%5D=2'
 */
export function buildQuery(params) {
  /** @type {string[]} */
  const pairs = [];
  /**
   * @param {string} key already encoded
   * @param {unknown} value
   */
  const add = (key, value) => {
    if (value === null || value === undefined) return;
    if (typeof value === 'object') {
      for (const [child, member] of Object.entries(value)) add(`${key}%5B${rawUrlEncode(child)}%5D`, member);
      return;
    }
    pairs.push(`${key}=${rawUrlEncode(typeof value === 'boolean' ? (value ? '1' : '0') : String(value))}`);
  };
  for (const [key, value] of Object.entries(params)) add(rawUrlEncode(key), value);
  return pairs.join('&');
}

/**
 * @typedef {object} PageRequest what a paginator is built from
 * @property {number} perPage items per page
 * @property {number} page the page asked for, ≥ 1
 * @property {string} pageName the query key of the page number (`page`, or `page[number]` for Core's pages)
 * @property {string} path the links' path: the request's absolute URL without its query
 *   (Laravel's `request()->url()`), or `/` for a paginator built without one (Core's search drivers)
 * @property {Record<string, unknown>} [appends] the query the links keep (`appends()`); its
 *   `pageName` key, if any, is not kept
 */

/**
 * One page of a list and its links, as `LengthAwarePaginator` gives them: `next` while the page is
 * before the last (`ceil(total / perPage)`, at least 1), `previous` from page 2 on, even past the
 * end (a page past the last is empty and links back to the one before it).
 * @template T
 * @param {T[]} items the whole list
 * @param {PageRequest} request
 * @returns {{ data: T[], links: { next: string | null, previous: string | null } }}
 */
export function paginate(items, { perPage, page, pageName, path, appends = {} }) {
  const query = Object.fromEntries(Object.entries(appends).filter(([key]) => key !== pageName));
  const lastPage = Math.max(Math.ceil(items.length / perPage), 1);
  /** @param {number} number */
  const url = (number) => `${path}${path.includes('?') ? '&' : '?'}${buildQuery({ ...query, [pageName]: number })}`;
  return {
    data: items.slice((page - 1) * perPage, page * perPage),
    links: { next: page < lastPage ? url(page + 1) : null, previous: page > 1 ? url(page - 1) : null },
  };
}
