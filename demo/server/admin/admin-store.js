import { PAGES, SITE } from '../catalogue.js';
import { listSiteTaxonomies } from '../public-pages.js';
import { readPageValues } from './page-values.js';

/**
 * What Capell Core's admin holds for the demo, one per app: the published pages (a copy of the
 * catalogue's, which the public site of this app reads, so publishing on site `a` changes the
 * public pages and `/agent/v1` answers), drafts over them (a draft is a whole copy of the page
 * with the editor's changes, never public), site `b`'s own pages (admin only), each site's
 * taxonomies, and the global property sets.
 */

/** @typedef {import('../catalogue.js').Page} Page */
/** @typedef {import('./actors.js').AdminSiteKey} AdminSiteKey */

/**
 * @typedef {object} AdminSite
 * @property {AdminSiteKey} key
 * @property {string} name
 * @property {string} catalogueSite the `site` of its page records
 */

/** The admin's sites: `a` is the public demo site, `b` a second one that is never public here. */
export const ADMIN_SITES = /** @type {readonly AdminSite[]} */ (Object.freeze([
  { key: 'a', name: SITE.name, catalogueSite: SITE.key },
  { key: 'b', name: 'Capell Workshop', catalogueSite: 'workshop' },
]));

/**
 * The admin site with a key, or undefined.
 * @param {unknown} key
 * @returns {AdminSite | undefined}
 */
export function findAdminSite(key) {
  return ADMIN_SITES.find((site) => site.key === key);
}

const WORKSHOP_PUBLISHED = '2025-05-01T08:00:00Z';

/**
 * A site `b` page.
 * @param {number} id
 * @param {string} key
 * @param {string} url
 * @param {string} title
 * @param {string} description
 * @returns {Page}
 */
function workshopPage(id, key, url, title, description) {
  return {
    id,
    key,
    site: 'workshop',
    blueprint: 'page',
    view: 'text',
    visibility: 'published',
    publishAt: WORKSHOP_PUBLISHED,
    parent: key === 'home' ? null : 'home',
    position: 0,
    terms: [],
    properties: {},
    translations: { en: { url, urlStatus: 'active', title, description, body: [] } },
  };
}

/** Site `b`'s pages as first stored. */
const WORKSHOP_PAGES = Object.freeze([
  workshopPage(820701, 'home', '/', 'Capell Workshop', 'Repairs and resoling for everything we ever made.'),
  workshopPage(820702, 'hours', '/hours', 'Opening hours', 'Tuesday to Saturday, ten to four.'),
  workshopPage(820703, 'resoling', '/resoling', 'Resoling', 'Send us your boots; we send them back with new soles.'),
]);

/** Site `b`'s taxonomies: key → term slugs. */
const WORKSHOP_TAXONOMIES = Object.freeze({ services: ['resoling', 'patching', 'waxing'] });

/** The global property sets as first stored: set → property → value. */
const GLOBAL_PROPERTY_SETS = Object.freeze({
  brand: { tagline: 'Kit for wet hills and long days', support_email: 'help@outfitters.example' },
  shipping: { free_over: '100 EUR', carrier: 'Parcelpost' },
});

/** First storage id of pages created in the admin. */
const FIRST_NEW_PAGE_ID = 829001;

/**
 * @typedef {object} PageEntry a page as the admin sees it
 * @property {Page} record the stored page (its visibility says whether it is published)
 * @property {Page | null} draft the unpublished changes, or null
 */

/**
 * @typedef {object} PageContent what the admin's page view shows of one page
 * @property {string} page the page key
 * @property {string} path its URL
 * @property {'published' | 'scheduled' | 'draft'} status
 * @property {{ values: Record<string, string>, terms: { taxonomy: string, term: string }[] }} published the stored page's values: public when `status` is `published`, not yet when `draft` or `scheduled`
 * @property {{ values: Record<string, string>, terms: { taxonomy: string, term: string }[] } | null} draft
 */

/**
 * The admin store of one app.
 * @param {object} [options]
 * @param {() => Date} [options.now] the clock a publication is stamped with
 */
