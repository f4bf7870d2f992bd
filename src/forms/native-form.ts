/**
 * Declarative WebMCP forms: a `<form toolname="…">` is registered by the browser itself
 * (WebMCP explainer, "Declarative API"; DESIGN section 1). Part of the start-up chunk.
 */
import type { ToolSpec } from '../declarations/tool-spec.js';

/**
 * Why a form tool must not be registered because its form is already a browser tool, or
 * `undefined`. Checked at registration (the Report carries it as a Rejection) and again at call
 * time (the attribute may be added later).
 * @returns e.g. `form #contact carries toolname="contact": the browser registers it natively, so
 *   capell-webmcp does not register it a second time`.
 */
export function nativeFormToolReason(spec: ToolSpec, doc: Document): string | undefined {
  if (spec.binding.type !== 'form') return undefined;
  const form = doc.getElementById(spec.binding.target);
  const toolname = form instanceof HTMLFormElement ? form.getAttribute('toolname') : null;
  if (toolname === null) return undefined;
  return `form #${spec.binding.target} carries toolname=${JSON.stringify(toolname)}: the browser registers it natively, so capell-webmcp does not register it a second time`;
}
