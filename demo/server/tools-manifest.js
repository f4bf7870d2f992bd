import { API_BASES, text } from './localisation.js';
import { SKU_PATTERN } from './limits.js';
import { CONTACT_FORM_ID, CONTACT_TOPICS, EMAIL_MAX_LENGTH, MESSAGE_MAX_LENGTH, NAME_MAX_LENGTH } from './html/contact-form.js';

/** @typedef {import('./catalogue.js').Language} Language */

/** Key of the catalogue extension's description in the island's `messages`. */
export const CATALOGUE_LOOKUP_KEY = 'vendor-catalogue::agent.lookup';

/** Core's built-in tools, in the order Core declares them (test/fixtures/capell/SOURCES.md §2). */
export const CORE_TOOL_NAMES = Object.freeze(['page.get', 'site.pages.query', 'site.taxonomies.browse', 'site.navigation', 'site.search']);

/**
 * Core's five built-in tools exactly as capell-app/core `BuildAgentToolManifestAction` declares
 * them (test/fixtures/capell/SOURCES.md §2; `test/fixtures/capell/core-tools-island.json`): names,
 * input schemas (key order included), `outputSchema: {"type": "object"}` (the whole envelope),
 * effect `read`, `page.get` bound inline to the page graph, the four reads to Core's endpoints.
 * Descriptions are Core's (`capell-core::agent.tools.*`) in the page's language. `page.get` is
 * declared only when the page has a graph (Core's `$hasInlineData`).
 * @param {Language} lang
 * @param {boolean} hasInlineData the page carries a page graph island
 */
