/**
 * A small stand-in for Livewire 4's client, for the demo's form-builder forms (demo/server/form-builder/).
 * It is not Livewire: it copies only the parts of Livewire's (and Alpine's) behaviour that a
 * form-builder form relies on, so that capell-webmcp meets on the demo what it meets on a Capell
 * site. Sources, each read through the public-code index and summarised in
 * test/fixtures/capell/form-builder/livewire-behaviour.md (no code is copied):
 *
 * Copied:
 * - Component state from `wire:model` (livewire/livewire `js/directives/wire-model.js` · 01447e39;
 *   alpinejs `packages/alpinejs/src/directives/x-model.js` · 35f9ac14): the state starts as the
 *   snapshot's data (`wire:snapshot`, arrays as `[value, {"s": "arr"}]`) and is written into each
 *   bound control once at start (so the hidden field holds its default without a `value`
 *   attribute); a control updates it on `input` (text-like controls, textarea) or `change`
 *   (select, checkbox, radio), only for events whose target is the control itself (`self`);
 *   the value read is `checked` for a checkbox, else `value` (a string, also for a number input).
 *   Setting `.value` without an event leaves the state unchanged, as in Livewire.
 * - `wire:submit` (`js/directives/wire-wildcard.js` · 0a35ef1b; alpinejs `src/utils/on.js` ·
 *   2a859bb1): a `submit` listener on the form element, bubble phase, that calls
 *   `preventDefault()` and sends, with no `defaultPrevented` check: another listener's
 *   `preventDefault()` does not stop it. A submit while a request of the component is in flight
 *   is sent after it (`js/request/interactions.js` · fb2ff5e3).
 * - The POST (the request module of a 4.x commit, livewire-behaviour.md "The POST";
 *   `js/utils.js` · 3deddd5b): to the `data-update-uri` of this script's tag, headers
 *   `Content-type: application/json` and `X-Livewire: 1`, body `{_token, components: [{snapshot,
 *   updates, calls: [{method: "submit", params: [], metadata: {}}]}]}`; `_token` from
 *   `<meta name="csrf-token">`, else `[data-csrf]`; `updates` are the dot paths of the leaves that
 *   differ from the snapshot (`{"data.name": "Ada"}`). A 419 asks `confirm('This page has
 *   expired.\nWould you like to refresh the page?')` and reloads on yes.
 * - `wire:loading` (`js/directives/wire-loading.js`, 4.x; `js/directives/shared.js` · 60707aea):
 *   while a `submit` is in flight, `wire:loading` elements whose `wire:target` names it (or that
 *   name none) show (`display: inline-block`), `wire:loading.remove` ones hide and
 *   `wire:loading.attr="disabled"` sets `disabled`; all is undone when the answer comes, before
 *   the redraw.
 * - The redraw (`js/features/supportMorphDom.js`, `js/morph.js` · 4fa6e4c9): the answer's
 *   snapshot replaces the component's, and `effects.html` is morphed into the component's root,
 *   elements matched by id, so after a validation failure the form and its controls are the same
 *   elements; the morph never writes a bound control's value, checked or selected state (Alpine's
 *   morph syncs attributes, not those), and the state is written back into the controls after it.
 *   The morph is idiomorph (bigskysoftware/idiomorph, npm `idiomorph`), not Alpine's.
 * - Focus: an element the redraw adds that carries `x-init="$nextTick(() => $el.focus())"`
 *   (form-builder's success message and error summary) takes the focus.
 *
 * Not copied: Alpine itself (`x-data` and `x-init` are not evaluated beyond that focus), a
 * `CustomEvent`'s `detail` as a control's value (Alpine takes it; the stand-in always reads the
 * control), `.live`/`.blur`/`.lazy` modifiers, disabling the form's controls during the request
 * (`js/features/supportDisablingFormsDuringRequest.js`), Livewire's error modal for other non-2xx
 * answers (logged to the console instead), redirects, file uploads, events, navigation, and
 * nested components.
 */
import { Idiomorph } from '/site/vendor/idiomorph.js';

