import { serializeDictionary } from 'structured-headers';

/**
 * The `Content-Digest` field value (RFC 9530 §2) of exactly these body bytes with sha-256, as a
 * Structured Fields dictionary: `sha-256=:<base64>:`. The digest is of the bytes sent, so the
 * caller hands over the encoded body (for JSON, the UTF-8 bytes of the very string sent).
 * @param body the message content; empty for no content
 * @returns e.g. `sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:` for `{"hello": "world"}`
 */
export async function contentDigest(body: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new Uint8Array(body));
  return serializeDictionary({ 'sha-256': new Uint8Array(digest) });
}
