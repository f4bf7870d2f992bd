/**
 * `POST /livewire-<8 hex>/update`, Livewire 4's update endpoint, for the demo's form-builder
 * forms: what a Laravel site with Livewire answers when the page's Livewire client sends a
 * component's state and its `submit` call (test/fixtures/capell/form-builder/livewire-behaviour.md,
 * "The POST"; livewire-update-request.json and livewire-update-response.json are the exchange).
 *
 * In order: without `X-Livewire` or a JSON body 404 (livewire/livewire
 * `RequireLivewireHeaders.php` · 32d00f65); a `_token` that is not the session's CSRF token 419
 * (Laravel's VerifyCsrfToken, which reads `_token` from the JSON body); a snapshot this app did
 * not sign 400 (Livewire throws CorruptComponentPayloadException); then the `data.<key>` updates
 * are applied and the `submit` call runs FormComponent's submit (livewire-component.js). A
 * validation failure is HTTP 200 with the errors in `memo.errors` and the redrawn html; success
 * is HTTP 200 with the success message in place of the form.
 */
import { readBody } from '../contact-submission.js';
import { sendJSON } from '../responses.js';
import { renderFormComponent } from './render-form.js';
import { formOfSnapshot, submitForm } from './livewire-component.js';
import { formIdOf } from './forms.js';

/** Largest update body read, in bytes (every field at 10 000 code points, 12 bytes each, and the snapshot). */
export const MAX_UPDATE_BODY_BYTES = 256 * 1024;

/**
 * @typedef {object} LivewirePost one POST the update endpoint received (the e2e suite reads them)
 * @property {string} path
 * @property {number} status the HTTP status answered
 * @property {'accepted' | 'invalid' | 'spam' | 'update' | 'expired' | 'not-livewire' | 'corrupt' | 'too-large'} outcome
 *   `spam`: the honeypot was filled (answered as a success, nothing stored); `update`: no `submit` call
 * @property {string} [form] the form's id (`capell-form-contact`), once its snapshot was read
 * @property {Record<string, unknown>} [updates] the `updates` the page sent, as sent
 * @property {unknown[]} [calls] the `calls` the page sent, as sent
 * @property {Record<string, string[]>} [errors] validation messages by field key
 */

/**
 * @typedef {object} AcceptedForm a submission the site keeps (its owner reads it at /contact/messages)
 * @property {import('./forms.js').FormDefinition} form
 * @property {import('../catalogue.js').Language} lang
 * @property {Record<string, unknown>} values every field's value as validated, honeypot excluded
 */

/**
 * Answers one update request.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {object} context
 * @param {ReturnType<typeof import('./livewire-component.js').createLivewireComponents>} context.components
 * @param {(token: unknown) => boolean} context.isSessionToken
 * @param {LivewirePost[]} context.log every POST is appended, whatever its outcome
 * @param {(accepted: AcceptedForm) => void} context.store called once per accepted submission
 * @param {string} context.path
 */
export async function handleLivewireUpdate(req, res, { components, isSessionToken, log, store, path }) {
  /** @param {number} status @param {LivewirePost['outcome']} outcome @param {unknown} body @param {Partial<LivewirePost>} [more] */
  const answer = (status, outcome, body, more = {}) => {
    log.push({ path, status, outcome, ...more });
    sendJSON(req, res, status, body);
  };
  const contentType = String(req.headers['content-type'] ?? '');
  if (req.headers['x-livewire'] === undefined || !/^application\/json\b/i.test(contentType)) {
    answer(404, 'not-livewire', { message: 'Not Found' });
    return;
  }
  const text = await readBody(req, MAX_UPDATE_BODY_BYTES);
  if (text === undefined) {
    answer(413, 'too-large', { message: 'Payload too large.' });
    return;
  }
  /** @type {{ _token?: unknown, components?: { snapshot?: unknown, updates?: Record<string, unknown>, calls?: { method?: unknown }[] }[] }} */
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    answer(404, 'not-livewire', { message: 'Not Found' });
    return;
  }
  const sent = Array.isArray(body?.components) && body.components.length === 1 ? body.components[0] : undefined;
  const updates = sent && sent.updates && typeof sent.updates === 'object' && !Array.isArray(sent.updates) ? sent.updates : {};
  const calls = Array.isArray(sent?.calls) ? sent.calls : [];
  if (!isSessionToken(body?._token)) {
    answer(419, 'expired', { message: 'CSRF token mismatch.' }, { updates, calls });
    return;
  }
  const snapshot = sent ? components.verify(sent.snapshot) : undefined;
  const form = snapshot ? formOfSnapshot(snapshot) : undefined;
  if (!snapshot || !form) {
    answer(400, 'corrupt', { message: 'Corrupt component payload.' }, { updates, calls });
    return;
  }
  const lang = snapshot.memo.locale === 'de' ? 'de' : 'en';
  const before = Array.isArray(snapshot.data.data[0]) ? {} : /** @type {Record<string, unknown>} */ (snapshot.data.data[0]);
  /** @type {Record<string, unknown>} */
  const values = Object.fromEntries(form.fields.map((field) => [field.key, before[field.key] ?? null]));
  for (const [key, value] of Object.entries(updates)) {
    const field = key.startsWith('data.') ? key.slice('data.'.length) : undefined;
    if (field !== undefined && Object.hasOwn(values, field)) values[field] = value;
  }
  const submits = calls.some((call) => call?.method === 'submit');
  // A call without `submit` (or to a form already sent) only carries the state over.
  const result = submits && !snapshot.data.submitted ? submitForm(form, values, lang) : { outcome: /** @type {const} */ ('update'), values, errors: {} };
  const submitted = snapshot.data.submitted || result.outcome === 'accepted' || result.outcome === 'spam';
  if (result.outcome === 'accepted') {
    store({ form, lang, values: Object.fromEntries(form.fields.filter((field) => field.type !== 'honeypot').map((field) => [field.key, values[field.key]])) });
  }
  const data = submitted ? [[], { s: 'arr' }] : [values, { s: 'arr' }];
  const memo = { ...snapshot.memo, errors: Object.keys(result.errors).length > 0 ? Object.fromEntries(Object.entries(result.errors).map(([key, messages]) => [`data.${key}`, messages])) : [] };
  const next = components.encode({ data: { ...snapshot.data, data: /** @type {never} */ (data), submitted }, memo });
  const html = renderFormComponent(form, { lang, componentId: snapshot.memo.id, submitted, errors: result.errors });
  answer(200, result.outcome, { components: [{ snapshot: next, effects: { returns: [null], html } }], assets: [] }, {
    form: formIdOf(form), updates, calls, ...(Object.keys(result.errors).length > 0 ? { errors: result.errors } : {}),
  });
}
