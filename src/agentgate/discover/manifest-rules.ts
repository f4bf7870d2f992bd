/**
 * The AgentGate manifest's rules (AgentGate declared tools):
 * the document (`version: "agentgate-tools/1"`, `site`, `tools`), and each tool, an MCP `Tool`
 * plus `action`, `endpoint` and `auth`, into a ToolSpec or every coded reason it was rejected for.
 * Pure (no DOM, no network): the runtime loads it on demand (registry/sources/agentgate.ts), the tests in
 * Node. A malformed tool never takes the others down.
 */
import { validateAgentGateEndpoint } from '../../shared/bindings/agentgate-endpoint.js';
import { checkWithRefChecksLoaded, type CheckResult, type NormaliseContext } from '../../shared/declarations/check-declaration.js';
import { countCodePoints, MAX_DESCRIPTION_CODE_POINTS } from '../../shared/declarations/i18n.js';
import { WEBMCP_NAME_PATTERN } from '../../shared/declarations/names.js';
import type { Reason } from '../../shared/declarations/reason.js';
import { checkOutputSchema, normaliseInputSchema, type RefChecks } from '../../shared/declarations/schema-policy.js';
import type { AgentGateAuth, JSONSchema, MCPHints, ToolAnnotations, ToolSpec } from '../../shared/declarations/tool-spec.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { readReceipts } from './receipt-rules.js';

/** The manifest version this runtime reads. */
const AGENTGATE_MANIFEST_VERSION = 'agentgate-tools/1';

/** Methods a JSON body can be sent with (the input is the body; GET and HEAD carry none). */
const SENDABLE_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Content types the runtime sends: the input serialised as JSON (UTF-8). */
const JSON_CONTENT_TYPE = /^application\/json(\s*;\s*charset="?utf-8"?)?$/i;

/** RFC 9421 derived components the signer covers (signature-base.ts); other components are lower-case header names. */
const DERIVED_COMPONENTS = new Set(['@method', '@target-uri', '@authority', '@scheme', '@request-target', '@path', '@query']);
const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** WebMCP hints passed through when a site sets them (AgentGate declared tools, "Annotations"). */
const WEBMCP_HINTS = ['readOnlyHint', 'consequentialHint', 'untrustedContentHint'] as const;

/** MCP-only hints: kept on the ToolSpec, never sent to WebMCP. */
const MCP_HINTS = ['destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** The document-level reading of a manifest: its tools, or the one reason none can be read. */
type ManifestReading = { tools: readonly unknown[]; siteKey: string; problem?: undefined } | { tools: readonly []; problem: Reason };

/**
 * Reads a manifest's text: JSON, an object, `version` `agentgate-tools/1`, `site` an object with
 * a string `siteKey`, and `tools` an array (each tool is judged apart by `checkAgentGateTool`).
 * The manifest's `receipts`, `handoff` and `payment`, when present, are set on each tool object
 * that has none of its own.
 * @returns the tools, or the reason the whole manifest is refused (the Report's `(manifest)`).
 *   Never throws.
 */
export function readAgentGateManifest(text: string): ManifestReading {
  const refuse = (problem: Reason): ManifestReading => ({ tools: [], problem });
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    return refuse(['manifest', 'agentgateJSON', (error as Error).message]);
  }
  if (!isPlainObject(manifest)) return refuse(['manifest', 'agentgateObject']);
  if (manifest.version !== AGENTGATE_MANIFEST_VERSION) return refuse(['manifest.version', 'agentgateVersion', manifest.version, AGENTGATE_MANIFEST_VERSION]);
  const site = manifest.site;
  if (!isPlainObject(site) || typeof site.siteKey !== 'string' || site.siteKey === '') return refuse(['manifest.site', 'agentgateSite']);
  if (!Array.isArray(manifest.tools)) return refuse(['manifest.tools', 'agentgateTools']);
  return { tools: withManifestFields(manifest.tools, manifest), siteKey: site.siteKey };
}

