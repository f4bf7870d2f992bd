/**
 * The embedded catalogue: what Capell Core would hold in its database for one demo site.
 *
 * Records carry the fields Core filters public results on (site, language, URL status,
 * published visibility, publish_at, blueprint accessibility) so that `isPublic` can apply the
 * same rule as Capell Agent Schema, "What is public". Numeric `id` fields are storage ids: they
 * exist here exactly so that tests can prove none of them ever leaves the server.
 *
 * Several records are deliberately never public (a draft, a scheduled page, a redirect, a page
 * of a private blueprint, a page without a German translation, a page of another site, and a
 * draft revision of a published page). Their marker words ("Prototypzeta", "Orbisalt",
 * "Margincrux", "Archivolt") appear nowhere in public data, so a search for them must be empty.
 */

/** @typedef {'en' | 'de'} Language */

/**
 * @typedef {object} Site
 * @property {number} id storage id
 * @property {string} key
 * @property {string} name
 * @property {Language} defaultLanguage
 * @property {Language[]} languages
 * @property {boolean} domainEnabled
 */

/**
 * @typedef {object} Blueprint a page type
 * @property {number} id storage id
 * @property {string} key the public page type (`type` in API results)
 * @property {boolean} enabled
 * @property {'public' | 'private'} access only `public` blueprints produce public results
 */

/**
 * @typedef {object} Term
 * @property {number} id storage id
 * @property {string} slug stable, language-neutral key
 * @property {Record<Language, string>} name
 * @property {string} [parent] slug of the parent term (hierarchical taxonomies)
 * @property {string} [landingPage] key of the page that presents the term (its public URL)
 * @property {Record<string, Record<string, unknown>>} [properties] values pages inherit, by set
 *   (only the taxonomy's own property set counts)
 */

/**
 * @typedef {object} Taxonomy
 * @property {number} id storage id
 * @property {string} key
 * @property {string} site site key
 * @property {number} position order in the API and tie-breaker for inherited values
 * @property {Record<Language, string>} name
 * @property {boolean} hierarchical whether its terms have parents
 * @property {string | null} propertySet key of the property set its terms carry values of
 * @property {Term[]} terms in position order
 */

/**
 * Core's property types (capell-app/core `src/Enums/PropertyType.php`) as the demo stores them:
 * `string` (text), `localised` (text per language), `money` (`{amount, currency}`), `dimension` and
 * `duration` (`{value, unit}`), `boolean`, `term-reference` (`{taxonomy, term}`) and
 * `page-reference` (Core's entry reference: page keys).
 * @typedef {'string' | 'localised' | 'money' | 'dimension' | 'duration' | 'boolean'
 *   | 'term-reference' | 'page-reference'} PropertyType
 */

/**
 * @typedef {object} PropertyDefinition
 * @property {number} id storage id
 * @property {PropertyType} type
 * @property {boolean} agentVisible only agent-visible definitions are projected or filterable
 * @property {string | null} semantic `schema:<term>` when the value maps to schema.org (it then
 *   enters the page graph, keyed `<term>`), or null (`capell:<set>.<property>` in API items only)
 * @property {string[]} [units] for `dimension` and `duration`: the units a query may name
 * @property {string} [taxonomy] for `term-reference`: the taxonomy of the referenced term
 * @property {'description'} [fromTranslation] the value is the page translation's own field (an
 *   editor writes it as the page's description), not a stored property value
 * @property {Record<Language, string>} label
 */

/**
 * @typedef {object} PropertySet
 * @property {number} id storage id
 * @property {string} key qualified as Core's are (`commerce.product`): the prefixes
 *   `commerce.product.`, `events.event.` and `content.article.` give a page graph its `@type`
 * @property {string[]} blueprints blueprints whose pages carry this set
 * @property {Record<string, PropertyDefinition>} properties in entry order
 */

/**
 * @typedef {object} Translation
 * @property {string} url root-relative URL of the page in this language
 * @property {'active' | 'redirect'} urlStatus
 * @property {string} [redirectTo] for `redirect`: the target URL
 * @property {string} title
 * @property {string} [description]
 * @property {string[]} [body] paragraphs of plain text
 */

/**
 * @typedef {object} Page
 * @property {number} id storage id
 * @property {string} key stable key used for references inside the catalogue
 * @property {string} site site key
 * @property {string} blueprint blueprint key
 * @property {'home' | 'text' | 'products' | 'category' | 'product' | 'journal' | 'topic'
 *   | 'article' | 'contact' | 'stockists'} view how the HTML route renders `<main>`
 * @property {'published' | 'draft'} visibility
 * @property {string | null} publishAt ISO 8601 instant; the page is public from then on
 * @property {string | null} parent key of the parent page
 * @property {number} position position among its siblings
 * @property {{ taxonomy: string, term: string }[]} terms term assignments, in assignment order
 * @property {Record<string, Record<string, unknown>>} properties stored values by set and property
 * @property {Partial<Record<Language, Translation>>} translations
 * @property {{ translations: Partial<Record<Language, Partial<Translation>>> }} [draftRevision]
 *   unpublished edits; never projected
 */

