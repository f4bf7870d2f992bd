/**
 * The bounds the demo's request validators enforce, shared by the tools manifest (so the
 * declared input schemas say the same) and the API.
 */

/** Page size when a list request has no `limit`, in items. */
export const DEFAULT_LIMIT = 10;

/** Largest `limit` a list request may ask for, in items. */
export const MAX_LIMIT = 50;

/** Longest search query `q`, in code points (as JSON Schema `maxLength` counts). */
export const MAX_QUERY_LENGTH = 200;

/** Longest `url` accepted by the pages endpoint, in code points. */
export const MAX_URL_LENGTH = 2048;

/** Shape of a term slug. */
export const TERM_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

/** Shape of a product SKU, e.g. `CW-1001`. */
export const SKU_PATTERN = '^[A-Z]{2}-[0-9]{4}$';

/** Longest excerpt in search results, in characters. */
export const EXCERPT_LENGTH = 160;
