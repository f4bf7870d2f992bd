/**
 * The runtime's own paging input. Core's paginated reads answer with Laravel's paginator links
 * (`links.next`, `links.previous`: absolute URLs or null), whose query parameters a tool's
 * `inputSchema` may not have (`site.search` declares only `q`; its `links.next` is
 * `?q=boots&page=2`). Every read of a binding type whose row says `pagesByLinks`
 * (shared/bindings/registry.ts) therefore accepts an optional `cursor`: a link an earlier answer
 * of the same tool handed out, given alone (call/reads/page-links.ts follows it). Added at
 * normalisation, so the CLI, the inspector and `getTools()` show the same schema.
 */
import type { JSONSchema } from './tool-spec.js';

/** The input key of the runtime's paging link. */
export const CURSOR_INPUT = 'cursor';

/** Longest `cursor`, in UTF-16 code units (a URL; Core's links are well under it). */
export const MAX_CURSOR_LENGTH = 2048;

/** The `cursor` input's schema. */
export const CURSOR_SCHEMA: JSONSchema = Object.freeze({
  type: 'string',
  minLength: 1,
  maxLength: MAX_CURSOR_LENGTH,
  description: 'links.next or links.previous of an earlier answer of this tool, given alone, to read that page.',
});

/** What the runtime appends to a paged tool's description, so the agent knows how to page. */
export const CURSOR_HINT = 'Answers carry links.next and links.previous: to read another page, call again with only cursor set to one of them.';