/** @type {Site[]} */
export const SITES = [
  {
    id: 810001,
    key: 'outfitters',
    name: 'Capell Outfitters',
    defaultLanguage: 'en',
    languages: ['en', 'de'],
    domainEnabled: true,
  },
  {
    id: 810002,
    key: 'archive',
    name: 'Capell Archive',
    defaultLanguage: 'en',
    languages: ['en'],
    domainEnabled: true,
  },
];

/** The one site this demo server delivers. */
export const SITE = /** @type {Site} */ (SITES[0]);

/** @type {Blueprint[]} */
export const BLUEPRINTS = [
  { id: 810201, key: 'page', enabled: true, access: 'public' },
  { id: 810202, key: 'product', enabled: true, access: 'public' },
  { id: 810203, key: 'article', enabled: true, access: 'public' },
  { id: 810204, key: 'category', enabled: true, access: 'public' },
  { id: 810205, key: 'internal-sheet', enabled: true, access: 'private' },
  { id: 810206, key: 'stockist', enabled: true, access: 'public' },
];

/** A warranty as Core stores a duration: a number of days (`P730D` once projected). */
const YEAR_DAYS = 365;

/**
 * The stockists: towns where a shop carries the kit, by region. Each is a public page (a
 * stockist page, `/stockists/<slug>` and `/de/haendler/<slug>`) and a term of the hierarchical
 * `stockists` taxonomy under its region, so the site map and that taxonomy are longer than one
 * of Core's pages (50 items) and an agent pages through them.
 * @type {{ slug: string, name: Record<Language, string>, towns: [slug: string, name: string][] }[]}
 */
export const STOCKIST_REGIONS = [
  { slug: 'lake-district', name: { en: 'Lake District', de: 'Lake District' }, towns: [['keswick', 'Keswick'], ['ambleside', 'Ambleside'], ['windermere', 'Windermere'], ['kendal', 'Kendal'], ['coniston', 'Coniston'], ['penrith', 'Penrith']] },
  { slug: 'peak-district', name: { en: 'Peak District', de: 'Peak District' }, towns: [['hathersage', 'Hathersage'], ['castleton', 'Castleton'], ['bakewell', 'Bakewell'], ['buxton', 'Buxton'], ['edale', 'Edale'], ['matlock', 'Matlock']] },
  { slug: 'eryri', name: { en: 'Eryri', de: 'Eryri' }, towns: [['betws-y-coed', 'Betws-y-Coed'], ['llanberis', 'Llanberis'], ['capel-curig', 'Capel Curig'], ['bala', 'Bala'], ['dolgellau', 'Dolgellau'], ['beddgelert', 'Beddgelert']] },
  { slug: 'highlands', name: { en: 'Scottish Highlands', de: 'Schottische Highlands' }, towns: [['fort-william', 'Fort William'], ['aviemore', 'Aviemore'], ['glencoe', 'Glencoe'], ['kingussie', 'Kingussie'], ['ullapool', 'Ullapool'], ['inverness', 'Inverness']] },
  { slug: 'yorkshire-dales', name: { en: 'Yorkshire Dales', de: 'Yorkshire Dales' }, towns: [['hawes', 'Hawes'], ['settle', 'Settle'], ['grassington', 'Grassington'], ['reeth', 'Reeth'], ['malham', 'Malham'], ['ingleton', 'Ingleton']] },
  { slug: 'bavarian-alps', name: { en: 'Bavarian Alps', de: 'Bayerische Alpen' }, towns: [['garmisch-partenkirchen', 'Garmisch-Partenkirchen'], ['berchtesgaden', 'Berchtesgaden'], ['oberstdorf', 'Oberstdorf'], ['mittenwald', 'Mittenwald'], ['fuessen', 'Füssen'], ['sonthofen', 'Sonthofen']] },
  { slug: 'black-forest', name: { en: 'Black Forest', de: 'Schwarzwald' }, towns: [['freiburg', 'Freiburg'], ['titisee', 'Titisee'], ['todtnau', 'Todtnau'], ['triberg', 'Triberg'], ['feldberg', 'Feldberg']] },
  { slug: 'saxon-switzerland', name: { en: 'Saxon Switzerland', de: 'Sächsische Schweiz' }, towns: [['bad-schandau', 'Bad Schandau'], ['koenigstein', 'Königstein'], ['pirna', 'Pirna'], ['rathen', 'Rathen'], ['hohnstein', 'Hohnstein']] },
];

