/**
 * The rule catalogue: every reason code a declaration (or a tools island) can be rejected with,
 * the arguments its reason carries, and the source rule it cites. One row per code.
 *
 * Everything else refers to this module: `Reason` (reason.ts) is derived from it, the texts
 * (reason-text.ts) are typed by it, and the declaration test rows cite its sources. Start-up code
 * imports only its types, so the citations are never part of the script tag's first load.
 */

/**
 * What a keyword's value must be in the schema policy (schema-policy.ts); the argument of
 * `mustBe`. Sub-schema kinds (`schema`, `schemas`, `schemaMap`, `items`) are walked, the others
 * checked.
 */
export type KeywordKind =
  | 'schema' | 'schemas' | 'schemaMap' | 'items'
  | 'count' | 'number' | 'string' | 'boolean' | 'format' | 'array' | 'strings' | 'type' | 'pattern' | 'dialect' | 'ref' | 'any';

/**
 * The source rules the codes cite: the Capell Agent Schema (26 August 2026 draft), what Core's
 * normaliser accepts and Capell's frontend markup, WebMCP as Chromium 156 ships it and the MCP
 * Tool definition, JSON Schema, and the runtime's own validator bounds; each rule's text below says
 * what it requires.
 */
export const SOURCES = {
  declarationKeys: 'Core normaliser: a declaration is a JSON object with only the keys name, description, descriptionKey, inputSchema, outputSchema, effect, binding, ownerPackage, each of its JSON type',
  name: 'Capell Agent Schema, Tool declarations: a stable lowercase dotted name (Core normaliser: ^[a-z][a-z0-9]*(?:\\.[a-z0-9]+)+$)',
  webmcpName: 'WebMCP: registerTool refuses names outside ^[A-Za-z0-9_.-]{1,128}$',
  duplicateName: 'WebMCP: registerTool refuses a duplicate name (InvalidStateError); the first declaration of a name wins',
  description: 'Capell Agent Schema, Tool declarations: a provider-authored description or translation key',
  descriptionLength: 'Core normaliser: a description has 1–500 characters after translation',
  effect: 'Capell Agent Schema, Tool declarations: a read/write effect (Core normaliser: effect is required, "read" or "write")',
  writeForms: 'Capell Agent Schema, Navigation, forms, and admin tools: write tools use existing public forms and must declare effect: write',
  publicReads: 'Capell Agent Schema, What is public: public tools are read-only unless declared effect: write',
  bindingData: 'Capell Agent Schema, Tool declarations: bindings are data, never callbacks, executable source or arbitrary handlers',
  bindingShape: 'Core normaliser: binding keys are only type and target; a target is a string free of control characters and "::"',
  inlineTarget: 'Capell Agent Schema, Tool declarations: the inline binding is reserved for Core\'s page payload',
  endpointTargets: 'Capell Agent Schema, Tool declarations: endpoint targets are same-origin paths',
  identifierTargets: 'Capell Agent Schema, Tool declarations: form targets are stable DOM ids; search and property-query targets are stable identifiers',
  schemaKeywords: 'Capell Agent Schema, Tool declarations: the normaliser rejects unsupported schema fields (Core\'s keyword allow-list)',
  schemaValues: 'JSON Schema 2020-12 (and draft-07): a schema is an object or a boolean, each keyword\'s value of the type its vocabulary gives',
  patternSyntax: 'JSON Schema 2020-12: pattern is an ECMA-262 regular expression',
  dialect: 'MCP Tool: the JSON Schema dialect defaults to 2020-12, named by $schema at the root (the runtime validates 2020-12 and draft-07)',
  localRefs: 'MCP Tool: never dereference network $refs',
  refResolution: 'JSON Schema 2020-12: a $ref resolves, within the schema, to a schema',
  rootObject: 'MCP Tool: inputSchema root is an object',
  serialisable: 'WebMCP: registerTool refuses a schema that is not serialisable (TypeError)',
  validatorFinishes: 'capell-webmcp validator: every schema the normaliser accepts is validated at call time, so a schema the validator could not finish (size, depth, $ref loops or fan-out, work per value) is refused before registration',
  linearPatterns: 'capell-webmcp validator: patterns run on a linear-time matcher (no lookaround or backreferences, bounded states)',
  formatNames: 'capell-webmcp validator: a format is looked up by name, and no JavaScript built-in name is a format',
  agentgateManifest: 'AgentGate declared tools, Find the manifest: the document is {"version": "agentgate-tools/1", "site": {"siteKey", "name"}, "tools": [...]}, found same-origin at /.well-known/agentgate-tools.json or /v1/agent-tools/{siteKey}',
  agentgateTool: 'AgentGate declared tools, Find the manifest: each tool has the shape of an MCP Tool (name, title, description, inputSchema, outputSchema, annotations) plus action, endpoint and auth',
  agentgateEndpoint: 'AgentGate declared tools, For site operators: endpoint is the method, absolute URL and content type of the site\'s exact route; browser-only actions and prefix routes are refused',
  agentgateAuth: 'AgentGate declared tools, Call a tool: auth is web-bot-auth with the signature components to cover, or shared-key',
  agentgateHandoff: 'AgentGate declared tools, Find the manifest: "handoff": {"poll": ".../v1/handoff/{id}"} names where the agent-native handoff is polled, on the site\'s own origin',
  agentgateReceipts: 'AgentGate declared tools, Find the manifest: receipts names the header a receipt is answered in, the site\'s receipt keys (jwks) and the verify endpoint, on the site\'s own origin',
  mcpName: 'MCP Tool: a name is 1 to 128 of A-Za-z0-9_-. (WebMCP registerTool allows the same)',
  islandAgentGate: 'AgentGate declared tools, Find the manifest: a tools island names AgentGate with a top-level member "agentgate": true or {"siteKey": "<1-128 of A-Za-z0-9_->"}, which stands for the same page-origin manifest as the script tag\'s data-agentgate and data-agentgate-site-key (the Capell Agent Schema has no field for it)',
  adminTools: 'Capell Agent Schema, Navigation, forms, and admin tools: authenticated admin tools use a separate registry (fetched with the editor\'s session, never written into HTML) and the existing session, policy, and permission boundary; admin declarations never enter public HTML or the anonymous registry',
  capellAdmin: 'Capell packages (capell-app/capell packages/admin routes/agent.php @cdb7004, src/Http/Agent/AgentAdminToolController.php @73e5701, resources/js/agent/admin-bridge.js @73e5701), beside the Capell Agent Schema: the admin answers GET /admin/agent/v1/tools with {capellAgentSchema: 1, tools: [...]}; every tool runs through POST /admin/agent/v1/tools/invoke {tool, payload} (tool: max 191 characters), whatever binding its definition names (the admin bridge ignores it)',
  capellPackages: 'Capell packages (capell-app/form-builder, capell-app/capell packages/admin), beside the Capell Agent Schema: form-builder names its tools form.submit.capell-form-<uuid> and the admin admin.page.agent_readiness.read ("-" or "_" inside a segment), PHP writes an empty schema or properties object as [], the admin uses uniqueItems; such a declaration registers with a warning when it breaks no safety rule',
  toolsIsland: 'Capell frontend: a tools island holds {"capellAgentSchema": 1, "tools": [...], "messages": {...}} (Capell Agent Schema: version marker capellAgentSchema: 1)',
} as const;

