/**
 * The manifest's `receipts` (AgentGate declared tools, "Find the manifest": `receipts` says where
 * the agent-native receipt header and endpoints are): the answer header a
 * receipt travels in, the site's receipt keys (a JWKS) and the endpoint that verifies a receipt.
 * Pure; the manifest rules (manifest-rules.ts) run it on each tool, so every ToolSpec of a manifest
 * that declares receipts holds where its call's receipt is checked.
 */
import type { Reason } from '../../shared/declarations/reason.js';
import { isPlainObject } from '../../shared/is-plain-object.js';

/**
 * Where a site's receipts are: `header` (an HTTP field name, e.g. `AgentGate-Receipt`), `jwks`
 * (absolute URL of the JWKS on the page's origin) and `verify` (absolute URL of the endpoint that
 * verifies a receipt, on the page's origin), as the manifest names them.
 */
export interface AgentGateReceipts {
  header: string;
  jwks: string;
  verify?: string;
}

/** An HTTP field name (RFC 9110 §5.1: a token). */
const FIELD_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;

/** `url` as an absolute http(s) URL on `origin` without user info or fragment, or the reason it is not. */
function sameOriginURL(field: string, value: unknown, origin: string): Reason | undefined {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.hash || /\s|\\/.test(String(value))) {
    return [field, 'receiptsURL', String(value), origin];
  }
  return url.origin === origin ? undefined : [field, 'receiptsURL', String(value), origin];
}

/**
 * Reads a tool's `receipts` (the manifest's, carried onto each tool): an object with `header` (a
 * field name), `jwks` and, when given, `verify` (absolute URLs on the page's origin: the runtime
 * fetches keys only from the site it calls).
 * @param origin the page's origin, e.g. `https://shop.example`
 * @returns the receipts, or undefined after pushing every reason onto `reasons` (fields
 *   `receipts`, `receipts.header`, `receipts.jwks`, `receipts.verify`). Never throws.
 * @example readReceipts({ header: 'AgentGate-Receipt', jwks: 'https://shop.example/.well-known/agentgate-keys.json' }, 'https://shop.example', [])
 *   // → { header: 'AgentGate-Receipt', jwks: 'https://shop.example/.well-known/agentgate-keys.json' }
 */
export function readReceipts(raw: unknown, origin: string, reasons: Reason[]): AgentGateReceipts | undefined {
  if (!isPlainObject(raw)) {
    reasons.push(['receipts', 'receiptsObject']);
    return undefined;
  }
  const before = reasons.length;
  if (typeof raw.header !== 'string' || !FIELD_NAME.test(raw.header)) reasons.push(['receipts.header', 'receiptsHeader', raw.header]);
  const jwks = sameOriginURL('receipts.jwks', raw.jwks, origin);
  if (jwks) reasons.push(jwks);
  const verify = raw.verify === undefined ? undefined : sameOriginURL('receipts.verify', raw.verify, origin);
  if (verify) reasons.push(verify);
  if (reasons.length > before) return undefined;
  const receipts: AgentGateReceipts = { header: raw.header as string, jwks: raw.jwks as string };
  if (typeof raw.verify === 'string') receipts.verify = raw.verify;
  return receipts;
}
