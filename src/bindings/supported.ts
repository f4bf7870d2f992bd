/**
 * Which bindings this runtime version executes, by effect. The contract rules already refuse
 * every other pairing (a read form, a write search…), so each executor table covers its list.
 */
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