/** One source rule's citation, e.g. `SOURCES.endpointTargets`. */
export type RuleSource = (typeof SOURCES)[keyof typeof SOURCES];

/**
 * One code's row: the source rule it cites. `Args` is the type of the arguments its reason
 * carries after `[field, code]` (type only: `args` is never set).
 */
interface Rule<Args extends readonly unknown[] = []> {
  readonly source: RuleSource;
  readonly args?: Args;
}

function rule<Args extends readonly unknown[] = []>(source: RuleSource): Rule<Args> {
  return { source };
}

/**
 * Reason code → the arguments its reason carries and the source rule it cites. The codes under
 * "Warnings" are never a rejection: a declaration that has them registers, and the Report's audit
 * (and `check`) says so (ToolSpec.warnings).
 */
export const RULES = {
  // Declarations (Core's normaliser).
  declarationObject: rule(SOURCES.declarationKeys),
  declarationKey: rule<[allowed: string]>(SOURCES.declarationKeys),
  string: rule(SOURCES.declarationKeys),
  effect: rule<[value: unknown]>(SOURCES.effect),
  // Names.
  nameRequired: rule(SOURCES.name),
  namePattern: rule<[name: string]>(SOURCES.name),
  nameLength: rule<[length: number]>(SOURCES.webmcpName),
  webmcpName: rule<[name: string]>(SOURCES.webmcpName),
  duplicate: rule<[name: string, owner: string]>(SOURCES.duplicateName),
  // Warnings: what Capell's own packages write beside the seed; the tool still registers.
  nameSeparator: rule<[name: string]>(SOURCES.capellPackages),
  adminInvokeBinding: rule<[binding: string]>(SOURCES.capellAdmin),
  emptyArraySchema: rule(SOURCES.capellPackages),
  beyondCoreKeyword: rule<[keyword: string]>(SOURCES.capellPackages),
  // Descriptions.
  nonEmptyString: rule(SOURCES.description),
  noTranslation: rule<[key: string]>(SOURCES.description),
  descriptionRequired: rule(SOURCES.description),
  emptyText: rule(SOURCES.descriptionLength),
  textLength: rule<[length: number]>(SOURCES.descriptionLength),
  // Bindings.
  bindingObject: rule(SOURCES.bindingData),
  bindingType: rule<[type: unknown]>(SOURCES.bindingData),
  handler: rule<[target: string]>(SOURCES.bindingData),
  bindingKey: rule(SOURCES.bindingShape),
  targetRequired: rule(SOURCES.bindingShape),
  controlCharacters: rule(SOURCES.bindingShape),
  inlineTarget: rule(SOURCES.inlineTarget),
  identifier: rule<[target: string]>(SOURCES.identifierTargets),
  formRead: rule(SOURCES.writeForms),
  readOnlyBinding: rule<[type: string]>(SOURCES.publicReads),
  notOriginRelative: rule<[target: string]>(SOURCES.endpointTargets),
  whitespace: rule<[target: string]>(SOURCES.endpointTargets),
  fragment: rule<[target: string]>(SOURCES.endpointTargets),
  backslash: rule<[target: string]>(SOURCES.endpointTargets),
  dotSegments: rule<[target: string]>(SOURCES.endpointTargets),
  encodedSlash: rule<[target: string]>(SOURCES.endpointTargets),
  badPath: rule<[target: string]>(SOURCES.endpointTargets),
  otherOrigin: rule<[target: string, origin: string]>(SOURCES.endpointTargets),
  // Schemas.
  notSerialisable: rule(SOURCES.serialisable),
  schemaSize: rule<[size: number]>(SOURCES.validatorFinishes),
  tooDeep: rule(SOURCES.validatorFinishes),
  refLoop: rule<[ref: string]>(SOURCES.validatorFinishes),
  tooManyEvaluations: rule(SOURCES.validatorFinishes),
  schemaWork: rule(SOURCES.validatorFinishes),
  keyword: rule<[keyword: string]>(SOURCES.schemaKeywords),
  schemaShape: rule(SOURCES.schemaValues),
  schemaObject: rule(SOURCES.schemaValues),
  mustBe: rule<[kind: KeywordKind]>(SOURCES.schemaValues),
  pattern: rule<[value: unknown]>(SOURCES.patternSyntax),
  patternFeature: rule<[value: string, feature: string]>(SOURCES.linearPatterns),
  patternSize: rule<[value: string]>(SOURCES.linearPatterns),
  patternBudget: rule<[value: string]>(SOURCES.linearPatterns),
  formatName: rule<[value: string]>(SOURCES.formatNames),
  dialectPlacement: rule(SOURCES.dialect),
  dialect: rule<[value: unknown]>(SOURCES.dialect),
  remoteRef: rule<[value: unknown]>(SOURCES.localRefs),
  unresolvedRef: rule<[value: string]>(SOURCES.refResolution),
  refNotSchema: rule<[value: string]>(SOURCES.refResolution),
  rootObject: rule(SOURCES.rootObject),
  // Tools islands.
  manifestJSON: rule<[message: string]>(SOURCES.toolsIsland),
  manifestObject: rule(SOURCES.toolsIsland),
  manifestVersion: rule<[value: unknown, supported: number]>(SOURCES.toolsIsland),
  manifestTools: rule(SOURCES.toolsIsland),
  // AgentGate manifests (the document as a whole; the Report names it `(manifest)`).
  agentgateFetch: rule<[reason: string]>(SOURCES.agentgateManifest),
  agentgateJSON: rule<[message: string]>(SOURCES.agentgateManifest),
  agentgateObject: rule(SOURCES.agentgateManifest),
  agentgateVersion: rule<[value: unknown, supported: string]>(SOURCES.agentgateManifest),
  agentgateSite: rule(SOURCES.agentgateManifest),
  agentgateTools: rule(SOURCES.agentgateManifest),
  islandAgentGate: rule<[value: unknown]>(SOURCES.islandAgentGate),
  // Admin tools (the admin registry, registry/sources/admin-registry.ts).
  adminOnlyBinding: rule<[type: string]>(SOURCES.adminTools),
  adminInvokeTarget: rule<[target: string]>(SOURCES.capellAdmin),
  adminSignedOut: rule(SOURCES.adminTools),
  adminFetch: rule<[reason: string]>(SOURCES.adminTools),
  adminRegistry: rule<[problem: string]>(SOURCES.capellAdmin),
  // AgentGate tools.
  toolObject: rule(SOURCES.agentgateTool),
  toolName: rule<[name: unknown]>(SOURCES.mcpName),
  toolString: rule(SOURCES.agentgateTool),
  toolDescription: rule<[length: number]>(SOURCES.agentgateTool),
  annotationsObject: rule(SOURCES.agentgateTool),
  hintBoolean: rule<[value: unknown]>(SOURCES.agentgateTool),
  action: rule(SOURCES.agentgateEndpoint),
  endpointObject: rule(SOURCES.agentgateEndpoint),
  endpointMethod: rule<[method: unknown, sendable: string]>(SOURCES.agentgateEndpoint),
  endpointContentType: rule<[value: unknown]>(SOURCES.agentgateEndpoint),
  endpointUrl: rule<[url: string]>(SOURCES.agentgateEndpoint),
  endpointOrigin: rule<[url: string, origin: string]>(SOURCES.agentgateEndpoint),
  endpointRoute: rule<[url: string, what: string]>(SOURCES.agentgateEndpoint),
  handoffPoll: rule<[value: unknown]>(SOURCES.agentgateHandoff),
  authList: rule(SOURCES.agentgateAuth),
  authType: rule<[type: unknown]>(SOURCES.agentgateAuth),
  authComponents: rule(SOURCES.agentgateAuth),
  authComponent: rule<[component: unknown]>(SOURCES.agentgateAuth),
  authTag: rule<[tag: unknown, type: string]>(SOURCES.agentgateAuth),
  receiptsObject: rule(SOURCES.agentgateReceipts),
  receiptsHeader: rule<[value: unknown]>(SOURCES.agentgateReceipts),
  receiptsURL: rule<[url: string, origin: string]>(SOURCES.agentgateReceipts),
};

/** Every reason code, e.g. `'fragment'`. */
export type ReasonCode = keyof typeof RULES;

/** The arguments a code's reason carries after `[field, code]`, e.g. `[target: string]` for `fragment`. */
export type ReasonArgs<Code extends ReasonCode> = (typeof RULES)[Code] extends Rule<infer Args> ? Args : never;
