import { readFileSync } from 'node:fs';
import { BLUEPRINTS, PROPERTY_SETS, SITE, TAXONOMIES } from '../catalogue.js';
import { AdminError, CAPELL_MESSAGES, forbidden, notFound, validationFailed } from './admin-error.js';
import { GLOBAL_SCOPE } from './actors.js';

/**
 * Capell's 13 admin tools, played on the demo's admin store: their definitions exactly as Capell's
 * admin answers `GET /admin/agent/v1/tools` (read from test/fixtures/capell/admin/tools.json, which
 * transcribes capell-app/capell `packages/admin/src/Support/Agent/*Tool.php` key for key, commits in
 * its SOURCES.md §2), their availability (`isAvailable`, `AgentAdminAuthorization.php` @2c15f27),
 * and for each an `authorize` (payload validation as Laravel words it, then the policy: 403
 * "This action is unauthorized.", 404 outside the session's site), a write's `preview` (changes
 * nothing) and `execute`, with the `data` shapes Capell's tools answer (SOURCES.md §3). What each
 * tool does to the demo's store is the demo's own (Capell's domain Actions are not played).
 */

/** The definitions, as Capell's admin serves them to a global administrator (all 13, by name). */
export const CAPELL_TOOL_DEFINITIONS = Object.freeze(/** @type {{ name: string, effect: 'read' | 'write', inputSchema: Record<string, any> }[]} */ (
  JSON.parse(readFileSync(new URL('../../../test/fixtures/capell/admin/tools.json', import.meta.url), 'utf8')).tools
));

/** Storage ids of the admin's sites: `a` is the public catalogue's site, `b` the admin's own. */
export const SITE_IDS = Object.freeze(/** @type {Record<string, number>} */ ({ a: SITE.id, b: 820001 }));

/** Site `b`'s terms: it has no catalogue taxonomy, so its ids are given here. */
const WORKSHOP_TERM_IDS = Object.freeze(/** @type {Record<string, number>} */ ({ resoling: 820401, patching: 820402, waxing: 820403 }));

/**
 * @typedef {object} ToolContext one invocation's world
 * @property {import('./admin-store.js').AdminStore} store
 * @property {CapellState} state settings, blueprints and structures
 * @property {import('./actors.js').Rights} rights
 * @property {string} actor actor id
 * @property {import('./actors.js').AdminSiteKey} site the session's site
 * @property {number} siteId its storage id
 * @property {() => Date} now
 */

/**
 * @typedef {object} CapellState what the admin holds beside pages
 * @property {Record<'core' | 'admin', Record<string, unknown>>} settings
 * @property {{ id: number, type: string, key: string, name: string, group: string | null, order: number, status: string, default: boolean }[]} blueprints
 * @property {{ resource: string, id: number, data: Record<string, unknown> }[]} structures
 * @property {number} nextId
 */

/** @returns {CapellState} the state as first stored */
export function createCapellState() {
  return {
    settings: { core: { site_name: SITE.name, default_locale: 'en' }, admin: { agent_confirmation_ttl_minutes: 10 } },
    blueprints: BLUEPRINTS.map((blueprint, index) => ({
      id: blueprint.id, type: 'page', key: blueprint.key, name: blueprint.key.replace(/^./, (first) => first.toUpperCase()).replaceAll('-', ' '),
      group: null, order: index, status: blueprint.enabled ? 'active' : 'inactive', default: blueprint.key === 'page',
    })),
    structures: [],
    nextId: 830001,
  };
}

/** @param {string} field e.g. `term_ids` @returns {string} Laravel's attribute name, `term ids` */
const attribute = (field) => field.replace(/^payload\./, '').replaceAll('_', ' ');

/**
 * Validates a payload against a tool's inputSchema as Laravel's rules word it (the demo's reading
 * of each tool's `validator()`): required → "The x field is required." (`term_ids`: "must be
 * present"), types, `minimum`, `maxLength`, `enum`, unknown keys ignored (Laravel's `validated()`).
 * @param {Record<string, any>} schema
 * @param {Record<string, unknown>} payload
 * @throws {AdminError} 422 `{ message, errors }`
 */
