/**
 * `capell-webmcp/agent`: the agent's side of AgentGate, for agents that drive Chromium with
 * Playwright or Puppeteer (Node only). The table of contents:
 * - `createAgent(options)` → `{ attach, callTool, receipts, detach }` (create-agent.ts);
 * - its options (agent-options.ts), receipts (receipt-book.ts), results (page-tool.ts);
 * - the pieces an agent of another shape can reuse: request signing (sign-request.ts), the
 *   agent's purse (money.ts), JSON equality of intents (json-equal.ts).
 */
export { createAgent, type Agent, type AgentHooks, type CallToolOptions } from './create-agent.js';
export { type AgentMode, type AgentOptions, type Ed25519PrivateJwk, type SharedKey } from './agent-options.js';
export { type AgentTarget, type BrowserContextLike, type CDPSessionLike, type PageLike } from './cdp-target.js';
export { type AgentReceipt } from './receipt-book.js';
export { type CallToolResult } from './page-tool.js';
export { type NetworkEvent } from './network-layer.js';
export { createPurse, formatMoney, parseMoney, type Money, type PaymentDecision, type Purse } from './money.js';
export { jsonEqual } from './json-equal.js';
export { signOutgoingRequest, type OutgoingRequest, type SignPlan, type SignedHeaders } from './sign-request.js';
