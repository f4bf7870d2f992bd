/**
 * DEMO KEYS, PUBLISHED ON PURPOSE. They let the demo agent sign and the demo site verify on a
 * developer's machine; anyone can read them here, so nothing may ever trust them outside the demo.
 */

/**
 * The demo agent's Ed25519 key (RFC 8037 JWK), DEMO ONLY: its public half is served by the demo
 * agent's key set; the private half is what the demo agent program (demo/agent.js) signs with,
 * from Node: it is never served to a page.
 */
export const DEMO_AGENT_PRIVATE_JWK = Object.freeze({
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'iyun6UfFVr-uNgxe9PdIuTjjha9nYQUdZIwCx0j8uIU',
  d: 'ZfXuRMlYPId-KDD-DL6AohPHBQ2pDxyjy6_ntFBZEBk',
});

/** The public half of DEMO_AGENT_PRIVATE_JWK, as published in the directory. */
export const DEMO_AGENT_PUBLIC_JWK = Object.freeze({ kty: 'OKP', crv: 'Ed25519', x: DEMO_AGENT_PRIVATE_JWK.x });

/**
 * The shared key the demo site issued to the demo agent for its `shared-key` tool (RFC 9421
 * `hmac-sha256`), DEMO ONLY: `keyid` is the id the agent signs with, `secret` the base64 key.
 */
export const DEMO_SHARED_KEY = Object.freeze({
  keyid: 'demo-shared-key-1',
  secret: 'sJueuAPrQP+FV5WsiWYy1r1gn1U6n5eKZjf99q7HpdA=',
});
