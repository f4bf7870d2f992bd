import { invalidField } from '../api-error.js';
import { isLongerThan } from '../code-points.js';
import { EXCERPT_LENGTH, MAX_QUERY_LENGTH } from '../limits.js';
import { paginate, readPageWindow } from '../pagination.js';
import { listPublicPages, listPublicPageTypes } from '../public-pages.js';

/** The search scopes Core offers. */
const SCOPES = ['pages'];

/**
 * A short passage of `text` around the first occurrence of `word`.
 * @param {string} text
 * @param {string} word lower case
 * @returns {string}
 */
function toExcerpt(text, word) {
  if (text.length <= EXCERPT_LENGTH) return text;
  const at = Math.max(0, text.toLowerCase().indexOf(word) - EXCERPT_LENGTH / 4);
  const passage = text.slice(at, at + EXCERPT_LENGTH).trim();
  return `${at > 0 ? '…' : ''}${passage}${at + EXCERPT_LENGTH < text.length ? '…' : ''}`;
}

/**
 * `GET /agent/v1/search?q=…&scope=pages&type=…&cursor=…&limit=…`: public pages of the language
 * whose title, description or text contain every word of `q` (case-insensitive). Items
 * `{url, title, type, excerpt}`; pages whose title matches come first.
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 naming `q` (missing, blank, longer than 200),
 *   `scope`, `type`, `limit` or `cursor`
 */
export function searchPages(context) {
  const { lang, params, now } = context;
  const { q, scope = 'pages', type } = params;
  if (q === undefined || (typeof q === 'string' && q.trim() === '')) throw invalidField('q', 'The q field is required.');
  if (typeof q !== 'string') throw invalidField('q', 'The q field must be a string.');
  if (isLongerThan(q, MAX_QUERY_LENGTH)) throw invalidField('q', `The q field must not be greater than ${MAX_QUERY_LENGTH} characters.`);
  if (typeof scope !== 'string' || !SCOPES.includes(scope)) throw invalidField('scope', `The selected scope is invalid; use one of: ${SCOPES.join(', ')}.`);
  const types = listPublicPageTypes();
  if (type !== undefined && (typeof type !== 'string' || !types.includes(type))) {
    throw invalidField('type', `The selected type is invalid; use one of: ${types.join(', ')}.`);
  }
  const window = readPageWindow(context);
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);

  const matches = [];
  for (const page of listPublicPages(lang, now)) {
    if (type !== undefined && page.blueprint !== type) continue;
    const translation = /** @type {import('../catalogue.js').Translation} */ (page.translations[lang]);
    const description = translation.description ?? '';
    const body = (translation.body ?? []).join(' ');
    const haystack = `${translation.title}\n${description}\n${body}`.toLowerCase();
    if (!words.every((word) => haystack.includes(word))) continue;
    const inTitle = words.some((word) => translation.title.toLowerCase().includes(word));
    const firstWord = /** @type {string} */ (words[0]);
    const excerptSource = description.toLowerCase().includes(firstWord) || !body.toLowerCase().includes(firstWord) ? description : body;
    matches.push({
      inTitle,
      item: { url: translation.url, title: translation.title, type: page.blueprint, excerpt: toExcerpt(excerptSource, firstWord) },
    });
  }
  // Stable sort: title matches first, catalogue order otherwise.
  matches.sort((a, b) => Number(b.inTitle) - Number(a.inTitle));
  return paginate(matches.map((match) => match.item), window, context);
}
