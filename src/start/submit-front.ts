/**
 * The runtime's capture listeners for `submit` (and `formdata`, the last event of a submission
 * before the browser reads where it goes) on the window, added as early as the runtime can:
 * when its script tag runs where WebMCP exists (auto.ts), or when `start()` runs on a page that
 * declares a form tool (runtime.ts), long before any write arms a submit guard
 * (write/forms/submit-guard.ts). Listeners of one target and phase run in the order they were
 * added: a site's own window capture listener added after this one (Livewire's, a script's that
 * ignores `defaultPrevented`) never sees a submit the guard refused and stopped
 * (`stopImmediatePropagation`). What stays open is a window capture listener added before the
 * runtime's script ran (docs/security.md).
 * Kept per document, and on the runtime's config as a non-writable property: the classic
 * script's start code and the module build's chunks are two copies of this module
 * (vite.classic-script.ts) that share the config object.
 */
import type { RuntimeConfig } from './config.js';
import { primitives } from './primitives.js';

/** Judges one `submit` or `formdata` event in the window's capture phase (a guard's capture listener). */
type SubmitJudge = (event: Event) => void;

/** Adds a judge to the front; @returns its removal (idempotent). */
export type SubmitFront = (judge: SubmitJudge) => () => unknown;

/** Each document's front (one per document, whatever starts and stops). */
const fronts = new WeakMap<Document, SubmitFront>();

/**
 * The front of `doc`: its window capture listeners for `submit` and `formdata`, added now when `doc` has none
 * yet. It lives as long as the document and does nothing while no guard has added a judge; every
 * judge added runs, in the order added, inside that one listener.
 * @returns the function that adds a judge. Never throws for a page's content.
 */
export function holdSubmitFront(doc: Document): SubmitFront {
  let front = fronts.get(doc);
  if (!front) {
    const judges = new Set<SubmitJudge>();
    // A copy: a judge may remove itself (its guard turning off) while the event is judged.
    for (const type of ['submit', 'formdata']) primitives.addEventListener(doc.defaultView!, type, (event: Event) => [...judges].map((judge) => judge(event)), true);
    fronts.set(doc, front = (judge) => (judges.add(judge), () => judges.delete(judge)));
  }
  return front;
}

/**
 * The front of `config`'s document (holdSubmitFront), also kept on `config` (non-writable): the
 * write chunks read it there, as the classic script's start code and the module build's chunks
 * hold two copies of this module.
 */
export function submitFrontOf(config: RuntimeConfig): SubmitFront {
  const held = config as RuntimeConfig & { submitFront?: SubmitFront };
  if (!held.submitFront) Object.defineProperty(config, 'submitFront', { value: holdSubmitFront(config.document) });
  return held.submitFront!;
}
