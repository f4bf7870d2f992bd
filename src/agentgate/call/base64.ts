/**
 * Base64 (RFC 4648 §4) and base64url (§5, unpadded) for byte arrays, without Node's Buffer so
 * the same code runs in the browser and in Node.
 */

/**
 * Bytes as standard base64 with padding, e.g. for an RFC 9651 Byte Sequence.
 * @param bytes any byte array
 * @returns the base64 text (`+`, `/`, `=` padding)
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Bytes as base64url without padding (RFC 7515 §2), the form of JWK members and thumbprints.
 * @param bytes any byte array
 * @returns the base64url text (`-`, `_`, no `=`)
 */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Standard or url-safe base64, padded or not, back to bytes.
 * @param text base64 or base64url
 * @returns the decoded bytes
 * @throws DOMException (`InvalidCharacterError`) when the text is not base64
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
