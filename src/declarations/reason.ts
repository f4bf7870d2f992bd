/**
 * A rejection reason before it is rendered: the field it is about, a code naming the broken rule,
 * and the rule's arguments. Start-up code records reasons in this form so that the texts
 * (reason-text.ts) load only when something is rejected.
 */
import type { ReasonTexts } from './reason-text.js';

/** `[field, code, ...args]`, type-checked against the text catalogue. */
export type Reason = {
  [Code in keyof ReasonTexts]: readonly [field: string, code: Code, ...args: Parameters<ReasonTexts[Code]>];
}[keyof ReasonTexts];

/**
 * A Rejection (report.ts) whose reasons may still be coded: text from the platform (a host error)
 * is kept as a string; the runtime renders the coded ones before `ready` resolves.
 */
export interface PendingRejection {
  name: string;
  source: string;
  reasons: (string | Reason)[];
}
