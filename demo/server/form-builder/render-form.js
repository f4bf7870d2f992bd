/**
 * A form-builder form as Livewire renders it: capell-app/form-builder @ 770cf636
 * `resources/views/livewire/form.blade.php` compiled by Blade and Livewire's morph-marker
 * precompiler, inside the component root Livewire writes
 * (test/fixtures/capell/form-builder/SOURCES.md §2, §3, §5; contact-form.html,
 * contact-form-after-success.html, contact-form-after-validation-error.html are that output for
 * the fixture's form, and test/unit/demo-form-builder.test.ts holds this renderer to them).
 *
 * What follows the view: the root `<div class="capell-form-builder-form capell-form w-full">`
 * with `wire:snapshot wire:effects wire:id wire:name` on the first render and `wire:id
 * wire:name` in an update's html; the tools island first inside it (also after success); the
 * `<form id="capell-form-<instanceId>" wire:submit="submit" wire:target="submit">` with no action
 * or method; the error summary (`role="alert"`) when there are errors; each field's label,
 * control (`wire:model="data.<key>"`, `name`, id `<formId>-<key>`, `aria-describedby` of the help
 * and error ids, `aria-invalid`, `required`), help and `<p id="<fieldId>-error" role="alert">`;
 * the hidden field and the honeypot without name, label or value; the send button with the
 * `wire:loading.remove` and `wire:loading` spans. Strings are escaped as Blade's `e()` does
 * (htmlspecialchars with ENT_QUOTES: `'` as `&#039;`).
 */
import { toIslandJSON } from '../islands.js';
import { FORM_BUILDER_TEXT, formIdOf } from './forms.js';

/** @typedef {import('./forms.js').FormDefinition} FormDefinition */
/** @typedef {import('./forms.js').FormField} FormField */
/** @typedef {import('../catalogue.js').Language} Language */

/**
 * Livewire 4's injected style (`FrontendAssets::styles()` after its `minify()`, SOURCES.md §5,
 * test/fixtures/capell/form-builder/livewire-injected-style.html): at rest it hides every
 * `wire:loading` element, such as the send button's "Submitting..." span.
 */
export const LIVEWIRE_STYLE_CSS = '[wire\\:loading][wire\\:loading], [wire\\:loading\\.delay][wire\\:loading\\.delay], [wire\\:loading\\.list-item][wire\\:loading\\.list-item], [wire\\:loading\\.inline-block][wire\\:loading\\.inline-block], [wire\\:loading\\.inline][wire\\:loading\\.inline], [wire\\:loading\\.block][wire\\:loading\\.block], [wire\\:loading\\.flex][wire\\:loading\\.flex], [wire\\:loading\\.table][wire\\:loading\\.table], [wire\\:loading\\.grid][wire\\:loading\\.grid], [wire\\:loading\\.inline-flex][wire\\:loading\\.inline-flex] {display: none;}[wire\\:loading\\.delay\\.none][wire\\:loading\\.delay\\.none], [wire\\:loading\\.delay\\.shortest][wire\\:loading\\.delay\\.shortest], [wire\\:loading\\.delay\\.shorter][wire\\:loading\\.delay\\.shorter], [wire\\:loading\\.delay\\.short][wire\\:loading\\.delay\\.short], [wire\\:loading\\.delay\\.default][wire\\:loading\\.delay\\.default], [wire\\:loading\\.delay\\.long][wire\\:loading\\.delay\\.long], [wire\\:loading\\.delay\\.longer][wire\\:loading\\.delay\\.longer], [wire\\:loading\\.delay\\.longest][wire\\:loading\\.delay\\.longest] {display: none;}[wire\\:offline][wire\\:offline] {display: none;}[wire\\:dirty]:not(textarea):not(input):not(select) {display: none;}:root {--livewire-progress-bar-color: #2299dd;}[x-cloak] {display: none !important;}[wire\\:cloak] {display: none !important;}dialog#livewire-error::backdrop {background-color: rgba(0, 0, 0, .6);}';

/** The style element exactly as Livewire injects it (`<style >`, with its space). */
export const LIVEWIRE_STYLE = `<!-- Livewire Styles --><style >${LIVEWIRE_STYLE_CSS}</style>`;

/** The component name Livewire writes in `wire:name` and `memo.name` (SOURCES.md §4, "Component name"). */
export const COMPONENT_NAME = 'capell-form-builder::form';