/** @type {Taxonomy[]} */
export const TAXONOMIES = [
  {
    id: 810301,
    key: 'categories',
    site: 'outfitters',
    position: 1,
    name: { en: 'Product categories', de: 'Produktkategorien' },
    hierarchical: false,
    propertySet: 'catalogue.details',
    terms: [
      {
        id: 810401,
        slug: 'shoes',
        name: { en: 'Shoes', de: 'Schuhe' },
        landingPage: 'category-shoes',
        properties: { 'catalogue.details': { warranty: { value: 2 * YEAR_DAYS, unit: 'day' } } },
      },
      {
        id: 810402,
        slug: 'bags',
        name: { en: 'Bags', de: 'Taschen' },
        landingPage: 'category-bags',
        properties: { 'catalogue.details': { warranty: { value: 5 * YEAR_DAYS, unit: 'day' } } },
      },
      {
        id: 810403,
        slug: 'outerwear',
        name: { en: 'Outerwear', de: 'Jacken' },
        landingPage: 'category-outerwear',
      },
    ],
  },
  {
    id: 810302,
    key: 'topics',
    site: 'outfitters',
    position: 2,
    name: { en: 'Journal topics', de: 'Journal-Themen' },
    hierarchical: false,
    propertySet: null,
    terms: [
      { id: 810404, slug: 'care', name: { en: 'Care', de: 'Pflege' }, landingPage: 'topic-care' },
      { id: 810405, slug: 'trails', name: { en: 'Trails', de: 'Wege' }, landingPage: 'topic-trails' },
    ],
  },
  {
    id: 810304,
    key: 'stockists',
    site: 'outfitters',
    position: 3,
    name: { en: 'Stockists', de: 'Händler' },
    hierarchical: true,
    propertySet: null,
    // Ids from 811000: regions, then their towns, in order.
    terms: STOCKIST_REGIONS.flatMap((region, index) => [
      { id: 811000 + index * 10, slug: region.slug, name: region.name },
      ...region.towns.map(([slug, town], at) => ({ id: 811000 + index * 10 + at + 1, slug, name: { en: town, de: town }, parent: region.slug })),
    ]),
  },
  {
    // Another site's taxonomy: its terms and values must never reach this site's results.
    id: 810303,
    key: 'collections',
    site: 'archive',
    position: 1,
    name: { en: 'Archivolt collections', de: 'Archivolt-Sammlungen' },
    hierarchical: false,
    propertySet: 'catalogue.details',
    terms: [
      {
        id: 810406,
        slug: 'lanterns',
        name: { en: 'Archivolt lanterns', de: 'Archivolt-Laternen' },
        landingPage: 'archive-lantern',
        properties: { 'catalogue.details': { warranty: { value: 99 * YEAR_DAYS, unit: 'day' } } },
      },
    ],
  },
];

/**
 * The property sets, keyed as Core keys them (test/fixtures/capell/SOURCES.md §3 and §4.1):
 * `schema:`-mapped values enter the page graph under their schema.org term (money as a
 * PriceSpecification, a dimension as a QuantitativeValue with its UN/CEFACT unit code, a duration
 * as ISO 8601); the others appear in `/agent/v1/pages` items as `capell:<set>.<property>`.
 * @type {PropertySet[]}
 */
export const PROPERTY_SETS = [
  {
    id: 810501,
    key: 'commerce.product',
    blueprints: ['product'],
    properties: {
      price: { id: 810602, type: 'money', agentVisible: true, semantic: 'schema:price', label: { en: 'Price', de: 'Preis' } },
      colour: { id: 810603, type: 'localised', agentVisible: true, semantic: null, label: { en: 'Colour', de: 'Farbe' } },
      weight: { id: 810604, type: 'dimension', agentVisible: true, semantic: 'schema:weight', units: ['kg'], label: { en: 'Weight', de: 'Gewicht' } },
      sku: { id: 810601, type: 'string', agentVisible: true, semantic: 'schema:sku', label: { en: 'SKU', de: 'Artikelnummer' } },
      in_stock: { id: 810606, type: 'boolean', agentVisible: true, semantic: null, label: { en: 'In stock', de: 'Auf Lager' } },
      category: {
        id: 810605,
        type: 'term-reference',
        taxonomy: 'categories',
        agentVisible: true,
        semantic: 'schema:category',
        label: { en: 'Category', de: 'Kategorie' },
      },
      related: { id: 810607, type: 'page-reference', agentVisible: true, semantic: 'schema:isRelatedTo', label: { en: 'Goes well with', de: 'Passt zu' } },
      cost_price: { id: 810608, type: 'money', agentVisible: false, semantic: null, label: { en: 'Cost price', de: 'Einkaufspreis' } },
    },
  },
  {
    id: 810502,
    key: 'catalogue.details',
    blueprints: ['product'],
    properties: {
      warranty: { id: 810609, type: 'duration', agentVisible: true, semantic: null, units: ['day'], label: { en: 'Warranty', de: 'Garantie' } },
      material: { id: 810610, type: 'localised', agentVisible: true, semantic: 'schema:material', label: { en: 'Material', de: 'Material' } },
      supplier_code: { id: 810611, type: 'string', agentVisible: false, semantic: null, label: { en: 'Supplier code', de: 'Lieferantencode' } },
    },
  },
  {
    id: 810503,
    key: 'content.article',
    blueprints: ['article'],
    properties: {
      reading_time: { id: 810612, type: 'duration', agentVisible: true, semantic: 'schema:timeRequired', units: ['minute'], label: { en: 'Reading time', de: 'Lesezeit' } },
      topic: {
        id: 810613,
        type: 'term-reference',
        taxonomy: 'topics',
        agentVisible: true,
        semantic: 'schema:about',
        label: { en: 'Topic', de: 'Thema' },
      },
    },
  },
  {
    id: 810504,
    key: 'content.page',
    blueprints: ['page', 'product', 'article', 'category', 'stockist'],
    properties: {
      description: {
        id: 810614,
        type: 'localised',
        agentVisible: true,
        semantic: 'schema:description',
        fromTranslation: 'description',
        label: { en: 'Description', de: 'Beschreibung' },
      },
    },
  },
];

