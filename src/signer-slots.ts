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
 * Structured Fields key (`^[a-z*][a-z0-9_.*-]*$`), `keyid` a non-empty string, `sign` a function,
 * `alg` `ed25519` with `signatureAgent` (the http(s) origin of its key directory, Web Bot Auth)
 * or `hmac-sha256` without one.
 */
export function signerProblem(value: unknown): string | undefined {
  const signer = (typeof value === 'object' && value !== null ? value : {}) as Partial<Record<keyof Signer, unknown>>;
  const agent = signer.signatureAgent;
  const usable = typeof signer.label === 'string' && /^[a-z*][a-z0-9_.*-]*$/.test(signer.label)
    && typeof signer.keyid === 'string' && signer.keyid !== '' && typeof signer.sign === 'function'
    && (signer.alg === 'ed25519' ? typeof agent === 'string' && /^https?:\/\/[^/]/.test(agent) : signer.alg === 'hmac-sha256' && agent === undefined);
  return usable ? undefined : 'not a signer { label: "sig1", keyid, sign(bytes), alg: "ed25519" with signatureAgent (http(s) origin) or "hmac-sha256" without }';
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
