/**
 * The texts of declaration rejection reasons. Kept out of the start-up chunk: a page whose
 * declarations are all valid never loads it; the runtime imports it only to explain a rejection
 * (and the CLI always). Each entry renders the part after `<field>: `; the codes, their arguments
 * and the rules they cite are the catalogue's (rules.ts).
 */
import { BINDING_TYPES, IDENTIFIER_TARGET_PATTERN } from './binding-policy.js';
import { MAX_DESCRIPTION_CODE_POINTS } from './i18n.js';
import { CAPELL_NAME_PATTERN, MAX_NAME_LENGTH, WEBMCP_NAME_PATTERN } from './names.js';
import type { PendingRejection, Reason } from './reason.js';
import type { Rejection } from '../../start/report.js';
import { WARNING_TEXT } from './warning-text.js';
import { ADMIN_INVOKE_TOOL_MAX_LENGTH } from '../bindings/admin-invoke-target.js';
import type { KeywordKind, ReasonArgs, ReasonCode } from './rules.js';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_EVALUATIONS, MAX_SCHEMA_SIZE } from './schema-policy.js';
import { MAX_VALIDATION_WORK } from '../validation/work-units.js';
import { MAX_PATTERN_STATES, MAX_SCHEMA_PATTERN_STATES } from '../validation/linear-regex.js';

const show = (value: unknown): string => JSON.stringify(value) ?? 'nothing';

/** What a keyword's value must be, by kind (schema-policy.ts). */
const EXPECTED: Partial<Record<KeywordKind, string>> = {
  count: 'a non-negative integer', number: 'a number', string: 'a string', boolean: 'true or false', format: 'a string', array: 'an array',
  strings: 'an array of strings', type: 'a JSON type name or an array of them',
  schemaMap: 'an object of schemas', schemas: 'a non-empty array of schemas',
};

/**
 * Reason code → text of the rule it breaks, with the reason's arguments. Typed by the rule
 * catalogue (rules.ts): every code has a text, and a text takes exactly its code's arguments.
 */