/** This script's own tag, which names the update endpoint (`data-update-uri`), as Livewire's does. */
const SCRIPT = /** @type {HTMLScriptElement | null} */ (document.querySelector('script[data-update-uri]'));

/** Livewire's 419 question (the request module, livewire-behaviour.md). */
const EXPIRED_QUESTION = 'This page has expired.\nWould you like to refresh the page?';

/** The attribute of `el` that starts with `wire:model` (any modifiers), or undefined. */
function modelAttribute(el) {
  return [...el.attributes].find((attribute) => attribute.name === 'wire:model' || attribute.name.startsWith('wire:model.'));
}

/** An array as Livewire writes it in a snapshot (`[value, {"s": "arr"}]`) as the value itself, deeply. */
function unwrap(value) {
  if (Array.isArray(value) && value.length === 2 && value[1] && typeof value[1] === 'object' && value[1].s === 'arr') return unwrap(value[0]);
  if (Array.isArray(value)) return value.map(unwrap);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, unwrap(inner)]));
  return value;
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Livewire's `diff`: the dot paths of the leaves of `right` that differ from `left`. */
function diff(left, right, path = '', out = {}) {
  if (isObject(left) && isObject(right)) {
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) diff(left[key], right[key], path ? `${path}.${key}` : key, out);
    return out;
  }
  if (JSON.stringify(left) !== JSON.stringify(right)) out[path] = right === undefined ? null : right;
  return out;
}

function getPath(object, path) {
  return path.split('.').reduce((inner, key) => (isObject(inner) ? inner[key] : undefined), object);
}

function setPath(object, path, value) {
  const keys = path.split('.');
  const last = keys.pop();
  let inner = object;
  for (const key of keys) {
    if (!isObject(inner[key])) inner[key] = {};
    inner = inner[key];
  }
  inner[last] = value;
}

/** The value x-model reads from a control (never a CustomEvent's detail). */
function readControl(el) {
  if (el.type === 'checkbox') return el.checked;
  if (el.type === 'radio') return el.checked ? el.value : undefined;
  if (el.localName === 'select' && el.multiple) return [...el.selectedOptions].map((option) => option.value);
  return el.value;
}

/** x-model's effect: the state's value written into the control. */
function writeControl(el, value) {
  if (el.type === 'checkbox') {
    if (el.checked !== Boolean(value)) el.checked = Boolean(value);
  } else if (el.type === 'radio') {
    el.checked = el.value === String(value);
  } else {
    const text = value === null || value === undefined ? '' : String(value);
    if (el.value !== text) el.value = text;
  }
}

function csrfToken() {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? document.querySelector('[data-csrf]')?.getAttribute('data-csrf') ?? '';
}

/** Whether a `wire:target` list names `method` (no target: every request). */
function targets(el, method) {
  const target = el.getAttribute('wire:target');
  return target === null || target.split(',').map((name) => name.trim()).includes(method);
}

class Component {
  /** @param {HTMLElement} el the root with `wire:snapshot` */
  constructor(el) {
    this.el = el;
    this.snapshotText = el.getAttribute('wire:snapshot') ?? '{}';
    this.canonical = unwrap(JSON.parse(this.snapshotText).data ?? {});
    this.state = structuredClone(this.canonical);
    this.bound = new WeakSet();
    this.inFlight = false;
    this.queued = false;
    this.bind();
    this.writeControls();
  }

