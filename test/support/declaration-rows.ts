/**
 * The rows of the Capell declaration normaliser table: one row per rule, accepted and rejected.
 * Each row cites its source rule from the rule catalogue (src/shared/declarations/rules.ts): the Capell
 * Agent Schema ("Tool declarations"), what Core's normaliser accepts, WebMCP, MCP Tool, JSON Schema
 * and the runtime validator's bounds. Shared by the unit table (test/unit/normalise.test.ts,
 * test/unit/rules.test.ts) and the CLI/runtime parity test
 * (test/e2e/cli-runtime-parity.on.spec.ts), so both judge the same declarations.
 */
import { SOURCES, type RuleSource } from '../../src/shared/declarations/rules.ts';

/** The page origin the rows are judged on (endpoint targets must stay on it). */
export const ORIGIN = 'https://shop.example';

/** A valid declaration; each row changes it. */
export const BASE_DECLARATION = {
  name: 'catalogue.lookup',
  description: 'Look up a catalogue product by SKU.',
  inputSchema: { type: 'object', properties: { sku: { type: 'string' } }, additionalProperties: false },
  outputSchema: { type: 'object' },
  effect: 'read',
  binding: { type: 'endpoint', target: '/agent/v1/catalogue/lookup' },
};

/**
 * One rule: `source` is the source rule it checks (a citation of the rule catalogue,
 * src/shared/declarations/rules.ts; a rejecting row's matching reason cites it, test/unit/rules.test.ts);
 * `change` is applied to BASE_DECLARATION (a key set to `undefined` is removed);
 * `messages` are the translations; `rejects` matches one of the reasons when the rule rejects;
 * `warns` matches one of the warnings of a declaration that is accepted with warnings (and an
 * accepted row without `warns` has none).
 */
export type DeclarationRow = {
  rule: string; source: RuleSource; change: Record<string, unknown>; messages?: Record<string, string>; rejects?: RegExp; warns?: RegExp;
};

function withBinding(type: string, target: string, effect = 'read'): Record<string, unknown> {
  return { binding: { type, target }, effect };
}

