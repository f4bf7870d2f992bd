import type { BindingExecutor } from '../../shared/bindings/binding-executor.js';
import { readFromCore } from './core-read.js';

/**
 * `endpoint` binding, effect read: `GET <target>?<input>` on the page's own origin.
 * Capell Agent Schema: "Endpoint targets are same-origin paths" (checked again by the normaliser).
 * Anonymous (`credentials: 'omit'`), except for an admin registry tool (`spec.session`: e.g.
 * `admin.content.read`), whose read goes with the editor's session ("the existing session").
 */
export const executeEndpoint: BindingExecutor = (spec, input, context) =>
  readFromCore(spec, new URL(spec.binding.target, context.config.origin), input, context);
