import type { BindingExecutor } from '../bindings/binding-executor.js';
import { readFromCore } from './core-read.js';

/**
 * `endpoint` binding, effect read: `GET <target>?<input>` on the page's own origin.
 * Capell Agent Schema: "Endpoint targets are same-origin paths" (checked again by the normaliser).
 */
export const executeEndpoint: BindingExecutor = (spec, input, context) =>
  readFromCore(new URL(spec.binding.target, context.config.origin), input, context);
