import { PROPERTY_SETS } from '../catalogue.js';

/**
 * The values of a page an editor sees and writes, as strings: `title` and `description` (the
 * page's text in its site's default language, English here) and `capell:<set>.<property>` for the
 * stored values of the property sets its blueprint carries (Capell Agent Schema, "Properties":
 * `capell:<set>.<property>` names a value without a schema.org key). References (terms, pages)
 * are not written here: `term.assign` assigns terms.
 */

/** @typedef {import('../catalogue.js').Page} Page */
/** @typedef {import('../catalogue.js').PropertyDefinition} PropertyDefinition */

/** The language an editor writes in (the sites' default language). */
export const EDIT_LANGUAGE = 'en';

/** Property types a string value can be written to, and how. */
const WRITABLE_TYPES = Object.freeze(['string', 'localised', 'money', 'dimension', 'duration', 'boolean']);

/** A decimal number as an editor types it, e.g. `129` or `89.50`. */
const DECIMAL = /^(?:0|[1-9][0-9]{0,8})(?:\.[0-9]{1,3})?$/;

/**
 * The property definitions of a page, by `capell:<set>.<property>` name.
 * @param {Page} page
 * @returns {Map<string, { set: string, key: string, definition: PropertyDefinition }>}
 */
function listSetProperties(page) {
  const found = new Map();
  for (const set of PROPERTY_SETS) {
    if (!set.blueprints.includes(page.blueprint)) continue;
    for (const [key, definition] of Object.entries(set.properties)) {
      // A value read from the translation is written as that field (`description`).
      if (WRITABLE_TYPES.includes(definition.type) && !definition.fromTranslation) found.set(`capell:${set.key}.${key}`, { set: set.key, key, definition });
    }
  }
  return found;
}

/**
 * A stored value as an editor reads it.
 * @param {unknown} value
 * @param {PropertyDefinition} definition
 * @returns {string}
 */
function toText(value, definition) {
  if (value === undefined || value === null) return '';
  const record = /** @type {Record<string, unknown>} */ (value);
  if (definition.type === 'money') return `${record.amount} ${record.currency}`;
  if (definition.type === 'dimension' || definition.type === 'duration') return `${record.value} ${record.unit}`;
  if (definition.type === 'localised') return String(record[EDIT_LANGUAGE] ?? '');
  return String(value);
}

/**
 * The names of the values an editor may write on a page, in a stable order.
 * @param {Page} page
 * @returns {string[]} e.g. `['title', 'description', 'capell:commerce.product.price', …]`
 */
export function listWritableProperties(page) {
  return ['title', 'description', ...listSetProperties(page).keys()];
}

/**
 * Every writable value of a page as text.
 * @param {Page} page
 * @returns {Record<string, string>}
 */
export function readPageValues(page) {
  /** @type {Record<string, string>} */
  const values = {};
  for (const name of listWritableProperties(page)) values[name] = /** @type {string} */ (readPageValue(page, name));
  return values;
}

/**
 * One value of a page as text, or undefined when the page has no such writable value.
 * @param {Page} page
 * @param {string} name `title`, `description` or `capell:<set>.<property>`
 * @returns {string | undefined}
 */
export function readPageValue(page, name) {
  const translation = page.translations[EDIT_LANGUAGE];
  if (name === 'title') return translation?.title ?? '';
  if (name === 'description') return translation?.description ?? '';
  const property = listSetProperties(page).get(name);
  if (!property) return undefined;
  return toText(page.properties[property.set]?.[property.key], property.definition);
}

/**
 * Why a text cannot be written to a page's value, or undefined when it can.
 * @param {Page} page
 * @param {string} name
 * @param {string} value
 * @returns {string | undefined} one line naming what to fix
 */
export function validatePageValue(page, name, value) {
  if (name === 'title' || name === 'description') {
    return name === 'title' && value.trim() === '' ? 'The value of title must not be empty.' : undefined;
  }
  const property = listSetProperties(page).get(name);
  if (!property) return `The page has no writable property ${name}; writable: ${listWritableProperties(page).join(', ')}.`;
  const { type } = property.definition;
  if ((type === 'money' || type === 'dimension' || type === 'duration') && !DECIMAL.test(value)) return `The value of ${name} must be a decimal number such as 129 or 89.50.`;
  if (type === 'boolean' && value !== 'true' && value !== 'false') return `The value of ${name} must be true or false.`;
  return undefined;
}

/**
 * Write a text to a page's value (validatePageValue first): numbers keep their currency or unit,
 * localised texts change in EDIT_LANGUAGE only.
 * @param {Page} page changed in place
 * @param {string} name
 * @param {string} value
 */
export function writePageValue(page, name, value) {
  if (name === 'title' || name === 'description') {
    const translation = page.translations[EDIT_LANGUAGE];
    if (translation) translation[name] = value;
    return;
  }
  const property = /** @type {{ set: string, key: string, definition: PropertyDefinition }} */ (listSetProperties(page).get(name));
  const values = (page.properties[property.set] ??= {});
  const current = /** @type {Record<string, unknown>} */ (values[property.key] ?? {});
  const { type } = property.definition;
  if (type === 'money') values[property.key] = { amount: Number(value), currency: current.currency ?? 'EUR' };
  else if (type === 'dimension' || type === 'duration') values[property.key] = { value: Number(value), unit: current.unit ?? '' };
  else if (type === 'localised') values[property.key] = { ...current, [EDIT_LANGUAGE]: value };
  else if (type === 'boolean') values[property.key] = value === 'true';
  else values[property.key] = value;
}
