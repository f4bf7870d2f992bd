import { LOCALES, countUnit } from '../localisation.js';

/** @typedef {import('../catalogue.js').Language} Language */

/**
 * A money value for people, e.g. "€129.00" or "129,00 €".
 * @param {Language} lang
 * @param {{ amount: number, currency: string }} money
 * @returns {string}
 */
export function formatMoney(lang, money) {
  return new Intl.NumberFormat(LOCALES[lang], { style: 'currency', currency: money.currency }).format(money.amount);
}

/** Days in a year, for a warranty stored in days and read in years. */
const YEAR_DAYS = 365;

/**
 * A dimension or duration for people, e.g. "0.58 kg", "2 Jahre" (a whole number of years of
 * days), "6 minutes".
 * @param {Language} lang
 * @param {{ value: number, unit: string }} quantity
 * @returns {string}
 */
export function formatQuantity(lang, quantity) {
  if (quantity.unit === 'day' && quantity.value % YEAR_DAYS === 0) return countUnit(lang, quantity.value / YEAR_DAYS, 'year');
  if (quantity.unit === 'minute') return countUnit(lang, quantity.value, quantity.unit);
  return `${new Intl.NumberFormat(LOCALES[lang]).format(quantity.value)} ${quantity.unit}`;
}

/**
 * A date for people, e.g. "1 April 2025".
 * @param {Language} lang
 * @param {string} iso
 * @returns {string}
 */
export function formatDate(lang, iso) {
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));
}
