/**
 * The Capell declaration normaliser's rules: one raw declaration in, a ToolSpec or every reason
 * it was rejected out, as coded Reasons (rendered by reason-text.ts only when needed). Pure (no
 * DOM, no network) so the browser and the CLI reach the same verdict; `normalise.ts` is the
 * rendering front the CLI and the library use.
 *
 * The `$ref` graph checks (ref-checks.ts) are passed in, not imported: the runtime's start-up
 * code holds none of them and loads them only for a declaration whose schemas have a `$ref`
 * (`checkCapellDeclarationAsync`); the CLI, the library and the tests pass `REF_CHECKS`.
 */
import { normaliseBinding } from './binding-policy.js';
import { bindingRow } from '../bindings/registry.js';
import { CURSOR_HINT, CURSOR_INPUT, CURSOR_SCHEMA } from './paging.js';
import { resolveDescription, type Messages } from './i18n.js';
import { validateCapellName } from './names.js';
import { checkOutputSchema, normaliseInputSchema, readEmptyArrays, RefChecksNeeded, type RefChecks } from './schema-policy.js';
import type { Reason } from './reason.js';
import type { Binding, Effect, JSONSchema, ToolAnnotations, ToolSpec } from './tool-spec.js';
import { isPlainObject } from '../is-plain-object.js';
import { primitives } from '../../start/primitives.js';

/** Core's normaliser: the keys a declaration may have. */
export const ALLOWED_DECLARATION_KEYS: ReadonlySet<string> = new Set([
  'name', 'description', 'descriptionKey', 'inputSchema', 'outputSchema', 'effect', 'binding', 'ownerPackage',
]);

/** The context a declaration is read in. */
export interface NormaliseContext {
  /** Label for the Report, e.g. `capell-island[0]`. */
  source: string;
  /** The page's origin, e.g. `https://shop.example`; endpoint targets must stay on it. */
  origin: string;
  /** Translations for `descriptionKey` (the manifest island's `messages`). */
  messages: Messages;
  /**
   * True only for the admin registry (registry/sources/admin-registry.ts): its declarations may have the
   * admin binding `admin-invoke` (its normaliser sets it), and their calls carry the editor's session (ToolSpec.session).
   */
  adminRegistry?: boolean;
}

/** The outcome of checking one declaration; never thrown. */
export type CheckResult =
  | { ok: true; spec: ToolSpec }
  | { ok: false; name: string; reasons: Reason[] };

function annotationsFor(effect: Effect): ToolAnnotations {
  // Capell Agent Schema: public tools are read-only unless they declare effect: write.
  return effect === 'read' ? { readOnlyHint: true } : { readOnlyHint: false, consequentialHint: true };
}

/**
 * What a declaration's shape yields: its `effect`, `binding`, `inputSchema` and `outputSchema`
 * checked under one context (origin, admin registry or not). The same for every declaration that
 * shares the shape, so a catalogue's tools (500 search tools with one schema) are checked once
 * per shape (ShapeMemo). Frozen, with its binding and a frozen copy of a valid inputSchema: a
 * memo hands it to many tools, and the inputSchema goes to `registerTool`, which a page's script
 * can wrap; what it changes there must become neither that tool's nor another tool's checked schema.
 */
interface ShapeVerdict {
  effect?: Effect;
  effectReasons: readonly Reason[];
  binding?: Binding;
  bindingReasons: readonly Reason[];
  /** The normalised `inputSchema`, with the runtime's `cursor` added where it applies (paging.ts). */
  inputSchema: JSONSchema;
  /** The runtime added `cursor`: a call with it follows a link an earlier answer handed out. */
  pagesByLinks: boolean;
  inputReasons: readonly Reason[];
  /** The `outputSchema` as checked (PHP's `[]` read as `{}`), or undefined when absent. */
  outputSchema: unknown;
  outputReasons: readonly Reason[];
  /** What the shape has beside the seed that Capell's packages write (rules.ts, "Warnings"). */
  warnings: readonly Reason[];
}

