/**
 * The inspector's words, from the page's tools islands' `messages` (localised by the site, like
 * the confirmation panel's `confirm*` keys, write/confirm-text.ts), with English defaults for every
 * key a site leaves out. `{name}` placeholders are filled by `fillInspectorText`.
 */
import type { Messages } from '../shared/declarations/i18n.js';

/** Message keys (in an island's `messages`) and their English defaults. */
export const INSPECTOR_TEXT_DEFAULTS = {
  /** The inspector's heading (its accessible name). */
  inspectorTitle: 'capell-webmcp inspector',
  /** The button that closes the inspector (Escape does the same). */
  inspectorClose: 'Close',
  /** Section: which WebMCP entry point the runtime found. */
  inspectorApi: 'WebMCP',
  /** The entry point found; `{api}` is e.g. `document.modelContext`. */
  inspectorApiFound: 'Found: {api}. Tools are registered with it.',
  /** No entry point; `{reason}` is the Report's `apiReason` or inspectorNoWebMCP. */
  inspectorApiNone: 'Not available: {reason}',
  /** Why there are no tools in a browser without WebMCP. */
  inspectorNoWebMCP: 'this browser has no WebMCP (no document.modelContext), so no tool is registered here. In Chromium, start the browser with --enable-features=WebMCPTesting.',
  /** Before the runtime's first Report. */
  inspectorWaiting: 'Waiting for the runtime’s first report…',
  /** Section headings; `{count}` is the number of entries. */
  inspectorRegistered: 'Registered tools ({count})',
  inspectorPending: 'Waiting for WebMCP ({count})',
  inspectorRejected: 'Rejected ({count})',
  inspectorAudit: 'Audit ({count})',
  inspectorCalls: 'Calls on this page ({count})',
  /** An empty section. */
  inspectorNone: 'None.',
  /** An empty call log. */
  inspectorNoCalls: 'No call yet. Every call an agent makes while the inspector is open is listed here.',
  /** Labels of a tool's details. */
  inspectorBinding: 'Binding',
  inspectorEffect: 'Effect',
  inspectorAnnotations: 'Annotations',
  inspectorSource: 'Source',
  inspectorSchema: 'Input schema',
  /** Labels of a call's details. */
  inspectorInput: 'Input',
  inspectorAnswer: 'Answer',
  /** A call's outcome. */
  inspectorOk: 'ok',
  inspectorError: 'error',
  /** A call's summary; `{outcome}`, `{duration}` (ms) and `{bytes}` are filled in. */
  inspectorCallLine: '{outcome}, {duration} ms, {bytes} bytes',
  /** Announced (live region) when the registry changed. */
  inspectorUpdated: 'Tools updated: {registered} registered, {rejected} rejected.',
  /** Announced (live region) when a call finished. */
  inspectorCalled: 'Call of {tool}: {outcome}.',
} as const;

/** Every inspector text, resolved. */
export type InspectorText = { -readonly [Key in keyof typeof INSPECTOR_TEXT_DEFAULTS]: string };

/**
 * Resolves every inspector text: the first island whose `messages` hold the key as a non-empty
 * string wins, else the default.
 * @param messages each tools island's `messages`, in document order.
 */
export function readInspectorText(messages: readonly Messages[]): InspectorText {
  const text = { ...INSPECTOR_TEXT_DEFAULTS } as InspectorText;
  for (const key of Object.keys(text) as (keyof InspectorText)[]) {
    const found = messages.map((set) => (Object.hasOwn(set, key) ? set[key] : undefined)).find((message) => typeof message === 'string' && message.trim() !== '');
    if (typeof found === 'string') text[key] = found;
  }
  return text;
}

/** Fills `{name}` placeholders; an unknown one stays as written. */
export function fillInspectorText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
