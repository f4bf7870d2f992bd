import { PROPERTY_SETS } from '../catalogue.js';
import { text } from '../localisation.js';
import { findPropertySet, readDisplayProperties } from '../properties.js';
import { listPublicPages, listSiteTaxonomies } from '../public-pages.js';
import { renderContactForm } from './contact-form.js';
import { escapeHTML } from './escape-html.js';
import { formatDate, formatMoney, formatQuantity } from './format.js';
import { renderBackInStockForm } from './signup-forms.js';
import { CONTACT_FORM, ENQUIRY_FORM, ENQUIRY_PAGE_KEY } from '../form-builder/forms.js';

/** @typedef {import('../catalogue.js').Page} Page */
/** @typedef {import('../catalogue.js').Language} Language */
/** @typedef {import('../catalogue.js').Translation} Translation */

/**
 * @typedef {object} ViewContext
 * @property {Language} lang
 * @property {Date} now
 * @property {string} csrfToken
 * @property {boolean} sent the contact form was just sent
 * @property {boolean} [plain] the contact page with its plain HTML form instead of form-builder's
 * @property {string} [path] the Capell page's path (form-builder's snapshot keeps it)
 * @property {ReturnType<typeof import('../form-builder/livewire-component.js').createLivewireComponents>} [livewire]
 *   mounts form-builder's forms (without it, pages render no form-builder form)
 */

/**
 * @param {Page} page
 * @param {Language} lang
 * @returns {Translation}
 */
function translationOf(page, lang) {
  return /** @type {Translation} */ (page.translations[lang]);
}

/**
 * @param {Translation} translation
 * @returns {string}
 */
function renderParagraphs(translation) {
  return (translation.body ?? []).map((paragraph) => `<p>${escapeHTML(paragraph)}</p>`).join('\n');
}

/**
 * Product cards for a list of product pages.
 * @param {Page[]} products
 * @param {ViewContext} context
 * @returns {string}
 */
function renderProductCards(products, { lang, now }) {
  const set = /** @type {import('../catalogue.js').PropertySet} */ (findPropertySet('commerce.product'));
  const cards = products.map((product) => {
    const translation = translationOf(product, lang);
    const properties = readDisplayProperties(product, set, lang, now, ['price', 'colour']);
    const price = /** @type {{ amount: number, currency: string }} */ (properties.price);
    return `<li class="card"><h3><a href="${escapeHTML(translation.url)}">${escapeHTML(translation.title)}</a></h3>
<p class="price">${escapeHTML(formatMoney(lang, price))} · ${escapeHTML(properties.colour)}</p></li>`;
  });
  return `<ul class="cards">${cards.join('\n')}</ul>`;
}

/**
 * An article list.
 * @param {Page[]} articles
 * @param {ViewContext} context
 * @returns {string}
 */
function renderArticleList(articles, { lang }) {
  const items = articles.map((article) => {
    const translation = translationOf(article, lang);
    return `<li><a href="${escapeHTML(translation.url)}">${escapeHTML(translation.title)}</a>
<p>${escapeHTML(translation.description ?? '')}</p></li>`;
  });
  return `<ul class="articles">${items.join('\n')}</ul>`;
}

/**
 * Public pages of a blueprint assigned to the term whose landing page is `landing`.
 * @param {Page} landing
 * @param {string} blueprint
 * @param {ViewContext} context
 * @returns {Page[]}
 */
function listTermPages(landing, blueprint, { lang, now }) {
  const taxonomy = listSiteTaxonomies().find((candidate) => candidate.terms.some((term) => term.landingPage === landing.key));
  const term = taxonomy?.terms.find((candidate) => candidate.landingPage === landing.key);
  if (!taxonomy || !term) return [];
  return listPublicPages(lang, now).filter(
    (page) =>
      page.blueprint === blueprint &&
      page.terms.some((assignment) => assignment.taxonomy === taxonomy.key && assignment.term === term.slug),
  );
}

/**
 * The property list of a product page, every agent-visible property formatted for people.
 * @param {Page} page
 * @param {ViewContext} context
 * @returns {string}
 */
function renderProductFacts(page, { lang, now }) {
  const rows = [];
  for (const set of PROPERTY_SETS) {
    const values = readDisplayProperties(page, set, lang, now);
    for (const [key, value] of Object.entries(values)) {
      const definition = /** @type {import('../catalogue.js').PropertyDefinition} */ (set.properties[key]);
      let shown;
      switch (definition.type) {
        case 'money':
          shown = escapeHTML(formatMoney(lang, /** @type {{ amount: number, currency: string }} */ (value)));
          break;
        case 'dimension':
        case 'duration':
          shown = escapeHTML(formatQuantity(lang, /** @type {{ value: number, unit: string }} */ (value)));
          break;
        case 'boolean':
          shown = escapeHTML(text(lang, value ? 'product.inStock' : 'product.noStock'));
          break;
        case 'term-reference':
          shown = `<a href="${escapeHTML(value)}">${escapeHTML(findTitle(String(value), lang, now))}</a>`;
          break;
        case 'page-reference':
          shown = /** @type {string[]} */ (value).map((url) => `<a href="${escapeHTML(url)}">${escapeHTML(findTitle(url, lang, now))}</a>`).join(', ');
          break;
        default:
          shown = escapeHTML(value);
      }
      rows.push(`<dt>${escapeHTML(definition.label[lang])}</dt><dd>${shown}</dd>`);
    }
  }
  return `<dl class="facts">${rows.join('\n')}</dl>`;
}

