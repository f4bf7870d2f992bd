/**
 * Local `$ref` resolution (JSON Pointer fragments, RFC 6901, inside one schema). Shared by the
 * `$ref` graph checks (ref-checks.ts) and the call-time work bound (call/validation/work-bound.ts);
 * remote references are never resolved (MCP Tool: never dereference network `$ref`s).
 */
import { isPlainObject } from '../is-plain-object.js';

/** Resolves a local JSON Pointer fragment (`#/$defs/Q`, `%`-escapes decoded) in `root`; `undefined` when absent or malformed. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined; // a malformed %-escape is a reason, never a throw
    }
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    if (!Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
