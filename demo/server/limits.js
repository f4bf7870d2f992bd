/**
 * The bounds the demo's request validators enforce, shared by the tools manifest (so the
 * declared input schemas say the same) and the API.
 */

/** Longest return path a form accepts, in code points. */
export const MAX_URL_LENGTH = 2048;

/** Shape of a product SKU, e.g. `CW-1001`. */
export const SKU_PATTERN = '^[A-Z]{2}-[0-9]{4}$';

