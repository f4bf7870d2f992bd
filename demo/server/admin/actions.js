import { findAdminSite } from './admin-store.js';
import { invalidPayload, notFound } from './admin-error.js';
import { ADMIN_FIELDS } from './admin-fields.js';
import { readPageValue, validatePageValue, writePageValue } from './page-values.js';

/**
 * The admin's domain actions, each with a `preview` (what will change, before and after,
 * computed from the current state and changing nothing) and a `perform` (the change itself).
 * The confirm step recomputes the preview and compares its digest before performing, so a
 * preview must depend only on the input and the state it shows. Source: Capell Agent Schema,
 * "Navigation, forms, and admin tools": "property writes, term assignment, scratch drafts,
 * publication, and structure/settings operations use the existing domain Actions".
 */

/** @typedef {import('./admin-store.js').AdminStore} AdminStore */
/** @typedef {import('./admin-store.js').PageEntry} PageEntry */
/** @typedef {import('./actors.js').AdminSiteKey} AdminSiteKey */
/** @typedef {import('./admin-fields.js').FieldSpec} FieldSpec */

/**
 * @typedef {object} Change one line of a preview
 * @property {string} target what changes, e.g. `/about › title (draft)`
 * @property {string} before
 * @property {string} after
 */

/**
 * @typedef {object} ActionPreview
 * @property {string} summary one line
 * @property {Change[]} changes
 */

/**
 * @typedef {object} AdminAction
 * @property {string} id the binding target, e.g. `property.write`
 * @property {string} tool the admin tool name, e.g. `admin.property.write`
 * @property {string} capability the right it needs (actors.js)
 * @property {boolean} global true: needs the capability globally (actors.js GLOBAL_SCOPE), no `site` input
 * @property {string} description the tool's description
 * @property {Record<string, FieldSpec>} fields input name → spec
 * @property {string[]} required
 * @property {(store: AdminStore, input: Record<string, string>) => ActionPreview} preview
 *   throws AdminError 404 `not_found` / 422 `invalid_payload`
 * @property {(store: AdminStore, input: Record<string, string>) => Record<string, unknown>} perform
 *   the change; answers the `result` of the confirm
 */

/** Shown when a value is empty or a thing does not exist yet. */
const NOTHING = '(none)';

/**
 * The page an input names, or 404.
 * @param {AdminStore} store
 * @param {Record<string, string>} input with `site` and `page`
 * @returns {PageEntry}
 */
function findInputPage(store, input) {
  const entry = store.findPage(/** @type {AdminSiteKey} */ (input.site), input.page);
  if (!entry) throw notFound(`Site ${input.site} has no page ${input.page}.`);
  return entry;
}

/**
 * The URL of a page entry, as previews name it.
 * @param {PageEntry} entry
 */
const pathOf = (entry) => (entry.draft ?? entry.record).translations.en?.url ?? entry.record.key;

/** @param {string} text */
const shown = (text) => (text === '' ? NOTHING : text);

/**
 * The assigned terms of one taxonomy, as text.
 * @param {import('../catalogue.js').Page} page
 * @param {string} taxonomy
 */
const termsText = (page, taxonomy) => shown(page.terms.filter((term) => term.taxonomy === taxonomy).map((term) => term.term).join(', '));

/** @type {AdminAction} */
const propertyWrite = {
  id: 'property.write',
  tool: 'admin.property.write',
  capability: 'property.write',
  global: false,
  description: 'Write one value of a page into its draft (the published page does not change until admin.page.publish). The editor confirms a preview first.',
  fields: { site: ADMIN_FIELDS.site, page: ADMIN_FIELDS.page, property: ADMIN_FIELDS.property, value: ADMIN_FIELDS.value },
  required: ['site', 'page', 'property', 'value'],
  preview(store, input) {
    const entry = findInputPage(store, input);
    const draft = store.draftOf(entry);
    const before = readPageValue(draft, input.property);
    const problem = validatePageValue(draft, input.property, input.value);
    if (before === undefined || problem) throw invalidPayload(problem ?? `The field property names no value of ${input.page}.`);
    writePageValue(draft, input.property, input.value);
    const after = /** @type {string} */ (readPageValue(draft, input.property));
    const path = pathOf(entry);
    return {
      summary: `Set ${input.property} of ${path} (draft) to “${after}”`,
      changes: [{ target: `${path} › ${input.property} (draft)`, before: shown(before), after: shown(after) }],
    };
  },
  perform(store, input) {
    const entry = findInputPage(store, input);
    const draft = store.draftOf(entry);
    writePageValue(draft, input.property, input.value);
    store.saveDraft(/** @type {AdminSiteKey} */ (input.site), draft);
    return store.toContent(/** @type {PageEntry} */ (findInputPage(store, input)));
  },
};