/** Checks a declaration's shape (ShapeVerdict). @throws as checkCapellDeclaration does. */
function checkShape(raw: Record<string, unknown>, context: NormaliseContext, refChecks?: RefChecks): ShapeVerdict {
  const effect = raw.effect === 'read' || raw.effect === 'write' ? raw.effect : undefined;
  const binding = normaliseBinding(raw.binding, effect, context.origin, context.adminRegistry === true);
  const inputRead = readEmptyArrays(raw.inputSchema, 'inputSchema');
  const outputRead = readEmptyArrays(raw.outputSchema, 'outputSchema');
  const input = normaliseInputSchema(inputRead.schema, refChecks);
  const output = checkOutputSchema(outputRead.schema, refChecks);
  let inputSchema = input.schema;
  let pagesByLinks = false;
  // Not for a root built from $ref or combinators (cursor would be "additional" there), nor where
  // the site declares a `cursor` of its own (then it is the site's query parameter).
  const paged = effect === 'read' && binding.binding !== undefined && bindingRow(binding.binding.type)?.pagesByLinks === true;
  if (paged && input.reasons.length === 0 && !PAGINATION_EXEMPT.some((keyword) => keyword in inputSchema)) {
    const properties = isPlainObject(inputSchema.properties) ? { ...inputSchema.properties } : {};
    if (!Object.hasOwn(properties, CURSOR_INPUT)) {
      properties[CURSOR_INPUT] = CURSOR_SCHEMA;
      inputSchema = { ...inputSchema, properties };
      pagesByLinks = true;
    }
  }
  return Object.freeze({
    effect,
    effectReasons: Object.freeze<Reason[]>(effect ? [] : [['effect', 'effect', raw.effect]]),
    binding: binding.binding && Object.freeze(binding.binding),
    bindingReasons: Object.freeze(binding.reasons ?? []),
    // A schema that passed the policy nests at most 32 levels: copying it cannot overflow.
    inputSchema: input.reasons.length === 0 ? frozenCopy(inputSchema) : inputSchema,
    pagesByLinks,
    inputReasons: Object.freeze(input.reasons),
    outputSchema: output.reasons.length === 0 ? frozenCopy(outputRead.schema) : outputRead.schema,
    outputReasons: Object.freeze(output.reasons),
    warnings: Object.freeze([...inputRead.warnings, ...input.warnings, ...outputRead.warnings, ...output.warnings]),
  });
}

/**
 * A frozen copy of a JSON value, every object and array in it copied and frozen: the caller's
 * own objects (the page's declaration, or a library caller's) are neither shared nor frozen.
 * Keys are copied as data properties (`__proto__` included). @returns the copy.
 */
function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  return Object.freeze(Object.fromEntries(Object.keys(value).map((key) => [key, frozenCopy((value as Record<string, unknown>)[key])]))) as T;
}

/** The root keywords under which the runtime's `cursor` is not added. */
const PAGINATION_EXEMPT = ['$ref', 'anyOf', 'oneOf', 'allOf', 'not'];

/** Distinct shapes a ShapeMemo keeps; later ones are checked each time. */
const SHAPE_MEMO_ENTRIES = 256;
/** Longest shape text, in UTF-16 code units, a ShapeMemo keys on; a longer shape is checked each time. */
const SHAPE_KEY_MAX_CHARS = 8192;
/**
 * A `null` outside a string in JSON text: JSON.stringify writes `null` for Infinity too (JSON.parse
 * reads `1e400` as Infinity), so a shape that holds a bare null is not memoised.
 */
