import { listSiteTaxonomies, listPublicPageTypes } from './public-pages.js';
import { API_BASES, text } from './localisation.js';
import { MAX_LIMIT, MAX_QUERY_LENGTH, SKU_PATTERN, TERM_SLUG_PATTERN } from './limits.js';
import { CONTACT_TOPICS, EMAIL_MAX_LENGTH, MESSAGE_MAX_LENGTH, NAME_MAX_LENGTH } from './html/contact-form.js';

/** @typedef {import('./catalogue.js').Language} Language */

/** Key of the catalogue extension's description in the island's `messages`. */
export const CATALOGUE_LOOKUP_KEY = 'vendor-catalogue::agent.lookup';

/**
 * `cursor` and `limit`, which every paginated tool accepts.
 * @param {Language} lang
 */
function paginationProperties(lang) {
  return {
    cursor: { type: 'string', description: text(lang, 'tool.cursor') },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: text(lang, 'tool.limit') },
  };
}

/**
 * A `{min, max}` range of numbers.
 * @param {string} description
 */
function rangeSchema(description) {
  return {
    type: 'object',
    description,
    properties: { min: { type: 'number', minimum: 0 }, max: { type: 'number', minimum: 0 } },
    additionalProperties: false,
  };
}

/** Keys of the confirmation panel's text in the island's `messages` (capell-webmcp's panel). */
const CONFIRM_MESSAGE_KEYS = /** @type {const} */ ([
  'confirmForm', 'confirmTitle', 'confirmSendHint', 'confirmRequest', 'confirmSend', 'confirmCancel',
  'confirmClose', 'confirmSent', 'confirmFailed', 'confirmYes', 'confirmNo', 'confirmReplaced',
  'confirmFormName', 'confirmPersonValue', 'confirmAgentValue', 'confirmUseAgentValue', 'confirmRefused',
  'confirmReasonTooSoon', 'confirmReasonPanelHidden', 'confirmReasonControlHidden', 'confirmReasonChanged',
]);

/**
 * What a write tool answers: the person's decision, or `awaiting_person` with a writeId for
 * `capell.write.status` (docs/writes-and-consent.md, "Write calls never hang the agent").
 */
const WRITE_STATUS = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { enum: ['submitted', 'cancelled', 'expired', 'superseded', 'aborted', 'awaiting_person', 'sending'] },
    httpStatus: { type: 'integer' },
    writeId: { type: 'string' },
    expiresAt: { type: 'string' },
    supersededBy: { type: 'string' },
    next: { type: 'string' },
  },
};

/**
 * `form.submit.contact`, shaped as Capell's form builder shapes form tools: text, email and
 * textarea fields are strings with `maxLength` (email adds `format: "email"`), the select is a
 * string `enum` of its option values (not labels), the checkbox a boolean; the CSRF token and the
 * honeypot are never exposed; top-level `additionalProperties: false`.
 * @param {Language} lang
 */
export function contactFormTool(lang) {
  return {
    name: 'form.submit.contact',
    description: text(lang, 'tool.form.submit.contact'),
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH, description: text(lang, 'contact.name') },
        email: { type: 'string', format: 'email', maxLength: EMAIL_MAX_LENGTH, description: text(lang, 'contact.email') },
        topic: { type: 'string', enum: [...CONTACT_TOPICS], description: text(lang, 'tool.form.submit.contact.topic') },
        message: { type: 'string', minLength: 1, maxLength: MESSAGE_MAX_LENGTH, description: text(lang, 'contact.message') },
        newsletter: { type: 'boolean', description: text(lang, 'contact.newsletter') },
      },
      required: ['name', 'email', 'topic', 'message'],
      additionalProperties: false,
    },
    outputSchema: WRITE_STATUS,
    effect: /** @type {const} */ ('write'),
    binding: { type: 'form', target: 'contact' },
  };
}

/**
 * `newsletter.subscribe`: a write endpoint (POST JSON, CSRF token), confirmed by the person in
 * capell-webmcp's panel.
 * @param {Language} lang
 */
export function newsletterTool(lang) {
  return {
    name: 'newsletter.subscribe',
    description: text(lang, 'tool.newsletter.subscribe'),
    inputSchema: {
      type: 'object',
      properties: { email: { type: 'string', format: 'email', maxLength: EMAIL_MAX_LENGTH, description: text(lang, 'tool.newsletter.subscribe.email') } },
      required: ['email'],
      additionalProperties: false,
    },
    outputSchema: WRITE_STATUS,
    effect: /** @type {const} */ ('write'),
    binding: { type: 'endpoint', target: `${API_BASES[lang]}/newsletter` },
  };
}