/** @type {AdminAction} */
const termAssign = {
  id: 'term.assign',
  tool: 'admin.term.assign',
  capability: 'term.assign',
  global: false,
  description: 'Assign a term to a page in its draft, in place of the page\'s terms of that taxonomy. The editor confirms a preview first.',
  fields: { site: ADMIN_FIELDS.site, page: ADMIN_FIELDS.page, taxonomy: ADMIN_FIELDS.taxonomy, term: ADMIN_FIELDS.term },
  required: ['site', 'page', 'taxonomy', 'term'],
  preview(store, input) {
    const taxonomies = store.taxonomiesOf(/** @type {AdminSiteKey} */ (input.site));
    const terms = Object.hasOwn(taxonomies, input.taxonomy) ? taxonomies[input.taxonomy] : undefined;
    if (!terms) throw invalidPayload(`The field taxonomy names no taxonomy of site ${input.site}; there are: ${Object.keys(taxonomies).join(', ')}.`);
    if (!terms.includes(input.term)) throw invalidPayload(`The field term names no term of ${input.taxonomy}; there are: ${terms.join(', ')}.`);
    const entry = findInputPage(store, input);
    const draft = store.draftOf(entry);
    const path = pathOf(entry);
    return {
      summary: `Assign ${input.taxonomy} “${input.term}” to ${path} (draft)`,
      changes: [{ target: `${path} › ${input.taxonomy} (draft)`, before: termsText(draft, input.taxonomy), after: input.term }],
    };
  },
  perform(store, input) {
    const entry = findInputPage(store, input);
    const draft = store.draftOf(entry);
    draft.terms = [...draft.terms.filter((term) => term.taxonomy !== input.taxonomy), { taxonomy: input.taxonomy, term: input.term }];
    store.saveDraft(/** @type {AdminSiteKey} */ (input.site), draft);
    return store.toContent(/** @type {PageEntry} */ (findInputPage(store, input)));
  },
};

/**
 * The page key a new page at `path` gets (its path's words joined by `-`).
 * @param {string} path
 */
const keyOfPath = (path) => path.slice(1).replaceAll('/', '-');

/** @type {AdminAction} */
const draftCreate = {
  id: 'draft.create',
  tool: 'admin.draft.create',
  capability: 'draft.create',
  global: false,
  description: 'Create a new page as a scratch draft (never public until admin.page.publish). The editor confirms a preview first.',
  fields: { site: ADMIN_FIELDS.site, title: ADMIN_FIELDS.title, path: ADMIN_FIELDS.path },
  required: ['site', 'title', 'path'],
  preview(store, input) {
    const site = /** @type {AdminSiteKey} */ (input.site);
    const taken = store.listPages(site).some(({ record, draft }) => [record, draft].some((page) => page && Object.values(page.translations).some((translation) => translation?.url === input.path)));
    if (taken || store.findPage(site, keyOfPath(input.path))) throw invalidPayload(`The field path is taken: site ${site} already has a page at ${input.path}.`);
    return {
      summary: `Create the draft page ${input.path} “${input.title}”`,
      changes: [{ target: `${input.path} (new draft)`, before: NOTHING, after: input.title }],
    };
  },
  perform(store, input) {
    const site = /** @type {AdminSiteKey} */ (input.site);
    const page = store.createPage(site, { key: keyOfPath(input.path), path: input.path, title: input.title });
    return store.toContent(/** @type {PageEntry} */ (store.findPage(site, page.key)));
  },
};