function coreTools(lang, hasInlineData) {
  const base = API_BASES[lang];
  const string = { type: 'string', maxLength: 100 };
  const scalar = { anyOf: [string, { type: 'number' }, { type: 'boolean' }] };
  const pageNumber = { type: 'integer', minimum: 1, maximum: 1000 };
  /**
   * @param {string} name
   * @param {Record<string, unknown>} properties
   * @param {string[]} required
   * @param {{ type: string, target: string }} binding
   */
  const tool = (name, properties, required, binding) => ({
    name,
    description: text(lang, /** @type {import('./localisation.js').TextKey} */ (`capell-core::agent.tools.${name.replaceAll('.', '_')}`)),
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
    outputSchema: { type: 'object' },
    effect: /** @type {const} */ ('read'),
    binding,
  });
  return [
    ...(hasInlineData ? [tool('page.get', {}, [], { type: 'inline', target: 'page' })] : []),
    tool('site.pages.query', {
      set: string,
      sort: string,
      filter: {
        type: 'object',
        maxProperties: 10,
        additionalProperties: {
          type: 'object',
          properties: { eq: scalar, lt: scalar, lte: scalar, gt: scalar, gte: scalar, in: { type: 'array', items: scalar, maxItems: 20 }, currency: string, unit: string },
          additionalProperties: false,
        },
      },
      page: {
        type: 'object',
        additionalProperties: false,
        properties: { size: { type: 'integer', minimum: 1, maximum: 50 }, number: { type: 'integer', minimum: 1, maximum: 1000 } },
      },
    }, ['set'], { type: 'endpoint', target: `${base}/pages` }),
    tool('site.taxonomies.browse', { key: string, page: pageNumber }, [], { type: 'endpoint', target: `${base}/taxonomies` }),
    tool('site.navigation', { page: pageNumber }, [], { type: 'endpoint', target: `${base}/navigation` }),
    tool('site.search', { q: { type: 'string', maxLength: 200 } }, ['q'], { type: 'endpoint', target: `${base}/search` }),
  ];
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

/**
 * The catalogue extension's `catalogue.lookup` (the seed's extension example: an endpoint
 * binding and a `descriptionKey`). Its outputSchema describes its whole answer, Core's envelope.
 * @param {Language} lang
 */
function catalogueLookupTool(lang) {
  return {
    name: 'catalogue.lookup',
    descriptionKey: CATALOGUE_LOOKUP_KEY,
    inputSchema: {
      type: 'object',
      properties: { sku: { type: 'string', pattern: SKU_PATTERN, description: text(lang, 'tool.catalogue.lookup.sku') } },
      required: ['sku'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      required: ['capellAgentSchema', 'data', 'links'],
      properties: {
        capellAgentSchema: { const: 1 },
        data: {
          type: 'object',
          required: ['sku', 'url', 'name', 'price', 'inStock'],
          properties: {
            sku: { type: 'string' },
            url: { type: 'string' },
            name: { type: 'string' },
            price: {
              type: 'object',
              required: ['@type', 'price', 'priceCurrency'],
              properties: { '@type': { const: 'PriceSpecification' }, price: { type: 'number' }, priceCurrency: { type: 'string', minLength: 3, maxLength: 3 } },
            },
            inStock: { type: 'boolean' },
          },
        },
        links: { type: 'object', required: ['next', 'previous'] },
      },
    },
    effect: /** @type {const} */ ('read'),
    binding: { type: 'endpoint', target: `${API_BASES[lang]}/catalogue/lookup` },
  };
}

/**
 * The catalogue extension's declarations of the two binding types no Capell package declares
 * (`search` and `property-query`), on the products page only, so the runtime's executors for them
 * stay tested: `catalogue.search` reads Core's search through the search binding
 * (`/agent/v1/search?scope=pages&q=…`; Core ignores `scope`), `catalogue.properties` the
 * extension's `/agent/v1/properties/commerce.product` (api/properties.js).
 * @param {Language} lang
 */
function catalogueQueryTools(lang) {
  const read = /** @type {const} */ ('read');
  return [
    {
      name: 'catalogue.search',
      description: text(lang, 'tool.catalogue.search'),
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'string', minLength: 1, maxLength: 200, description: text(lang, 'tool.catalogue.search.q') } },
        required: ['q'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object' },
      effect: read,
      binding: { type: 'search', target: 'pages' },
    },
    {
      name: 'catalogue.properties',
      description: text(lang, 'tool.catalogue.properties'),
      inputSchema: {
        type: 'object',
        properties: {
          filter: {
            type: 'object',
            properties: {
              colour: { type: 'string', minLength: 1, maxLength: 50, description: text(lang, 'tool.catalogue.properties.colour') },
              price: rangeSchema(text(lang, 'tool.catalogue.properties.price')),
              weight: rangeSchema(text(lang, 'tool.catalogue.properties.weight')),
            },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
      outputSchema: { type: 'object' },
      effect: read,
      binding: { type: 'property-query', target: 'commerce.product' },
    },
  ];
}

/** Keys of the confirmation panel's text in the island's `messages` (capell-webmcp's panel). */
const CONFIRM_MESSAGE_KEYS = /** @type {const} */ ([
  'confirmForm', 'confirmTitle', 'confirmSendHint', 'confirmRequest', 'confirmSend', 'confirmCancel',
  'confirmClose', 'confirmSent', 'confirmFailed', 'confirmYes', 'confirmNo', 'confirmReplaced',
  'confirmFormName', 'confirmPersonValue', 'confirmAgentValue', 'confirmUseAgentValue', 'confirmRefused',
  'confirmReasonTooSoon', 'confirmReasonPanelHidden', 'confirmReasonControlHidden', 'confirmReasonChanged',
  'confirmReasonPageControl', 'confirmReasonPageEnter', 'confirmSentAs', 'confirmChangedMark', 'confirmNoLongerSent',
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
 * `form.submit.capell-form-contact`, form-builder's name for the form `capell-form-contact`
 * (../shared/DESIGN.md §4; a `-` inside a segment, so it registers with a Report warning), shaped
 * as Capell's form builder shapes form tools: text, email and
 * textarea fields are strings with `maxLength` (email adds `format: "email"`), the select is a
 * string `enum` of its option values (not labels), the checkbox a boolean; the CSRF token and the
 * honeypot are never exposed; top-level `additionalProperties: false`.
 * @param {Language} lang
 */
export function contactFormTool(lang) {
  return {
    name: `form.submit.${CONTACT_FORM_ID}`,
    description: text(lang, 'tool.contactForm'),
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH, description: text(lang, 'contact.name') },
        email: { type: 'string', format: 'email', maxLength: EMAIL_MAX_LENGTH, description: text(lang, 'contact.email') },
        topic: { type: 'string', enum: [...CONTACT_TOPICS], description: text(lang, 'tool.contactForm.topic') },
        message: { type: 'string', minLength: 1, maxLength: MESSAGE_MAX_LENGTH, description: text(lang, 'contact.message') },
        newsletter: { type: 'boolean', description: text(lang, 'contact.newsletter') },
      },
      required: ['name', 'email', 'topic', 'message'],
      additionalProperties: false,
    },
    outputSchema: WRITE_STATUS,
    effect: /** @type {const} */ ('write'),
    binding: { type: 'form', target: CONTACT_FORM_ID },
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
 * The tools manifest of a demo page (the `data-capell-agent-tools` island), as Core builds it
 * (capell-app/core `BuildAgentToolManifestAction`): Core's five built-ins first (coreTools; no
 * `page.get` on a page without a graph), then the extensions' declarations: `catalogue.lookup`
 * on every page, `catalogue.search` and `catalogue.properties` on the products page,
 * `newsletter.subscribe` on the contact page, and on its plain twin (/contact/plain) also the
 * plain contact form's `form.submit.capell-form-contact` (on /contact that tool is declared by
 * form-builder's own island, inside the form's component). Descriptions are in
 * the page's language; endpoint targets use the language's API base. `messages` holds Core's
 * `confirmForm`, the catalogue's `descriptionKey` text and the confirmation panel's (`confirm*`).
 * The demo site's tool names are fixed (../shared/DESIGN.md §4; other checks depend on them).
 *
 * @param {Language} lang
 * @param {{ hasInlineData?: boolean, catalogue?: boolean, contact?: boolean, plainContactForm?: boolean }} [options]
 *   `hasInlineData`: the page has a page graph (default true); `catalogue`: the page is the
 *   products page; `contact`: the page is the contact page (newsletter.subscribe);
 *   `plainContactForm`: it carries the plain contact form, whose tool is declared here (the
 *   form-builder form declares its own in its component: form-builder/render-form.js)
 * @returns {{ capellAgentSchema: 1, tools: Record<string, unknown>[], messages: Record<string, string> }}
 */
export function toToolsManifest(lang, { hasInlineData = true, catalogue = false, contact = false, plainContactForm = false } = {}) {
  return {
    capellAgentSchema: 1,
    tools: [
      ...coreTools(lang, hasInlineData),
      catalogueLookupTool(lang),
      ...(catalogue ? catalogueQueryTools(lang) : []),
      ...(contact && plainContactForm ? [contactFormTool(lang)] : []),
      ...(contact ? [newsletterTool(lang)] : []),
    ],
    messages: {
      confirmForm: text(lang, 'confirmForm'),
      [CATALOGUE_LOOKUP_KEY]: text(lang, CATALOGUE_LOOKUP_KEY),
      ...Object.fromEntries(CONFIRM_MESSAGE_KEYS.filter((key) => key !== 'confirmForm').map((key) => [key, text(lang, key)])),
    },
  };
}