export const REASON_TEXT: { readonly [Code in ReasonCode]: (...args: ReasonArgs<Code>) => string } = {
  // Declaration (Core's normaliser).
  declarationObject: () => 'must be a JSON object',
  declarationKey: (allowed: string) => `not an allowed declaration key (${allowed})`,
  effect: (value: unknown) => `required, must be "read" or "write" (got ${show(value)})`,
  string: () => 'must be a string',
  // Names (Capell Agent Schema and WebMCP).
  nameRequired: () => 'required, must be a string',
  nameLength: (length: number) => `${length} characters, at most ${MAX_NAME_LENGTH} allowed (WebMCP)`,
  namePattern: (name: string) => `${show(name)} is not a lowercase dotted name matching ${CAPELL_NAME_PATTERN.source} (Capell Agent Schema)`,
  webmcpName: (name: string) => `${show(name)} is not a WebMCP tool name (${WEBMCP_NAME_PATTERN.source}: letters, digits, "_", "." and "-", 1 to ${MAX_NAME_LENGTH})`,
  duplicate: (name: string, owner: string) => `${show(name)} is already declared by ${owner} (the first declaration wins)`,
  // Warnings (the tool registers): their texts ship with the registry.
  ...WARNING_TEXT,
  // Descriptions.
  nonEmptyString: () => 'must be a non-empty string',
  noTranslation: (key: string) => `no translation for ${show(key)} (the island's messages, or the CLI's --translations)`,
  descriptionRequired: () => 'required (description or descriptionKey)',
  emptyText: () => 'empty after translation',
  textLength: (length: number) => `${length} code points, at most ${MAX_DESCRIPTION_CODE_POINTS} allowed`,
  // Bindings.
  bindingObject: () => 'required, must be an object { type, target }',
  bindingKey: () => 'not allowed (binding keys are type and target)',
  bindingType: (type: unknown) => `${show(type)} is not one of ${BINDING_TYPES.join(', ')}`,
  targetRequired: () => 'required, must be a non-empty string',
  controlCharacters: () => 'contains control characters',
  handler: (target: string) => `${show(target)} contains "::" (handlers are not bindings)`,
  inlineTarget: () => `the inline binding is reserved for Core's page payload (target "page")`,
  identifier: (target: string) => `${show(target)} is not a stable identifier matching ${IDENTIFIER_TARGET_PATTERN.source}`,
  formRead: () => 'a form binding must declare effect "write"',
  readOnlyBinding: (type: string) => `a ${type} binding is read-only, it cannot declare effect "write"`,
  notOriginRelative: (target: string) => `${show(target)} is not an origin-relative path (must start with one "/")`,
  whitespace: (target: string) => `${show(target)} contains whitespace`,
  fragment: (target: string) => `${show(target)} contains a fragment ("#")`,
  backslash: (target: string) => `${show(target)} contains a backslash`,
  dotSegments: (target: string) => `${show(target)} contains "." or ".." path segments`,
  encodedSlash: (target: string) => `${show(target)} contains an encoded slash or backslash (%2F, %5C) in its path`,
  badPath: (target: string) => `${show(target)} is not a valid URL path`,
  otherOrigin: (target: string, origin: string) => `${show(target)} resolves to ${origin}, not this page's origin`,
  // Schemas (the Capell keyword allow-list and what a validator can finish).
  notSerialisable: () => 'not serialisable as JSON',
  schemaSize: (size: number) => `${size} characters of JSON, at most ${MAX_SCHEMA_SIZE} allowed`,
  refLoop: (ref: string) => `$ref ${show(ref)} loops back to itself without descending into a property or item (the validator would never finish)`,
  tooDeep: () => `schema nested deeper than ${MAX_SCHEMA_DEPTH} levels`,
  schemaShape: () => 'a schema must be an object or a boolean',
  keyword: (keyword: string) => `unsupported schema keyword ${show(keyword)} (Capell Agent Schema allow-list)`,
  mustBe: (kind: KeywordKind) => `must be ${EXPECTED[kind] ?? kind}`,
  pattern: (value: unknown) => `${show(value)} is not a valid regular expression`,
  dialectPlacement: () => 'only allowed at the schema root',
  dialect: (value: unknown) => `${show(value)} is not JSON Schema 2020-12 or draft-07`,
  remoteRef: (value: unknown) => `${show(value)} is not a local reference (remote $ref is never fetched)`,
  unresolvedRef: (value: string) => `${show(value)} does not resolve in this schema`,
  refNotSchema: (value: string) => `${show(value)} points at something that is not a schema`,
  patternFeature: (value: string, feature: string) => `${show(value)} uses a ${feature}, which the runtime's linear-time matcher does not run (JSON Schema patterns are checked without lookaround or backreferences)`,
  patternSize: (value: string) => `${show(value)} needs more than ${MAX_PATTERN_STATES} matcher states (fewer or smaller counted repetitions)`,
  patternBudget: (value: string) => `${show(value)} and the schema's other patterns need more than ${MAX_SCHEMA_PATTERN_STATES} matcher states together (fewer or smaller counted repetitions)`,
  formatName: (value: string) => `${show(value)} is a JavaScript built-in name, not a format`,
  tooManyEvaluations: () => `checking one value would take more than ${MAX_SCHEMA_EVALUATIONS} subschema evaluations ($ref fan-out)`,
  schemaWork: () => `checking one value of this shape would take more than ${MAX_VALIDATION_WORK} units of work (enum members, anyOf/oneOf/not branches, $ref expanded), the bound of a call`,
  schemaObject: () => 'must be a JSON Schema object',
  rootObject: () => 'the root must be "object" (MCP Tool inputSchema)',
  // Manifests.
  manifestJSON: (message: string) => `not valid JSON (${message})`,
  manifestObject: () => 'must be a JSON object',
  manifestVersion: (value: unknown, supported: number) => `${JSON.stringify(value) ?? 'missing'} is not a supported version (this runtime reads ${supported})`,
  manifestTools: () => 'must be an array of declarations',
  // AgentGate manifests.
  agentgateFetch: (reason: string) => `the AgentGate manifest could not be read: ${reason}`,
  agentgateJSON: (message: string) => `the AgentGate manifest is not valid JSON (${message})`,
  agentgateObject: () => 'the AgentGate manifest must be a JSON object',
  agentgateVersion: (value: unknown, supported: string) => `${JSON.stringify(value) ?? 'missing'} is not a supported AgentGate manifest version (this runtime reads ${JSON.stringify(supported)})`,
  agentgateSite: () => 'required, must be an object with a string siteKey',
  agentgateTools: () => 'must be an array of tools',
  islandAgentGate: (value: unknown) => `${show(value)} does not name an AgentGate manifest: use true (this origin's /.well-known/agentgate-tools.json) or {"siteKey": "<1 to 128 of A-Za-z0-9_->"} (this origin's /v1/agent-tools/{siteKey}); no other value or member is read`,
  // Admin tools.
  adminOnlyBinding: (type: string) => `${show(type)} is an admin binding: only the admin registry (fetched with the editor's session on a page with data-admin-registry) may declare it, never a page's tools island`,
  adminInvokeTarget: (target: string) => `${show(target)} is longer than the ${ADMIN_INVOKE_TOOL_MAX_LENGTH} characters Capell's invoke route accepts as a tool name`,
  adminSignedOut: () => 'not signed in to the admin (the admin registry answered 401): no admin tool is registered',
  adminFetch: (reason: string) => `the admin registry could not be read: ${reason}`,
  adminRegistry: (problem: string) => `the admin registry's answer is not a Capell Agent Schema envelope with a tools array of definitions: ${problem}`,
  // AgentGate tools.
  toolObject: () => 'must be a JSON object (an MCP Tool with action, endpoint and auth)',
  toolName: (name: unknown) => `${show(name)} is not an MCP tool name (${WEBMCP_NAME_PATTERN.source}: letters, digits, "_", "." and "-", 1 to ${MAX_NAME_LENGTH})`,
  toolString: () => 'must be a string',
  toolDescription: (length: number) => `required, a non-empty string of at most ${MAX_DESCRIPTION_CODE_POINTS} code points (got ${length})`,
  annotationsObject: () => 'must be an object of boolean hints',
  hintBoolean: (value: unknown) => `must be true or false (got ${show(value)})`,
  action: () => 'required, a non-empty string naming the site action',
  endpointObject: () => 'required, an object { method, url, contentType }: a tool without an HTTP route (a browser-only action) cannot be called',
  endpointMethod: (method: unknown, sendable: string) => `${show(method)} is not a method the runtime can send a JSON body with (${sendable})`,
  endpointContentType: (value: unknown) => `${show(value)} is not a content type the runtime can send (application/json)`,
  endpointUrl: (url: string) => `${show(url)} is not an absolute http(s) URL`,
  endpointOrigin: (url: string, origin: string) => `${show(url)} is not on this page's origin ${origin}`,
  endpointRoute: (url: string, what: string) => `${show(url)} is not an exact route: it has ${what}`,
  handoffPoll: (value: unknown) => `${show(value)} is not a handoff poll URL: an absolute http(s) URL template on this page's origin with one "{id}" in its path (e.g. "https://shop.example/v1/handoff/{id}")`,
  authList: () => 'required, a non-empty array whose first entry says how to sign',
  authType: (type: unknown) => `${show(type)} is not "web-bot-auth" or "shared-key"`,
  authComponents: () => 'required for web-bot-auth, a non-empty array of the components to sign (e.g. "@authority", "@method", "@path", "content-digest")',
  authComponent: (component: unknown) => `${show(component)} is not a component the runtime can sign (a lower-case header name or @method, @target-uri, @authority, @scheme, @request-target, @path, @query)`,
  authTag: (tag: unknown, type: string) => (type === 'shared-key'
    ? `${show(tag)}: a shared-key (HMAC) signature must not carry a tag claiming Web Bot Auth`
    : `${show(tag)} is not the web-bot-auth tag`),
  receiptsObject: () => 'must be an object { header, jwks, verify } saying where the site\'s receipts are',
  receiptsHeader: (value: unknown) => `${show(value)} is not an HTTP header name`,
  receiptsURL: (url: string, origin: string) => `${show(url)} is not an absolute http(s) URL on this page's origin ${origin}`,
};

/**
 * Renders a reason as the one line a Report and the CLI show: `<field>: <rule>`.
 * @example renderReason(['binding.target', 'fragment', '/x#y']) // 'binding.target: "/x#y" contains a fragment ("#")'
 */
export function renderReason(reason: Reason): string {
  const [field, code, ...args] = reason;
  return `${field}: ${(REASON_TEXT[code] as (...values: unknown[]) => string)(...args)}`;
}

/** Renders the coded reasons of pending rejections; text reasons pass through unchanged. */
export function renderRejections(pending: readonly PendingRejection[]): Rejection[] {
  return pending.map(({ name, source, reasons }) => ({
    name,
    source,
    reasons: reasons.map((reason) => (typeof reason === 'string' ? reason : renderReason(reason))),
  }));
}
