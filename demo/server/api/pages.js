import { invalidField, notFound } from '../api-error.js';
import { isLongerThan } from '../code-points.js';
import { MAX_URL_LENGTH } from '../limits.js';
import { toPageGraph } from '../page-graph.js';
import { findPublicPage } from '../public-pages.js';

/**
 * `GET /agent/v1/pages?url=/path`: the page graph of one public page, exactly what its HTML
 * carries in the `data-capell-agent-schema` island.
 * @param {import('./context.js').ApiContext} context
 * @returns {import('./context.js').Envelope}
 * @throws {import('../api-error.js').ApiError} 422 for a missing or malformed `url`; 404 when no
 *   public page of the language has that URL
 */
export function readPage({ lang, params, now }) {
  const { url } = params;
  if (url === undefined || url === '') throw invalidField('url', 'The url field is required.');
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//') || isLongerThan(url, MAX_URL_LENGTH)) {
    throw invalidField('url', 'The url field must be a root-relative path such as /products.');
  }
  const page = findPublicPage(url, lang, now);
  if (!page) throw notFound(`No public page has the URL ${url}.`);
  return { data: toPageGraph(page, lang, now), links: { next: null, previous: null } };
}
