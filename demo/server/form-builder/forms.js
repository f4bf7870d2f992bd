/**
 * The demo's form-builder forms: the contact form and the product enquiry form, defined as
 * capell-app/form-builder @ 770cf636 holds a form (a single step of fields, each with a
 * `FormFieldType`, a key, a label, `required`, the editor's `validationRules`, options and a
 * default; test/fixtures/capell/form-builder/SOURCES.md §1, §3, §4), with the strings a site's
 * `capell-form-builder` translation files give them (form-builder ships English only; the German
 * strings are the demo site's own override, as a Laravel site publishes them under
 * `lang/vendor/capell-form-builder/de`).
 *
 * Between the two forms every type form-builder writes in a single-step form that still gets a
 * tool is used: text, email, textarea, number, select, checkbox, hidden and honeypot (file and
 * payment make form-builder drop the tool; calculation is read-only).
 */

/** @typedef {import('../catalogue.js').Language} Language */

/**
 * @typedef {'text' | 'email' | 'textarea' | 'number' | 'select' | 'checkbox' | 'hidden' | 'honeypot'} FieldType
 *   form-builder's `FormFieldType` values the demo uses (SOURCES.md §3, "Field types")
 */

/**
 * @typedef {object} FormField one field of a form-builder form
 * @property {string} key the field key: `data.<key>` in Livewire, `<formId>-<key>` as control id, `name`
 * @property {FieldType} type
 * @property {Record<Language, string>} [label] shown in the `<label>` (none for hidden and honeypot)
 * @property {Record<Language, string>} [help] help text under the control (`<fieldId>-help`)
 * @property {boolean} [required]
 * @property {string[]} [rules] the editor's validation rules (`max:N`, `min:N`), as form-builder keeps them
 * @property {{ value: string, label: Record<Language, string> }[]} [options] a select's options, in order
 * @property {string | null} [defaultValue] the value `mount()` puts in `data[key]` (null when none)
 */

/**
 * @typedef {object} FormDefinition a form-builder form as the demo places it
 * @property {string} instanceId form-builder's `instanceId` (already a slug): the form is
 *   `capell-form-<instanceId>` and its tool `form.submit.capell-form-<instanceId>`
 * @property {Record<Language, string>} name the form's title (`$form->name`)
 * @property {Record<Language, string>} description
 * @property {FormField[]} fields the single step's fields, in schema order
 */

/** Longest name the forms accept, in code points (the editor's rule `max:80`). */
export const NAME_MAX = 80;

/** Longest email address, in code points (the editor's rule `max:254`, RFC 5321's path limit). */
export const EMAIL_MAX = 254;

/** The contact form's topics (select option values; labels are localised). */
export const TOPICS = /** @type {const} */ (['order', 'repair', 'product', 'other']);

/**
 * The contact form, `capell-form-contact` (../shared/DESIGN.md §4 fixes its id and its tool
 * `form.submit.capell-form-contact`; form-builder writes both from the instance id `contact`).
 * Shaped like the fixture's form (name with `min:2`, email with help text, a select, a textarea,
 * a checkbox, the hidden `source` and the honeypot `company_website`).
 * @type {FormDefinition}
 */
export const CONTACT_FORM = Object.freeze({
  instanceId: 'contact',
  name: { en: 'Write to us', de: 'Schreiben Sie uns' },
  description: {
    en: "Tell us what you need and we'll reply within two working days.",
    de: 'Sagen Sie uns, was Sie brauchen; wir antworten innerhalb von zwei Werktagen.',
  },
  fields: [
    { key: 'name', type: 'text', label: { en: 'Your name', de: 'Ihr Name' }, required: true, rules: ['min:2', `max:${NAME_MAX}`] },
    {
      key: 'email', type: 'email', label: { en: 'Email address', de: 'E-Mail-Adresse' }, required: true, rules: [`max:${EMAIL_MAX}`],
      help: { en: 'We only use this to reply to you.', de: 'Wir verwenden sie nur für unsere Antwort.' },
    },
    {
      key: 'topic', type: 'select', label: { en: 'Topic', de: 'Thema' }, required: true,
      options: [
        { value: 'order', label: { en: 'Order question', de: 'Frage zur Bestellung' } },
        { value: 'repair', label: { en: 'Repair request', de: 'Reparaturanfrage' } },
        { value: 'product', label: { en: 'Product advice', de: 'Produktberatung' } },
        { value: 'other', label: { en: 'Something else', de: 'Etwas anderes' } },
      ],
    },
    { key: 'message', type: 'textarea', label: { en: 'Message', de: 'Nachricht' }, required: true, rules: ['max:2000'] },
    { key: 'newsletter', type: 'checkbox', label: { en: 'Send me the journal newsletter', de: 'Journal-Newsletter abonnieren' } },
    { key: 'source', type: 'hidden', defaultValue: 'contact-page' },
    { key: 'company_website', type: 'honeypot' },
  ],
});

