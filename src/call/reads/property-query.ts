import type { BindingExecutor } from '../../shared/bindings/binding-executor.js';
import { readFromCore } from './core-read.js';

/**
 * `property-query` binding, target `T`: `GET <apiBase>/properties/T?<input>`.
 * Core allows only agent-visible definitions and indexed constraints; it runs no request code.
 */
export const executePropertyQuery: BindingExecutor = (spec, input, context) =>
  readFromCore(spec, new URL(`${context.config.apiBase.href}/properties/${encodeURIComponent(spec.binding.target)}`), input, context);
