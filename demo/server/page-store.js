import { AsyncLocalStorage } from 'node:async_hooks';
import { PAGES } from './catalogue.js';

/**
 * Which page records a request reads. Each demo app keeps its own copy of the catalogue's pages
 * (admin/admin-store.js), which its admin publishes into; the app runs every request with that
 * copy (runWithPages), so publishing in one app changes that app's public site and no other.
 * Outside a request (a test calling a module directly) the catalogue's own PAGES are read.
 */

/** @type {AsyncLocalStorage<import('./catalogue.js').Page[]>} */
const currentPages = new AsyncLocalStorage();

/**
 * The page records of the request being handled (or the catalogue's PAGES outside one).
 * @returns {import('./catalogue.js').Page[]}
 */
export function readPages() {
  return currentPages.getStore() ?? PAGES;
}

/**
 * Run `handle` (and everything it awaits) with `pages` as the page records.
 * @template T
 * @param {import('./catalogue.js').Page[]} pages
 * @param {() => T} handle
 * @returns {T}
 */
export function runWithPages(pages, handle) {
  return currentPages.run(pages, handle);
}