const PUBLISHED = '2025-04-01T08:00:00Z';

/**
 * A product page record.
 * @param {{ id: number, key: string, position: number, category: string, sku: string,
 *   price: number, cost: number, colour: Record<Language, string>, weightKg: number,
 *   inStock: boolean, warrantyYears?: number, material: Record<Language, string>,
 *   related?: string[], en: Translation, de?: Translation, visibility?: 'published' | 'draft',
 *   draftRevision?: Page['draftRevision'] }} spec
 * @returns {Page}
 */
function product(spec) {
  /** @type {Record<string, unknown>} */
  const details = { material: spec.material, supplier_code: `SUP-${spec.sku}` };
  if (spec.warrantyYears !== undefined) details.warranty = { value: spec.warrantyYears * YEAR_DAYS, unit: 'day' };
  /** @type {Page} */
  const page = {
    id: spec.id,
    key: spec.key,
    site: 'outfitters',
    blueprint: 'product',
    view: 'product',
    visibility: spec.visibility ?? 'published',
    publishAt: PUBLISHED,
    parent: 'products',
    position: spec.position,
    terms: [{ taxonomy: 'categories', term: spec.category }],
    properties: {
      'commerce.product': {
        price: { amount: spec.price, currency: 'EUR' },
        colour: spec.colour,
        weight: { value: spec.weightKg, unit: 'kg' },
        sku: spec.sku,
        in_stock: spec.inStock,
        category: { taxonomy: 'categories', term: spec.category },
        related: spec.related ?? [],
        cost_price: { amount: spec.cost, currency: 'EUR' },
      },
      'catalogue.details': details,
    },
    translations: spec.de ? { en: spec.en, de: spec.de } : { en: spec.en },
  };
  if (spec.draftRevision) page.draftRevision = spec.draftRevision;
  return page;
}

/**
 * A journal article record.
 * @param {{ id: number, key: string, position: number, topic: string, minutes: number,
 *   publishAt?: string, en: Translation, de?: Translation }} spec
 * @returns {Page}
 */
function article(spec) {
  return {
    id: spec.id,
    key: spec.key,
    site: 'outfitters',
    blueprint: 'article',
    view: 'article',
    visibility: 'published',
    publishAt: spec.publishAt ?? PUBLISHED,
    parent: 'journal',
    position: spec.position,
    terms: [{ taxonomy: 'topics', term: spec.topic }],
    properties: {
      'content.article': {
        reading_time: { value: spec.minutes, unit: 'minute' },
        topic: { taxonomy: 'topics', term: spec.topic },
      },
    },
    translations: spec.de ? { en: spec.en, de: spec.de } : { en: spec.en },
  };
}

/**
 * A plain page record (home, about, listings, landing pages, contact).
 * @param {Pick<Page, 'id' | 'key' | 'view' | 'parent' | 'position' | 'translations'>
 *   & Partial<Page>} spec
 * @returns {Page}
 */
function page(spec) {
  return {
    site: 'outfitters',
    blueprint: 'page',
    visibility: 'published',
    publishAt: PUBLISHED,
    terms: [],
    properties: {},
    ...spec,
  };
}

/**
 * An active URL translation.
 * @param {string} url
 * @param {string} title
 * @param {string} description
 * @param {string[]} body
 * @returns {Translation}
 */
function at(url, title, description, body) {
  return { url, urlStatus: 'active', title, description, body };
}

/**
 * A stockist page: a shop in a town, assigned to the town's term of the `stockists` taxonomy.
 * @param {number} id
 * @param {string} slug
 * @param {string} town
 * @param {(typeof STOCKIST_REGIONS)[number]} region
 * @returns {Page}
 */