  /** Every `wire:model` control and `wire:submit` form in the component, bound once each. */
  bind() {
    for (const el of this.el.querySelectorAll('input, select, textarea')) {
      const attribute = modelAttribute(el);
      if (!attribute || this.bound.has(el)) continue;
      this.bound.add(el);
      const type = el.localName === 'select' || el.type === 'checkbox' || el.type === 'radio' ? 'change' : 'input';
      el.addEventListener(type, (event) => {
        if (event.target !== el) return;
        const value = readControl(el);
        if (value !== undefined) setPath(this.state, attribute.value, value);
      });
    }
    for (const form of this.el.querySelectorAll('form')) {
      const method = form.getAttribute('wire:submit');
      if (method === null || this.bound.has(form)) continue;
      this.bound.add(form);
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        void this.call(method.replace(/\(.*$/, '').trim() || 'submit');
      });
    }
  }

  writeControls() {
    for (const el of this.el.querySelectorAll('input, select, textarea')) {
      const attribute = modelAttribute(el);
      if (attribute) writeControl(el, getPath(this.state, attribute.value));
    }
  }

  /** Turns `wire:loading` on (true) or back off (false) for a request calling `method`. */
  loading(method, on) {
    for (const el of this.el.querySelectorAll('*')) {
      if (!targets(el, method)) continue;
      for (const { name, value } of [...el.attributes]) {
        if (name === 'wire:loading') {
          if (on) el.dataset.standInDisplay = el.style.display;
          el.style.display = on ? 'inline-block' : (el.dataset.standInDisplay ?? '');
          if (!on) delete el.dataset.standInDisplay;
        } else if (name === 'wire:loading.remove') {
          if (on) el.dataset.standInDisplay = el.style.display;
          el.style.display = on ? 'none' : (el.dataset.standInDisplay ?? '');
          if (!on) delete el.dataset.standInDisplay;
        } else if (name === 'wire:loading.attr') {
          if (on) el.setAttribute(value || 'disabled', 'true');
          else el.removeAttribute(value || 'disabled');
        }
      }
    }
  }

  /** Sends the state and one call, then redraws from the answer. */
  async call(method) {
    if (this.inFlight) {
      this.queued = true;
      return;
    }
    this.inFlight = true;
    this.loading(method, true);
    const body = {
      _token: csrfToken(),
      components: [{ snapshot: this.snapshotText, updates: diff(this.canonical, this.state), calls: [{ method, params: [], metadata: {} }] }],
    };
    let loadingOn = true;
    try {
      const response = await fetch(SCRIPT?.dataset.updateUri ?? '/livewire/update', {
        method: 'POST',
        headers: { 'Content-type': 'application/json', 'X-Livewire': '1' },
        body: JSON.stringify(body),
      });
      this.loading(method, false);
      loadingOn = false;
      if (response.status === 419) {
        if (window.confirm(EXPIRED_QUESTION)) window.location.reload();
        return;
      }
      if (!response.ok) {
        console.error(`livewire stand-in: the update answered ${response.status}`);
        return;
      }
      const answer = await response.json();
      const id = this.el.getAttribute('wire:id');
      const mine = (answer.components ?? []).find((component) => JSON.parse(component.snapshot).memo?.id === id);
      if (mine) this.apply(mine);
    } catch (error) {
      console.error('livewire stand-in: the update failed', error);
    } finally {
      if (loadingOn) this.loading(method, false);
      this.inFlight = false;
      if (this.queued) {
        this.queued = false;
        void this.call(method);
      }
    }
  }

  /** The answer's snapshot and html taken in (mergeNewSnapshot, then the morph). */
  apply({ snapshot, effects }) {
    this.snapshotText = snapshot;
    this.canonical = unwrap(JSON.parse(snapshot).data ?? {});
    this.state = structuredClone(this.canonical);
    if (typeof effects?.html === 'string') {
      const focusers = new Set(this.el.querySelectorAll('[x-init*="$el.focus()"]'));
      Idiomorph.morph(this.el, effects.html, {
        morphStyle: 'outerHTML',
        callbacks: {
          // Alpine's morph leaves a bound control's live state alone; x-model writes it after.
          beforeAttributeUpdated: (name, el) => !(['value', 'checked', 'selected'].includes(name) && el.closest('[wire\\:model]') !== null),
        },
      });
      this.bind();
      this.writeControls();
      const added = [...this.el.querySelectorAll('[x-init*="$el.focus()"]')].find((el) => !focusers.has(el));
      if (added) queueMicrotask(() => added.focus());
    } else {
      this.writeControls();
    }
  }
}

for (const el of document.querySelectorAll('[wire\\:snapshot]')) new Component(/** @type {HTMLElement} */ (el));
