/**
 * fast-check generators of hostile Capell tools islands: what a page may put in `<script
 * type="application/json" data-capell-agent-tools>`. A generated page is the texts of its islands,
 * in document order; each text is built as text, not through JSON.stringify of a value, so that it
 * can be nested deeper than any recursive serialiser goes, carry `__proto__` keys as JSON members,
 * and carry unpaired surrogates raw as well as escaped.
 *
 * Kinds (`islandText`): any text; random JSON; a manifest whose tools are random JSON, mutated
 * valid declarations (one change each), repeated and near-duplicate names, `__proto__` /
 * `constructor` / `prototype` members, unpaired surrogates, huge strings and deep nesting; and a
 * manifest of thousands of tools.
 */
import fc from 'fast-check';

/** Members a hostile page puts where a parser may treat them specially. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Keys the runtime reads somewhere (manifest, declaration, binding, JSON Schema), to hit its paths. */
const KNOWN_KEYS = [
  'capellAgentSchema', 'tools', 'messages', 'agentgate', 'name', 'description', 'descriptionKey', 'inputSchema', 'outputSchema', 'effect',
  'binding', 'ownerPackage', 'type', 'target', 'properties', 'required', 'items', 'additionalProperties', '$ref', '$defs', 'definitions',
  'enum', 'const', 'default', 'pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'anyOf', 'allOf', 'oneOf', 'not',
  'if', 'then', 'else', 'patternProperties', 'propertyNames', 'dependentSchemas', 'prefixItems', 'contains', 'toString', 'valueOf',
  'hasOwnProperty', 'toJSON', 'then',
] as const;

/** One unpaired UTF-16 surrogate (a high or a low half on its own). */
export const loneSurrogate: fc.Arbitrary<string> = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/** Short strings of any code points, with unpaired surrogates, NUL, line separators and the prototype keys mixed in. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 3 }), loneSurrogate), { maxLength: 6 }).map((parts) => parts.join('')),
  fc.constantFrom(...PROTOTYPE_KEYS, '', ' ', '\u0000', '\u2028', '\u2029', '\ufeff', '::', '//evil.example/x', 'javascript:alert(1)', '</script>'),
);

/** Object keys: the prototype keys, keys the runtime reads, and hostile strings. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 3, arbitrary: fc.constantFrom(...KNOWN_KEYS) },
  { weight: 2, arbitrary: hostileString },
);

/** A JSON string literal of `value`; unpaired surrogates come out escaped (`\udc00`), as JSON.stringify writes them. */
function quote(value: string): string {
  return JSON.stringify(value);
}

/** A JSON object's text from members given as text; keys may repeat (JSON.parse keeps the last). */
function objectText(members: readonly (readonly [string, string])[]): string {
  return `{${members.map(([key, value]) => `${quote(key)}:${value}`).join(',')}}`;
}

const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.constantFrom('-0', '1e308', '-1e308', '1e-324', '9007199254740993', '0.1', '1E400', '123456789012345678901234567890'),
);

/** Random JSON text (any value, up to a small depth), with hostile keys and strings. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('null', 'true', 'false'),
    numberText,
    hostileString.map(quote),
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 5 }).map(objectText),
  ),
})).value;

/** Valid declarations (the demo's kinds: inline, search, endpoint read, endpoint write, form), as values. */
export const TEMPLATES: readonly Record<string, unknown>[] = [
  { name: 'page.get', description: 'Read the structured public data for this page.', inputSchema: { type: 'object', additionalProperties: false }, outputSchema: { type: 'object' }, effect: 'read', binding: { type: 'inline', target: 'page' } },
  {
    name: 'catalogue.search', description: 'Search the published pages.',
    inputSchema: { type: 'object', properties: { q: { type: 'string', minLength: 1, maxLength: 200 }, type: { type: 'string', enum: ['page', 'product'] } }, required: ['q'], additionalProperties: false },
    effect: 'read', binding: { type: 'search', target: 'pages' },
  },
  {
    name: 'catalogue.lookup', descriptionKey: 'vendor-catalogue::agent.lookup',
    inputSchema: { type: 'object', properties: { sku: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{4}$' } }, required: ['sku'], additionalProperties: false },
    effect: 'read', binding: { type: 'endpoint', target: '/agent/v1/catalogue/lookup' },
  },
  {
    name: 'newsletter.subscribe', description: 'Subscribe an email address to the newsletter.',
    inputSchema: { type: 'object', properties: { email: { type: 'string', format: 'email', maxLength: 254 } }, required: ['email'], additionalProperties: false },
    effect: 'write', binding: { type: 'endpoint', target: '/agent/v1/newsletter' },
  },
  {
    name: 'form.submit.enquiry', description: 'Send the enquiry form.',
    inputSchema: { type: 'object', properties: { name: { type: 'string', maxLength: 80 }, message: { type: 'string', maxLength: 2000 } }, required: ['name'], additionalProperties: false },
    effect: 'write', binding: { type: 'form', target: 'enquiry-form' },
  },
  {
    name: 'site.navigation', description: 'List the pages of this site.',
    inputSchema: { type: 'object', properties: { node: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { id: { type: 'string' } } } }, additionalProperties: false },
    effect: 'read', binding: { type: 'endpoint', target: '/agent/v1/navigation' },
  },
];

/** The messages member that resolves the templates' descriptionKey. */
export const MESSAGES: Readonly<Record<string, string>> = { 'vendor-catalogue::agent.lookup': 'Look up a product by SKU.' };
const MESSAGES_TEXT = JSON.stringify(MESSAGES);

/** Names that are valid, and ones one character away from a valid or an earlier name. */
export const nearDuplicateName: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom('site.search', 'page.get', 'catalogue.lookup', 'a.b', 'capell.write.status', 'agentgate.receipts', 'agentgate.handoff.status'),
  fc.constantFrom<(name: string) => string>(
    (name) => name,
    (name) => name.toUpperCase(),
    (name) => `${name} `,
    (name) => `${name}\u200b`,
    (name) => name.replace('e', '\u0435'), // Cyrillic е
    (name) => name.replace('.', '..'),
    (name) => `${name}.`,
    (name) => name.replace('.', '_'),
    (name) => name.replace('.', '-'),
    (name) => `${name}.${'a'.repeat(128 - name.length - 1)}`, // exactly 128 characters
    (name) => `${name}.${'a'.repeat(128 - name.length)}`, // 129 characters
    (name) => name.normalize('NFD'),
    (name) => `${name}2`,
  ),
).map(([name, change]) => change(name));

