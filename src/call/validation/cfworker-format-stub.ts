/**
 * Stands in for @cfworker/json-schema's own `format.js` in the browser builds (vite.formats.ts):
 * the same exported, mutable `format` table, empty, so the validator's backtracking regular
 * expressions are not shipped. validation.ts fills it with LINEAR_FORMATS before first use.
 */
export const format: Record<string, (input: string) => boolean> = {};
