/**
 * The one internal shape every source becomes. Both contracts meet here;
 * nothing downstream knows which manifest a tool came from.
 */
import type { BindingType } from '../bindings/registry.js';
import type { AgentGateReceipts } from '../../agentgate/discover/receipt-rules.js';
import type { Messages } from './i18n.js';
import type { Reason } from './reason.js';

/** A JSON Schema object (JSON Schema 2020-12 or draft-07 dialect), as parsed JSON. */
export type JSONSchema = { [keyword: string]: unknown };

/** Any JSON value. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

/** Capell Agent Schema, "Tool declarations": a tool either reads or writes. */
export type Effect = 'read' | 'write';

/**
 * A declarative binding: data that says what `execute` does, never code. A union discriminated on
 * `type`, one member per row of the binding registry (shared/bindings/registry.ts, where each type's
 * target rules are).
 * Capell Agent Schema, "Tool declarations": endpoint targets are same-origin paths; form
 * targets are stable DOM ids; search and property-query targets are stable identifiers; the
 * inline binding is reserved for Core's page payload (target `page`).
 */
export type Binding = { [Type in CapellBindingType]: { type: Type; target: string } }[CapellBindingType] | AgentGateBinding;

/** The binding types a Capell declaration may name (every one but `agentgate`). */
type CapellBindingType = Exclude<BindingType, 'agentgate'>;

/**
 * How an AgentGate tool's call is signed (its `auth[0]`; AgentGate declared tools, "Call a
 * tool"): `web-bot-auth` (RFC 9421 Ed25519 over at least `components`, tagged `tag`) or
 * `shared-key` (RFC 9421 hmac-sha256, never tagged `web-bot-auth`).
 */
export type AgentGateAuth =
  | { type: 'web-bot-auth'; components: string[]; tag: string }
  | { type: 'shared-key'; components: string[] };

/**
 * An AgentGate tool's binding: `target` is `endpoint.url` (absolute, on the page's origin, an
 * exact route); the input is sent as the JSON body with `method` and `contentType`, signed per
 * `auth`. `receipts` is present when the manifest declares receipts: an accepted call's receipt
 * is then checked (agentgate/call/receipt.ts) and kept.
 */
export interface AgentGateBinding {
  type: 'agentgate';
  target: string;
  method: string;
  contentType: string;
  auth: AgentGateAuth;
  receipts?: AgentGateReceipts;
  /**
   * The manifest's `handoff.poll`: an absolute URL template on the page's origin with one `{id}`
   * (e.g. `https://shop.example/v1/handoff/{id}`), polled when a call answers `202` with a
   * handoff id (agentgate/call/handoff.ts). Absent when the manifest names no handoff.
   */
  handoffPoll?: string;
}

/**
 * MCP-only tool hints (MCP Tool `annotations`): kept for the runtime's own decisions, never sent
 * to WebMCP (it has no such hints; AgentGate declared tools, "MCP and WebMCP").
 */
export interface MCPHints {
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** The binding type names, in the order the contract lists them (the registry's keys). */
export type { BindingType };

/**
 * WebMCP tool annotations (WebMCP draft, `ModelContextTool.annotations`). MCP-only hints such as
 * `destructiveHint` are mapped onto these before they reach a ToolSpec.
 */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  consequentialHint?: boolean;
  untrustedContentHint?: boolean;
}

/**
 * A validated tool declaration, ready to bind and register.
 *
 * - `name` matches `^[A-Za-z0-9_.-]{1,128}$` (WebMCP) and the source contract's own pattern.
 * - `description` is 1–500 code points, already translated.
 * - `inputSchema` has a root `type: "object"` and passed the schema policy; a declaration that
 *   declares no arguments gets `additionalProperties: false`.
 * - `source` labels where the declaration came from (for the Report), e.g. `capell-island[0]`.
 */
export interface ToolSpec {
  name: string;
  title?: string;
  description: string;
  inputSchema: JSONSchema;
  outputSchema?: JSONSchema;
  annotations: ToolAnnotations;
  /** MCP-only hints a source declared (AgentGate tools); not part of `annotations`. */
  hints?: MCPHints;
  effect: Effect;
  binding: Binding;
  source: string;
  /**
   * The translations of the source the tool came from (a Capell island's `messages`): the texts
   * its call needs, such as the confirmation panel's words. Executors read them here and never
   * ask which source a tool came from.
   */
  messages: Messages;
  /**
   * Set only on the admin registry's tools (registry/sources/admin-registry.ts): their calls carry the
   * editor's session (`credentials: 'same-origin'`). Public tools never have it: their reads stay
   * anonymous, so a signed-in editor's session never widens a public tool.
   */
  session?: true;
  /**
   * Set when normalisation added the runtime's optional `cursor` input (declarations/paging.ts):
   * a call with `cursor` reads that link, which must be one an earlier answer of this tool handed
   * out (call/reads/page-links.ts).
   */
  pagesByLinks?: true;
  /**
   * What the declaration has beside the Capell Agent Schema that Capell's own packages write and
   * the runtime accepts (a `-` in a name segment, PHP's `[]` for `{}`, `uniqueItems`): coded,
   * rendered into the Report's audit as warnings (rules.ts, "Warnings"). Absent when none.
   */
  warnings?: readonly Reason[];
}