/** A path to a member of a template, and what one mutation does there. */
type Mutation =
  | { op: 'delete'; path: string[] }
  | { op: 'set'; path: string[]; text: string }
  | { op: 'add'; path: string[]; key: string; text: string };

/** Every member path of `value` (objects only), root first. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return [prefix, ...Object.entries(value).flatMap(([key, child]) => [[...prefix, key], ...paths(child, [...prefix, key]).slice(1)])];
}

/** The text of `value` with `mutation` applied where its path leads (members written as text, so a `__proto__` key stays a member). */
function mutatedText(value: unknown, mutation: Mutation, at: string[] = []): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return JSON.stringify(value);
  const target = mutation.path;
  const members: [string, string][] = [];
  for (const [key, child] of Object.entries(value)) {
    const here = [...at, key];
    const onPath = target.length >= here.length && here.every((part, index) => part === target[index]);
    if (onPath && here.length === target.length) {
      if (mutation.op === 'delete') continue;
      if (mutation.op === 'set') {
        members.push([key, mutation.text]);
        continue;
      }
    }
    members.push([key, onPath ? mutatedText(child, mutation, here) : JSON.stringify(child)]);
  }
  if (mutation.op === 'add' && target.length === at.length && target.every((part, index) => part === at[index])) members.push([mutation.key, mutation.text]);
  return objectText(members);
}

/** A valid declaration with exactly one mutation: a member deleted, replaced by random JSON or a hostile string, or one added. */
export const mutatedDeclarationText: fc.Arbitrary<string> = fc.constantFrom(...TEMPLATES).chain((template) => {
  const memberPaths = paths(template).filter((path) => path.length > 0);
  const objectPaths = paths(template);
  const replacement = fc.oneof(jsonText, hostileString.map(quote), nearDuplicateName.map(quote));
  return fc.oneof(
    fc.constantFrom(...memberPaths).map((path): Mutation => ({ op: 'delete', path })),
    fc.tuple(fc.constantFrom(...memberPaths), replacement).map(([path, text]): Mutation => ({ op: 'set', path, text })),
    fc.tuple(fc.constantFrom(...objectPaths), hostileKey, replacement).map(([path, key, text]): Mutation => ({ op: 'add', path, key, text })),
  ).map((mutation) => mutatedText(template, mutation));
});

/** A valid declaration renamed (repeated and near-duplicate names across and within islands). */
export const renamedDeclarationText: fc.Arbitrary<string> = fc.tuple(fc.constantFrom(...TEMPLATES), nearDuplicateName)
  .map(([template, name]) => JSON.stringify({ ...template, name }));

/** A string of `length` code units repeating `unit` (a huge description, name, target or pattern). */
export const hugeString: fc.Arbitrary<string> = fc.tuple(
  fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), loneSurrogate, fc.constant('a')),
  // 10 000 to 1 280 000 code units, each doubling as likely as the next.
  fc.integer({ min: 0, max: 7 }).chain((doublings) => fc.integer({ min: 10_000 * 2 ** doublings, max: 10_000 * 2 ** (doublings + 1) })),
).map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

/** A template with one member set to a huge string. */
export const hugeStringDeclarationText: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom(...TEMPLATES), fc.constantFrom<string[]>(['name'], ['description'], ['binding', 'target'], ['inputSchema', 'properties', 'q', 'pattern'], ['inputSchema', 'properties', 'email', 'format']), hugeString,
).map(([template, path, text]) => mutatedText(template, { op: 'set', path, text: quote(text) }));