const BARE_NULL = /[[:,]null/;

/**
 * Verdicts of declaration shapes already checked in one page's declarations (checkShape), keyed
 * by the shape's JSON text and the context. Only for declarations parsed from JSON text, as the
 * tools islands' are (registry/sources/capell-islands.ts): their JSON text is exact, but for
 * Infinity (written as `null`, so not memoised) and -0 (written as 0, which the rules and their
 * texts treat alike: a reason may quote 0 for -0). Not
 * used while a page's script gives objects or arrays a `toJSON` (their text would not be
 * theirs). Bounded: SHAPE_MEMO_ENTRIES shapes of at most SHAPE_KEY_MAX_CHARS each.
 */
export class ShapeMemo {
  readonly #verdicts = new Map<string, ShapeVerdict>();

  /** The verdict of `raw`'s shape under `context`: remembered, or checked now. @throws as checkShape. */
  verdict(raw: Record<string, unknown>, context: NormaliseContext, refChecks?: RefChecks): ShapeVerdict {
    const key = shapeKey(raw, context);
    if (key === undefined) return checkShape(raw, context, refChecks);
    let verdict = this.#verdicts.get(key);
    if (verdict === undefined) {
      verdict = checkShape(raw, context, refChecks);
      if (this.#verdicts.size < SHAPE_MEMO_ENTRIES) this.#verdicts.set(key, verdict);
    }
    return verdict;
  }
}

/** The memo key of `raw`'s shape under `context`, or undefined when it must be checked afresh. */
function shapeKey(raw: Record<string, unknown>, context: NormaliseContext): string | undefined {
  // Object.prototype and Array.prototype are the only prototypes JSON.parse gives.
  if ('toJSON' in Object.prototype || 'toJSON' in Array.prototype) return undefined;
  let text: string | undefined;
  try {
    // An absent member is left out, a present null written: they are told apart.
    text = primitives.stringify({ e: raw.effect, b: raw.binding, i: raw.inputSchema, o: raw.outputSchema });
  } catch {
    return undefined;
  }
  if (text === undefined || text.length > SHAPE_KEY_MAX_CHARS || BARE_NULL.test(text)) return undefined;
  return `${context.adminRegistry === true ? 'admin' : 'page'} ${context.origin} ${text}`;
}

/**
 * Checks and normalises one Capell tool declaration (Capell Agent Schema, "Tool declarations", and Core's
 * normaliser rules): allowed keys; `name` (Core's pattern and WebMCP's); `description` or a
 * translated `descriptionKey`, 1–500 code points; `effect` `read` | `write`; `binding` rules;
 * `inputSchema` / `outputSchema` under the schema policy. Collects every reason (coded), never throws.
 * Reads of a binding whose row says `pagesByLinks` (Core's API: endpoint, search, property-query)
 * get the runtime's optional `cursor` input and a sentence on it in their description
 * (paging.ts), unless their root is a `$ref` or a combinator or they declare a `cursor` themselves.
 * @param refChecks the `$ref` graph checks (`REF_CHECKS` of ref-checks.ts, or `await
 *   loadRefChecks()`); needed only when `needsRefChecks(raw)`.
 * @param memo verdicts of shapes already checked on this page (ShapeMemo); the verdict is the
 *   same with or without it (but that a reason may quote 0 for -0). Tools that share a shape then
 *   share its normalised `inputSchema` object. With or without a memo, a valid declaration's
 *   `inputSchema` and `binding` are frozen copies (ShapeVerdict); `raw` is left as it was.
 * @throws TypeError when a schema has a local `$ref` and `refChecks` is missing (a caller's
 *   mistake; every rule's own verdict is a reason, never a throw).
 * @example
 * checkCapellDeclaration({ name: 'page.get', description: 'This page', effect: 'read',
 *   binding: { type: 'inline', target: 'page' } }, { source: 'capell-island[0]', origin, messages: {} })
 * // → { ok: true, spec: { name: 'page.get', inputSchema: { type: 'object', additionalProperties: false }, … } }
 */
export function checkCapellDeclaration(raw: unknown, context: NormaliseContext, refChecks?: RefChecks, memo?: ShapeMemo): CheckResult {
  if (!isPlainObject(raw)) return { ok: false, name: '', reasons: [['declaration', 'declarationObject']] };
  const name = typeof raw.name === 'string' ? raw.name : '';
  const reasons: Reason[] = [];
  for (const key in raw) {
    if (Object.hasOwn(raw, key) && !ALLOWED_DECLARATION_KEYS.has(key)) reasons.push([key, 'declarationKey', [...ALLOWED_DECLARATION_KEYS].join(', ')]);
  }
  const naming = validateCapellName(raw.name);
  reasons.push(...naming.reasons);
  const description = resolveDescription(raw, context.messages);
  if (description.reasons) reasons.push(...description.reasons);
  const shape = memo ? memo.verdict(raw, context, refChecks) : checkShape(raw, context, refChecks);
  reasons.push(...shape.effectReasons);
  if (raw.ownerPackage !== undefined && typeof raw.ownerPackage !== 'string') reasons.push(['ownerPackage', 'string']);
  reasons.push(...shape.bindingReasons, ...shape.inputReasons, ...shape.outputReasons);
  if (reasons.length > 0 || !shape.effect || !shape.binding || description.description === undefined) {
    return { ok: false, name, reasons };
  }
  const spec: ToolSpec = {
    name,
    description: shape.pagesByLinks ? `${description.description} ${CURSOR_HINT}` : description.description,
    inputSchema: shape.inputSchema,
    annotations: annotationsFor(shape.effect),
    effect: shape.effect,
    binding: shape.binding,
    source: context.source,
    messages: context.messages,
  };
  if (shape.outputSchema !== undefined) spec.outputSchema = shape.outputSchema as JSONSchema;
  const warnings = [...naming.warnings, ...shape.warnings];
  if (warnings.length > 0) spec.warnings = Object.freeze(warnings);
  if (context.adminRegistry === true) spec.session = true;
  if (shape.pagesByLinks) spec.pagesByLinks = true;
  return { ok: true, spec };
}

/**
 * Whether checking a declaration needs the `$ref` graph checks: true when its `inputSchema` or
 * `outputSchema` holds a `"$ref"` key anywhere (a cheap over-estimate: a property named `$ref`
 * also counts; a schema that cannot be serialised is rejected before any `$ref` is looked at).
 */
export function needsRefChecks(raw: unknown): boolean {
  if (!isPlainObject(raw)) return false;
  return [raw.inputSchema, raw.outputSchema].some((schema) => {
    try {
      return JSON.stringify(schema)?.includes('"$ref"') ?? false;
    } catch {
      return false;
    }
  });
}

let refChecksLoading: Promise<RefChecks> | undefined;
let refChecksLoaded: RefChecks | undefined;

/**
 * Loads the `$ref` graph checks (a chunk of their own in the script-tag build), once per page.
 * @returns the checks to pass to `checkCapellDeclaration`.
 * @throws (rejects) when the chunk cannot be loaded; a later call tries again.
 */
function loadRefChecks(): Promise<RefChecks> {
  refChecksLoading ??= import('./ref-checks.js').then(
    (module) => (refChecksLoaded = module.REF_CHECKS),
    (error: unknown) => {
      refChecksLoading = undefined;
      throw error;
    },
  );
  return refChecksLoading;
}

/**
 * Runs a check that takes the `$ref` graph checks only when a schema needs them: without them
 * first (the policy walk finds every `$ref`), and again once they are loaded when it turned out
 * to need them (`RefChecksNeeded`). Synchronous for a schema without `$ref`, so start-up pays
 * neither a scan for `$ref` nor a microtask per declaration.
 * @param check e.g. `(refChecks) => checkCapellDeclaration(raw, context, refChecks)`.
 * @returns its verdict, or a promise of it when the checks had to be loaded.
 * @throws (rejects) when the `$ref` checks chunk cannot be loaded; rethrows any other error of `check`.
 */
export function checkWithRefChecksLoaded<T>(check: (refChecks?: RefChecks) => T): T | Promise<T> {
  if (refChecksLoaded) return check(refChecksLoaded);
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RefChecksNeeded)) throw error;
    return loadRefChecks().then(check);
  }
}

/**
 * The runtime's entry: `checkCapellDeclaration` with the `$ref` graph checks loaded first when
 * the declaration needs them, so a page without `$ref` never loads them.
 * @param memo the page's ShapeMemo, if any (see checkCapellDeclaration).
 * @returns the same verdict as `checkCapellDeclaration(raw, context, REF_CHECKS)`: synchronously
 *   when no schema has a `$ref` (or the checks are already loaded), else a promise.
 * @throws (rejects) only when the `$ref` checks chunk cannot be loaded.
 */
export function checkCapellDeclarationLazily(raw: unknown, context: NormaliseContext, memo?: ShapeMemo): CheckResult | Promise<CheckResult> {
  return checkWithRefChecksLoaded((refChecks) => checkCapellDeclaration(raw, context, refChecks, memo));
}

/**
 * `checkCapellDeclarationLazily`, always as a promise.
 * @returns the same verdict as `checkCapellDeclaration(raw, context, REF_CHECKS)`.
 * @throws (rejects) only when the `$ref` checks chunk cannot be loaded.
 */
export async function checkCapellDeclarationAsync(raw: unknown, context: NormaliseContext): Promise<CheckResult> {
  return checkCapellDeclarationLazily(raw, context);
}
