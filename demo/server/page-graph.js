import { listPropertyEntries, projectValues, toFullUrl } from './properties.js';

/** @typedef {import('./catalogue.js').Page} Page */
/** @typedef {import('./catalogue.js').Language} Language */

/** A `schema:<term>` semantic, as Core matches it. */
const SCHEMA_SEMANTIC = /^schema:([A-Za-z][A-Za-z0-9]*)$/;

/** The set prefixes that give a node its `@type` (capell-app/core `BuildPageSchemaGraphAction`). */
const TYPE_PREFIXES = /** @type {const} */ ([['commerce.product.', 'Product'], ['events.event.', 'Event'], ['content.article.', 'Article']]);

/** Keys an author's mapping cannot overwrite: identity and contract metadata. */
const RESERVED_KEYS = ['capellAgentSchema', 'url'];

/**
 * The page graph of a public page exactly as Capell Core builds it (capell-app/core
 * `BuildPageSchemaGraphAction` and `SchemaGraphData::toJsonLd`; test/fixtures/capell/SOURCES.md
 * §3): `{"@context": "https://schema.org", "@graph": [node]}`. The node's keys, in order:
 * `@type` (`Product`, `Event` or `Article` from the qualified keys of its values, a list when
 * several, else `WebPage`), `@context` (`{capellAgentSchema: …}`), `capellAgentSchema` 1, `name`,
 * `@id` and `url` (the page's full URL), then one key per `schema:`-mapped value in entry order
 * (a list when several); a Product's `price` and `availability` move into `offers`, an Offer,
 * added last. Values without a schema.org mapping (`capell:<set>.<property>`) are not in the
 * graph: the `/agent/v1/pages` items carry them. This is what the page's
 * `data-capell-agent-schema` island holds and `page.get` answers.
 *
 * The caller must have checked `isPublic(page, lang, now)`.
 *
 * @param {Page} page
 * @param {{ lang: Language, now: Date, origin: string }} context `origin` is the site's, e.g. `http://127.0.0.1:5173`
 * @returns {{ '@context': string, '@graph': Record<string, unknown>[] } | null} null when no
 *   value of the page maps to schema.org (Core then writes no graph island and no `page.get`)
 */
export function toPageGraph(page, context) {
  /** @type {Map<string, unknown[]>} */
  const properties = new Map();
  /** @type {Set<string>} */
  const types = new Set();
  for (const { set, key, definition, value } of listPropertyEntries(page)) {
    const match = definition.semantic ? SCHEMA_SEMANTIC.exec(definition.semantic) : null;
    if (!match) continue;
    const projected = projectValues(definition, value, context);
    if (projected.length === 0) continue;
    const term = /** @type {string} */ (match[1]);
    properties.set(term, [...(properties.get(term) ?? []), ...projected]);
    for (const [prefix, type] of TYPE_PREFIXES) {
      if (`${set.key}.${key}`.startsWith(prefix)) types.add(type);
    }
  }
  if (properties.size === 0) return null;

  const translation = page.translations[context.lang];
  /** @type {Record<string, unknown>} */
  const node = {
    '@type': types.size > 1 ? [...types] : ([...types][0] ?? 'WebPage'),
    '@context': { capellAgentSchema: 'https://capell.app/agent-schema/version' },
    capellAgentSchema: 1,
  };
  if (translation?.title !== undefined) node.name = translation.title;
  if (translation) {
    node['@id'] = toFullUrl(context.origin, translation.url);
    node.url = node['@id'];
  }
  for (const [term, values] of properties) {
    if (!RESERVED_KEYS.includes(term)) node[term] = values.length === 1 ? values[0] : values;
  }
  if (types.has('Product') && ('price' in node || 'availability' in node)) {
    /** @type {Record<string, unknown>} */
    const offer = { '@type': 'Offer' };
    if ('price' in node) {
      offer.priceSpecification = node.price;
      delete node.price;
    }
    if ('availability' in node) {
      offer.availability = node.availability;
      delete node.availability;
    }
    node.offers = offer;
  }
  return { '@context': 'https://schema.org', '@graph': [node] };
}