function stockist(id, slug, town, region) {
  return page({
    id,
    key: `stockist-${slug}`,
    blueprint: 'stockist',
    view: 'text',
    parent: 'stockists',
    position: id % 1000,
    terms: [{ taxonomy: 'stockists', term: slug }],
    translations: {
      en: at(`/stockists/${slug}`, `Stockist in ${town}`, `Try on our trail shoes, boots and packs in ${town} (${region.name.en}), and drop off repairs there.`, [
        `The shop in ${town} keeps the whole range in stock.`,
      ]),
      de: at(`/de/haendler/${slug}`, `Händler in ${town}`, `Trailschuhe, Stiefel und Rucksäcke in ${town} (${region.name.de}) anprobieren und Reparaturen dort abgeben.`, [
        `Das Geschäft in ${town} führt das ganze Sortiment.`,
      ]),
    },
  });
}

/** @type {Page[]} */
export const PAGES = [
  page({
    id: 810701,
    key: 'home',
    view: 'home',
    parent: null,
    position: 0,
    translations: {
      en: at('/', 'Capell Outfitters', 'Walking shoes, packs and shells for wet hills and long days.', [
        'We make a small range of outdoor kit and keep it in repair for years.',
        'Browse the products, read the journal, or ask us a question.',
      ]),
      de: at('/de/', 'Capell Outfitters', 'Wanderschuhe, Rucksäcke und Jacken für nasse Hügel und lange Tage.', [
        'Wir fertigen eine kleine Auswahl an Outdoor-Ausrüstung und reparieren sie über Jahre.',
        'Stöbern Sie in den Produkten, lesen Sie das Journal oder stellen Sie uns eine Frage.',
      ]),
    },
  }),
  page({
    id: 810702,
    key: 'about',
    view: 'text',
    parent: 'home',
    position: 4,
    translations: {
      en: at('/about', 'About us', 'A workshop of eleven people in a former mill by the river.', [
        'Capell Outfitters started in 2009 as a boot repair bench.',
        'Today we design every product ourselves and repair anything we sell.',
      ]),
      de: at('/de/ueber-uns', 'Über uns', 'Eine Werkstatt mit elf Leuten in einer alten Mühle am Fluss.', [
        'Capell Outfitters begann 2009 als Werkbank für Stiefelreparaturen.',
        'Heute entwerfen wir jedes Produkt selbst und reparieren alles, was wir verkaufen.',
      ]),
    },
  }),
  page({
    id: 810703,
    key: 'products',
    view: 'products',
    parent: 'home',
    position: 1,
    translations: {
      en: at('/products', 'Products', 'Everything we currently make, with prices and weights.', [
        'Every product comes with a repair promise.',
      ]),
      de: at('/de/produkte', 'Produkte', 'Alles, was wir derzeit fertigen, mit Preisen und Gewichten.', [
        'Für jedes Produkt gilt unser Reparaturversprechen.',
      ]),
    },
  }),
  page({
    id: 810704,
    key: 'category-shoes',
    blueprint: 'category',
    view: 'category',
    parent: 'products',
    position: 1,
    terms: [],
    translations: {
      en: at('/categories/shoes', 'Shoes', 'Trail runners, boots and town shoes.', ['Resoled in our own workshop.']),
      de: at('/de/kategorien/schuhe', 'Schuhe', 'Trailschuhe, Stiefel und Stadtschuhe.', ['In unserer Werkstatt neu besohlt.']),
    },
  }),
  page({
    id: 810705,
    key: 'category-bags',
    blueprint: 'category',
    view: 'category',
    parent: 'products',
    position: 2,
    translations: {
      en: at('/categories/bags', 'Bags', 'Day packs and rolltop backpacks.', ['Made from recycled sailcloth.']),
      de: at('/de/kategorien/taschen', 'Taschen', 'Tagesrucksäcke und Rolltop-Rucksäcke.', ['Aus recyceltem Segeltuch.']),
    },
  }),
  page({
    id: 810706,
    key: 'category-outerwear',
    blueprint: 'category',
    view: 'category',
    parent: 'products',
    position: 3,
    translations: {
      en: at('/categories/outerwear', 'Outerwear', 'Shells and insulated layers.', ['Light enough to forget in the pack.']),
      de: at('/de/kategorien/jacken', 'Jacken', 'Regenjacken und wärmende Schichten.', ['So leicht, dass man sie im Rucksack vergisst.']),
    },
  }),
  product({
    id: 810711,
    key: 'trail-runner',
    position: 1,
    category: 'shoes',
    sku: 'CW-1001',
    price: 129,
    cost: 41.2,
    colour: { en: 'Red', de: 'Rot' },
    weightKg: 0.58,
    inStock: true,
    material: { en: 'Recycled mesh', de: 'Recyceltes Mesh' },
    related: ['summit-boot', 'prototypzeta-racer'],
    en: at('/products/ridgeline-trail-runner', 'Ridgeline Trail Runner', "A runner's shoe for rocky, wet paths, with a grippy lugged sole.", [
      'The Ridgeline drains quickly and dries overnight.',
      'Inherited warranty: the shoes category gives it two years.',
    ]),
    de: at('/de/produkte/ridgeline-trailschuh', 'Ridgeline Trailschuh', 'Ein Laufschuh für felsige, nasse Wege mit griffiger Stollensohle.', [
      'Der Ridgeline lässt Wasser schnell ab und ist über Nacht trocken.',
    ]),
    draftRevision: {
      translations: { en: { title: 'Ridgeline Trail Runner Prototypzeta edition', description: 'Unreleased Prototypzeta colourway.' } },
    },
  }),
  product({
    id: 810712,
    key: 'summit-boot',
    position: 2,
    category: 'shoes',
    sku: 'CW-1002',
    price: 189,
    cost: 70.5,
    colour: { en: 'Brown', de: 'Braun' },
    weightKg: 1.21,
    inStock: true,
    warrantyYears: 3,
    material: { en: 'Full-grain leather', de: 'Vollnarbenleder' },
    related: ['trail-runner'],
    en: at('/products/summit-leather-boot', 'Summit Leather Boot', 'A stitched leather boot that we resole for as long as the upper lasts.', [
      'Waxed full-grain leather, a wool lining and a Norwegian welt.',
    ]),
    de: at('/de/produkte/summit-lederstiefel', 'Summit Lederstiefel', 'Ein genähter Lederstiefel, den wir neu besohlen, solange das Oberleder hält.', [
      'Gewachstes Vollnarbenleder, Wollfutter und eine norwegische Rahmennaht.',
    ]),
  }),
  product({
    id: 810713,
    key: 'city-sneaker',
    position: 3,
    category: 'shoes',
    sku: 'CW-1003',
    price: 89.5,
    cost: 28,
    colour: { en: 'White', de: 'Weiß' },
    weightKg: 0.64,
    inStock: true,
    material: { en: 'Canvas', de: 'Segeltuch' },
    en: at(
      '/products/harbour-city-sneaker',
      'Harbour City Sneaker',
      "Editor's test: the text </script><script>alert(1)</script> and a \"quoted\" back\\slash must stay plain text & safe.",
      ['A canvas town shoe on a natural rubber sole.'],
    ),
    de: at(
      '/de/produkte/harbour-stadtschuh',
      'Harbour Stadtschuh',
      "Redaktionstest: der Text </script><script>alert(1)</script> und ein \"zitierter\" Rück\\strich bleiben reiner Text & sicher, oder? Das ist's.",
      ['Ein Stadtschuh aus Segeltuch auf einer Naturkautschuksohle.'],
    ),
  }),
  product({
    id: 810714,
    key: 'day-pack',
    position: 4,
    category: 'bags',
    sku: 'CW-2001',
    price: 74,
    cost: 22.4,
    colour: { en: 'Green', de: 'Grün' },
    weightKg: 0.71,
    inStock: true,
    material: { en: 'Recycled sailcloth', de: 'Recyceltes Segeltuch' },
    related: ['rolltop-backpack'],
    en: at('/products/fellside-day-pack', 'Fellside Day Pack 18 L', 'An 18 litre pack with a padded back and a bottle pocket on each side.', [
      'Fits a flask, a shell and lunch.',
    ]),
    de: at('/de/produkte/fellside-tagesrucksack', 'Fellside Tagesrucksack 18 L', 'Ein 18-Liter-Rucksack mit gepolstertem Rücken und zwei Flaschentaschen.', [
      'Passt für Thermoskanne, Regenjacke und Mittagessen.',
    ]),
  }),
  product({
    id: 810715,
    key: 'rolltop-backpack',
    position: 5,
    category: 'bags',
    sku: 'CW-2002',
    price: 119,
    cost: 39.9,
    colour: { en: 'Black', de: 'Schwarz' },
    weightKg: 0.98,
    inStock: false,
    material: { en: 'Recycled sailcloth', de: 'Recyceltes Segeltuch' },
    en: at('/products/rolltop-backpack', 'Rolltop Backpack 28 L', 'A waterproof 28 litre rolltop for commuting and bothy nights.', [
      'Welded seams keep a laptop dry in a downpour.',
    ]),
    de: at('/de/produkte/rolltop-rucksack', 'Rolltop-Rucksack 28 L', 'Ein wasserdichter 28-Liter-Rolltop für Pendelwege und Hüttennächte.', [
      'Verschweißte Nähte halten den Laptop bei Regen trocken.',
    ]),
  }),
  product({
    id: 810716,
    key: 'rain-shell',
    position: 6,
    category: 'outerwear',
    sku: 'CW-3001',
    price: 159,
    cost: 52,
    colour: { en: 'Red', de: 'Rot' },
    weightKg: 0.39,
    inStock: true,
    warrantyYears: 2,
    material: { en: 'Three-layer membrane', de: 'Dreilagige Membran' },
    en: at('/products/squall-rain-shell', 'Squall Rain Shell', 'A three-layer shell with a helmet-ready hood and pit zips.', [
      'Packs into its own chest pocket.',
    ]),
    de: at('/de/produkte/squall-regenjacke', 'Squall Regenjacke', 'Eine dreilagige Jacke mit helmtauglicher Kapuze und Belüftungsreißverschlüssen.', [
      'Lässt sich in die eigene Brusttasche packen.',
    ]),
  }),
  product({
    id: 810717,
    key: 'down-vest',
    position: 7,
    category: 'outerwear',
    sku: 'CW-3002',
    price: 99,
    cost: 31,
    colour: { en: 'Green', de: 'Grün' },
    weightKg: 0.31,
    inStock: true,
    material: { en: 'Recycled down', de: 'Recycelte Daunen' },
    en: at('/products/ember-down-vest', 'Ember Down Vest', 'A recycled down vest for cold starts and camp evenings.', [
      'Wear it under the shell when the wind picks up.',
    ]),
    de: at('/de/produkte/ember-daunenweste', 'Ember Daunenweste', 'Eine Weste mit recycelten Daunen für kalte Starts und Abende im Lager.', [
      'Unter der Regenjacke tragen, wenn der Wind auffrischt.',
    ]),
  }),
  product({
    // Never public: a draft.
    id: 810718,
    key: 'prototypzeta-racer',
    position: 8,
    category: 'shoes',
    sku: 'CW-1099',
    price: 249,
    cost: 90,
    colour: { en: 'Orange', de: 'Orange' },
    weightKg: 0.41,
    inStock: false,
    material: { en: 'Carbon plate', de: 'Carbonplatte' },
    visibility: 'draft',
    en: at('/products/prototypzeta-racer', 'Prototypzeta Racer', 'Unreleased Prototypzeta racing shoe.', ['Prototypzeta details are confidential.']),
    de: at('/de/produkte/prototypzeta-renner', 'Prototypzeta Renner', 'Unveröffentlichter Prototypzeta Rennschuh.', ['Prototypzeta ist vertraulich.']),
  }),
  page({
    id: 810720,
    key: 'journal',
    view: 'journal',
    parent: 'home',
    position: 2,
    translations: {
      en: at('/journal', 'Journal', 'Notes from the workshop and the hills.', ['Care guides, routes and repairs.']),
      de: at('/de/journal', 'Journal', 'Notizen aus der Werkstatt und den Bergen.', ['Pflegeanleitungen, Touren und Reparaturen.']),
    },
  }),
  page({
    id: 810721,
    key: 'topic-care',
    blueprint: 'category',
    view: 'topic',
    parent: 'journal',
    position: 10,
    translations: {
      en: at('/journal/topics/care', 'Care', 'Looking after leather, membranes and down.', ['Guides from our repair bench.']),
      de: at('/de/journal/themen/pflege', 'Pflege', 'Pflege für Leder, Membranen und Daunen.', ['Anleitungen von unserer Reparaturbank.']),
    },
  }),
  page({
    id: 810722,
    key: 'topic-trails',
    blueprint: 'category',
    view: 'topic',
    parent: 'journal',
    position: 11,
    translations: {
      en: at('/journal/topics/trails', 'Trails', 'Routes we walk and how we pack for them.', ['Maps, weather and kit lists.']),
      de: at('/de/journal/themen/wege', 'Wege', 'Touren, die wir gehen, und wie wir dafür packen.', ['Karten, Wetter und Packlisten.']),
    },
  }),
  article({
    id: 810731,
    key: 'leather-care',
    position: 1,
    topic: 'care',
    minutes: 6,
    en: at('/journal/caring-for-leather-boots', 'Caring for leather boots', 'Clean, dry slowly, wax: three steps that double the life of a boot.', [
      'Brush off the mud while it is wet.',
      'Dry away from the radiator, then work in a thin coat of wax.',
    ]),
    de: at('/de/journal/lederstiefel-pflegen', 'Lederstiefel pflegen', 'Reinigen, langsam trocknen, wachsen: drei Schritte für doppelt so lange Stiefel.', [
      'Den Schlamm abbürsten, solange er nass ist.',
      'Nicht an der Heizung trocknen, dann dünn einwachsen.',
    ]),
  }),
  article({
    id: 810732,
    key: 'packing-light',
    position: 2,
    topic: 'trails',
    minutes: 4,
    en: at('/journal/packing-light', 'Packing light for a long day', 'What goes in an 18 litre pack, and what stays at home.', [
      'Start with water, a shell and a warm layer.',
    ]),
    de: at('/de/journal/leicht-packen', 'Leicht packen für einen langen Tag', 'Was in einen 18-Liter-Rucksack gehört und was zu Hause bleibt.', [
      'Beginnen Sie mit Wasser, einer Regenjacke und einer warmen Schicht.',
    ]),
  }),
  article({
    // Public in English only: it has no German translation.
    id: 810733,
    key: 'lake-district-loop',
    position: 3,
    topic: 'trails',
    minutes: 8,
    en: at('/journal/lake-district-loop', 'A Lake District loop in the rain', 'Twelve wet miles over Helvellyn and what kept us dry.', [
      'We set off from Glenridding at seven.',
    ]),
  }),
  article({
    // Never public: scheduled for the future.
    id: 810734,
    key: 'orbisalt-preview',
    position: 4,
    topic: 'trails',
    minutes: 3,
    publishAt: '2099-09-01T08:00:00Z',
    en: at('/journal/orbisalt-preview', 'First look at the Orbisalt jacket', 'A sneak preview of the Orbisalt jacket.', ['Orbisalt arrives next autumn.']),
    de: at('/de/journal/orbisalt-vorschau', 'Erster Blick auf die Orbisalt-Jacke', 'Vorschau auf die Orbisalt-Jacke.', ['Orbisalt kommt im nächsten Herbst.']),
  }),
  page({
    id: 810740,
    key: 'contact',
    view: 'contact',
    parent: 'home',
    position: 5,
    translations: {
      en: at('/contact', 'Contact', 'Questions about an order, a repair or a product? Write to us.', [
        'We answer within two working days.',
      ]),
      de: at('/de/kontakt', 'Kontakt', 'Fragen zu einer Bestellung, einer Reparatur oder einem Produkt? Schreiben Sie uns.', [
        'Wir antworten innerhalb von zwei Werktagen.',
      ]),
    },
  }),
  page({
    id: 810760,
    key: 'stockists',
    view: 'stockists',
    parent: 'home',
    position: 3,
    translations: {
      en: at('/stockists', 'Stockists', 'Shops where you can try our kit on, and leave it with us for repair.', [
        'Every stockist takes repairs and sends them to our workshop.',
      ]),
      de: at('/de/haendler', 'Händler', 'Geschäfte, in denen Sie unsere Ausrüstung anprobieren und zur Reparatur abgeben können.', [
        'Jeder Händler nimmt Reparaturen an und schickt sie in unsere Werkstatt.',
      ]),
    },
  }),
  ...STOCKIST_REGIONS.flatMap((region, index) => region.towns.map(([slug, town], at) => stockist(812000 + index * 10 + at, slug, town, region))),
  page({
    // Never public: a redirect (its URL answers 301, it is no page result).
    id: 810750,
    key: 'old-products',
    view: 'text',
    parent: 'home',
    position: 9,
    translations: {
      en: { url: '/old-products', urlStatus: 'redirect', redirectTo: '/products', title: 'Old products' },
      de: { url: '/de/alte-produkte', urlStatus: 'redirect', redirectTo: '/de/produkte', title: 'Alte Produkte' },
    },
  }),
  page({
    // Never public: its blueprint is private.
    id: 810751,
    key: 'pricing-sheet',
    blueprint: 'internal-sheet',
    view: 'text',
    parent: 'home',
    position: 10,
    translations: {
      en: at('/internal/pricing-sheet', 'Internal pricing sheet', 'Margincrux cost and margin table.', ['Margincrux: do not share.']),
      de: at('/de/intern/preisliste', 'Interne Preisliste', 'Margincrux Kosten und Margen.', ['Margincrux: nicht weitergeben.']),
    },
  }),
  page({
    // Never public here: it belongs to another site.
    id: 810752,
    key: 'archive-lantern',
    site: 'archive',
    blueprint: 'product',
    view: 'text',
    parent: null,
    position: 1,
    terms: [{ taxonomy: 'collections', term: 'lanterns' }],
    translations: {
      en: at('/products/archivolt-storm-lantern', 'Archivolt Storm Lantern', 'An Archivolt lantern from the old range.', ['Archivolt.']),
    },
  }),
];

/**
 * Every storage id in the catalogue, for tests that prove none of them leaves the server.
 * @returns {number[]}
 */
export function listStorageIds() {
  return [
    ...SITES.map((site) => site.id),
    ...BLUEPRINTS.map((blueprint) => blueprint.id),
    ...TAXONOMIES.flatMap((taxonomy) => [taxonomy.id, ...taxonomy.terms.map((term) => term.id)]),
    ...PROPERTY_SETS.flatMap((set) => [set.id, ...Object.values(set.properties).map((definition) => definition.id)]),
    ...PAGES.map((record) => record.id),
  ];
}
