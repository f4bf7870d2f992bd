/**
 * A rejection reason before it is rendered: the field it is about, a code naming the broken rule,
 * and the rule's arguments. Start-up code records reasons in this form so that the texts
 * (reason-text.ts) load only when something is rejected.
 */
import type { ReasonArgs, ReasonCode } from './rules.js';

/** `[field, code, ...args]`, type-checked against the rule catalogue (rules.ts). */
export type Reason = {
  [Code in ReasonCode]: readonly [field: string, code: Code, ...args: ReasonArgs<Code>];
}[ReasonCode];

/**
 * A Rejection (report.ts) whose reasons may still be coded: text from the platform (a host error)
 * is kept as a string; the runtime renders the coded ones before `ready` resolves.
 */
export interface PendingRejection {
  name: string;
  source: string;
  reasons: (string | Reason)[];
}

/** A registered tool's declaration warnings (ToolSpec.warnings), still coded, by tool name. */
export interface PendingWarning {
  name: string;
  warnings: readonly Reason[];
}