/**
 * The manifest-level fields a tool's call needs (`receipts`, `handoff`, `payment`: AgentGate
 * declared tools, "Find the manifest"; the site's agent-native endpoints and pay per crawl apply
 * to every tool), carried onto each tool object that does not set its own, so each tool is
 * judged, and its ToolSpec made, from its own declaration alone.
 */
const MANIFEST_CALL_FIELDS = ['receipts', 'handoff', 'payment'] as const;

function withManifestFields(tools: readonly unknown[], manifest: Record<string, unknown>): readonly unknown[] {
  const fields = MANIFEST_CALL_FIELDS.filter((field) => manifest[field] !== undefined);
  if (fields.length === 0) return tools;
  return tools.map((tool) => {
    if (!isPlainObject(tool)) return tool;
    const carried: Record<string, unknown> = { ...tool };
    for (const field of fields) if (carried[field] === undefined) carried[field] = manifest[field];
    return carried;
  });
}

/**
 * The manifest's `handoff` (AgentGate declared tools: `"handoff": {"poll": ".../v1/handoff/{id}"}`)
 * as the poll URL template: absolute http(s), on the page's origin, one `{id}` standing for a
 * whole path segment, otherwise an exact route (the endpoint rule with `{id}` filled in).
 * @returns the template, undefined when there is no handoff, or a reason on `handoff.poll`.
 */
function readHandoffPoll(raw: unknown, origin: string, reasons: Reason[]): string | undefined {
  if (raw === undefined) return undefined;
  const poll = isPlainObject(raw) ? raw.poll : undefined;
  const valid = typeof poll === 'string' && poll.split('{id}').length === 2 && /\/\{id\}(\/|$)/.test(poll)
    && validateAgentGateEndpoint(poll.replace('{id}', 'id'), origin).length === 0;
  if (!valid) {
    reasons.push(['handoff.poll', 'handoffPoll', isPlainObject(raw) ? raw.poll : raw]);
    return undefined;
  }
  return poll as string;
}

/** The annotations: the WebMCP hints as set, the MCP-only hints apart; reasons for non-booleans. */
function readAnnotations(raw: unknown, reasons: Reason[]): { annotations: ToolAnnotations; hints: MCPHints } {
  const annotations: ToolAnnotations = {};
  const hints: MCPHints = {};
  if (raw === undefined) return { annotations, hints };
  if (!isPlainObject(raw)) {
    reasons.push(['annotations', 'annotationsObject']);
    return { annotations, hints };
  }
  for (const [key, value] of Object.entries(raw)) {
    const known = (WEBMCP_HINTS as readonly string[]).includes(key) || (MCP_HINTS as readonly string[]).includes(key);
    if (known && typeof value !== 'boolean') reasons.push([`annotations.${key}`, 'hintBoolean', value]);
  }
  for (const key of WEBMCP_HINTS) if (typeof raw[key] === 'boolean') annotations[key] = raw[key] as boolean;
  for (const key of MCP_HINTS) if (typeof raw[key] === 'boolean') hints[key] = raw[key] as boolean;
  return { annotations, hints };
}

/** The endpoint: method, URL and content type the runtime can send; reasons otherwise. */
function readEndpoint(raw: unknown, origin: string, reasons: Reason[]): { method: string; url: string; contentType: string } | undefined {
  if (!isPlainObject(raw)) {
    reasons.push(['endpoint', 'endpointObject']);
    return undefined;
  }
  const before = reasons.length;
  const method = typeof raw.method === 'string' ? raw.method.toUpperCase() : undefined;
  if (!method || !SENDABLE_METHODS.includes(method)) reasons.push(['endpoint.method', 'endpointMethod', raw.method, SENDABLE_METHODS.join(', ')]);
  if (typeof raw.contentType !== 'string' || !JSON_CONTENT_TYPE.test(raw.contentType)) reasons.push(['endpoint.contentType', 'endpointContentType', raw.contentType]);
  if (typeof raw.url !== 'string') reasons.push(['endpoint.url', 'endpointUrl', String(raw.url)]);
  else reasons.push(...validateAgentGateEndpoint(raw.url, origin));
  return reasons.length === before ? { method: method!, url: raw.url as string, contentType: raw.contentType as string } : undefined;
}

