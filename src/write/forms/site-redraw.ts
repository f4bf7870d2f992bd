/**
 * Forms the site's own page script sends: how the runtime knows one (Livewire's `wire:submit`),
 * and what it learns of such a send afterwards, from the page alone (the runtime sees no request):
 * what the site draws in the form's component once its script has the answer, the success line
 * (`role="status"`) or error summary (`role="alert"`) and the per-field errors form-builder writes
 * (`aria-invalid="true"` on the control, `aria-describedby` naming `<p id="<formId>-<key>-error">`).
 * Sources: capell-app/form-builder @ 770cf636, `resources/views/livewire/form.blade.php`; Livewire's
 * client, `js/directives/wire-wildcard.js` (wire:submit is `x-on:submit.prevent` on the form) and
 * its morph (the component root keyed by `wire:id`): test/fixtures/capell/form-builder/livewire-behaviour.md.
 */
import { builtIn, callBuiltIn } from '../../start/dom-builtin.js';
import { primitives } from '../../start/primitives.js';

/** How long the write call waits for the site to redraw after the person's click went to its script, in ms. */
export const SITE_ANSWER_WAIT_MS = 10_000;

/** How long the component is watched at most after that click, in ms (capell.write.status answers what was seen later). */
const SITE_WATCH_MS = 120_000;

/** Most redraws read before the watch gives up (a page that redraws without end). */
const MAX_SITE_READS = 200;

/** Most `role="status"`/`"alert"` elements read per redraw. */
const MAX_SITE_MESSAGES = 50;

/** Longest line kept of what the site showed, in characters (cut with "…"). */
export const MAX_SITE_LINE = 200;

/** Where a status or error message of the site is. */
const MESSAGE_SELECTOR = '[role="status"], [role="alert"]';

/** What the site showed after the person's click went to its script (write-answers.ts, WriteRecord). */
export interface SiteShowed {
  siteShowed?: string;
  fieldErrors?: Record<string, string>;
}

/**
 * Whether the site's own page script sends `form`: it carries Livewire's `wire:submit` (with any
 * modifiers, e.g. `wire:submit.prevent`), which prevents the native submission and posts the
 * component's state itself, ignoring `defaultPrevented`.
 */
export function isSentBySiteScript(form: HTMLFormElement): boolean {
  // Past DOM clobbering: a control named "attributes" shadows the form's own.
  return [...builtIn<NamedNodeMap>(form, 'attributes')].some(({ name }) => name === 'wire:submit' || name.startsWith('wire:submit.'));
}

/** `text` as one line: whitespace collapsed, at most MAX_SITE_LINE characters (cut with "…"). */
export function toSiteLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SITE_LINE ? `${line.slice(0, MAX_SITE_LINE - 1)}…` : line;
}

/** The form's component: the nearest ancestor with Livewire's `wire:id`, else the form's parent. */
function componentOf(form: HTMLFormElement): Element {
  return callBuiltIn<Element | null>(form, 'closest', '[wire\\:id]') ?? form.parentElement ?? form;
}

function lineOf(element: Element): string {
  // Bounded before collapsing: a message never needs more than its first few hundred characters.
  return toSiteLine((primitives.textContent(element) ?? '').slice(0, MAX_SITE_LINE * 8));
}

/**
 * The error the site shows for `control`, when it marks it `aria-invalid="true"`: the text of the
 * element its `aria-describedby` names whose id ends in `-error` (form-builder's), else of the
 * first element it names, else a fixed note. Undefined when the control is not marked invalid
 * or is no longer in the document.
 */
function readFieldError(control: Element): string | undefined {
  if (!control.isConnected || callBuiltIn<string | null>(control, 'getAttribute', 'aria-invalid') !== 'true') return undefined;
  const doc = control.ownerDocument;
  const described = (callBuiltIn<string | null>(control, 'getAttribute', 'aria-describedby') ?? '').split(/\s+/).filter(Boolean)
    .map((id) => doc.getElementById(id)).filter((element): element is HTMLElement => element !== null);
  const error = described.find((element) => element.id.endsWith('-error')) ?? described[0];
  return (error && lineOf(error)) || 'the site marked this field invalid';
}

/**
 * Watches `form`'s component after the person's click went to the site's script, and calls
 * `onSeen` once, on the first redraw (mutation batch) that shows something new: a
 * `role="status"`/`"alert"` element that appeared or whose text changed (`siteShowed`: the first
 * in tree order), or a control of `inputs` newly marked invalid or with a new error text
 * (`fieldErrors`: then every input whose control is invalid, by key). Each a line of at most
 * MAX_SITE_LINE characters. Bounded: MAX_SITE_READS redraws, SITE_WATCH_MS, MAX_SITE_MESSAGES
 * messages per read.
 * @param inputs the tool's input keys and the controls that take them (controls.ts' plan).
 * @returns a function that stops watching (idempotent). Never throws for a page's content.
 */
export function watchSiteRedraw(
  form: HTMLFormElement, inputs: readonly { key: string; control: Element }[], onSeen: (seen: SiteShowed) => void,
): () => void {
  const root = componentOf(form);
  const messages = () => [...primitives.querySelectorAll(root, MESSAGE_SELECTOR)].slice(0, MAX_SITE_MESSAGES);
  // What the page showed as the person clicked: only what differs from it is the site's answer.
  const before = new Map<Element, string>(messages().map((element) => [element, lineOf(element)]));
  const errorsBefore = new Map<Element, string | undefined>(inputs.map(({ control }) => [control, readFieldError(control)]));
  let reads = 0;
  const read = () => {
    if (++reads > MAX_SITE_READS) return stop();
    const shown = messages().map((element) => ({ element, line: lineOf(element) }))
      .find(({ element, line }) => line !== '' && before.get(element) !== line);
    const errors: Record<string, string> = {};
    let newError = false;
    for (const { key, control } of inputs) {
      const error = readFieldError(control);
      if (error === undefined) continue;
      errors[key] ??= error;
      if (errorsBefore.get(control) !== error) newError = true;
    }
    if (!shown && !newError) return;
    stop();
    const seen: SiteShowed = {};
    if (shown) seen.siteShowed = shown.line;
    if (Object.keys(errors).length > 0) seen.fieldErrors = errors;
    onSeen(seen);
  };
  const observer = new primitives.MutationObserver(read);
  observer.observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['role', 'aria-invalid', 'aria-describedby'] });
  const timer = primitives.setTimeout(() => stop(), SITE_WATCH_MS);
  let stopped = false;
  function stop(): void {
    if (stopped) return;
    stopped = true;
    observer.disconnect();
    primitives.clearTimeout(timer);
  }
  return stop;
}
