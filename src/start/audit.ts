/**
 * The audit: interactive public surfaces of a page that no tool declaration covers.
 * Capell Agent Schema, "Tool declarations": "An interactive public surface that has no declaration
 * produces an audit warning … A package may use agent_tools: none with a human-readable reason for
 * an intentionally non-actionable surface. The audit can be configured to fail as an error."
 *
 * Pure over a minimal DOM (`querySelectorAll`, `getAttribute`), so the same function runs on
 * `document` in the browser (start-up chunk: keep it small) and on a parsed HTML document in Node
 * (the CLI's `audit`).
 */
import { builtIn, callBuiltIn } from './dom-builtin.js';
import type { AuditEntry } from './report.js';

/**
 * Marks an element (a button, a link, …) as an action surface. Its value names the tool that
 * covers it, e.g. `<button data-capell-action="cart.add">`; an empty value names none.
 */
export const ACTION_ATTRIBUTE = 'data-capell-action';

/** `data-agent-tools="none"` marks a surface as intentionally not actionable by agents. */
export const AGENT_TOOLS_ATTRIBUTE = 'data-agent-tools';

/** The human-readable reason that must go with `data-agent-tools="none"`. */
export const AGENT_TOOLS_REASON_ATTRIBUTE = 'data-agent-tools-reason';

/** How an audit finding is reported: `'error'` for stricter environments. */
export type AuditLevel = AuditEntry['level'];

/** The part of an element the audit reads (a DOM `Element`, or a Node DOM's such as linkedom's). */
interface AuditElement {
  readonly tagName: string;
  getAttribute(name: string): string | null;
}

/** The part of a document the audit reads (a DOM `Document` or `ParentNode`). */
export interface AuditRoot {
  querySelectorAll(selectors: string): ArrayLike<AuditElement>;
}

/**
 * What the page's declarations cover: tool names (for `data-capell-action`) and form-binding
 * targets (form ids). Built from the raw declarations, rejected ones included: a surface whose
 * declaration failed is reported by that rejection, not a second time by the audit.
 */
interface AuditCoverage {
  names: ReadonlySet<string>;
  formIds: ReadonlySet<string>;
}

/** The binding type whose target is a `<form>`'s id (its row's PageElement). */
export const FORM_BINDING = 'form';

/**
 * Collects the coverage of raw declarations (as read from the islands or a capell.json), valid or
 * not. Entries that are not objects, or lack a string `name` / form `binding.target`, add nothing.
 * Never throws.
 * @example coverageOf([{ name: 'form.submit.capell-form-contact', binding: { type: 'form', target: 'capell-form-contact' } }])
 * // → { names: Set {'form.submit.capell-form-contact'}, formIds: Set {'capell-form-contact'} }
 */
export function coverageOf(declarations: readonly unknown[]): AuditCoverage {
  const names = new Set<string>();
  const formIds = new Set<string>();
  for (const declaration of declarations as ({ name?: unknown; binding?: { type?: unknown; target?: unknown } } | null)[]) {
    if (typeof declaration?.name === 'string') names.add(declaration.name);
    const binding = declaration?.binding;
    // The binding rows whose target is a form's id (shared/bindings/registry.ts, PageElement): named
    // here, not read from the table, which the 5 KB first load cannot hold;
    // test/unit/binding-registry.test.ts holds the two together.
    if (binding?.type === FORM_BINDING && typeof binding.target === 'string') formIds.add(binding.target);
  }
  return { names, formIds };
}

/**
 * Audits the interactive public surfaces of a page: every `<form>` and every element carrying
 * `data-capell-action`, in document order.
 *
 * A surface is fine when it is declared, or marked `data-agent-tools="none"` with a non-empty
 * `data-agent-tools-reason`. Declared means: a form whose `id` is the target of a form-binding
 * declaration; a form with a non-empty native `toolname` (declarative WebMCP, which the browser
 * registers itself); an element whose `data-capell-action` value is a declared tool's name.
 * Anything else is one entry at `level`; so is `none` without a reason (empty or blank), and any
 * other `data-agent-tools` value.
 *
 * `surface` is `tag#id`, else `form[i]` (its index in `document.forms`), else
 * `tag[data-capell-action="value"]`. Pure; never throws.
 * @param level `'warning'`, or `'error'` (the runtime's `data-audit="error"`). @default 'warning'
 * @example
 * auditSurfaces(document, coverageOf(declarations))
 * // → [{ level: 'warning', surface: 'form#notify', message: 'no tool declaration covers this form, …' }]
 */
export function auditSurfaces(root: AuditRoot, coverage: AuditCoverage, level: AuditLevel = 'warning'): AuditEntry[] {
  const entries: AuditEntry[] = [];
  let forms = 0;
  for (const element of Array.from(callBuiltIn<ArrayLike<AuditElement>>(root, 'querySelectorAll', `form,[${ACTION_ATTRIBUTE}]`))) {
    // Past DOM clobbering: a form's field may be named getAttribute or tagName (dom-builtin.ts).
    const read = (name: string) => callBuiltIn<string | null>(element, 'getAttribute', name);
    const attribute = (name: string) => read(name)?.trim() || '';
    const tag = builtIn<string>(element, 'tagName').toLowerCase();
    const id = attribute('id');
    const action = attribute(ACTION_ATTRIBUTE);
    const isForm = tag === 'form';
    const surface = id ? `${tag}#${id}` : isForm ? `form[${forms}]` : `${tag}[${ACTION_ATTRIBUTE}="${action}"]`;
    if (isForm) forms++;
    const marker = read(AGENT_TOOLS_ATTRIBUTE);
    let message: string | undefined;
    if (marker !== null) {
      // A typo ("None") or a missing reason must not silence a surface.
      if (marker !== 'none' || !attribute(AGENT_TOOLS_REASON_ATTRIBUTE)) {
        message = `${AGENT_TOOLS_ATTRIBUTE}="${marker}": only "none" with a non-empty ${AGENT_TOOLS_REASON_ATTRIBUTE} marks a surface as not actionable`;
      }
    } else if (!(isForm && ((id && coverage.formIds.has(id)) || attribute('toolname'))) && !(action && coverage.names.has(action))) {
      message = `no tool declaration covers this ${isForm ? 'form' : `action${action ? ` ("${action}" is not declared)` : ''}`}, and it is not marked ${AGENT_TOOLS_ATTRIBUTE}="none"`;
    }
    if (message) entries.push({ level, surface, message });
  }
  return entries;
}
