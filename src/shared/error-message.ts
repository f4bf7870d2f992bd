/**
 * The text of a thrown or rejected value, for a one-line reason: an Error's `message` (or any
 * object's, so an error from another realm or a DOMException reads the same), else the value
 * itself as text (`String(value)`: a thrown string as written, `undefined`, `null`).
 * @example `could not load (${errorMessage(error)})` → `could not load (Failed to fetch)`
 */
export function errorMessage(error: unknown): string {
  return String((error as { message?: unknown } | null | undefined)?.message ?? error);
}