/**
 * The product enquiry form on the Summit Leather Boot's page, `capell-form-product-enquiry`
 * (tool `form.submit.capell-form-product-enquiry`): a select of sizes and a number field (its
 * editor rules `min:1`, `max:10` are not in the tool's schema, as form-builder carries no `min:`
 * and no `max:` for numbers, so the site's answer is the only place a quantity of 50 is refused),
 * an optional textarea, the hidden product code and the honeypot.
 * @type {FormDefinition}
 */
export const ENQUIRY_FORM = Object.freeze({
  instanceId: 'product-enquiry',
  name: { en: 'Ask about sizes and stock', de: 'Fragen zu Größen und Bestand' },
  description: {
    en: 'Tell us your size and how many pairs you need; the workshop answers by email.',
    de: 'Nennen Sie Ihre Größe und wie viele Paare Sie brauchen; die Werkstatt antwortet per E-Mail.',
  },
  fields: [
    { key: 'name', type: 'text', label: { en: 'Your name', de: 'Ihr Name' }, required: true, rules: [`max:${NAME_MAX}`] },
    { key: 'email', type: 'email', label: { en: 'Email address', de: 'E-Mail-Adresse' }, required: true, rules: [`max:${EMAIL_MAX}`] },
    {
      key: 'size', type: 'select', label: { en: 'Size (EU)', de: 'Größe (EU)' }, required: true,
      options: ['39', '40', '41', '42', '43', '44', '45', '46'].map((size) => ({ value: size, label: { en: `EU ${size}`, de: `EU ${size}` } })),
    },
    { key: 'quantity', type: 'number', label: { en: 'Pairs', de: 'Paare' }, required: true, rules: ['min:1', 'max:10'] },
    { key: 'question', type: 'textarea', label: { en: 'Anything else we should know?', de: 'Was sollten wir noch wissen?' }, rules: ['max:1000'] },
    { key: 'product', type: 'hidden', defaultValue: 'CW-1002' },
    { key: 'company_website', type: 'honeypot' },
  ],
});

/** The page key of the product whose page carries ENQUIRY_FORM (catalogue.js `summit-boot`). */
export const ENQUIRY_PAGE_KEY = 'summit-boot';

/** Every form the demo renders, by instance id. */
export const FORMS = Object.freeze(/** @type {Record<string, FormDefinition>} */ ({ [CONTACT_FORM.instanceId]: CONTACT_FORM, [ENQUIRY_FORM.instanceId]: ENQUIRY_FORM }));

/**
 * The form's element id, as FormComponent names it (`'capell-form-' . $this->instanceId`).
 * @param {FormDefinition} form
 * @returns {string} e.g. `capell-form-contact`
 */
export function formIdOf(form) {
  return `capell-form-${form.instanceId}`;
}

/**
 * Whether form-builder keeps the field out of the tool and off the person's form: hidden fields
 * and the honeypot (`schemaFor` returns `[]`: server-managed).
 * @param {FormField} field
 */
export function isServerManaged(field) {
  return field.type === 'hidden' || field.type === 'honeypot';
}

/**
 * form-builder's strings (capell-app/form-builder `resources/lang/en/form.php` · 272e4332,
 * `message.php` · 2baa75ad, `agent.php` · 770cf636; SOURCES.md §1, §3), and the demo's German override.
 */
export const FORM_BUILDER_TEXT = Object.freeze({
  en: {
    submit: 'Submit',
    submitting: 'Submitting...',
    selectPlaceholder: 'Select an option',
    errorsHeading: 'Please check the highlighted fields.',
    formSubmitted: 'Form submitted.',
    confirmForm: 'Submit this form with the following values?',
    submitFormTool: 'Submit this public form after user confirmation.',
  },
  de: {
    submit: 'Absenden',
    submitting: 'Wird gesendet...',
    selectPlaceholder: 'Bitte wählen',
    errorsHeading: 'Bitte prüfen Sie die markierten Felder.',
    formSubmitted: 'Formular gesendet.',
    confirmForm: 'Dieses Formular mit den folgenden Werten senden?',
    submitFormTool: 'Dieses öffentliche Formular nach Bestätigung durch die Person senden.',
  },
});