/**
 * The tools manifest Core writes into every page of the demo site (the
 * `data-capell-agent-tools` island), in declaration order: `page.lookup`, `site.search`,
 * `site.navigation`, `taxonomy.browse`, `properties.query`, `catalogue.lookup`. Descriptions are
 * in the page's language; endpoint targets use the language's API base. `messages` holds the
 * text for `descriptionKey` declarations and the confirmation panel (`confirm*`). The contact page
 * also declares the write tools `form.submit.contact` and `newsletter.subscribe`. Source: Capell
 * Agent Schema, "Tool declarations"; the demo site's tool names are fixed (other checks depend on them).
 *
 * @param {Language} lang
 * @param {{ contact?: boolean }} [options] `contact`: the page carries the contact form
 * @returns {{ capellAgentSchema: 1, tools: Record<string, unknown>[], messages: Record<string, string> }}
 */
export function toToolsManifest(lang, { contact = false } = {}) {
  const base = API_BASES[lang];
  const read = /** @type {const} */ ('read');
  // outputSchema describes the envelope's `data` (what the runtime checks each answer against).
  const pageGraph = { type: 'object', required: ['@type', 'url'], properties: { url: { type: 'string' } } };
  const pageList = { type: 'array', items: { type: 'object', required: ['url'], properties: { url: { type: 'string', pattern: '^/' } } } };
  const anyList = { type: 'array', items: { type: 'object' } };
  const catalogueItem = {
    type: 'object',
    required: ['sku', 'url', 'price'],
    properties: {
      sku: { type: 'string' },
      url: { type: 'string' },
      price: { type: 'object', required: ['amount', 'currency'], properties: { currency: { type: 'string', minLength: 3, maxLength: 3 } } },
    },
  };
  return {
    capellAgentSchema: 1,
    tools: [
      {
        name: 'page.lookup',
        description: text(lang, 'tool.page.lookup'),
        inputSchema: { type: 'object', additionalProperties: false },
        outputSchema: pageGraph,
        effect: read,
        binding: { type: 'inline', target: 'page' },
      },
      {
        name: 'site.search',
        description: text(lang, 'tool.site.search'),
        inputSchema: {
          type: 'object',
          properties: {
            q: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, description: text(lang, 'tool.site.search.q') },
            type: { type: 'string', enum: listPublicPageTypes(), description: text(lang, 'tool.site.search.type') },
            ...paginationProperties(lang),
          },
          required: ['q'],
          additionalProperties: false,
        },
        outputSchema: pageList,
        effect: read,
        binding: { type: 'search', target: 'pages' },
      },
      {
        name: 'site.navigation',
        description: text(lang, 'tool.site.navigation'),
        inputSchema: { type: 'object', properties: paginationProperties(lang), additionalProperties: false },
        outputSchema: pageList,
        effect: read,
        binding: { type: 'endpoint', target: `${base}/navigation` },
      },
      {
        name: 'taxonomy.browse',
        description: text(lang, 'tool.taxonomy.browse'),
        inputSchema: {
          type: 'object',
          properties: {
            taxonomy: {
              type: 'string',
              enum: listSiteTaxonomies().map((taxonomy) => taxonomy.key),
              description: text(lang, 'tool.taxonomy.browse.taxonomy'),
            },
            term: { type: 'string', pattern: TERM_SLUG_PATTERN, maxLength: 100, description: text(lang, 'tool.taxonomy.browse.term') },
            ...paginationProperties(lang),
          },
          additionalProperties: false,
        },
        outputSchema: anyList,
        effect: read,
        binding: { type: 'endpoint', target: `${base}/taxonomies` },
      },
      {
        name: 'properties.query',
        description: text(lang, 'tool.properties.query'),
        inputSchema: {
          type: 'object',
          properties: {
            filter: {
              type: 'object',
              properties: {
                colour: { type: 'string', minLength: 1, maxLength: 50, description: text(lang, 'tool.properties.query.colour') },
                price: rangeSchema(text(lang, 'tool.properties.query.price')),
                weight: rangeSchema(text(lang, 'tool.properties.query.weight')),
                category: { type: 'string', pattern: TERM_SLUG_PATTERN, description: text(lang, 'tool.properties.query.category') },
              },
              additionalProperties: false,
            },
            ...paginationProperties(lang),
          },
          additionalProperties: false,
        },
        outputSchema: pageList,
        effect: read,
        binding: { type: 'property-query', target: 'product' },
      },
      {
        name: 'catalogue.lookup',
        descriptionKey: CATALOGUE_LOOKUP_KEY,
        inputSchema: {
          type: 'object',
          properties: { sku: { type: 'string', pattern: SKU_PATTERN, description: text(lang, 'tool.catalogue.lookup.sku') } },
          required: ['sku'],
          additionalProperties: false,
        },
        outputSchema: catalogueItem,
        effect: read,
        binding: { type: 'endpoint', target: `${base}/catalogue/lookup` },
      },
      ...(contact ? [contactFormTool(lang), newsletterTool(lang)] : []),
    ],
    messages: {
      [CATALOGUE_LOOKUP_KEY]: text(lang, CATALOGUE_LOOKUP_KEY),
      ...Object.fromEntries(CONFIRM_MESSAGE_KEYS.map((key) => [key, text(lang, key)])),
    },
  };
}
