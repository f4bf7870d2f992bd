/**
 * A site's answer against its tool's `outputSchema`, for every answer the runtime hands the agent
 * as the site's own: reads (call-tool.ts: Core's envelope, Capell admin's `data`, AgentGate's
 * answer) and an executed Capell admin write's `data` (write/admin/admin-invoke-write.ts).
 * The rule: what Capell really answers must work. Capell's admin answers more than two of its own
 * outputSchemas describe while they say `additionalProperties: false` (test/fixtures/capell/
 * admin/SOURCES.md §2; capell-app/capell `packages/admin/src/Support/Agent/
 * AgentTermPropertiesReadTool.php` @cdb7004, `AgentPagePublicationTool.php` @3affada), so an
 * answer whose only failures are properties an `additionalProperties: false` forbids is accepted
 * with those left out (validation/forbidden-extras.ts): the agent gets exactly what the schema
 * describes (an MCP host that checks structuredContent against outputSchema accepts it), and the
 * Report gets one warning per tool naming them (registry/answer-notes.ts). Any other failure is
 * refused as before.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { JSONSchema, JSONValue } from '../shared/declarations/tool-spec.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { callBuiltIn } from '../start/dom-builtin.js';
import { ANSWER_NOTES } from '../registry/answer-notes.js';
import { SOURCE_CHANGE_EVENT } from '../registry/sources/source.js';
import { EXTRA_PROPERTY, formatIssues, MORE_ISSUES, validateValue } from './validation.js';
import { stripForbiddenExtras } from './validation/forbidden-extras.js';

/** Most property paths one tool's warning names; past it, how many more. */
const MAX_NAMED_PROPERTIES = 12;

/**
 * The outcome of a check: `answer` what the agent receives (the answer itself, or a copy without
 * the properties left out); or `issues`, the validator's issues of the answer as it came, in one
 * line (formatIssues).
 */
export type OutputCheck = { ok: true; answer: JSONValue } | { ok: false; issues: string };

/** Per runtime, per tool: every property path left out so far (the warning names them all). */
const leftOutByTool = new WeakMap<RuntimeConfig, Map<string, Set<string>>>();

/**
 * `answer` with `data` replaced by `stripped`: the answer is the data (Capell's bindings), or
 * wraps it as its `answer` (an AgentGate call with its payment); undefined otherwise.
 */
function replaceData(answer: JSONValue, data: JSONValue, stripped: JSONValue): JSONValue | undefined {
  if (answer === data) return stripped;
  if (isPlainObject(answer) && answer.answer === data) return { ...answer, answer: stripped };
  return undefined;
}

/**
 * Adds `paths` to `tool`'s warning in the Report: one entry per tool, naming every property left
 * out so far (at most MAX_NAMED_PROPERTIES, then how many more). When the message changed, asks
 * the runtime for an update, whose Report carries it (`capell-webmcp:change`).
 */
function noteLeftOut(config: RuntimeConfig, tool: string, paths: readonly string[]): void {
  let byTool = leftOutByTool.get(config);
  if (!byTool) leftOutByTool.set(config, byTool = new Map());
  let known = byTool.get(tool);
  if (!known) byTool.set(tool, known = new Set());
  const before = known.size;
  for (const path of paths) known.add(path);
  if (known.size === before) return;
  const all = [...known];
  const named = all.slice(0, MAX_NAMED_PROPERTIES).join(', ') + (all.length > MAX_NAMED_PROPERTIES ? ` and ${all.length - MAX_NAMED_PROPERTIES} more` : '');
  let notes = ANSWER_NOTES.get(config);
  if (!notes) ANSWER_NOTES.set(config, notes = new Map());
  notes.set(tool, {
    level: 'warning', surface: `tool ${tool}`,
    message: `the site answered ${named}, which its outputSchema does not allow (additionalProperties: false); left out of the answer`,
  });
  callBuiltIn(config.document, 'dispatchEvent', new Event(SOURCE_CHANGE_EVENT));
}

/**
 * Checks `data` (what the schema describes) against `schema`. Valid: `answer` as it is. Failing
 * only by properties an `additionalProperties: false` forbids (every issue listed is one, and the
 * answer without them passes): `answer` without them, and `tool`'s warning in the Report. Values
 * are never changed.
 * @param answer what the agent receives: `data` itself, or an object holding it as `answer`.
 * @returns an OutputCheck; never throws.
 */
export function checkOutput(config: RuntimeConfig, tool: string, schema: JSONSchema, answer: JSONValue, data: JSONValue): OutputCheck {
  const issues = validateValue(schema, data);
  if (issues.length === 0) return { ok: true, answer };
  const refused: OutputCheck = { ok: false, issues: formatIssues(issues) };
  if (!issues.every((issue) => issue.message === EXTRA_PROPERTY || issue.message === MORE_ISSUES)) return refused;
  const stripped = stripForbiddenExtras(schema, data);
  if (!stripped || stripped.leftOut.length === 0 || validateValue(schema, stripped.value).length > 0) return refused;
  const replaced = replaceData(answer, data, stripped.value);
  if (replaced === undefined) return refused;
  noteLeftOut(config, tool, stripped.leftOut);
  return { ok: true, answer: replaced };
}
