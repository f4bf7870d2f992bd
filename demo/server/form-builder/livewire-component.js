/**
 * The server half of a form-builder form as Livewire 4 runs it: the component's snapshot (what
 * the page carries in `wire:snapshot` and sends back), the update endpoint's path, and
 * FormComponent's `submit()` (validation, the honeypot, storing, the redraw).
 *
 * Sources (test/fixtures/capell/form-builder/SOURCES.md, livewire-behaviour.md): the snapshot
 * `{data, memo, checksum}` with arrays as `[value, {"s": "arr"}]` (§5); the endpoint
 * `/livewire-<first 8 hex of sha256(APP_KEY . 'livewire-endpoint')>/update` (livewire/livewire
 * `src/Mechanisms/HandleRequests/EndpointResolver.php` · 0b1d1686); FormComponent's rules,
 * messages and honeypot (capell-app/form-builder `src/Livewire/FormComponent.php` · 770cf636,
 * §4): per type `required`|`nullable`, then `string`/`email`/`numeric`/`in:`/`accepted`|`boolean`,
 * then `max:255` (text, email, hidden, select) or `max:10000` (textarea), then the editor's
 * `max:N`/`min:N`; a filled honeypot skips validation and succeeds without storing anything the
 * site owner reads (stored as spam with an empty payload); success sets `submitted` and resets
 * `data` to `[]`. Laravel's English messages (`lang/en/validation.php` · 6a2f6037), with the raw
 * attribute `data.<key>` as the fixture shows it.
 *
 * Not played: the rate limit (12 a minute per form, site, email and address), file and payment
 * fields, multi-step forms, `successRedirectUrl`, and Laravel's RFC email validation (the demo
 * accepts `local@domain` without spaces, as its other forms do).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isLongerThan } from '../code-points.js';
import { COMPONENT_NAME, renderFormComponent } from './render-form.js';
import { FORMS } from './forms.js';

/** @typedef {import('./forms.js').FormDefinition} FormDefinition */
/** @typedef {import('./forms.js').FormField} FormField */
/** @typedef {import('../catalogue.js').Language} Language */

/** The demo site's APP_KEY, which names its Livewire endpoint (EndpointResolver). */
const APP_KEY = 'base64:Y2FwZWxsLXdlYm1jcC1kZW1vLWFwcC1rZXktMzItYnl0ZXM=';

/**
 * Livewire 4's update endpoint on this site: `/livewire-<8 hex>/update`, published on each page
 * with a form in the stand-in script's `data-update-uri`, as Livewire's own script tag does.
 */
export const LIVEWIRE_UPDATE_PATH = `/livewire-${createHash('sha256').update(`${APP_KEY}livewire-endpoint`).digest('hex').slice(0, 8)}/update`;

/** Laravel's validation messages the forms use (`:attribute` is `data.<key>`). */
const MESSAGES = /** @type {const} */ ({
  en: {
    required: 'The :attribute field is required.',
    string: 'The :attribute field must be a string.',
    email: 'The :attribute field must be a valid email address.',
    numeric: 'The :attribute field must be a number.',
    boolean: 'The :attribute field must be true or false.',
    accepted: 'The :attribute field must be accepted.',
    in: 'The selected :attribute is invalid.',
    minString: 'The :attribute field must be at least :min characters.',
    maxString: 'The :attribute field must not be greater than :max characters.',
    minNumeric: 'The :attribute field must be at least :min.',
    maxNumeric: 'The :attribute field must not be greater than :max.',
  },
  // The demo site's German, after laravel-lang's wording.
  de: {
    required: ':attribute muss ausgefüllt werden.',
    string: ':attribute muss ein Text sein.',
    email: ':attribute muss eine gültige E-Mail-Adresse sein.',
    numeric: ':attribute muss eine Zahl sein.',
    boolean: ':attribute muss wahr oder falsch sein.',
    accepted: ':attribute muss akzeptiert werden.',
    in: 'Der gewählte Wert für :attribute ist ungültig.',
    minString: ':attribute muss mindestens :min Zeichen lang sein.',
    maxString: ':attribute darf maximal :max Zeichen haben.',
    minNumeric: ':attribute muss mindestens :min sein.',
    maxNumeric: ':attribute darf maximal :max sein.',
  },
});