const ENTITIES = /** @type {Record<string, string>} */ ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' });

/**
 * Blade's `e()`: htmlspecialchars with ENT_QUOTES.
 * @param {unknown} value
 * @returns {string}
 */
export function e(value) {
  return String(value).replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

const BLOCK = '<!--[if BLOCK]><![endif]-->';
const END = '<!--[if ENDBLOCK]><![endif]-->';
const CONTROL_CLASS = 'capell-form__control block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-gray-900 focus:ring-2 focus:ring-gray-900/10 focus:outline-none focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gray-900';
const TEXTAREA_CLASS = 'capell-form__control block min-h-28 w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-gray-900 focus:ring-2 focus:ring-gray-900/10 focus:outline-none focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gray-900';
const CHECKBOX_CLASS = 'capell-form__checkbox h-4 w-4 rounded border-gray-300 text-gray-900 focus:ring-gray-900/20 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gray-900';
const SUBMIT_CLASS = 'capell-form__submit inline-flex min-h-11 items-center justify-center rounded-md bg-gray-950 px-4 py-2 text-sm font-semibold text-white transition hover:bg-gray-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gray-900 disabled:cursor-not-allowed disabled:opacity-60';

/**
 * The JSON Schema of one field (`BuildFormAgentToolManifestAction::schemaFor`, SOURCES.md §1):
 * strings with `maxLength` (the first `max:N` editor rule, else 255), email adding
 * `format: "email"`, number `{type: "number"}`, select an `enum` of its option values, checkbox a
 * boolean; hidden and honeypot fields are server-managed (undefined: left out).
 * @param {FormField} field
 * @returns {Record<string, unknown> | undefined}
 */
function schemaFor(field) {
  const rule = (field.rules ?? []).find((candidate) => /^max:\d+$/.test(candidate));
  const maxLength = rule ? Math.max(1, Math.min(10000, Number(rule.slice(4)))) : 255;
  switch (field.type) {
    case 'text':
    case 'textarea':
      return { type: 'string', maxLength };
    case 'email':
      return { type: 'string', format: 'email', maxLength };
    case 'number':
      return { type: 'number' };
    case 'select':
      return { type: 'string', enum: (field.options ?? []).map((option) => String(option.value)) };
    case 'checkbox':
      return { type: 'boolean' };
    default:
      return undefined;
  }
}

/**
 * The form's tools manifest as `BuildFormAgentToolManifestAction::handle` returns it (SOURCES.md
 * §1): key order `capellAgentSchema`, `messages`, `tools`; one tool `form.submit.<formId>` with
 * form-builder's description, input schema, output schema, `effect: "write"` and the form binding.
 * @param {FormDefinition} form
 * @param {Language} lang
 * @returns {{ capellAgentSchema: 1, messages: { confirmForm: string }, tools: Record<string, unknown>[] }}
 */
export function buildFormToolManifest(form, lang) {
  const formId = formIdOf(form);
  /** @type {Record<string, unknown>} */
  const properties = {};
  /** @type {string[]} */
  const required = [];
  for (const field of form.fields) {
    const schema = schemaFor(field);
    if (!schema) continue;
    properties[field.key] = schema;
    if (field.required) required.push(field.key);
  }
  const strings = FORM_BUILDER_TEXT[lang];
  return {
    capellAgentSchema: 1,
    messages: { confirmForm: strings.confirmForm },
    tools: [{
      name: `form.submit.${formId}`,
      description: strings.submitFormTool,
      inputSchema: { type: 'object', properties, required, additionalProperties: false },
      outputSchema: {
        type: 'object',
        properties: { status: { type: 'string', enum: ['submitted', 'pending'] }, cancelled: { type: 'boolean' } },
        required: ['status'],
        additionalProperties: false,
      },
      effect: 'write',
      binding: { type: 'form', target: formId },
    }],
  };
}

/**
 * @typedef {object} ComponentView what one render of the component shows
 * @property {Language} lang
 * @property {string} componentId Livewire's component id (`wire:id`, `memo.id`)
 * @property {string} [snapshot] the snapshot JSON for `wire:snapshot` (first render only; an
 *   update's html carries none)
 * @property {boolean} [submitted] FormComponent's `$submitted`: the success message instead of the form
 * @property {Record<string, string[]>} [errors] Laravel's error bag by field key (`data.<key>`
 *   without `data.`), and `data` for form-level errors
 */

/**
 * The `aria-describedby` of a control: its help id and/or error id, or '' when neither.
 * @param {string} fieldId
 * @param {FormField} field
 * @param {boolean} hasError
 */
function describedBy(fieldId, field, hasError) {
  const ids = [...(field.help ? [`${fieldId}-help`] : []), ...(hasError ? [`${fieldId}-error`] : [])];
  return ids.length > 0 ? ` aria-describedby="${ids.join(' ')}"` : '';
}

/**
 * One field, as the view's `@foreach ($step->fields as $field)` body renders it.
 * @param {FormField} field
 * @param {string} formId
 * @param {ComponentView} view
 * @returns {string}
 */
function renderField(field, formId, view) {
  const fieldId = `${formId}-${field.key}`;
  const pad = '                    ';
  if (field.type === 'hidden') {
    return `${pad}${BLOCK}                        <input
                            type="hidden"
                            wire:model="data.${e(field.key)}"
                            id="${e(fieldId)}"
                        />
${pad}${END}`;
  }
  if (field.type === 'honeypot') {
    return `${pad}${BLOCK}                        <input
                            type="text"
                            wire:model="data.${e(field.key)}"
                            id="${e(fieldId)}"
                            class="hidden"
                            tabindex="-1"
                            autocomplete="off"
                            aria-hidden="true"
                        />
${pad}${END}`;
  }
  const message = view.errors?.[field.key]?.[0];
  const hasError = message !== undefined;
  const common = `wire:model="data.${e(field.key)}"
                                    name="${e(field.key)}"
                                    id="${e(fieldId)}"`;
  const aria = `
                                    ${describedBy(fieldId, field, hasError)}                                    aria-invalid="${hasError ? 'true' : 'false'}"
                                    ${field.required ? 'required' : ''}                                `;
  let control;
  if (field.type === 'textarea') {
    control = `<textarea
                                    ${common}
                                    class="${TEXTAREA_CLASS}"
                                    placeholder=""${aria}></textarea>`;
  } else if (field.type === 'select') {
    const options = (field.options ?? []).map((option) => `                                        <option value="${e(option.value)}">
                                            ${e(option.label[view.lang])}
                                        </option>
`).join('                                    ');
    control = `<select
                                    ${common}
                                    class="${CONTROL_CLASS}"${aria}>
                                    <option value="">
                                        ${e(FORM_BUILDER_TEXT[view.lang].selectPlaceholder)}
                                    </option>

                                    ${BLOCK}${options}                                    ${END}                                </select>`;
  } else if (field.type === 'checkbox') {
    control = `<input
                                    type="checkbox"
                                    ${common}
                                    class="${CHECKBOX_CLASS}"${aria}/>`;
  } else {
    control = `<input
                                    type="${field.type === 'number' ? 'number' : e(field.type)}"
                                    ${common}
                                    class="${CONTROL_CLASS}"
                                    placeholder=""${aria}/>`;
  }
  const help = field.help
    ? `${BLOCK}                                <p
                                    id="${e(fieldId)}-help"
                                    class="capell-form__help text-sm text-gray-500"
                                >
                                    ${e(field.help[view.lang])}
                                </p>
                            ${END}`
    : `${BLOCK}${END}`;
  const error = hasError
    ? `${BLOCK}                                <p
                                    id="${e(fieldId)}-error"
                                    class="capell-form__error text-sm font-medium text-red-700"
                                    role="alert"
                                >
                                    ${e(message)}
                                </p>
                            ${END}`
    : `${BLOCK}${END}`;
  return `${pad}${BLOCK}                        <div class="capell-form__field space-y-2">
                            <label
                                for="${e(fieldId)}"
                                class="capell-form__label block text-sm font-medium text-gray-900"
                            >
                                ${e(field.label?.[view.lang] ?? field.key)}
                            </label>

                            ${BLOCK}                                ${control}
                            ${END}
                            ${help}
                            ${error}                        </div>
${pad}${END}`;
}

/**
 * The error summary (`@if ($errors->any())`): the heading, form-level errors, then one link per
 * field with an error, `<label>: <message>`.
 * @param {import('./forms.js').FormDefinition} form
 * @param {ComponentView} view
 */
function renderErrorSummary(form, view) {
  const errors = view.errors ?? {};
  if (Object.keys(errors).length === 0) return `${BLOCK}${END}`;
  const formId = formIdOf(form);
  const formLevel = (errors.data ?? []).map((message) => `<li>${e(message)}</li>`).join('');
  const items = form.fields.map((field) => {
    const message = errors[field.key]?.[0];
    if (message === undefined) return `${BLOCK}${END}                                                            `;
    return `${BLOCK}                                    <li>
                                        <a
                                            href="#${e(formId)}-${e(field.key)}"
                                            class="underline underline-offset-2"
                                        >
                                            ${e(field.label?.[view.lang] ?? field.key)}: ${e(message)}
                                        </a>
                                    </li>
                                ${END}                                                            `;
  }).join('\n                                ');
  return `${BLOCK}                    <div
                        class="capell-form__error-summary rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900"
                        role="alert"
                        tabindex="-1"
                        x-data
                        x-init="$nextTick(() => $el.focus())"
                    >
                        <p class="capell-form__error-summary-title font-semibold">
                            ${e(FORM_BUILDER_TEXT[view.lang].errorsHeading)}
                        </p>

                        <ul
                            class="capell-form__error-summary-list mt-2 list-disc space-y-1 pl-5"
                        >
                            ${BLOCK}${formLevel}${END}
                            ${BLOCK}                                
                                ${items}${END}                        </ul>
                    </div>
                ${END}`;
}

/**
 * The component as Livewire renders it (leading newline from the view's `@php` line included):
 * the first render (`view.snapshot` given) or an update's `effects.html` (without). Values are
 * never written into the controls (`wire:model` fills them in the browser).
 * @param {FormDefinition} form
 * @param {ComponentView} view
 * @returns {string} HTML
 */
export function renderFormComponent(form, view) {
  const formId = formIdOf(form);
  const { lang } = view;
  const strings = FORM_BUILDER_TEXT[lang];
  const rootAttributes = view.snapshot === undefined
    ? `wire:id="${e(view.componentId)}" wire:name="${e(COMPONENT_NAME)}"`
    : `wire:snapshot="${e(view.snapshot)}" wire:effects="[]" wire:id="${e(view.componentId)}" wire:name="${e(COMPONENT_NAME)}"`;
  const island = `    ${BLOCK}        <script
            type="application/json"
            data-capell-agent-tools
        >${toIslandJSON(buildFormToolManifest(form, lang))}</script>
    ${END}`;
  if (view.submitted) {
    return `
<div ${rootAttributes} class="capell-form-builder-form capell-form w-full">
${island}
    ${BLOCK}        ${BLOCK}            <p
                class="capell-form__message rounded-md border border-green-200 bg-green-50 p-4 text-sm font-medium text-green-900"
                role="status"
                aria-live="polite"
                tabindex="-1"
                x-data
                x-init="$nextTick(() => $el.focus())"
            >
                ${e(strings.formSubmitted)}
            </p>
        ${END}    ${END}</div>
`;
  }
  const fields = form.fields.map((field) => renderField(field, formId, view)).join('                                    \n');
  return `
<div ${rootAttributes} class="capell-form-builder-form capell-form w-full">
${island}
    ${BLOCK}        ${BLOCK}            <form
                id="${e(formId)}"
                wire:submit="submit"
                wire:target="submit"
                class="capell-form__form space-y-5"
            >
                <h2
                    class="capell-form__title text-xl font-semibold text-gray-950"
                >
                    ${e(form.name[lang])}
                </h2>

                ${BLOCK}                    <p class="capell-form__description text-sm leading-6 text-gray-600">${e(form.description[lang])}</p>
                ${END}
                ${BLOCK}${END}
                ${renderErrorSummary(form, view)}
                ${BLOCK}                    
${fields}                ${END}
                <div
                    class="capell-form__actions flex flex-wrap items-center gap-3"
                >
                    ${BLOCK}${END}
                    ${BLOCK}                        <button
                            type="submit"
                            class="${SUBMIT_CLASS}"
                            wire:loading.attr="disabled"
                            wire:target="previousStep,nextStep,submit"
                        >
                            <span
                                wire:loading.remove
                                wire:target="submit"
                            >
                                ${e(strings.submit)}
                            </span>
                            <span
                                wire:loading
                                wire:target="submit"
                            >
                                ${e(strings.submitting)}
                            </span>
                        </button>
                    ${END}                </div>
            </form>
        ${END}    ${END}</div>
`;
}