/** @type {AdminAction} */
const pagePublish = {
  id: 'page.publish',
  tool: 'admin.page.publish',
  capability: 'page.publish',
  global: false,
  description: 'Publish a page: its draft becomes the public page. The editor confirms a preview of every change first.',
  fields: { site: ADMIN_FIELDS.site, page: ADMIN_FIELDS.page },
  required: ['site', 'page'],
  preview(store, input) {
    const entry = findInputPage(store, input);
    const path = pathOf(entry);
    const next = entry.draft ?? entry.record;
    /** @type {Change[]} */
    const changes = [];
    if (entry.record.visibility !== 'published') changes.push({ target: `${path} › visibility`, before: entry.record.visibility, after: 'published' });
    // A scheduled page is published now; the preview says "now", not the instant, so it stays the same until the confirm.
    const scheduled = store.toContent(entry).status === 'scheduled';
    if (scheduled) changes.push({ target: `${path} › publication`, before: `scheduled for ${entry.record.publishAt}`, after: 'now' });
    for (const name of ['title', 'description', ...Object.keys(store.toContent(entry).published.values)]) {
      if (changes.some((change) => change.target === `${path} › ${name}`)) continue;
      const before = readPageValue(entry.record, name) ?? '';
      const after = readPageValue(next, name) ?? '';
      if (before !== after) changes.push({ target: `${path} › ${name}`, before: shown(before), after: shown(after) });
    }
    const taxonomies = new Set([...entry.record.terms, ...next.terms].map((term) => term.taxonomy));
    for (const taxonomy of taxonomies) {
      const before = termsText(entry.record, taxonomy);
      const after = termsText(next, taxonomy);
      if (before !== after) changes.push({ target: `${path} › ${taxonomy}`, before, after });
    }
    if (changes.length === 0) throw invalidPayload(`The field page names a page with nothing to publish: ${path} has no draft changes.`);
    const site = /** @type {import('./admin-store.js').AdminSite} */ (findAdminSite(input.site));
    return { summary: `Publish ${path} on ${site.name} (${changes.length} change${changes.length === 1 ? '' : 's'})`, changes };
  },
  perform(store, input) {
    const site = /** @type {AdminSiteKey} */ (input.site);
    store.publish(site, findInputPage(store, input));
    return store.toContent(/** @type {PageEntry} */ (findInputPage(store, input)));
  },
};

/** @type {AdminAction} */
const globalPropertyWrite = {
  id: 'globalproperty.write',
  tool: 'admin.globalproperty.write',
  capability: 'globalproperty.write',
  global: true,
  description: 'Change a value of a global property set (every site reads it; global admins only). The admin confirms a preview first.',
  fields: { set: ADMIN_FIELDS.set, property: ADMIN_FIELDS.globalProperty, value: ADMIN_FIELDS.value },
  required: ['set', 'property', 'value'],
  preview(store, input) {
    const sets = store.globalSets;
    const set = Object.hasOwn(sets, input.set) ? sets[input.set] : undefined;
    if (!set) throw notFound(`There is no global property set ${input.set}.`);
    if (!Object.hasOwn(set, input.property)) throw invalidPayload(`The field property names no property of ${input.set}; there are: ${Object.keys(set).join(', ')}.`);
    return {
      summary: `Set ${input.set}.${input.property} (global) to “${input.value}”`,
      changes: [{ target: `global › ${input.set} › ${input.property}`, before: shown(/** @type {string} */ (set[input.property])), after: shown(input.value) }],
    };
  },
  perform(store, input) {
    const set = /** @type {Record<string, string>} */ (store.globalSets[input.set]);
    set[input.property] = input.value;
    return { set: input.set, values: { ...set } };
  },
};

/** The admin actions by id, in registry order. */
export const ADMIN_ACTIONS = Object.freeze(/** @type {Record<string, AdminAction>} */ ({
  'property.write': propertyWrite,
  'term.assign': termAssign,
  'draft.create': draftCreate,
  'page.publish': pagePublish,
  'globalproperty.write': globalPropertyWrite,
}));

/**
 * The action with an id, or undefined.
 * @param {string} id
 * @returns {AdminAction | undefined}
 */
export function findAdminAction(id) {
  return Object.hasOwn(ADMIN_ACTIONS, id) ? ADMIN_ACTIONS[id] : undefined;
}
