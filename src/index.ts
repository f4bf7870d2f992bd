/**
 * capell-webmcp: the library entry. Importing it has no side effects; call `start()`.
 * For the script-tag build that starts itself, see `auto.ts`.
 */
export { start, type Runtime } from './start/runtime.js';
export {
  DEFAULT_API_BASE, DEFAULT_CONFIRM_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, type AuditOption, type LogLevel, type RuntimeConfig,
  type RuntimeOptions,
} from './start/config.js';
export type { AuditEntry, HostAPI, Rejection, Report } from './start/report.js';
export type { CallToolResult } from './registry/result.js';
export type { Binding, BindingType, Effect, JSONSchema, JSONValue, ToolAnnotations, ToolSpec } from './shared/declarations/tool-spec.js';
export { normaliseCapellDeclaration, type NormaliseContext, type NormaliseResult } from './shared/declarations/normalise.js';
export type { CapellConfirmWrite, ConfirmWriteProposal } from './panel/capell-confirm-write.js';
export { VERSION } from './start/version.js';
// What an AgentGate call's result carries beside the answer (`structuredContent.receipt`).
export type { ReceiptResult } from './agentgate/call/receipt.js';
