/**
 * A Node agent's use of `capell-webmcp/agent`, as docs/agentgate.md ("The agent's side") shows
 * it: compiles with the package's declarations under Bundler and Node16 resolution.
 */
import { createAgent, type Agent, type AgentOptions, type AgentReceipt, type CallToolResult } from 'capell-webmcp/agent';

const options: AgentOptions = {
  privateJwk: { kty: 'OKP', crv: 'Ed25519', x: 'x', d: 'd' },
  signatureAgent: 'https://agent.example/.well-known/http-message-signatures-directory',
  sharedKeys: { 'https://shop.example': { keyid: 'issued-id', secret: 'c2VjcmV0LXNlY3JldC1zZWNyZXQ=' } },
  maxPrice: '0.05 USD',
  budget: '1.00 USD',
  mode: 'intent',
};
declare const session: { send(method: string, params?: object): Promise<unknown>; on(event: string, listener: (params: unknown) => void): unknown };
declare const page: { url(): string; evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> };
const agent: Agent = createAgent(options);
await agent.attach(session);
const result: CallToolResult = await agent.callTool(page, 'send_message', { id: 'order-7f3a-0001', message: 'hello' }, { signal: AbortSignal.timeout(1000) });
const receipts: AgentReceipt[] = agent.receipts();
await agent.detach();

export { result, receipts };
