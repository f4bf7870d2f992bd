/**
 * The runtime's capture listener for `submit` on the window, added when the runtime starts on a
 * page that declares a form tool (runtime.ts), long before any write arms a submit guard
 * (write/forms/submit-guard.ts). Listeners of one target and phase run in the order they were
 * added: a site's own window capture listener added after this one (Livewire's, a script's that
 * ignores `defaultPrevented`) never sees a submit the guard refused and stopped
 * (`stopImmediatePropagation`). What stays open is a window capture listener added before the
 * runtime's script ran (docs/security.md).
 * Kept on the runtime's config as a non-writable property, not in module state: the classic
 * script's start code and the module build's chunks are two copies of this module
 * (vite.classic-script.ts) that share the config object.
 */
import type { RuntimeConfig } from './config.js';
import { primitives } from './primitives.js';

/** Judges one `submit` event in the window's capture phase (a guard's capture listener). */
type SubmitJudge = (event: Event) => void;

/** Adds a judge to the front; @returns its removal (idempotent). */
export type SubmitFront = (judge: SubmitJudge) => () => unknown;

/**
 * The front of `config`'s document: the one added at start, else one added now (a form tool
 * declared after start). Every judge added runs, in the order added, inside the front's one
 * window capture listener; it is removed with `signal` (the runtime stopping).
 * @returns the function that adds a judge. Never throws for a page's content.
 */
export function submitFrontOf(config: RuntimeConfig, signal?: AbortSignal): SubmitFront {
  const held = config as RuntimeConfig & { submitFront?: SubmitFront };
  if (held.submitFront) return held.submitFront;
  const judges = new Set<SubmitJudge>();
  // A copy: a judge may remove itself (its guard turning off) while the event is judged.
  primitives.addEventListener(config.document.defaultView!, 'submit', (event: Event) => [...judges].map((judge) => judge(event)), { capture: true, signal });
  Object.defineProperty(config, 'submitFront', { value: (judge: SubmitJudge) => (judges.add(judge), () => judges.delete(judge)) });
  return held.submitFront!;
}
