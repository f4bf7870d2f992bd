/**
 * The binding registry: one row per binding type, the only place a type is listed. A row gives
 * - `policy`: what a declaration of the type may say: the effects it allows and `check`, the
 *   rules for its target and effect (coded Reasons; binding-policy.ts runs it during normalisation);
 * - `executors`: per allowed effect, a loader of its executor (`() => import(...)`), so this module
 *   stays in the start-up chunk while reads and writes load in their own chunks on the first call;
 * - `reasonCodes`: every code its `check` can produce (their texts are in reason-text.ts).
 * The type lists (BINDING_TYPES, READ_BINDING_TYPES, WRITE_BINDING_TYPES) and `BindingType` are
 * derived from it. Adding a binding type is one executor module and one row here
 * (test/unit/binding-registry.test.ts fails when a row lacks a part).
 * Capell Agent Schema, "Tool declarations". A new binding type is one new module plus one line here.
 * Never import an executor module statically here: this table runs at start-up.
 */
import type { Reason } from '../declarations/reason.js';
import type { Effect } from '../declarations/tool-spec.js';
import type { BindingExecutor } from './binding-executor.js';
import { validateAgentGateEndpoint } from './agentgate-endpoint.js';
import { checkAdminInvokeTarget } from './admin-invoke-target.js';
import { checkIdentifierTarget, checkInlineTarget, validateEndpointTarget } from './targets.js';
import { WIRE_MODEL_ATTRIBUTES } from '../form-control-rule.js';

/** A reason code (the catalogue's key), e.g. `identifier`. */
type ReasonCode = Reason[1];

/**
 * What a declaration of one binding type may say.
 * - `effects`: the effects it may declare;
 * - `check(target, effect, origin)`: the rules of this type for a target that already is a
 *   non-empty string free of control characters and `::`, and for the declared `effect`
 *   (`undefined` when the effect itself is invalid: no effect rule then). `origin` is the page's
 *   origin (e.g. `https://shop.example`). Returns coded Reasons, `[]` when the binding is allowed;
 *   an effect outside `effects` gives a reason on the field `effect`.
 */
interface BindingPolicy<Allowed extends Effect = Effect> {
  readonly effects: readonly Allowed[];
  check(target: string, effect: Effect | undefined, origin: string): Reason[];
}

/**
 * What the runtime reads of the page for a binding whose target is the id of one of its elements
 * (a form tool's `<form id>`):
 * - `tag`: the element's local name: the target must name one (shared/form-tool-check.ts); a
 *   `toolname` on it means the browser registers it natively (shared/registration-rules.ts); a
 *   declaration of the binding covers it in the audit (start/audit.ts, checked against this row by
 *   test/unit/binding-registry.test.ts: the audit runs in the 5 KB first load, which cannot hold
 *   this table);
 * - `controls`: the elements that take a tool's inputs, inside it or joined to it;
 * - `controlAttributes`: the attributes that tie a control to it and to an input (`name`, `form`,
 *   and form-builder's `id` and `wire:model…`: form-control-rule.ts).
 * The page observer (registry/page-observer.ts) follows all three.
 */
export interface PageElement {
  readonly tag: string;
  readonly controls: string;
  readonly controlAttributes: readonly string[];
}

/** Loads a binding's executor module (a chunk of its own in the browser build) and returns its executor. */
export type ExecutorLoader = () => Promise<BindingExecutor>;

/**
 * One binding type's row: its policy, its executor loader per allowed effect, its reason codes,
 * and two facts about it:
 * - `capell`: a Capell declaration may name it (BINDING_TYPES lists these); `agentgate` comes only
 *   from an AgentGate manifest;
 * - `adminOnly`: only a declaration of the admin registry (registry/sources/admin-registry.ts) may name it;
 *   a page's tools island that does is rejected with `adminOnlyBinding` (`admin-invoke`);
 * - `personConfirms`: its writes wait for the person's confirmation (their answer is the runtime's
 *   status, followed by `capell.write.status`); otherwise a call's answer is the site's own,
 *   checked against `outputSchema` whatever the effect;
 * - `pagesByLinks`: its reads answer Core's envelope, whose `links` page the list: they accept the
 *   runtime's `cursor` input (shared/declarations/paging.ts);
 * - `pageElement`: its target is the id of an element of the page (PageElement).
 */