/**
 * @typedef {object} Snapshot a component snapshot as Livewire keeps it
 * @property {{ data: [Record<string, unknown>, { s: 'arr' }] | [unknown[], { s: 'arr' }], formReference: string, instanceId: string, submitted: boolean, currentStepKey: string }} data
 * @property {{ id: string, name: string, path: string, method: string, release: string, children: unknown[], scripts: unknown[], assets: unknown[], errors: unknown[] | Record<string, string[]>, locale: string }} memo
 * @property {string} checksum HMAC-SHA256 (hex) of the JSON of `{data, memo}` with the app's secret
 */

/**
 * The components' side of the demo: snapshots signed with one secret per app.
 * @param {{ secret?: Buffer }} [options]
 */
export function createLivewireComponents({ secret = randomBytes(32) } = {}) {
  /** @param {Pick<Snapshot, 'data' | 'memo'>} body */
  const checksumOf = (body) => createHmac('sha256', secret).update(JSON.stringify({ data: body.data, memo: body.memo })).digest('hex');

  /**
   * The snapshot as a string for `wire:snapshot` or an answer's `snapshot`.
   * @param {Pick<Snapshot, 'data' | 'memo'>} body
   */
  const encode = (body) => JSON.stringify({ data: body.data, memo: body.memo, checksum: checksumOf(body) });

  /**
   * The first render of a form's component, as `mount()` leaves it: every field's default (null
   * when none), a fresh 20-letter component id.
   * @param {FormDefinition} form
   * @param {{ lang: Language, path: string }} where the page's language and path (`/contact`)
   * @returns {string} HTML of the component (root with `wire:snapshot`, island, form)
   */
  function mount(form, { lang, path }) {
    const id = randomBytes(15).toString('base64url').replace(/[-_]/g, 'x').slice(0, 20);
    const values = Object.fromEntries(form.fields.map((field) => [field.key, field.defaultValue ?? null]));
    /** @type {Pick<Snapshot, 'data' | 'memo'>} */
    const body = {
      data: {
        data: [values, { s: 'arr' }],
        formReference: Buffer.from(JSON.stringify({ form: form.instanceId })).toString('base64'),
        instanceId: form.instanceId,
        submitted: false,
        currentStepKey: 'default',
      },
      memo: { id, name: COMPONENT_NAME, path: path.replace(/^\//, ''), method: 'GET', release: 'a-a-a', children: [], scripts: [], assets: [], errors: [], locale: lang },
    };
    return renderFormComponent(form, { lang, componentId: id, snapshot: encode(body) });
  }

  /**
   * Reads a snapshot string sent back by the page: its JSON, and whether its checksum is this
   * app's (Livewire refuses a tampered snapshot: CorruptComponentPayloadException).
   * @param {unknown} text
   * @returns {Snapshot | undefined} undefined when it is not a snapshot this app signed
   */
  function verify(text) {
    if (typeof text !== 'string') return undefined;
    /** @type {Snapshot} */
    let snapshot;
    try {
      snapshot = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!snapshot || typeof snapshot !== 'object' || typeof snapshot.checksum !== 'string') return undefined;
    const expected = Buffer.from(checksumOf(snapshot));
    const given = Buffer.from(snapshot.checksum);
    return expected.length === given.length && timingSafeEqual(expected, given) ? snapshot : undefined;
  }

  return { mount, verify, encode };
}

/**
 * Whether a value is empty as Laravel's `required` sees it: null, a string of only whitespace.
 * @param {unknown} value
 */
function isEmpty(value) {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/** @param {unknown} value PHP's is_numeric, for the values a form sends */
function isNumeric(value) {
  return typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value);
}

/**
 * FormComponent's rules for one field (SOURCES.md §4): the messages the value breaks, in rule order.
 * @param {FormField} field
 * @param {unknown} value
 * @param {Language} lang
 * @returns {string[]}
 */
export function validateField(field, value, lang) {
  const m = MESSAGES[lang];
  const say = (/** @type {string} */ template, /** @type {Record<string, string | number>} */ values = {}) =>
    Object.entries({ attribute: `data.${field.key}`, ...values }).reduce((text, [name, replacement]) => text.replaceAll(`:${name}`, String(replacement)), template);
  if (isEmpty(value)) return field.required ? [say(field.type === 'checkbox' ? m.accepted : m.required)] : [];
  /** @type {string[]} */
  const errors = [];
  const numeric = field.type === 'number';
  if (field.type === 'checkbox') {
    const accepted = [true, 1, '1', 'yes', 'on', 'true'].includes(/** @type {never} */ (value));
    if (field.required ? !accepted : ![true, false, 0, 1, '0', '1'].includes(/** @type {never} */ (value))) errors.push(say(field.required ? m.accepted : m.boolean));
    return errors;
  }
  if (numeric) {
    if (!isNumeric(value)) return [say(m.numeric)];
  } else if (typeof value !== 'string') {
    return [say(m.string)];
  }
  if (field.type === 'email' && !/^[^\s@]+@[^\s@]+$/.test(/** @type {string} */ (value))) errors.push(say(m.email));
  if (field.type === 'select' && !(field.options ?? []).some((option) => option.value === value)) errors.push(say(m.in));
  const builtMax = field.type === 'textarea' ? 10000 : field.type === 'number' ? undefined : 255;
  const rules = [...(builtMax === undefined ? [] : [`max:${builtMax}`]), ...(field.rules ?? [])];
  for (const rule of rules) {
    const [name, limitText] = rule.split(':');
    const limit = Number(limitText);
    if (numeric) {
      const size = Number(value);
      if (name === 'min' && size < limit) errors.push(say(m.minNumeric, { min: limit }));
      if (name === 'max' && size > limit) errors.push(say(m.maxNumeric, { max: limit }));
    } else {
      const text = /** @type {string} */ (value);
      if (name === 'min' && [...text].length < limit) errors.push(say(m.minString, { min: limit }));
      if (name === 'max' && isLongerThan(text, limit)) errors.push(say(m.maxString, { max: limit }));
    }
  }
  return [...new Set(errors)];
}

/**
 * @typedef {object} SubmitOutcome what FormComponent's `submit()` made of the sent state
 * @property {'accepted' | 'invalid' | 'spam'} outcome `spam`: the honeypot was filled
 * @property {Record<string, unknown>} values the component's data after the updates
 * @property {Record<string, string[]>} errors by field key (empty unless `invalid`)
 */

/**
 * FormComponent's `submit()` over the component's data after the page's updates: a filled
 * honeypot succeeds without validation (spam); otherwise every field that is not a honeypot is
 * validated.
 * @param {FormDefinition} form
 * @param {Record<string, unknown>} values
 * @param {Language} lang
 * @returns {SubmitOutcome}
 */
export function submitForm(form, values, lang) {
  if (form.fields.some((field) => field.type === 'honeypot' && !isEmpty(values[field.key]))) return { outcome: 'spam', values, errors: {} };
  /** @type {Record<string, string[]>} */
  const errors = {};
  for (const field of form.fields) {
    if (field.type === 'honeypot') continue;
    const messages = validateField(field, values[field.key] ?? null, lang);
    if (messages.length > 0) errors[field.key] = messages;
  }
  return { outcome: Object.keys(errors).length > 0 ? 'invalid' : 'accepted', values, errors };
}

/**
 * The form a snapshot belongs to, by its `instanceId`.
 * @param {Snapshot} snapshot
 * @returns {FormDefinition | undefined}
 */
export function formOfSnapshot(snapshot) {
  const id = snapshot.data?.instanceId;
  return typeof id === 'string' && Object.hasOwn(FORMS, id) ? FORMS[id] : undefined;
}