/**
 * The stockist pages under a page, as a list of links.
 * @param {Page} parent
 * @param {ViewContext} context
 * @returns {string}
 */
function renderStockists(parent, { lang, now }) {
  const items = listPublicPages(lang, now)
    .filter((page) => page.parent === parent.key)
    .map((page) => `<li><a href="${escapeHTML(translationOf(page, lang).url)}">${escapeHTML(translationOf(page, lang).title)}</a></li>`);
  return `<ul class="stockists">${items.join('\n')}</ul>`;
}

/**
 * Title of the public page at `url`.
 * @param {string} url
 * @param {Language} lang
 * @param {Date} now
 * @returns {string}
 */
function findTitle(url, lang, now) {
  return listPublicPages(lang, now).find((page) => page.translations[lang]?.url === url)?.translations[lang]?.title ?? url;
}

/**
 * The content of `<main>` for a public page.
 * @param {Page} page
 * @param {ViewContext} context
 * @returns {string} HTML
 */
export function renderPageMain(page, context) {
  const { lang, now } = context;
  const translation = translationOf(page, lang);
  const heading = `<h1>${escapeHTML(translation.title)}</h1>\n<p class="lead">${escapeHTML(translation.description ?? '')}</p>`;
  const products = listPublicPages(lang, now).filter((candidate) => candidate.blueprint === 'product');
  const articles = listPublicPages(lang, now).filter((candidate) => candidate.blueprint === 'article');
  switch (page.view) {
    case 'home':
      return `${heading}\n${renderParagraphs(translation)}
<section><h2>${escapeHTML(text(lang, 'list.featured'))}</h2>${renderProductCards(products.slice(0, 3), context)}</section>
<section><h2>${escapeHTML(text(lang, 'list.articles'))}</h2>${renderArticleList(articles.slice(0, 2), context)}</section>`;
    case 'products':
      return `${heading}\n${renderParagraphs(translation)}\n${renderProductCards(products, context)}`;
    case 'category':
      return `${heading}\n${renderParagraphs(translation)}\n${renderProductCards(listTermPages(page, 'product', context), context)}`;
    case 'journal':
      return `${heading}\n${renderParagraphs(translation)}\n${renderArticleList(articles, context)}`;
    case 'topic':
      return `${heading}\n${renderParagraphs(translation)}\n${renderArticleList(listTermPages(page, 'article', context), context)}`;
    case 'product': {
      const stock = readDisplayProperties(page, /** @type {import('../catalogue.js').PropertySet} */ (findPropertySet('commerce.product')), lang, now, ['sku', 'in_stock']);
      const notify = stock.in_stock === false ? `\n${renderBackInStockForm(lang, String(stock.sku), translation.url, context.csrfToken)}` : '';
      const enquiry = page.key === ENQUIRY_PAGE_KEY && context.livewire
        ? `\n<section class="enquiry">${context.livewire.mount(ENQUIRY_FORM, { lang, path: context.path ?? translation.url })}</section>`
        : '';
      return `<article class="product">${heading}\n${renderParagraphs(translation)}\n${renderProductFacts(page, context)}${notify}${enquiry}</article>`;
    }
    case 'article':
      return `<article>${heading}
<p class="meta">${escapeHTML(text(lang, 'article.published'))} <time datetime="${escapeHTML(page.publishAt)}">${escapeHTML(formatDate(lang, /** @type {string} */ (page.publishAt)))}</time></p>
${renderParagraphs(translation)}\n${renderProductFacts(page, context)}</article>`;
    case 'stockists':
      return `${heading}\n${renderParagraphs(translation)}\n${renderStockists(page, context)}`;
    case 'contact': {
      const notice = context.sent ? `<p class="notice" role="status">${escapeHTML(text(lang, 'contact.sent'))}</p>\n` : '';
      const form = context.plain || !context.livewire
        ? renderContactForm(lang, context.csrfToken)
        : context.livewire.mount(CONTACT_FORM, { lang, path: context.path ?? translation.url });
      return `${heading}\n${notice}${renderParagraphs(translation)}\n${form}`;
    }
    default:
      return `${heading}\n${renderParagraphs(translation)}`;
  }
}