function validate(schema, payload) {
  /** @type {Record<string, string[]>} */
  const errors = {};
  const properties = Array.isArray(schema.properties) ? {} : schema.properties ?? {};
  for (const field of schema.required ?? []) {
    if (!Object.hasOwn(payload, field)) errors[field] = [`The ${attribute(field)} field ${field === 'term_ids' ? 'must be present' : 'is required'}.`];
  }
  for (const [field, rule] of Object.entries(/** @type {Record<string, any>} */ (properties))) {
    if (!Object.hasOwn(payload, field) || errors[field]) continue;
    const value = payload[field];
    const types = Array.isArray(rule.type) ? rule.type : rule.type ? [rule.type] : [];
    const is = (/** @type {string} */ type) => (type === 'null' ? value === null
      : type === 'integer' ? Number.isInteger(value)
        : type === 'number' ? typeof value === 'number'
          : type === 'array' ? Array.isArray(value)
            : type === 'object' ? value !== null && typeof value === 'object' && !Array.isArray(value)
              : typeof value === type);
    const name = attribute(field);
    if (types.length > 0 && !types.some(is)) errors[field] = [`The ${name} field must be ${types.includes('integer') ? 'an integer' : types.includes('array') ? 'an array' : types.includes('object') ? 'an array' : `a ${types[0]}`}.`];
    else if (typeof rule.minimum === 'number' && typeof value === 'number' && value < rule.minimum) errors[field] = [`The ${name} field must be at least ${rule.minimum}.`];
    else if (typeof rule.maxLength === 'number' && typeof value === 'string' && value.length > rule.maxLength) errors[field] = [`The ${name} field must not be greater than ${rule.maxLength} characters.`];
    else if (Array.isArray(rule.enum) && !rule.enum.includes(value)) errors[field] = [`The selected ${name} is invalid.`];
    else if (typeof rule.minProperties === 'number' && value !== null && typeof value === 'object' && Object.keys(value).length < rule.minProperties) errors[field] = [`The ${name} field is required.`];
    else if (rule.type === 'array' && rule.items?.type === 'integer') {
      /** @type {unknown[]} */ (value).forEach((item, index) => {
        if (!Number.isInteger(item) || /** @type {number} */ (item) < (rule.items.minimum ?? -Infinity)) errors[`${field}.${index}`] = [`The ${field}.${index} field must be an integer.`];
      });
      if (rule.uniqueItems && new Set(/** @type {unknown[]} */ (value)).size !== /** @type {unknown[]} */ (value).length) errors[field] = [`The ${name} field has a duplicate value.`];
    }
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

/**
 * Throws 403 unless the actor holds `capability` on the session's site (`GLOBAL_SCOPE` for `global.admin`).
 * @param {ToolContext} context
 * @param {string} capability
 */
function need(context, capability) {
  const scope = capability === 'global.admin' ? GLOBAL_SCOPE : context.site;
  if (!context.rights.can(context.actor, context.site, 'site.view') || !context.rights.can(context.actor, scope, capability)) throw forbidden();
}

/**
 * The session site's page with a storage id, or 404 (`firstOrFail` in the session's site).
 * @param {ToolContext} context
 * @param {unknown} id
 */
function findPage(context, id) {
  const entry = context.store.listPages(context.site).find(({ record }) => record.id === id);
  if (!entry) throw notFound('Page');
  return entry;
}

/**
 * The session site's terms: id, taxonomy key, slug, stored values.
 * @param {ToolContext} context
 * @returns {{ id: number, taxonomy: string, slug: string, properties: Record<string, Record<string, unknown>> }[]}
 */
function siteTerms(context) {
  if (context.site === 'b') {
    return Object.entries(context.store.taxonomiesOf('b')).flatMap(([taxonomy, slugs]) => slugs.map((slug) => ({ id: WORKSHOP_TERM_IDS[slug] ?? 0, taxonomy, slug, properties: {} })));
  }
  return TAXONOMIES.filter((taxonomy) => taxonomy.site === SITE.key)
    .flatMap((taxonomy) => taxonomy.terms.map((term) => ({ id: term.id, taxonomy: taxonomy.key, slug: term.slug, properties: term.properties ?? {} })));
}

/** Capell's PropertyType for each of the catalogue's types. */
const PROPERTY_TYPES = Object.freeze(/** @type {Record<string, string>} */ ({
  string: 'text', localised: 'text', money: 'money', dimension: 'dimension', duration: 'duration', boolean: 'boolean', 'term-reference': 'term_reference', 'page-reference': 'entry_reference',
}));

/**
 * One stored value as Capell's presenter writes a row (`AgentAdminPropertyValuePresenter.php` @3affada).
 * @param {string} key qualified key `<set>.<property>`
 * @param {import('../catalogue.js').PropertyDefinition} definition
 * @param {any} stored
 */
function propertyRow(key, definition, stored) {
  const row = { key, type: PROPERTY_TYPES[definition.type] ?? 'text', semantic: definition.semantic ?? null, value: stored, currency: null, unit: null, position: 0, translation_id: null };
  if (definition.type === 'money') Object.assign(row, { value: stored.amount, currency: stored.currency });
  else if (definition.type === 'dimension' || definition.type === 'duration') Object.assign(row, { value: stored.value, unit: stored.unit });
  else if (definition.type === 'localised') row.value = stored?.en ?? null;
  return row;
}

/**
 * A page's writable property definitions, by qualified key.
 * @param {import('../catalogue.js').Page} page
 */
function pageDefinitions(page) {
  return new Map(PROPERTY_SETS.filter((set) => set.blueprints.includes(page.blueprint))
    .flatMap((set) => Object.entries(set.properties).map(([name, definition]) => [`${set.key}.${name}`, { set: set.key, name, definition }])));
}

/**
 * The required values a page lacks before it may be published (the demo's rule: a product needs
 * its price and SKU; every page a title), as Capell's qualified keys.
 * @param {import('../catalogue.js').Page} page
 * @returns {string[]}
 */
function missingPublishRequired(page) {
  const missing = [];
  if (!(page.translations.en?.title ?? '').trim()) missing.push('core.page.title');
  if (page.blueprint === 'product') {
    for (const name of ['price', 'sku']) if (page.properties['commerce.product']?.[name] === undefined || page.properties['commerce.product']?.[name] === '') missing.push(`commerce.product.${name}`);
  }
  return missing;
}

/** @param {import('../catalogue.js').Page} page @param {Date} now */
function stateOf(page, now) {
  if (page.visibility !== 'published') return 'draft';
  return page.publishAt !== null && Date.parse(page.publishAt) > now.getTime() ? 'scheduled' : 'published';
}

/**
 * A publication preview or result (`AgentPagePublicationTool.php` @3affada).
 * @param {ToolContext} context
 * @param {import('./admin-store.js').PageEntry} entry
 * @param {'publish-now' | 'schedule-publish'} transition
 * @param {string | null} publishAt
 */
function publication(context, entry, transition, publishAt) {
  const page = entry.draft ?? entry.record;
  const before = stateOf(entry.record, context.now());
  const after = transition === 'publish-now' ? 'published' : 'scheduled';
  const missing = missingPublishRequired(page);
  const changed = before !== after || entry.draft !== null;
  return {
    ok: missing.length === 0,
    data: {
      page_id: entry.record.id, transition, outcome: changed ? 'changed' : 'unchanged', reason: changed ? 'publication.transition.changed' : 'publication.transition.unchanged',
      before_state: before, after_state: after,
      // PublishNow keeps visible_from null in the preview so it stays stable until the approval.
      visible_from: transition === 'publish-now' ? null : publishAt, visible_until: null, blocking_checks: [], missing_publish_required: missing,
    },
    ...(missing.length > 0 ? { message: CAPELL_MESSAGES.publicationBlocked } : {}),
  };
}

/**
 * @typedef {object} CapellTool
 * @property {string} name
 * @property {'read' | 'write'} effect
 * @property {(context: ToolContext) => boolean} isAvailable listed for this actor and site
 * @property {(context: ToolContext, payload: Record<string, any>) => void} authorize throws AdminError
 * @property {(context: ToolContext, payload: Record<string, any>) => { ok: boolean, data: unknown, message?: string }} [preview] writes only; changes nothing
 * @property {(context: ToolContext, payload: Record<string, any>) => unknown} execute the `data`
 */

/** @param {ToolContext} c @param {string} capability */
const can = (c, capability) => c.rights.can(c.actor, c.site, 'site.view') && c.rights.can(c.actor, capability === 'global.admin' ? GLOBAL_SCOPE : c.site, capability);

/** @type {Omit<CapellTool, 'effect'>[]} */
const TOOLS = [
  {
    name: 'admin.page.properties.read',
    isAvailable: (c) => can(c, 'page.view'),
    authorize: (c, p) => { need(c, 'page.view'); findPage(c, p.page_id); },
    execute(c, p) {
      const { record } = findPage(c, p.page_id);
      const rows = [...pageDefinitions(record)].flatMap(([key, { set, name, definition }]) => {
        const stored = record.properties[set]?.[name];
        return stored === undefined ? [] : [propertyRow(key, definition, stored)];
      });
      return { page_id: record.id, properties: rows };
    },
  },
  {
    name: 'admin.term.properties.read',
    isAvailable: (c) => c.rights.can(c.actor, c.site, 'site.view'),
    authorize(c, p) {
      if (!c.rights.can(c.actor, c.site, 'site.view')) throw forbidden();
      if (!siteTerms(c).some((term) => term.id === p.term_id)) throw notFound('Term');
    },
    execute(c, p) {
      const term = /** @type {ReturnType<typeof siteTerms>[number]} */ (siteTerms(c).find((candidate) => candidate.id === p.term_id));
      const rows = Object.entries(term.properties).flatMap(([set, values]) => Object.entries(values).map(([name, stored]) => {
        const definition = PROPERTY_SETS.find((candidate) => candidate.key === set)?.properties[name];
        return definition ? propertyRow(`${set}.${name}`, definition, stored) : { key: `${set}.${name}`, type: 'text', semantic: null, value: stored, currency: null, unit: null, position: 0, translation_id: null };
      }));
      return { term_id: term.id, taxonomy: term.taxonomy, properties: rows };
    },
  },
  {
    name: 'admin.page.properties.write',
    isAvailable: (c) => can(c, 'page.update'),
    authorize(c, p) {
      need(c, 'page.update');
      const { record } = findPage(c, p.page_id);
      if (!pageDefinitions(record).has(p.property_key)) throw validationFailed({ property_key: ['The selected property key is invalid.'] });
    },
    preview(c, p) {
      const { record } = findPage(c, p.page_id);
      const { set, name, definition } = /** @type {any} */ (pageDefinitions(record).get(p.property_key));
      const stored = record.properties[set]?.[name];
      const previous = stored === undefined ? null : propertyRow(p.property_key, definition, stored).value;
      return { ok: true, data: { page_id: record.id, property: { key: p.property_key, type: PROPERTY_TYPES[definition.type] ?? 'text', previous, value: p.value ?? null, currency: p.currency ?? null, unit: p.unit ?? null, position: p.position ?? 0, translation_id: p.translation_id ?? null } } };
    },
    execute(c, p) {
      const { record } = findPage(c, p.page_id);
      const { set, name, definition } = /** @type {any} */ (pageDefinitions(record).get(p.property_key));
      const values = (record.properties[set] ??= {});
      const stored = values[name];
      if (definition.type === 'money') values[name] = { amount: p.value, currency: p.currency ?? stored?.currency ?? 'EUR' };
      else if (definition.type === 'dimension' || definition.type === 'duration') values[name] = { value: p.value, unit: p.unit ?? stored?.unit };
      else if (definition.type === 'localised') values[name] = { ...(stored ?? {}), en: p.value };
      else values[name] = p.value;
      return { page_id: record.id, property: { key: p.property_key, updated: true } };
    },
  },
  {
    name: 'admin.page.terms.write',
    isAvailable: (c) => can(c, 'page.update'),
    authorize(c, p) {
      need(c, 'page.update');
      findPage(c, p.page_id);
      const known = new Set(siteTerms(c).map((term) => term.id));
      /** @type {Record<string, string[]>} */
      const errors = {};
      p.term_ids.forEach((/** @type {number} */ id, /** @type {number} */ index) => { if (!known.has(id)) errors[`term_ids.${index}`] = [`The selected term_ids.${index} is invalid.`]; });
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
    },
    preview(c, p) {
      const { record } = findPage(c, p.page_id);
      const terms = siteTerms(c);
      const before = record.terms.map((assigned) => terms.find((term) => term.taxonomy === assigned.taxonomy && term.slug === assigned.term)?.id ?? 0);
      return { ok: true, data: { page_id: record.id, before_term_ids: before, after_term_ids: [...p.term_ids] } };
    },
    execute(c, p) {
      const { record } = findPage(c, p.page_id);
      const terms = siteTerms(c);
      record.terms = p.term_ids.map((/** @type {number} */ id) => {
        const term = /** @type {ReturnType<typeof siteTerms>[number]} */ (terms.find((candidate) => candidate.id === id));
        return { taxonomy: term.taxonomy, term: term.slug };
      });
      return { page_id: record.id, term_ids: [...p.term_ids], assigned: true };
    },
  },
  {
    name: 'admin.page.draft.save',
    isAvailable: (c) => can(c, 'page.update'),
    authorize: (c, p) => { need(c, 'page.update'); findPage(c, p.page_id); },
    preview(c, p) {
      const entry = findPage(c, p.page_id);
      const page = entry.draft ?? entry.record;
      const translation = page.translations[/** @type {'en'} */ (p.locale)] ?? null;
      return { ok: true, data: { page_id: entry.record.id, locale: p.locale, before: translation ? { name: translation.title, description: translation.description ?? null } : null, after: p, publication_impact: 'unchanged_until_editor_save' } };
    },
    execute(c, p) {
      const entry = findPage(c, p.page_id);
      const draft = c.store.draftOf(entry);
      const translation = draft.translations[/** @type {'en'} */ (p.locale)];
      if (translation && typeof p.fields?.name === 'string') translation.title = p.fields.name;
      c.store.saveDraft(c.site, draft);
      return { page_id: entry.record.id, saved: true, locale: p.locale, scratch_saved: true };
    },
  },
  {
    name: 'admin.page.publish',
    isAvailable: (c) => can(c, 'page.update'),
    authorize: (c, p) => { need(c, 'page.update'); findPage(c, p.page_id); },
    preview: (c, p) => publication(c, findPage(c, p.page_id), 'publish-now', null),
    execute(c, p) {
      const entry = findPage(c, p.page_id);
      const result = publication(c, entry, 'publish-now', null);
      const published = c.store.publish(c.site, entry);
      return { ...result.data, after_state: stateOf(published, c.now()), visible_from: published.publishAt };
    },
  },
  {
    name: 'admin.page.publish.schedule',
    isAvailable: (c) => can(c, 'page.update'),
    authorize(c, p) {
      need(c, 'page.update');
      findPage(c, p.page_id);
      if (Number.isNaN(Date.parse(p.publish_at))) throw validationFailed({ publish_at: ['The publish at field must be a valid date.'] });
    },
    preview: (c, p) => publication(c, findPage(c, p.page_id), 'schedule-publish', p.publish_at),
    execute(c, p) {
      const entry = findPage(c, p.page_id);
      const result = publication(c, entry, 'schedule-publish', p.publish_at);
      // Published with the draft, visible from the time asked for (the store's publish means now).
      const published = c.store.publish(c.site, entry);
      published.publishAt = new Date(p.publish_at).toISOString();
      return { ...result.data, after_state: stateOf(published, c.now()) };
    },
  },
  {
    name: 'admin.page.agent_readiness.read',
    isAvailable: (c) => can(c, 'page.view'),
    authorize: (c, p) => { need(c, 'page.view'); findPage(c, p.page_id); },
    execute(c, p) {
      const { record } = findPage(c, p.page_id);
      const missing = missingPublishRequired(record);
      return { page_id: record.id, is_agent_complete: missing.length === 0, missing_publish_required: missing, missing_contract_required: [] };
    },
  },
  {
    name: 'admin.site.agent_readiness.read',
    isAvailable: (c) => can(c, 'page.view'),
    authorize: (c) => need(c, 'page.view'),
    execute(c) {
      const pages = c.store.listPages(c.site).map(({ record }) => missingPublishRequired(record));
      const incomplete = pages.filter((missing) => missing.length > 0);
      return { site_id: c.siteId, pages_checked: pages.length, complete_pages: pages.length - incomplete.length, incomplete_pages: incomplete.length, missing_publish_required: incomplete.reduce((sum, missing) => sum + missing.length, 0), missing_contract_required: 0 };
    },
  },
  {
    name: 'admin.settings.write',
    isAvailable: (c) => can(c, 'global.admin'),
    authorize(c, p) {
      need(c, 'global.admin');
      const known = c.state.settings[/** @type {'core'} */ (p.group)];
      const unknown = Object.keys(p.values).filter((key) => !Object.hasOwn(known, key));
      if (unknown.length > 0) throw validationFailed(Object.fromEntries(unknown.map((key) => [`values.${key}`, [`The values.${key} field is not a setting of ${p.group}.`]])));
    },
    preview(c, p) {
      const current = c.state.settings[/** @type {'core'} */ (p.group)];
      return { ok: true, data: { group: p.group, before: Object.fromEntries(Object.keys(p.values).map((key) => [key, current[key]])), after: { ...p.values } } };
    },
    execute(c, p) {
      Object.assign(c.state.settings[/** @type {'core'} */ (p.group)], p.values);
      return { group: p.group, saved: true, values: { ...p.values } };
    },
  },
  {
    name: 'admin.blueprint.read',
    isAvailable: (c) => can(c, 'blueprint.view'),
    authorize: (c) => need(c, 'blueprint.view'),
    execute(c, p) {
      const rows = c.state.blueprints.filter((row) => (p.id == null || row.id === p.id) && (p.type == null || row.type === p.type));
      return { blueprints: rows.slice(0, 100).map((row) => ({ ...row })) };
    },
  },
  {
    name: 'admin.blueprint.write',
    isAvailable: (c) => can(c, 'global.admin'),
    authorize(c, p) {
      need(c, 'global.admin');
      if (p.operation === 'update' && !c.state.blueprints.some((row) => row.id === p.id)) throw notFound('Blueprint');
    },
    preview(c, p) {
      const before = p.operation === 'update' ? { ...c.state.blueprints.find((row) => row.id === p.id) } : null;
      return { ok: true, data: { operation: p.operation, id: p.id ?? null, before, data: p.data } };
    },
    execute(c, p) {
      if (p.operation === 'update') {
        const row = /** @type {CapellState['blueprints'][number]} */ (c.state.blueprints.find((candidate) => candidate.id === p.id));
        Object.assign(row, pick(p.data, ['key', 'name', 'group', 'order', 'status']));
        return { operation: 'update', id: row.id, saved: true };
      }
      const id = c.state.nextId++;
      c.state.blueprints.push({ id, type: 'page', key: String(p.data.key ?? `blueprint-${id}`), name: String(p.data.name ?? p.data.key ?? id), group: null, order: c.state.blueprints.length, status: 'active', default: false, ...pick(p.data, ['group', 'order', 'status']) });
      return { operation: 'create', id, saved: true };
    },
  },
  {
    name: 'admin.structure.write',
    isAvailable: (c) => can(c, 'site.update'),
    authorize(c, p) {
      need(c, 'site.update');
      if (p.operation === 'update' && !c.state.structures.some((row) => row.id === p.id && row.resource === p.resource)) throw notFound(p.resource === 'taxonomy' ? 'Taxonomy' : 'PropertySet');
    },
    preview(c, p) {
      const before = p.operation === 'update' ? structuredClone(c.state.structures.find((row) => row.id === p.id)?.data ?? null) : null;
      return { ok: true, data: { resource: p.resource, operation: p.operation, id: p.id ?? null, before, data: p.data } };
    },
    execute(c, p) {
      if (p.operation === 'update') {
        const row = /** @type {CapellState['structures'][number]} */ (c.state.structures.find((candidate) => candidate.id === p.id));
        Object.assign(row.data, p.data);
        return { resource: p.resource, operation: 'update', id: row.id, saved: true };
      }
      const id = c.state.nextId++;
      c.state.structures.push({ resource: p.resource, id, data: structuredClone(p.data) });
      return { resource: p.resource, operation: 'create', id, saved: true };
    },
  },
];

/**
 * The members of `data` named in `keys`.
 * @param {Record<string, unknown>} data
 * @param {string[]} keys
 */
function pick(data, keys) {
  return Object.fromEntries(keys.filter((key) => Object.hasOwn(data, key)).map((key) => [key, data[key]]));
}

/** Capell's tools by name, each with its effect and its payload validation before `authorize`. */
const BY_NAME = new Map(CAPELL_TOOL_DEFINITIONS.map((definition) => {
  const tool = /** @type {Omit<CapellTool, 'effect'>} */ (TOOLS.find((candidate) => candidate.name === definition.name));
  if (!tool) throw new Error(`The demo plays no ${definition.name}.`);
  /** @type {CapellTool} */
  const played = {
    ...tool,
    effect: definition.effect,
    authorize(context, payload) {
      validate(definition.inputSchema, payload);
      tool.authorize(context, payload);
    },
  };
  return [definition.name, played];
}));

/**
 * The tool with a name (Capell: `AgentAdminToolRegistry::tool()`).
 * @param {string} name
 * @returns {CapellTool}
 * @throws {AdminError} 500 "Server Error" for a name that is not registered (Capell throws
 *   InvalidArgumentException, which Laravel answers 500 with debug off)
 */
export function findCapellTool(name) {
  const tool = BY_NAME.get(name);
  if (!tool) throw new AdminError(500, 'Server Error');
  return tool;
}

/**
 * The definitions an actor may use on the session's site, by name in byte order
 * (`AgentAdminToolRegistry::definitionsFor`).
 * @param {ToolContext} context
 */
export function listCapellDefinitions(context) {
  return CAPELL_TOOL_DEFINITIONS.filter((definition) => BY_NAME.get(definition.name)?.isAvailable(context))
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}
