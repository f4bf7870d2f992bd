/**
 * capell-webmcp: the library entry. Importing it has no side effects; call `start()`.
 * For the script-tag build that starts itself, see `auto.ts`.
 */
export { start, type Runtime } from './runtime.js';
export {
  DEFAULT_API_BASE, DEFAULT_CONFIRM_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, type AuditOption, type LogLevel, type RuntimeConfig,
  type RuntimeOptions,
} from './config.js';
export type { AuditEntry, HostAPI, Rejection, Report } from './report.js';
export type { CallToolResult } from './result.js';
export type { Binding, BindingType, Effect, JSONSchema, JSONValue, ToolAnnotations, ToolSpec } from './declarations/tool-spec.js';
export { normaliseCapellDeclaration, type NormaliseContext, type NormaliseResult } from './declarations/normalise.js';
export type { CapellConfirmWrite, ConfirmWriteProposal } from './ui/capell-confirm-write.js';
export { VERSION } from './version.js';
// What an AgentGate call's result carries beside the answer (`structuredContent.receipt`).
export type { ReceiptResult } from './agentgate/receipt.js';
