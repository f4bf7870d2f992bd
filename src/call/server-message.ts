/**
 * The server's own words in an error answer, quoted by reads and writes alike (neutral: no read
 * module may import a write module).
 */
import { isPlainObject } from '../shared/is-plain-object.js';

/** Longest server message quoted in a reason, in characters. */
const MAX_SERVER_MESSAGE_LENGTH = 200;

/**
 * The server's own `message` from a JSON error body (Laravel's shape `{ "message": "…" }`, or the
 * Capell Agent Schema error envelope `{ "error": { "code", "message" } }`), as
 * `": <message>"` cut to MAX_SERVER_MESSAGE_LENGTH characters, or `''` when the body is not JSON
 * or has no string `message` (the status then says enough).
 */
export function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (isPlainObject(parsed) && typeof parsed.message === 'string') return `: ${parsed.message.slice(0, MAX_SERVER_MESSAGE_LENGTH)}`;
    if (isPlainObject(parsed) && isPlainObject(parsed.error) && typeof parsed.error.message === 'string') {
      return `: ${parsed.error.message.slice(0, MAX_SERVER_MESSAGE_LENGTH)}`;
    }
  } catch {
    // Not JSON: the status says enough.
  }
  return '';
}