/** A signature component as the manifest names it: a derived component or a lower-case header name. */
function isComponent(value: unknown): value is string {
  return typeof value === 'string' && (DERIVED_COMPONENTS.has(value) || HEADER_NAME.test(value));
}

/** `auth[0]`: `web-bot-auth` with components (tag `web-bot-auth` when given), or `shared-key` (never that tag). */
function readAuth(raw: unknown, reasons: Reason[]): AgentGateAuth | undefined {
  if (!Array.isArray(raw) || raw.length === 0 || !isPlainObject(raw[0])) {
    reasons.push(['auth', 'authList']);
    return undefined;
  }
  const first = raw[0];
  const before = reasons.length;
  if (first.type !== 'web-bot-auth' && first.type !== 'shared-key') {
    reasons.push(['auth[0].type', 'authType', first.type]);
    return undefined;
  }
  const components = first.components;
  if (components === undefined && first.type === 'shared-key') {
    // shared-key: the executor's default components.
  } else if (!Array.isArray(components) || components.length === 0) {
    reasons.push(['auth[0].components', 'authComponents']);
  } else {
    for (const component of components) if (!isComponent(component)) reasons.push(['auth[0].components', 'authComponent', component]);
  }
  if (first.type === 'web-bot-auth' && first.tag !== undefined && first.tag !== 'web-bot-auth') reasons.push(['auth[0].tag', 'authTag', first.tag, first.type]);
  if (first.type === 'shared-key' && first.tag === 'web-bot-auth') reasons.push(['auth[0].tag', 'authTag', first.tag, first.type]);
  if (reasons.length > before) return undefined;
  const list = Array.isArray(components) ? [...new Set(components as string[])] : [];
  return first.type === 'web-bot-auth' ? { type: 'web-bot-auth', components: list, tag: 'web-bot-auth' } : { type: 'shared-key', components: list };
}

/**
 * Checks one AgentGate tool and maps it onto a ToolSpec:
 * - `name`: the MCP Tool rule `^[A-Za-z0-9_.-]{1,128}$` (so `send_message` is valid here);
 * - `title`: a string when given; `description`: a non-empty string of at most 500 code points;
 * - `inputSchema` (required, root object) and `outputSchema` under the schema policy, as Capell's;
 * - `annotations`: `readOnlyHint`, `consequentialHint`, `untrustedContentHint` passed through
 *   only when set; `destructiveHint`, `idempotentHint`, `openWorldHint` kept as `hints`, never
 *   mapped onto WebMCP hints (Chromium 156 drops them from a registered tool); the effect is
 *   `read` when `readOnlyHint` is true, else `write`;
 * - `payment` (the manifest's, or the tool's own): the tool is priced, so `consequentialHint` is
 *   true whatever `readOnlyHint` says;
 * - `action`: a non-empty string; `endpoint`: a sendable method (SENDABLE_METHODS), content type
 *   `application/json`, and a URL that is an exact route on the page's origin (a tool without an
 *   endpoint is a browser-only action and refused);
 * - `auth[0]`: `web-bot-auth` with components, or `shared-key`;
 * - `receipts` (the manifest's, carried onto the tool): `header`, `jwks`, `verify` on the page's
 *   origin (receipt-rules.ts); kept on the binding.
 * - `handoff` (the manifest's, given to each tool by `readAgentGateManifest`): `poll` a URL
 *   template on the page's origin with one `{id}` segment, kept as the binding's `handoffPoll`.
 * @param refChecks the `$ref` graph checks; needed only when a schema has a local `$ref`.
 * @returns a ToolSpec with binding `agentgate`, or every coded reason. Never throws, except the
 *   TypeError of a missing `refChecks` for a schema with a `$ref` (a caller's mistake).
 * @example
 * checkAgentGateTool(sendMessageTool, { source: 'agentgate[0]', origin: 'https://shop.example', messages: {} })
 * // → { ok: true, spec: { name: 'send_message', effect: 'write', binding: { type: 'agentgate', target: 'https://shop.example/agent/submit', … }, … } }
 */
