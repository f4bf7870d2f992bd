/**
 * The rules that decide registration for every source alike, after a declaration passed its own
 * contract: the first declaration of a name wins, a name must satisfy WebMCP's limits, and a form
 * the browser already registers natively (`toolname`) is not registered twice. The runtime and
 * the CLI both judge names here, so they never disagree on a duplicate.
 */
import { WEBMCP_NAME_PATTERN } from './declarations/names.js';
import { builtIn, callBuiltIn } from '../start/dom-builtin.js';
import { formToolProblems } from './form-tool-check.js';
import { bindingRow } from './bindings/registry.js';
import type { Reason } from './declarations/reason.js';
import type { ToolSpec } from './declarations/tool-spec.js';

/** The runtime's own write status tool (registry/write-status-tool.ts): its name is never a site's. */
export const WRITE_STATUS_TOOL = 'capell.write.status';

/** Who holds the runtime's own tool names, as a duplicate reason names them. */
const WRITE_STATUS_OWNER = 'capell-webmcp (its own write status tool)';

/** The runtime's own AgentGate receipts tool (agentgate/discover/receipts-tool.ts): its name is never a site's. */
export const RECEIPTS_TOOL = 'agentgate.receipts';

/** Who holds RECEIPTS_TOOL, as a duplicate reason names it. */
const RECEIPTS_OWNER = 'capell-webmcp (its own AgentGate receipts tool)';

/** The runtime's own AgentGate handoff status tool (agentgate/discover/handoff-status-tool.ts): never a site's name either. */
export const HANDOFF_STATUS_TOOL = 'agentgate.handoff.status';

/** Who holds HANDOFF_STATUS_TOOL, as a duplicate reason names it. */
const HANDOFF_STATUS_OWNER = 'capell-webmcp (its own AgentGate handoff status tool)';

/**
 * Who holds each tool name. The first claim of a name wins; a later one gets the `duplicate`
 * reason naming the holder (Capell Agent Schema, "Tool declarations": tool names are unique on a
 * page; WebMCP `registerTool` refuses a duplicate name with `InvalidStateError`).
 */
export class NameClaims {
  readonly #holders = new Map<string, string>();

  /**
   * @param reserved names held before any declaration, as `[name, holder]`; by default the
   *   runtime's own tools, so a declaration of `capell.write.status`, `agentgate.receipts` or
   *   `agentgate.handoff.status` is a duplicate everywhere.
   */
  constructor(reserved: Iterable<readonly [string, string]> = [[WRITE_STATUS_TOOL, WRITE_STATUS_OWNER], [RECEIPTS_TOOL, RECEIPTS_OWNER], [HANDOFF_STATUS_TOOL, HANDOFF_STATUS_OWNER]]) {
    for (const [name, holder] of reserved) this.#holders.set(name, holder);
  }

  /**
   * Claims `name` for `holder` (a source label such as `capell-island[0]` or `agent_tools[3]`).
   * @returns undefined when the claim holds, else `['name', 'duplicate', name, firstHolder]`.
   */
  claim(name: string, holder: string): Reason | undefined {
    const first = this.#holders.get(name);
    if (first !== undefined) return ['name', 'duplicate', name, first];
    this.#holders.set(name, holder);
    return undefined;
  }
}

/**
 * Checks the WebMCP name limits (`^[A-Za-z0-9_.-]{1,128}$`: Chromium's `registerTool`
 * refuses other names with `InvalidStateError`), for sources whose own name rule does not
 * already imply them. @returns the reason, or undefined when the name is registrable.
 */
export function webMCPNameReason(name: string): Reason | undefined {
  return WEBMCP_NAME_PATTERN.test(name) ? undefined : ['name', 'webmcpName', name];
}

/**
 * The registration rules for one normalised tool: the WebMCP name limits, the first claim of its
 * name (`claims`), and, with a document, the form tool against its page: a form the browser
 * registers itself, then a form or a named control that is missing (form-tool-check.ts: a tool
 * whose form or control is missing would fail every call, so the owner learns it from the Report,
 * not from an agent's failed call; the page observer checks again when forms or controls change).
 * Claims the name whatever the page says, so a missing form never hands its name to a later
 * declaration.
 * @returns undefined when the tool may be registered, else a coded reason or (for the form rules)
 *   a text reason, e.g. `form #order has no control named "qty"` (several joined with `; `).
 */
export function registrationRefusal(
  spec: ToolSpec, holder: string, claims: NameClaims, doc?: Document,
): Reason | string | undefined {
  const invalidName = webMCPNameReason(spec.name);
  if (invalidName) return invalidName;
  const duplicate = claims.claim(spec.name, holder);
  if (duplicate) return duplicate;
  if (!doc) return undefined;
  const native = nativeFormToolReason(spec, doc);
  if (native) return native;
  const problems = formToolProblems(spec, doc);
  return problems.length > 0 ? problems.join('; ') : undefined;
}

/**
 * Why a form tool must not be registered because its form is already a browser tool, or
 * `undefined`. Declarative WebMCP forms: a `<form toolname="…">` is registered by the browser
 * itself (WebMCP explainer, "Declarative API"), so a second registration would
 * give the agent two tools for one form. Checked at registration (the Report carries it as a
 * Rejection; the live registry checks again when `toolname` appears or disappears) and again at
 * call time. Works on any DOM with `getElementById` (the browser's, or linkedom's in the CLI).
 * @returns e.g. `form #contact carries toolname="contact": the browser registers it natively, so
 *   capell-webmcp does not register it a second time`.
 */
export function nativeFormToolReason(spec: ToolSpec, doc: Pick<Document, 'getElementById'>): string | undefined {
  const tag = bindingRow(spec.binding.type)?.pageElement?.tag;
  if (tag === undefined) return undefined;
  // Past DOM clobbering (dom-builtin.ts): a named element may shadow getElementById, a field localName.
  const form = callBuiltIn<Element | null>(doc, 'getElementById', spec.binding.target);
  const toolname = form && builtIn<string>(form, 'localName') === tag ? callBuiltIn<string | null>(form, 'getAttribute', 'toolname') : null;
  if (toolname === null || toolname === undefined) return undefined;
  return `${tag} #${spec.binding.target} carries toolname=${JSON.stringify(toolname)}: the browser registers it natively, so capell-webmcp does not register it a second time`;
}