export interface BindingRow {
  readonly policy: BindingPolicy;
  readonly executors: { readonly [E in Effect]?: ExecutorLoader };
  readonly reasonCodes: readonly ReasonCode[];
  readonly capell: boolean;
  readonly adminOnly?: boolean;
  readonly personConfirms: boolean;
  readonly pagesByLinks: boolean;
  readonly pageElement?: PageElement;
}

/** A read-only binding type: declaring effect `write` breaks the rule `readOnlyBinding`. */
function readOnly(type: string, checkTarget: (target: string) => Reason[]): BindingPolicy<'read'> {
  return {
    effects: ['read'],
    check: (target, effect) => [...checkTarget(target), ...(effect === 'write' ? [['effect', 'readOnlyBinding', type] as const] : [])],
  };
}

// The policies are typed constants, not expressions in the table: the table's type (and so
// BindingType) must not depend on Reason, whose catalogue lists BINDING_TYPES.
const INLINE: BindingPolicy<'read'> = readOnly('inline', checkInlineTarget);
/** Endpoint target verdicts by origin and target: pages repeat targets, each is judged once. */
const endpointVerdicts = new Map<string, readonly Reason[]>();
const ENDPOINT: BindingPolicy<'read' | 'write'> = {
  effects: ['read', 'write'],
  check: (target, _effect, origin) => {
    const key = `${origin} ${target}`;
    let verdict = endpointVerdicts.get(key);
    if (!verdict) {
      if (endpointVerdicts.size >= 1024) endpointVerdicts.clear();
      verdict = validateEndpointTarget(target, origin);
      endpointVerdicts.set(key, verdict);
    }
    return [...verdict];
  },
};
const SEARCH: BindingPolicy<'read'> = readOnly('search', checkIdentifierTarget);
const PROPERTY_QUERY: BindingPolicy<'read'> = readOnly('property-query', checkIdentifierTarget);
// Capell Agent Schema, "Navigation, forms, and admin tools": "Write tools use existing public
// forms and the browser's user-mediation flow." A form target is a DOM id, never a selector.
const FORM: BindingPolicy<'write'> = {
  effects: ['write'],
  check: (target, effect) => [...checkIdentifierTarget(target), ...(effect === 'read' ? [['effect', 'formRead'] as const] : [])],
};
// AgentGate declared tools: the tool's effect follows its readOnlyHint; either way the call is
// the agent's own signed request to the site's exact route on the page's origin.
const AGENTGATE: BindingPolicy<'read' | 'write'> = {
  effects: ['read', 'write'],
  check: (target, _effect, origin) => validateAgentGateEndpoint(target, origin),
};

/**
 * A form tool's element: its `<form>`, and the controls found for the tool's inputs by
 * form-control-rule.ts (`name`, else form-builder's `wire:model` or `<formId>-<key>` id).
 */
const FORM_ELEMENT: PageElement = { tag: 'form', controls: 'input, select, textarea, button', controlAttributes: ['name', 'form', 'id', ...WIRE_MODEL_ATTRIBUTES] };

// Capell's admin (capell-app/capell packages/admin, routes/agent.php @cdb7004 and its admin
// bridge resources/js/agent/admin-bridge.js @73e5701): every admin tool, read or write, runs
// through one route, POST /admin/agent/v1/tools/invoke with { tool, payload }; a write answers
// confirmation_required and runs only with the one-use token the editor's approval sends. The
// target is the tool's name; the admin registry's normaliser sets it, whatever binding Capell's
// definition names (Capell's own bridge ignores it too).
const ADMIN_INVOKE: BindingPolicy<'read' | 'write'> = {
  effects: ['read', 'write'],
  check: (target) => checkAdminInvokeTarget(target),
};

