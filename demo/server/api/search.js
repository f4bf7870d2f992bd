import { listPublicPages } from '../public-pages.js';
import { toFullUrl } from '../properties.js';
import { paginate } from './paginator.js';
import { validateRequest } from './validate-request.js';

/** Results per page (capell-app/search `SearchServiceProvider`: the `results_per_page` default). */
export const SEARCH_PAGE_SIZE = 10;

/** Shortest query the search drivers look for, in code points after trimming; a shorter one finds nothing. */
export const SEARCH_MIN_QUERY_LENGTH = 2;

/** SearchController's rules (test/fixtures/capell/SOURCES.md §4.4). */
const RULES = /** @type {import('./validate-request.js').Rule[]} */ ([
  ['q', ['required', 'string', 'min:1', 'max:200']],
  ['page', ['sometimes', 'integer', 'min:1', 'max:1000']],
]);

/**
 * A text as capell-app/search's adapter cleans it: tags stripped (`strip_tags`), entities decoded
 * (the demo's texts hold none), whitespace collapsed.
 * @param {string} text
 * @returns {string}
 */
function toPlainText(text) {
  return text.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * `GET /agent/v1/search?q=…[&page=N]`, as Core's SearchController answers it with capell-app/search
 * bound (test/fixtures/capell/SOURCES.md §4.4): public pages of the language whose title,
 * description or text contain every word of `q` (case-insensitive), those whose title matches
 * first, as `{url, title, snippet}` (`url` the page's full URL, `snippet` its description as
 * plain text), 10 a page. A `q` shorter than two characters finds nothing. Search's paginator
 * has no path, so its links are root-relative and keep only `q`: `/?q=boots&page=2`. Other
 * parameters (`scope`, …) are ignored, as Core ignores them.
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 naming `q` (missing, blank, longer than 200
 *   characters) or `page`
 */
export function searchPages({ lang, origin, input, now }) {
  const validated = validateRequest(input, RULES);
  const q = /** @type {string} */ (validated.q);
  const page = Number(validated.page ?? 1);
  const words = [...q].length < SEARCH_MIN_QUERY_LENGTH ? [] : q.toLowerCase().split(/\s+/).filter(Boolean);
  /** @type {{ inTitle: boolean, item: { url: string, title: string, snippet: string } }[]} */
  const matches = [];
  for (const candidate of words.length === 0 ? [] : listPublicPages(lang, now)) {
    const translation = /** @type {import('../catalogue.js').Translation} */ (candidate.translations[lang]);
    const description = translation.description ?? '';
    const haystack = `${translation.title}\n${description}\n${(translation.body ?? []).join(' ')}`.toLowerCase();
    if (!words.every((word) => haystack.includes(word))) continue;
    matches.push({
      inTitle: words.some((word) => translation.title.toLowerCase().includes(word)),
      item: { url: toFullUrl(origin, translation.url), title: toPlainText(translation.title), snippet: toPlainText(description) },
    });
  }
  // Stable sort: title matches first, catalogue order otherwise.
  matches.sort((a, b) => Number(b.inTitle) - Number(a.inTitle));
  return paginate(matches.map((match) => match.item), { perPage: SEARCH_PAGE_SIZE, page, pageName: 'page', path: '/', appends: { q } });
}
