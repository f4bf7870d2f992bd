/**
 * Capell's preview of an admin write as the confirmation panel shows it. Capell answers a write's
 * first invoke with `data` (the preview: what the tool will do, computed by the tool itself) and a
 * `message` (capell-app/capell `packages/admin/src/Support/Agent/AgentAdminToolInvocationService.php`
 * @2c15f27); its own bridge shows `data` as pretty JSON. The panel shows every key of `data`,
 * nothing left out, with the pairs Capell's tools write read as changes:
 * - `before_<x>` / `after_<x>` (terms: `before_term_ids` / `after_term_ids`; publication:
 *   `before_state` / `after_state`) → the change `<x>`;
 * - `before` / `after` (settings, draft save) → the change named by the tool;
 * - an object with `previous` and `value` (properties write: `property: { key, previous, value, … }`)
 *   → the change `<key> <its key>`, its other keys as lines `<key>.<member>`;
 * - every other key → a line (label: the key; value: text as it is, null as the "none" word,
 *   other JSON as compact JSON).
 * Pure: no DOM.
 */
import type { ConfirmWriteChange, ConfirmWriteItem } from '../../panel/capell-confirm-write.js';
import type { JSONValue } from '../../shared/declarations/tool-spec.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { plainJSON } from '../../shared/plain-json.js';

/** What the panel shows of one preview: the summary line, the changes, and the other lines. */
export interface AdminPanelPreview {
  summary: string;
  changes: ConfirmWriteChange[];
  items: ConfirmWriteItem[];
}

/**
 * A value as the person reads it: text as it is, null as `empty`, other JSON as compact JSON
 * (plainJSON: a `toJSON` a page added to Object.prototype does not change what the panel shows).
 */
function shown(value: unknown, empty: string): string {
  if (value === null || value === undefined) return empty;
  if (typeof value === 'string') return value;
  try {
    return plainJSON(value);
  } catch {
    // Only a number JSON.parse made Infinity (`1e999`) is not plain data among parsed JSON.
    return String(value);
  }
}

/**
 * Capell's preview as the panel shows it (see the module's comment).
 * @param tool the tool's name (the change of a bare `before` / `after` pair, and the summary when
 *   Capell sent no `message`).
 * @param data Capell's preview `data` (any JSON: a non-object is one line `data`).
 * @param message Capell's `message` (e.g. "Explicit confirmation is required before this admin
 *   write."), the summary.
 * @param empty the word for a null value (the panel's `confirmEmpty`, e.g. `(none)`).
 * @example
 * toAdminPanelPreview('admin.page.terms.write', { page_id: 42, before_term_ids: [3], after_term_ids: [7, 3] }, 'Explicit confirmation is required before this admin write.', '(none)')
 * // → { summary: 'Explicit confirmation …', changes: [{ target: 'term_ids', before: '[3]', after: '[7,3]' }], items: [{ label: 'page_id', value: '42' }] }
 */
export function toAdminPanelPreview(tool: string, data: JSONValue, message: string | undefined, empty: string): AdminPanelPreview {
  const summary = message ?? tool;
  if (!isPlainObject(data)) return { summary, changes: [], items: [{ label: 'data', value: shown(data, empty) }] };
  const changes: ConfirmWriteChange[] = [];
  const items: ConfirmWriteItem[] = [];
  const keys = Object.keys(data);
  const paired = new Set<string>();
  for (const key of keys) {
    const match = /^before(?:_(.+))?$/.exec(key);
    if (!match) continue;
    const afterKey = match[1] === undefined ? 'after' : `after_${match[1]}`;
    if (!Object.hasOwn(data, afterKey)) continue;
    paired.add(key).add(afterKey);
  }
  for (const key of keys) {
    const value = data[key];
    if (paired.has(key)) {
      if (!key.startsWith('before')) continue;
      const name = key === 'before' ? tool : key.slice('before_'.length);
      changes.push({ target: name, before: shown(value, empty), after: shown(data[key === 'before' ? 'after' : `after_${name}`], empty) });
    } else if (isPlainObject(value) && Object.hasOwn(value, 'previous') && Object.hasOwn(value, 'value')) {
      const member = typeof value.key === 'string' ? ` ${value.key}` : '';
      changes.push({ target: `${key}${member}`, before: shown(value.previous, empty), after: shown(value.value, empty) });
      for (const [inner, innerValue] of Object.entries(value)) {
        if (inner !== 'previous' && inner !== 'value' && inner !== 'key') items.push({ label: `${key}.${inner}`, value: shown(innerValue, empty) });
      }
    } else {
      items.push({ label: key, value: shown(value, empty) });
    }
  }
  return { summary, changes, items };
}
