import type { BindingExecutor } from '../../shared/bindings/binding-executor.js';
import { readFromCore } from './core-read.js';

/**
 * `search` binding, target `T`: `GET <apiBase>/search?scope=T&<input>`.
 * The binding's scope wins over an input key of the same name.
 */
export const executeSearch: BindingExecutor = (spec, input, context) => {
  const url = new URL(`${context.config.apiBase.href}/search`);
  url.searchParams.set('scope', spec.binding.target);
  return readFromCore(spec, url, input, context, ['scope']);
};
