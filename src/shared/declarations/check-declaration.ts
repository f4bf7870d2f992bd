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
import { resolveDescription, type Messages } from './i18n.js';
import { validateCapellName } from './names.js';
import { checkOutputSchema, normaliseInputSchema, RefChecksNeeded, type RefChecks } from './schema-policy.js';
import type { Reason } from './reason.js';
import type { Effect, JSONSchema, ToolAnnotations, ToolSpec } from './tool-spec.js';
import { isPlainObject } from '../is-plain-object.js';

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
   * True only for the admin registry (registry/sources/admin-registry.ts): its declarations may name the
   * admin binding `admin-action`, and their calls carry the editor's session (ToolSpec.session).
   */
  adminRegistry?: boolean;
}

/** The outcome of checking one declaration; never thrown. */
export type CheckResult =
  | { ok: true; spec: ToolSpec }
  | { ok: false; name: string; reasons: Reason[] };

/** Core API bindings are paginated; their tools accept these even when the site left them out. */
const PAGINATION_PROPERTIES: Readonly<Record<string, JSONSchema>> = {
  cursor: { type: 'string', description: 'Opaque cursor from links.next or links.previous of an earlier answer.' },
  limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Items per page.' },
};

function annotationsFor(effect: Effect): ToolAnnotations {
  // Capell Agent Schema: public tools are read-only unless they declare effect: write.
  return effect === 'read' ? { readOnlyHint: true } : { readOnlyHint: false, consequentialHint: true };
}

/**
 * Checks and normalises one Capell tool declaration (Capell Agent Schema, "Tool declarations", and Core's
 * normaliser rules): allowed keys; `name` (Core's pattern and WebMCP's); `description` or a
 * translated `descriptionKey`, 1–500 code points; `effect` `read` | `write`; `binding` rules;
 * `inputSchema` / `outputSchema` under the schema policy. Collects every reason (coded), never throws.
 * Search and property-query tools get optional `cursor` and `limit` inputs they lack, unless their
 * root is a `$ref` or a combinator (every paginated tool accepts them).
 * @param refChecks the `$ref` graph checks (`REF_CHECKS` of ref-checks.ts, or `await
 *   loadRefChecks()`); needed only when `needsRefChecks(raw)`.
 * @throws TypeError when a schema has a local `$ref` and `refChecks` is missing (a caller's
 *   mistake; every rule's own verdict is a reason, never a throw).
 * @example
 * checkCapellDeclaration({ name: 'page.lookup', description: 'This page', effect: 'read',
 *   binding: { type: 'inline', target: 'page' } }, { source: 'capell-island[0]', origin, messages: {} })
 * // → { ok: true, spec: { name: 'page.lookup', inputSchema: { type: 'object', additionalProperties: false }, … } }
 */
export function checkCapellDeclaration(raw: unknown, context: NormaliseContext, refChecks?: RefChecks): CheckResult {
  if (!isPlainObject(raw)) return { ok: false, name: '', reasons: [['declaration', 'declarationObject']] };
  const name = typeof raw.name === 'string' ? raw.name : '';
  const reasons: Reason[] = [];
  for (const key of Object.keys(raw)) {
    if (!ALLOWED_DECLARATION_KEYS.has(key)) reasons.push([key, 'declarationKey', [...ALLOWED_DECLARATION_KEYS].join(', ')]);
  }
  reasons.push(...validateCapellName(raw.name));
  const description = resolveDescription(raw, context.messages);
  if (description.reasons) reasons.push(...description.reasons);
  let effect: Effect | undefined;
  if (raw.effect === 'read' || raw.effect === 'write') effect = raw.effect;
  else reasons.push(['effect', 'effect', raw.effect]);
  if (raw.ownerPackage !== undefined && typeof raw.ownerPackage !== 'string') reasons.push(['ownerPackage', 'string']);
  const binding = normaliseBinding(raw.binding, effect, context.origin, context.adminRegistry === true);
  if (binding.reasons) reasons.push(...binding.reasons);
  const input = normaliseInputSchema(raw.inputSchema, refChecks);
  reasons.push(...input.reasons);
  reasons.push(...checkOutputSchema(raw.outputSchema, refChecks));
  if (reasons.length > 0 || !effect || !binding.binding || description.description === undefined) {
    return { ok: false, name, reasons };
  }
  let inputSchema = input.schema;
  // Not for a root built from $ref or combinators: the page keys would be "additional" there.
  const paginated = binding.binding.type === 'search' || binding.binding.type === 'property-query';
  if (paginated && !['$ref', 'anyOf', 'oneOf', 'allOf', 'not'].some((keyword) => keyword in inputSchema)) {
    const properties = isPlainObject(inputSchema.properties) ? { ...inputSchema.properties } : {};
    for (const [key, schema] of Object.entries(PAGINATION_PROPERTIES)) if (!Object.hasOwn(properties, key)) properties[key] = schema;
    inputSchema = { ...inputSchema, properties };
  }
  const spec: ToolSpec = {
    name,
    description: description.description,
    inputSchema,
    annotations: annotationsFor(effect),
    effect,
    binding: binding.binding,
    source: context.source,
    messages: context.messages,
  };
  if (raw.outputSchema !== undefined) spec.outputSchema = raw.outputSchema as JSONSchema;
  if (context.adminRegistry === true) spec.session = true;
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
 * @returns the same verdict as `checkCapellDeclaration(raw, context, REF_CHECKS)`: synchronously
 *   when no schema has a `$ref` (or the checks are already loaded), else a promise.
 * @throws (rejects) only when the `$ref` checks chunk cannot be loaded.
 */
export function checkCapellDeclarationLazily(raw: unknown, context: NormaliseContext): CheckResult | Promise<CheckResult> {
  return checkWithRefChecksLoaded((refChecks) => checkCapellDeclaration(raw, context, refChecks));
}

/**
 * `checkCapellDeclarationLazily`, always as a promise.
 * @returns the same verdict as `checkCapellDeclaration(raw, context, REF_CHECKS)`.
 * @throws (rejects) only when the `$ref` checks chunk cannot be loaded.
 */
export async function checkCapellDeclarationAsync(raw: unknown, context: NormaliseContext): Promise<CheckResult> {
  return checkCapellDeclarationLazily(raw, context);
}