/** Nesting `depth` deep: arrays, objects, or a JSON Schema whose properties nest (as text: no recursion builds it). */
export const deepDeclarationText: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom('array', 'object', 'schema', 'items', 'ref-chain'),
  fc.integer({ min: 50, max: 20_000 }),
).map(([kind, depth]) => {
  const head = '{"name":"deep.tool","description":"Deep.","effect":"read","binding":{"type":"endpoint","target":"/agent/v1/deep"},"inputSchema":';
  switch (kind) {
    case 'array': return `${head}{"type":"object","default":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    case 'object': return `${head}{"type":"object","x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
    case 'schema': return `${head}${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}}`;
    case 'items': return `${head}{"type":"object","properties":{"a":${'{"type":"array","items":'.repeat(depth)}{"type":"string"}${'}'.repeat(depth)}}}}`;
    default: {
      // $defs d0 → d1 → … → dN: a long chain of references.
      const defs = Array.from({ length: depth }, (_, index) => `"d${index}":${index + 1 < depth ? `{"$ref":"#/$defs/d${index + 1}"}` : '{"type":"string"}'}`).join(',');
      return `${head}{"type":"object","properties":{"a":{"$ref":"#/$defs/d0"}},"$defs":{${defs}}}}`;
    }
  }
});

/** A declaration: random JSON, mutated or renamed (the huge and the deep ones come one per page, pageIslands). */
export const declarationText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: jsonText },
  { weight: 6, arbitrary: mutatedDeclarationText },
  { weight: 3, arbitrary: renamedDeclarationText },
);

/** A manifest island: version 1 (mostly), tools, messages, and stray members (prototype keys among them). */
export const manifestText: fc.Arbitrary<string> = fc.tuple(
  fc.oneof({ weight: 8, arbitrary: fc.constant('1') }, { weight: 1, arbitrary: jsonText }),
  fc.array(declarationText, { maxLength: 8 }),
  fc.oneof(fc.constant(MESSAGES_TEXT), jsonText),
  fc.array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS, 'extra'), jsonText), { maxLength: 2 }),
).map(([version, tools, messages, extra]) => objectText([['capellAgentSchema', version], ['tools', `[${tools.join(',')}]`], ['messages', messages], ...extra]));

/** Thousands of tools in one island: valid ones with distinct names, near-duplicates and mutated ones among them. */
export const thousandsOfToolsText: fc.Arbitrary<string> = fc.tuple(
  fc.integer({ min: 1_000, max: 4_000 }),
  fc.array(declarationText, { maxLength: 20 }),
  fc.integer({ min: 0, max: TEMPLATES.length - 1 }),
).map(([count, mixed, first]) => {
  const tools = Array.from({ length: count }, (_, index) => JSON.stringify({ ...TEMPLATES[(first + index) % TEMPLATES.length], name: `bulk.tool${index % Math.max(1, count - 7)}` }));
  mixed.forEach((text, index) => tools.splice((index * 197) % tools.length, 0, text));
  return objectText([['capellAgentSchema', '1'], ['tools', `[${tools.join(',')}]`], ['messages', MESSAGES_TEXT]]);
});

/** Replaces escaped unpaired surrogates by the raw code units (JSON.parse reads both). */
function rawSurrogates(text: string): string {
  return text.replace(/\\u(d[89a-f][0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** One island's text, of any kind above; surrogates escaped or raw. */
export const islandText: fc.Arbitrary<string> = fc.tuple(
  fc.oneof(
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 2, arbitrary: jsonText },
    { weight: 12, arbitrary: manifestText },
    { weight: 1, arbitrary: fc.constantFrom('{"capellAgentSchema":1,"tools":[', '[]', '', '{"__proto__":{"polluted":1},"capellAgentSchema":1,"tools":[]}', '{"constructor":{"prototype":{"polluted":1}},"capellAgentSchema":1,"tools":[]}') },
  ),
  fc.boolean(),
).map(([text, raw]) => (raw ? rawSurrogates(text) : text));

/** A manifest holding `special` among a few ordinary declarations. */
function manifestWith(special: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.array(declarationText, { maxLength: 3 }), special, fc.nat()).map(([tools, one, at]) => {
    tools.splice(at % (tools.length + 1), 0, one);
    return objectText([['capellAgentSchema', '1'], ['tools', `[${tools.join(',')}]`], ['messages', MESSAGES_TEXT]]);
  });
}

/**
 * A page: one to three islands; now and then one of them holds a huge string or deep nesting,
 * rarely one holds thousands of tools (the costly kinds, weighted so that a run averages about
 * 0.1 s here).
 */
export const pageIslands: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 30, arbitrary: fc.array(islandText, { minLength: 1, maxLength: 3 }) },
  { weight: 3, arbitrary: fc.tuple(manifestWith(hugeStringDeclarationText), fc.array(islandText, { maxLength: 1 })).map(([special, rest]) => [...rest, special]) },
  { weight: 3, arbitrary: fc.tuple(manifestWith(deepDeclarationText), fc.array(islandText, { maxLength: 1 })).map(([special, rest]) => [special, ...rest]) },
  { weight: 1, arbitrary: fc.tuple(thousandsOfToolsText, fc.array(islandText, { maxLength: 1 })).map(([bulk, rest]) => [bulk, ...rest]) },
);
