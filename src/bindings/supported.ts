/**
 * Which bindings this runtime version can execute. Part of the start-up chunk (registration needs
 * it); the executors themselves are loaded on the first call.
 */
import type { Reason } from '../declarations/reason.js';
import type { BindingType, ToolSpec } from '../declarations/tool-spec.js';

/** Binding types with a read executor in this version. */
export const READ_BINDING_TYPES = ['inline', 'endpoint', 'search', 'property-query'] as const satisfies readonly BindingType[];

/**
 * Binding types with a write executor: both go through the person's confirmation.
 * Capell Agent Schema, "Navigation, forms, and admin tools": "Write tools use existing public
 * forms and the browser's user-mediation flow."
 */
export const WRITE_BINDING_TYPES = ['form', 'endpoint'] as const satisfies readonly BindingType[];

/** A binding type this version can execute for reads. */
export type ReadBindingType = (typeof READ_BINDING_TYPES)[number];

/** A binding type this version can execute for writes. */
export type WriteBindingType = (typeof WRITE_BINDING_TYPES)[number];

/**
 * Why this runtime cannot bind a contract-valid declaration, or `undefined` when it can. Such a
 * declaration is rejected, never registered as a tool that fails on every call.
 */
export function unsupportedBindingReason(spec: ToolSpec): Reason | undefined {
  const types: readonly string[] = spec.effect === 'write' ? WRITE_BINDING_TYPES : READ_BINDING_TYPES;
  return types.includes(spec.binding.type) ? undefined : ['binding.type', 'bindingUnsupported', spec.binding.type, spec.effect];
}