/** The rows, one per rule. */
export const DECLARATION_ROWS: DeclarationRow[] = [
  // Allowed keys (Core normaliser).
  { rule: 'a declaration with every allowed key is accepted', source: SOURCES.declarationKeys, change: { ownerPackage: 'vendor/catalogue' } },
  { rule: 'an unknown key is rejected', source: SOURCES.declarationKeys, change: { handler: 'App\\Tool@run' }, rejects: /^handler: not an allowed declaration key/ },
  { rule: 'an annotations key is not a Capell declaration key', source: SOURCES.declarationKeys, change: { annotations: { readOnlyHint: true } }, rejects: /^annotations: not an allowed/ },
  // Name: Core's pattern and WebMCP's.
  { rule: 'a lowercase dotted name is accepted', source: SOURCES.name, change: { name: 'form.submit.contact2', ...withBinding('form', 'contact', 'write') } },
  { rule: 'a name with a space is rejected', source: SOURCES.name, change: { name: 'Catalogue Lookup' }, rejects: /^name: "Catalogue Lookup" is not a lowercase dotted name/ },
  { rule: 'a name without a dot is rejected', source: SOURCES.name, change: { name: 'lookup' }, rejects: /^name: "lookup" is not a lowercase dotted name/ },
  { rule: 'a name with a zero-width space is rejected', source: SOURCES.name, change: { name: 'tool\u200bname' }, rejects: /^name: / },
  { rule: 'a name with a colon is rejected', source: SOURCES.name, change: { name: 'form:submit' }, rejects: /^name: / },
  { rule: 'a "-" inside a segment (form-builder\'s form.submit.capell-form-<uuid>) is accepted with a warning', source: SOURCES.capellPackages, change: { name: 'form.submit.capell-form-3f2b9c1e-8d4a-4b7e-9c1f-2a6d5e8b7c40', ...withBinding('form', 'capell-form-3f2b9c1e-8d4a-4b7e-9c1f-2a6d5e8b7c40', 'write') }, warns: /^name: "form\.submit\.capell-form-3f2b9c1e[^"]*" has "-" or "_" inside a segment/ },
  { rule: 'a "_" inside a segment (the admin\'s admin.page.agent_readiness.read) is accepted with a warning', source: SOURCES.capellPackages, change: { name: 'admin.page.agent_readiness.read' }, warns: /^name: "admin\.page\.agent_readiness\.read" has "-" or "_" inside a segment/ },
  { rule: 'a "-" at the end of a segment is rejected', source: SOURCES.name, change: { name: 'form.submit-' }, rejects: /^name: "form\.submit-" is not a lowercase dotted name/ },
  { rule: 'an upper-case name is rejected', source: SOURCES.name, change: { name: 'Site.Search' }, rejects: /^name: "Site\.Search" is not a lowercase dotted name/ },
  { rule: 'a name of 129 characters is rejected', source: SOURCES.webmcpName, change: { name: `a.${'b'.repeat(127)}` }, rejects: /^name: 129 characters, at most 128/ },
  { rule: 'a name of 128 characters is accepted', source: SOURCES.webmcpName, change: { name: `a.${'b'.repeat(126)}` } },
  { rule: 'a missing name is rejected', source: SOURCES.name, change: { name: undefined }, rejects: /^name: required/ },
  // Description.
  { rule: 'a description of 500 code points is accepted', source: SOURCES.descriptionLength, change: { description: '😀'.repeat(500) } },
  { rule: 'a description of 501 code points is rejected', source: SOURCES.descriptionLength, change: { description: 'x'.repeat(501) }, rejects: /^description: 501 code points, at most 500/ },
  { rule: 'an empty description is rejected', source: SOURCES.descriptionLength, change: { description: '' }, rejects: /^description: empty/ },
  { rule: 'a missing description is rejected', source: SOURCES.description, change: { description: undefined }, rejects: /^description: required/ },
  { rule: 'a right-to-left description passes through unchanged', source: SOURCES.description, change: { description: '\u202Eابحث في الكتالوج' } },
  { rule: 'a descriptionKey with a translation is accepted', source: SOURCES.description, change: { description: undefined, descriptionKey: 'vendor-catalogue::agent.lookup' }, messages: { 'vendor-catalogue::agent.lookup': 'Look up a product.' } },
  { rule: 'a descriptionKey without a translation is rejected', source: SOURCES.description, change: { description: undefined, descriptionKey: 'vendor-catalogue::agent.lookup' }, rejects: /^descriptionKey: no translation for "vendor-catalogue::agent.lookup"/ },
  // Effect.
  { rule: 'a missing effect is rejected', source: SOURCES.effect, change: { effect: undefined }, rejects: /^effect: required, must be "read" or "write"/ },
  { rule: 'an effect other than read or write is rejected', source: SOURCES.effect, change: { effect: 'delete' }, rejects: /^effect: required, must be "read" or "write" \(got "delete"\)/ },
  // Binding keys and types.
  { rule: 'a binding with an extra key is rejected', source: SOURCES.bindingShape, change: { binding: { type: 'endpoint', target: '/agent/v1/x', method: 'POST' } }, rejects: /^binding\.method: not allowed/ },
  { rule: 'a callback binding type is rejected', source: SOURCES.bindingData, change: { binding: { type: 'callback', target: 'run' } }, rejects: /^binding\.type: "callback" is not one of/ },
  { rule: 'a binding without target is rejected', source: SOURCES.bindingShape, change: { binding: { type: 'endpoint' } }, rejects: /^binding\.target: required/ },
  { rule: 'a target with "::" is rejected', source: SOURCES.bindingData, change: withBinding('search', 'vendor::search'), rejects: /^binding\.target: "vendor::search" contains "::"/ },
  { rule: 'a target with a control character is rejected', source: SOURCES.bindingShape, change: withBinding('endpoint', '/agent/v1/x\u0000'), rejects: /^binding\.target: contains control characters/ },
  // Inline.
  { rule: 'inline target page is accepted', source: SOURCES.inlineTarget, change: withBinding('inline', 'page') },
  { rule: 'inline with another target is rejected', source: SOURCES.inlineTarget, change: withBinding('inline', 'menu'), rejects: /^binding\.target: the inline binding is reserved/ },
  { rule: 'inline cannot write', source: SOURCES.publicReads, change: withBinding('inline', 'page', 'write'), rejects: /^effect: a inline binding is read-only/ },
  // Endpoint targets: same-origin paths.
  { rule: 'an origin-relative path is accepted', source: SOURCES.endpointTargets, change: withBinding('endpoint', '/agent/v1/navigation') },
  { rule: 'a protocol-relative URL is rejected', source: SOURCES.endpointTargets, change: withBinding('endpoint', '//evil.example/x'), rejects: /^binding\.target: "\/\/evil\.example\/x" is not an origin-relative path/ },
  { rule: 'an absolute URL is rejected', source: SOURCES.endpointTargets, change: withBinding('endpoint', 'https://evil.example/x'), rejects: /^binding\.target: .* is not an origin-relative path/ },
  { rule: 'a fragment is rejected', source: SOURCES.endpointTargets, change: withBinding('endpoint', '/agent/v1/x#frag'), rejects: /^binding\.target: "\/agent\/v1\/x#frag" contains a fragment/ },
  { rule: 'a backslash path that browsers read as // is rejected', source: SOURCES.endpointTargets, change: withBinding('endpoint', '/\\evil.example/x'), rejects: /^binding\.target: .* is not an origin-relative path/ },
  { rule: 'a path with .. segments is rejected', source: SOURCES.endpointTargets, change: { binding: { type: 'endpoint', target: '/..//evil.example/x' }, effect: 'read' }, rejects: /contains "\." or "\.\." path segments/ },
  { rule: 'a path with %2e-encoded dot segments is rejected', source: SOURCES.endpointTargets, change: { binding: { type: 'endpoint', target: '/agent/%2e%2e/admin' }, effect: 'read' }, rejects: /contains "\." or "\.\." path segments/ },
  { rule: 'a path with an encoded slash is rejected (a decoding proxy reads %2f..%2f as a dot segment)', source: SOURCES.endpointTargets, change: { binding: { type: 'endpoint', target: '/agent/v1%2f..%2f..%2fadmin' }, effect: 'read' }, rejects: /contains an encoded slash or backslash \(%2F, %5C\) in its path/ },
  { rule: 'a path with an encoded backslash is rejected', source: SOURCES.endpointTargets, change: { binding: { type: 'endpoint', target: '/agent/v1%5C..%5Cadmin' }, effect: 'read' }, rejects: /contains an encoded slash or backslash/ },
  { rule: 'dots inside a segment are fine', source: SOURCES.endpointTargets, change: { binding: { type: 'endpoint', target: '/agent/v1/file.v2..json' }, effect: 'read' } },
  { rule: 'whitespace in a path is rejected', source: SOURCES.endpointTargets, change: withBinding('endpoint', '/agent/v1/a b'), rejects: /contains whitespace/ },
  { rule: 'a javascript: URL is rejected', source: SOURCES.endpointTargets, change: withBinding('endpoint', 'javascript:alert(1)'), rejects: /is not an origin-relative path/ },
  // Identifier targets.
  { rule: 'a search identifier is accepted', source: SOURCES.identifierTargets, change: withBinding('search', 'pages') },
  { rule: 'a search selector is rejected', source: SOURCES.identifierTargets, change: withBinding('search', '#pages'), rejects: /^binding\.target: "#pages" is not a stable identifier/ },
  { rule: 'a property-query identifier is accepted', source: SOURCES.identifierTargets, change: withBinding('property-query', 'product') },
  { rule: 'a form DOM id is accepted with effect write', source: SOURCES.identifierTargets, change: withBinding('form', 'contact', 'write') },
  { rule: 'a form selector is rejected', source: SOURCES.identifierTargets, change: withBinding('form', 'form.contact > input', 'write'), rejects: /is not a stable identifier/ },
  { rule: 'a read form binding is rejected', source: SOURCES.writeForms, change: withBinding('form', 'contact', 'read'), rejects: /^effect: a form binding must declare effect "write"/ },
  // Admin tools: only the admin registry (fetched with the editor's session) may bind admin-invoke.
  { rule: 'a tools island declaring an admin-invoke binding is rejected', source: SOURCES.adminTools, change: withBinding('admin-invoke', 'admin.page.terms.write', 'write'), rejects: /^binding\.type: "admin-invoke" is an admin binding: only the admin registry/ },
  { rule: 'a write search binding is rejected', source: SOURCES.publicReads, change: withBinding('search', 'pages', 'write'), rejects: /^effect: a search binding is read-only/ },
  // Schemas.
  { rule: 'a missing inputSchema means no arguments', source: SOURCES.rootObject, change: { inputSchema: undefined } },
  { rule: 'an inputSchema with a non-object root is rejected', source: SOURCES.rootObject, change: { inputSchema: { type: 'string' } }, rejects: /^inputSchema\/type: the root must be "object"/ },
  { rule: 'an unsupported schema keyword is rejected', source: SOURCES.schemaKeywords, change: { inputSchema: { type: 'object', patternProperties: { '^x': {} } } }, rejects: /^inputSchema\/patternProperties: unsupported schema keyword/ },
  { rule: 'an unsupported nested keyword is rejected', source: SOURCES.schemaKeywords, change: { inputSchema: { type: 'object', properties: { a: { type: 'array', contains: { type: 'string' } } } } }, rejects: /^inputSchema\/properties\/a\/contains: unsupported/ },
  // What Capell's own packages write beside the seed: registered, with a warning.
  { rule: 'uniqueItems (the admin\'s) is accepted with a warning', source: SOURCES.capellPackages, change: { inputSchema: { type: 'object', properties: { a: { type: 'array', uniqueItems: true, maxItems: 20 } } } }, warns: /^inputSchema\/properties\/a\/uniqueItems: uniqueItems is not in Core's keyword allow-list/ },
  { rule: 'a uniqueItems that is not a boolean is rejected', source: SOURCES.schemaValues, change: { inputSchema: { type: 'object', properties: { a: { type: 'array', uniqueItems: 'yes' } } } }, rejects: /^inputSchema\/properties\/a\/uniqueItems: must be true or false/ },
  { rule: 'PHP\'s [] as the whole inputSchema is read as {} with a warning', source: SOURCES.capellPackages, change: { inputSchema: [] }, warns: /^inputSchema: \[\] \(PHP's empty array\)/ },
  { rule: 'PHP\'s [] as properties is read as {} with a warning', source: SOURCES.capellPackages, change: { inputSchema: { type: 'object', properties: [], required: [], additionalProperties: false } }, warns: /^inputSchema\/properties: \[\] \(PHP's empty array\)/ },
  { rule: 'PHP\'s [] as the outputSchema is read as {} with a warning', source: SOURCES.capellPackages, change: { outputSchema: [] }, warns: /^outputSchema: \[\] \(PHP's empty array\)/ },
  { rule: 'a non-empty array where a schema is expected is still rejected', source: SOURCES.schemaValues, change: { inputSchema: { type: 'object', properties: { a: [{ type: 'string' }] } } }, rejects: /^inputSchema\/properties\/a: / },
  { rule: 'a property named like a keyword is not a keyword', source: SOURCES.schemaKeywords, change: { inputSchema: { type: 'object', properties: { uniqueItems: { type: 'boolean' } } } } },
  { rule: 'a remote $ref is rejected', source: SOURCES.localRefs, change: { inputSchema: { type: 'object', properties: { a: { $ref: 'https://evil.example/s.json' } } } }, rejects: /not a local reference/ },
  { rule: 'a local $ref that does not resolve is rejected', source: SOURCES.refResolution, change: { inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } } }, rejects: /does not resolve/ },
  { rule: 'a local $ref to $defs is accepted', source: SOURCES.refResolution, change: { inputSchema: { type: 'object', properties: { query: { $ref: '#/$defs/Q' } }, $defs: { Q: { type: 'object' } } } } },
  { rule: 'an invalid pattern is rejected', source: SOURCES.patternSyntax, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '(' } } } }, rejects: /inputSchema\/properties\/a\/pattern: "\(" is not a valid regular expression/ },
  { rule: 'a keyword of the wrong type is rejected', source: SOURCES.schemaValues, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', maxLength: '5' } } } }, rejects: /maxLength: must be a non-negative integer/ },
  { rule: 'an unknown type name is rejected', source: SOURCES.schemaValues, change: { inputSchema: { type: 'object', properties: { a: { type: 'text' } } } }, rejects: /type: must be a JSON type name/ },
  { rule: 'a type array is accepted', source: SOURCES.schemaValues, change: { inputSchema: { type: 'object', properties: { note: { type: ['string', 'null'] } } } } },
  { rule: '$schema draft-07 is accepted', source: SOURCES.dialect, change: { inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#' } } },
  { rule: '$schema 2020-12 is accepted', source: SOURCES.dialect, change: { inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } } },
  { rule: 'an unknown $schema is rejected', source: SOURCES.dialect, change: { inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#' } }, rejects: /is not JSON Schema 2020-12 or draft-07/ },
  { rule: 'a schema nested deeper than 32 levels is rejected', source: SOURCES.validatorFinishes, change: { inputSchema: { type: 'object', properties: { a: nest(40) } } }, rejects: /nested deeper than 32 levels/ },
  { rule: 'a default or const value nested deeper than the schema depth limit is rejected (Chromium refuses it with RangeError; found by the fuzzer)', source: SOURCES.validatorFinishes, change: { inputSchema: { type: 'object', properties: { a: { const: JSON.parse('['.repeat(200) + ']'.repeat(200)) } } } }, rejects: /^inputSchema\/properties\/a\/const: schema nested deeper than 32 levels/ },
  { rule: 'an enum value nested as deep as the limit allows is accepted', source: SOURCES.validatorFinishes, change: { inputSchema: { type: 'object', properties: { a: { enum: [JSON.parse('['.repeat(20) + ']'.repeat(20))] } } } } },
  { rule: 'a schema over 64 KiB is rejected', source: SOURCES.validatorFinishes, change: { inputSchema: { type: 'object', description: 'x'.repeat(70_000) } }, rejects: /at most 65536 allowed/ },
  { rule: 'a $ref with a malformed %-escape is rejected, not thrown', source: SOURCES.refResolution, change: { inputSchema: { type: 'object', properties: { a: { $ref: '#/%E0' } } } }, rejects: /"#\/%E0" does not resolve/ },
  { rule: 'a $ref to something that is not a schema is rejected', source: SOURCES.refResolution, change: { inputSchema: { type: 'object', required: ['a'], properties: { a: { $ref: '#/required' } } } }, rejects: /"#\/required" points at something that is not a schema/ },
  // Patterns run through the linear-time matcher, so no pattern can freeze the tab: nested
  // quantifiers are safe, what it cannot run is refused.
  { rule: 'a pattern with nested quantifiers is accepted: the linear matcher cannot backtrack', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } } } },
  { rule: 'a slug pattern whose repetitions start with an optional atom is accepted (it froze the tab with a backtracking matcher)', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^[a-z0-9]+(?:[._-]?[a-z0-9]+)*$' } } } } },
  { rule: 'a slug pattern whose repetitions start with a literal is accepted', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' } } } } },
  { rule: 'a pattern with a lookahead is rejected', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '(?=.*\\d).+' } } } }, rejects: /pattern: "\(\?=\.\*\\\\d\)\.\+" uses a lookahead, which the runtime's linear-time matcher does not run/ },
  { rule: 'a pattern with a lookbehind is rejected', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '(?<!x)y' } } } }, rejects: /uses a lookbehind/ },
  { rule: 'a pattern with a backreference is rejected', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '(a)\\1' } } } }, rejects: /pattern: "\(a\)\\\\1" uses a backreference/ },
  { rule: 'a pattern with a named backreference is rejected', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '(?<q>a)\\k<q>' } } } }, rejects: /uses a backreference/ },
  { rule: 'a pattern over 10000 matcher states is rejected', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^(?:[a-z]{1,100}){100}$' } } } }, rejects: /needs more than 10000 matcher states/ },
  { rule: 'patterns that each fit but together need more than 20000 matcher states in one schema are rejected (a start-up task of 200-365 ms otherwise)', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: Object.fromEntries([1, 2, 3].map((n) => [`p${n}`, { type: 'string', pattern: `^(?:[a-z]{1,44}){1,100}${n}$` }])) } }, rejects: /^inputSchema\/properties\/p3\/pattern: "\^\(\?:\[a-z\]\{1,44\}\)\{1,100\}3\$" and the schema's other patterns need more than 20000 matcher states together/ },
  { rule: 'one pattern repeated in a schema counts toward the 20000 matcher states once', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`p${n}`, { type: 'string', pattern: '^(?:[a-z]{1,44}){1,100}7$' }])) } } },
  { rule: 'the input and the output schema each have their own 20000 matcher states', source: SOURCES.linearPatterns, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^(?:[a-z]{1,44}){1,100}1$' }, b: { type: 'string', pattern: '^(?:[a-z]{1,44}){1,100}2$' } } }, outputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^(?:[a-z]{1,44}){1,100}3$' }, b: { type: 'string', pattern: '^(?:[a-z]{1,44}){1,100}4$' } } } } },
  { rule: 'a $ref with a percent-escaped pointer (#/%24defs/a) is accepted, and the validator resolves it', source: SOURCES.refResolution, change: { inputSchema: { type: 'object', properties: { q: { $ref: '#/%24defs/a' } }, $defs: { a: { type: 'string' } } } } },
  { rule: 'a format named like a JavaScript built-in is rejected', source: SOURCES.formatNames, change: { inputSchema: { type: 'object', properties: { a: { type: 'string', format: 'hasOwnProperty' } } } }, rejects: /format: "hasOwnProperty" is a JavaScript built-in name/ },
  { rule: 'a schema that fans out through $ref is rejected', source: SOURCES.validatorFinishes, change: { inputSchema: fanOut(16) }, rejects: /more than 10000 subschema evaluations/ },
  { rule: 'an anyOf of 2500 consts is accepted: the call-time work bound decides', source: SOURCES.validatorFinishes, change: { inputSchema: { type: 'object', properties: { a: { type: 'array', items: { anyOf: Array.from({ length: 2500 }, (_, i) => ({ const: `v${i}` })) } } } } } },
  { rule: 'an enum of 7000 members is accepted: the call-time work bound decides', source: SOURCES.validatorFinishes, change: { inputSchema: { type: 'object', properties: { a: { type: 'array', items: { enum: Array.from({ length: 7000 }, (_, i) => `v${i}`) } } } } } },
  { rule: 'a schema no value of which could be checked within the work bound is rejected', source: SOURCES.validatorFinishes, change: { inputSchema: { type: 'object', properties: { v: { $ref: '#/$defs/e' }, w: { anyOf: Array.from({ length: 400 }, () => ({ $ref: '#/$defs/e' })) } }, $defs: { e: { enum: Array.from({ length: 4000 }, (_, i) => i) } } } }, rejects: /^inputSchema: checking one value of this shape would take more than 1500000 units of work/ },
  { rule: 'a root $ref to a non-object schema is rejected', source: SOURCES.rootObject, change: { inputSchema: { $ref: '#/$defs/S', $defs: { S: { type: 'string' } } } }, rejects: /^inputSchema\/\$ref: the root must be "object"/ },
  { rule: 'an outputSchema with an unsupported keyword is rejected', source: SOURCES.schemaKeywords, change: { outputSchema: { type: 'object', if: {} } }, rejects: /^outputSchema\/if: unsupported schema keyword/ },
];

/** Each level `anyOf` two `$ref`s to the next: small to write, 2^levels evaluations to check. */
function fanOut(levels: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = { l0: { type: 'string' } };
  for (let level = 1; level <= levels; level++) $defs[`l${level}`] = { anyOf: [{ $ref: `#/$defs/l${level - 1}` }, { $ref: `#/$defs/l${level - 1}` }] };
  return { type: 'object', properties: { v: { $ref: `#/$defs/l${levels}` } }, $defs };
}

function nest(depth: number): Record<string, unknown> {
  return depth === 0 ? { type: 'string' } : { type: 'object', properties: { x: nest(depth - 1) } };
}

/** BASE_DECLARATION with a row's change applied. */
export function declarationFor(change: Record<string, unknown>): Record<string, unknown> {
  const declaration: Record<string, unknown> = { ...BASE_DECLARATION };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete declaration[key];
    else declaration[key] = value;
  }
  return declaration;
}