export function checkAgentGateTool(raw: unknown, context: NormaliseContext, refChecks?: RefChecks): CheckResult {
  if (!isPlainObject(raw)) return { ok: false, name: '', reasons: [['tool', 'toolObject']] };
  const name = typeof raw.name === 'string' ? raw.name : '';
  const reasons: Reason[] = [];
  if (typeof raw.name !== 'string' || !WEBMCP_NAME_PATTERN.test(raw.name)) reasons.push(['name', 'toolName', raw.name]);
  if (raw.title !== undefined && typeof raw.title !== 'string') reasons.push(['title', 'toolString']);
  const description = typeof raw.description === 'string' ? raw.description.trim() : '';
  const length = typeof raw.description === 'string' ? countCodePoints(description) : 0;
  if (length === 0 || length > MAX_DESCRIPTION_CODE_POINTS) reasons.push(['description', 'toolDescription', length]);
  const input = raw.inputSchema === undefined
    ? { schema: {}, reasons: [['inputSchema', 'schemaObject'] as Reason] }
    : normaliseInputSchema(raw.inputSchema, refChecks);
  reasons.push(...input.reasons);
  // Warnings are about Core's allow-list, which an AgentGate (MCP Tool) schema is not held to.
  reasons.push(...checkOutputSchema(raw.outputSchema, refChecks).reasons);
  const { annotations, hints } = readAnnotations(raw.annotations, reasons);
  // A priced tool's call can be answered 402 and then paid (up to the page's cap): it spends the
  // person's money even when it changes nothing on the site, which is what consequentialHint
  // tells a client to make visible.
  if (raw.payment !== undefined) annotations.consequentialHint = true;
  if (typeof raw.action !== 'string' || raw.action.trim() === '') reasons.push(['action', 'action']);
  const endpoint = readEndpoint(raw.endpoint, context.origin, reasons);
  const auth = readAuth(raw.auth, reasons);
  const receipts = raw.receipts === undefined ? undefined : readReceipts(raw.receipts, context.origin, reasons);
  const handoffPoll = readHandoffPoll(raw.handoff, context.origin, reasons);
  if (reasons.length > 0 || !endpoint || !auth) return { ok: false, name, reasons };
  const spec: ToolSpec = {
    name,
    description,
    inputSchema: input.schema,
    annotations,
    effect: annotations.readOnlyHint === true ? 'read' : 'write',
    binding: {
      type: 'agentgate', target: endpoint.url, method: endpoint.method, contentType: endpoint.contentType, auth,
      ...(receipts ? { receipts } : {}),
      ...(handoffPoll === undefined ? {} : { handoffPoll }),
    },
    source: context.source,
    messages: context.messages,
  };
  if (typeof raw.title === 'string') spec.title = raw.title;
  if (raw.outputSchema !== undefined) spec.outputSchema = raw.outputSchema as JSONSchema;
  if (Object.keys(hints).length > 0) spec.hints = hints;
  return { ok: true, spec };
}

/**
 * The AgentGate source's normaliser (registry/sources/agentgate.ts): `checkAgentGateTool`, synchronous
 * unless a schema has a `$ref` (only then are the `$ref` graph checks loaded).
 * @returns the verdict, or a promise of it; rejects only when the `$ref` checks cannot load.
 */
export function normaliseAgentGateTool(raw: unknown, context: NormaliseContext): CheckResult | Promise<CheckResult> {
  return checkWithRefChecksLoaded((refChecks) => checkAgentGateTool(raw, context, refChecks));
}
