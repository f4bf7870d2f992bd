/**
 * Which bindings this runtime version can execute. Part of the start-up chunk (registration needs
 * it); the executors themselves are loaded on the first call.
 */
import type { BindingType, ToolSpec } from '../declarations/tool-spec.js';

/** Binding types with a read executor in this version. */
export const READ_BINDING_TYPES = ['inline', 'endpoint', 'search', 'property-query'] as const satisfies readonly BindingType[];

/** A binding type this version can execute. */
export type ReadBindingType = (typeof READ_BINDING_TYPES)[number];

/**
 * Why this runtime cannot bind a contract-valid declaration, or `undefined` when it can. Such a
 * declaration is rejected, never registered as a tool that fails on every call.
 */
export function unsupportedBindingReason(spec: ToolSpec): string | undefined {
  if (spec.effect === 'write') {
    return `effect: "write" (${spec.binding.type} binding) needs the user-confirmation flow, which this runtime version does not have yet`;
  }
  return (READ_BINDING_TYPES as readonly string[]).includes(spec.binding.type)
    ? undefined
    : `binding.type: "${spec.binding.type}" is not supported by this runtime version`;
}
