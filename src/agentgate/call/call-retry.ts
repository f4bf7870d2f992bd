/**
 * Which AgentGate calls are sent again after a network failure: only a
 * tool the site declared safe to repeat, once, with the same body. A network failure leaves the
 * agent not knowing whether the site acted; repeating a tool that is not idempotent could act twice.
 */
import type { ToolSpec } from '../../shared/declarations/tool-spec.js';
import type { RequestOutcome } from '../../registry/request.js';

/**
 * Whether a tool may be sent again with the same body: its MCP annotations say
 * `idempotentHint: true` (AgentGate's `send_message`: "Retrying with the same id and message is
 * safe"), or `readOnlyHint: true` (MCP: a read-only tool changes nothing, so repeating it has no
 * further effect). Anything else, including no annotations, is not.
 */
export function isRetryable(spec: Pick<ToolSpec, 'annotations' | 'hints'>): boolean {
  return spec.hints?.idempotentHint === true || spec.annotations.readOnlyHint === true;
}

/**
 * Sends once, and once more when the first send failed at the network level (`network`: no
 * answer, the connection broke) and the tool is retryable. A timeout, an abort or any HTTP answer
 * is never sent again here. `send` builds and signs each request anew, so the second one carries
 * a fresh signature and nonce over the same body.
 * @returns the last outcome; never throws (request.ts never does).
 */
export async function sendWithNetworkRetry(send: () => Promise<RequestOutcome>, retryable: boolean): Promise<RequestOutcome> {
  const first = await send();
  if (first.ok || first.failure !== 'network' || !retryable) return first;
  return send();
}