/** Every binding type this runtime knows, in the order the contract lists them. */
export const BINDINGS = {
  inline: {
    policy: INLINE,
    executors: { read: async () => (await import('../../call/reads/inline.js')).executeInline },
    reasonCodes: ['inlineTarget', 'readOnlyBinding'],
    capell: true,
    personConfirms: false,
    pagesByLinks: false,
  },
  endpoint: {
    policy: ENDPOINT,
    executors: {
      read: async () => (await import('../../call/reads/endpoint-read.js')).executeEndpoint,
      write: async () => (await import('../../write/endpoint/endpoint-write.js')).executeEndpointWrite,
    },
    reasonCodes: ['notOriginRelative', 'whitespace', 'fragment', 'backslash', 'dotSegments', 'badPath', 'otherOrigin'],
    capell: true,
    personConfirms: true,
    pagesByLinks: true,
  },
  search: {
    policy: SEARCH,
    executors: { read: async () => (await import('../../call/reads/search.js')).executeSearch },
    reasonCodes: ['identifier', 'readOnlyBinding'],
    capell: true,
    personConfirms: false,
    pagesByLinks: true,
  },
  'property-query': {
    policy: PROPERTY_QUERY,
    executors: { read: async () => (await import('../../call/reads/property-query.js')).executePropertyQuery },
    reasonCodes: ['identifier', 'readOnlyBinding'],
    capell: true,
    personConfirms: false,
    pagesByLinks: true,
  },
  form: {
    policy: FORM,
    executors: { write: async () => (await import('../../write/forms/form.js')).executeForm },
    reasonCodes: ['identifier', 'formRead'],
    capell: true,
    personConfirms: true,
    pagesByLinks: false,
    pageElement: FORM_ELEMENT,
  },
  agentgate: {
    policy: AGENTGATE,
    executors: {
      read: async () => (await import('../../agentgate/call/tool-call.js')).executeAgentGate,
      write: async () => (await import('../../agentgate/call/tool-call.js')).executeAgentGate,
    },
    reasonCodes: ['endpointUrl', 'endpointOrigin', 'endpointRoute'],
    capell: false,
    personConfirms: false,
    pagesByLinks: false,
  },
  'admin-invoke': {
    policy: ADMIN_INVOKE,
    executors: {
      read: async () => (await import('../../admin/admin-invoke-read.js')).executeAdminRead,
      write: async () => (await import('../../write/admin/admin-invoke-write.js')).executeAdminWrite,
    },
    reasonCodes: ['adminInvokeTarget'],
    capell: false,
    adminOnly: true,
    personConfirms: true,
    pagesByLinks: false,
  },
} as const;

// Checked apart from the table's own type (see above): every row is a BindingRow.
const ROWS: Readonly<Record<BindingType, BindingRow>> = BINDINGS;

/** A binding type name: a key of BINDINGS. */
export type BindingType = keyof typeof BINDINGS;

type EffectsOf<Type extends BindingType> = (typeof BINDINGS)[Type]['policy'] extends BindingPolicy<infer Allowed> ? Allowed : never;

/** A binding type that allows effect `read`. */
type ReadBindingType = { [Type in BindingType]: 'read' extends EffectsOf<Type> ? Type : never }[BindingType];

/** A binding type that allows effect `write` (each goes through the person's confirmation). */
type WriteBindingType = { [Type in BindingType]: 'write' extends EffectsOf<Type> ? Type : never }[BindingType];

/** The binding types a Capell declaration may name, in table order (`inline, endpoint, search, property-query, form`). */
export const BINDING_TYPES = (Object.keys(BINDINGS) as BindingType[]).filter((type) => ROWS[type].capell);

/** The Capell binding types whose policy allows `effect`, in table order. */
function bindingTypesFor(effect: Effect): BindingType[] {
  return BINDING_TYPES.filter((type) => ROWS[type].policy.effects.includes(effect));
}

/** Binding types a declaration may use with effect `read`. */
export const READ_BINDING_TYPES = bindingTypesFor('read') as ReadBindingType[];

/** Binding types a declaration may use with effect `write`. */
export const WRITE_BINDING_TYPES = bindingTypesFor('write') as WriteBindingType[];

/** The page elements binding targets may name (PageElement), one per kind, in table order. */
export const PAGE_ELEMENTS: readonly PageElement[] = [...new Set(Object.values(ROWS).flatMap((row) => (row.pageElement ? [row.pageElement] : [])))];

/**
 * The row of a binding type, or `undefined` for a name that is not one (e.g. `"graphql"`).
 * Also `agentgate`'s: callers that judge Capell declarations check `row.capell`.
 */
export function bindingRow(type: unknown): BindingRow | undefined {
  return typeof type === 'string' && Object.hasOwn(BINDINGS, type) ? ROWS[type as BindingType] : undefined;
}
