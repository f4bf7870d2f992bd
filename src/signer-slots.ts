/**
 * Who signs AgentGate calls: one signer per kind of `auth` a tool may declare. The key belongs to
 * the agent, not the page (AgentGate declared tools, "Call a tool"), so the runtime only holds
 * what `start({ signer })` or `window.capellWebMCP.setSigner(signer)` gave it. Start-up code: it
 * checks a signer's shape and never loads the signing modules.
 */
import type { Signer } from './agentgate/signer.js';

/** The kinds of AgentGate `auth`: `web-bot-auth` (Ed25519 with a Signature-Agent) or `shared-key` (HMAC). */
export type AuthType = 'web-bot-auth' | 'shared-key';

/** The auth kind a signer can satisfy: `ed25519` → `web-bot-auth`, `hmac-sha256` → `shared-key`. */
const AUTH_OF_ALG = { ed25519: 'web-bot-auth', 'hmac-sha256': 'shared-key' } as const satisfies Record<Signer['alg'], AuthType>;

/**
 * What is wrong with a value given as a signer, or undefined for a usable one: `label` a
 * Structured Fields key (`^[a-z*][a-z0-9_.*-]*$`), `keyid` a non-empty string, `alg` `ed25519` or
 * `hmac-sha256`, `sign` a function; an Ed25519 signer needs `signatureAgent` (the http(s) origin
 * of its key directory, Web Bot Auth), an HMAC one must not carry it.
 */
export function signerProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'not a signer { label, keyid, alg, sign, signatureAgent? }';
  const signer = value as Partial<Record<keyof Signer, unknown>>;
  if (typeof signer.label !== 'string' || !/^[a-z*][a-z0-9_.*-]*$/.test(signer.label)) return 'label must be a key such as "sig1"';
  if (typeof signer.keyid !== 'string' || signer.keyid === '') return 'keyid must be a non-empty string';
  if (signer.alg !== 'ed25519' && signer.alg !== 'hmac-sha256') return 'alg must be "ed25519" or "hmac-sha256"';
  if (typeof signer.sign !== 'function') return 'sign must be a function';
  if (signer.alg === 'hmac-sha256') return signer.signatureAgent === undefined ? undefined : 'an hmac-sha256 signer has no signatureAgent';
  let agent: URL | undefined;
  try {
    agent = typeof signer.signatureAgent === 'string' ? new URL(signer.signatureAgent) : undefined;
  } catch {
    agent = undefined;
  }
  if (!agent || !['http:', 'https:'].includes(agent.protocol)) return 'an ed25519 signer needs signatureAgent, the http(s) origin of its key directory';
  return undefined;
}

/** The signers a runtime holds, one per auth kind; a later one of the same kind replaces the earlier. */
export class SignerSlots {
  readonly #slots = new Map<AuthType, Signer>();

  /**
   * Keeps `value` as the signer of its kind.
   * @param given how the caller names it in an error, e.g. `option "signer"` or `setSigner`.
   * @returns the auth kind it signs for.
   * @throws TypeError naming `given` and what is wrong (misuse of the API).
   */
  set(value: unknown, given: string): AuthType {
    const problem = signerProblem(value);
    if (problem) throw new TypeError(`capell-webmcp: ${given}: ${problem}`);
    const signer = value as Signer;
    const kind = AUTH_OF_ALG[signer.alg];
    this.#slots.set(kind, signer);
    return kind;
  }

  /** The signer for an auth kind, or undefined while none was given. */
  get(kind: AuthType): Signer | undefined {
    return this.#slots.get(kind);
  }
}