export function createAdminStore({ now = () => new Date() } = {}) {
  /** Every catalogue page, as this app's public site reads them (page-store.js). */
  const publishedPages = /** @type {Page[]} */ (structuredClone(PAGES));
  /** @type {Record<AdminSiteKey, Page[]>} */
  let pagesBySite = { a: publishedPages, b: structuredClone([...WORKSHOP_PAGES]) };
  /** @type {Map<string, Page>} by `site page` */
  const drafts = new Map();
  /** @type {Record<string, Record<string, string>>} */
  let globalSets = structuredClone({ ...GLOBAL_PROPERTY_SETS });
  let nextId = FIRST_NEW_PAGE_ID;

  /**
   * @param {AdminSiteKey} site
   * @returns {Page[]} the site's stored pages
   */
  const sitePages = (site) => {
    const catalogueSite = /** @type {AdminSite} */ (findAdminSite(site)).catalogueSite;
    return pagesBySite[site].filter((page) => page.site === catalogueSite);
  };

  /**
   * @param {AdminSiteKey} site
   * @param {string} key
   * @returns {PageEntry | undefined}
   */
  const findPage = (site, key) => {
    const record = sitePages(site).find((page) => page.key === key);
    return record ? { record, draft: drafts.get(`${site} ${key}`) ?? null } : undefined;
  };

  /**
   * @param {Page} page
   * @returns {PageContent['published']}
   */
  const toValues = (page) => ({ values: readPageValues(page), terms: page.terms.map((term) => ({ ...term })) });

  return {
    /** The pages the public site of this app reads (all catalogue sites; isPublic filters them). */
    publishedPages,

    /**
     * A site's pages with their drafts, in stored order.
     * @param {AdminSiteKey} site
     * @returns {PageEntry[]}
     */
    listPages: (site) => sitePages(site).map((record) => ({ record, draft: drafts.get(`${site} ${record.key}`) ?? null })),

    findPage,

    /**
     * What an editor reads of a page: its stored values and its draft.
     * @param {PageEntry} entry
     * @returns {PageContent}
     */
    toContent({ record, draft }) {
      const publishAt = record.publishAt === null ? Number.POSITIVE_INFINITY : Date.parse(record.publishAt);
      const status = record.visibility !== 'published' ? 'draft' : publishAt > now().getTime() ? 'scheduled' : 'published';
      const path = (draft ?? record).translations.en?.url ?? '';
      return { page: record.key, path, status, published: toValues(record), draft: draft ? toValues(draft) : null };
    },

    /**
     * The page's draft, or a new copy of the stored page to become one (not kept until saveDraft).
     * @param {PageEntry} entry
     * @returns {Page}
     */
    draftOf: (entry) => structuredClone(entry.draft ?? entry.record),

    /**
     * Keep a page's draft.
     * @param {AdminSiteKey} site
     * @param {Page} draft
     */
    saveDraft(site, draft) {
      drafts.set(`${site} ${draft.key}`, draft);
    },

    /**
     * A new page of the site, stored as a draft (visibility `draft`: never public until published).
     * @param {AdminSiteKey} site
     * @param {{ key: string, path: string, title: string }} spec
     * @returns {Page}
     */
    createPage(site, { key, path, title }) {
      /** @type {Page} */
      const page = {
        id: nextId++,
        key,
        site: /** @type {AdminSite} */ (findAdminSite(site)).catalogueSite,
        blueprint: 'page',
        view: 'text',
        visibility: 'draft',
        publishAt: null,
        parent: 'home',
        position: 90,
        terms: [],
        properties: {},
        translations: { en: { url: path, urlStatus: 'active', title, description: '', body: [] } },
      };
      pagesBySite[site].push(page);
      return page;
    },

    /**
     * Publish a page: its draft (if any) replaces the stored page, which becomes published now
     * (a scheduled publication time already passed is kept).
     * @param {AdminSiteKey} site
     * @param {PageEntry} entry
     * @returns {Page} the published page
     */
    publish(site, entry) {
      const published = structuredClone(entry.draft ?? entry.record);
      published.visibility = 'published';
      const at = published.publishAt === null ? Number.POSITIVE_INFINITY : Date.parse(published.publishAt);
      if (at > now().getTime()) published.publishAt = now().toISOString();
      const list = pagesBySite[site];
      list.splice(list.indexOf(entry.record), 1, published);
      drafts.delete(`${site} ${entry.record.key}`);
      return published;
    },

    /**
     * A site's taxonomies: key → term slugs.
     * @param {AdminSiteKey} site
     * @returns {Record<string, string[]>}
     */
    taxonomiesOf(site) {
      if (site === 'b') return structuredClone({ ...WORKSHOP_TAXONOMIES });
      return Object.fromEntries(listSiteTaxonomies().map((taxonomy) => [taxonomy.key, taxonomy.terms.map((term) => term.slug)]));
    },

    /** The global property sets (set → property → value), live. */
    get globalSets() {
      return globalSets;
    },

    /** Put everything back as first stored (tests that share a server between them). */
    reset() {
      publishedPages.splice(0, publishedPages.length, ...structuredClone(PAGES));
      pagesBySite = { a: publishedPages, b: structuredClone([...WORKSHOP_PAGES]) };
      drafts.clear();
      globalSets = structuredClone({ ...GLOBAL_PROPERTY_SETS });
      nextId = FIRST_NEW_PAGE_ID;
    },
  };
}

/** @typedef {ReturnType<typeof createAdminStore>} AdminStore */
