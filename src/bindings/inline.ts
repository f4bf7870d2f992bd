import { readPageGraph } from '../sources/capell-islands.js';
import type { BindingExecutor } from './binding-executor.js';

/**
 * `inline` binding, target `page`: answers with the page graph from the page's
 * `[data-capell-agent-schema]` island, read at call time. No request.
 * Capell Agent Schema: "The inline binding is reserved for Core's page payload."
 */
export const executeInline: BindingExecutor = async (_spec, _input, { config }) => {
  const reading = readPageGraph(config.document);
  return reading.ok ? { ok: true, answer: reading.graph, data: reading.graph } : reading;
};
