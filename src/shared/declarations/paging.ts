/**
 * The runtime's own paging input. Core's paginated reads answer with Laravel's paginator links
 * (`links.next`, `links.previous`: absolute URLs or null), whose query parameters a tool's
 * `inputSchema` may not have (`site.search` declares only `q`; its `links.next` is
 * `/?q=boots&page=2`). Every read of a binding type whose row says `pagesByLinks`
 * (shared/bindings/registry.ts) therefore accepts an optional `cursor`: a link an earlier answer
 * of the same tool handed out (call/reads/page-links.ts follows it), given alone or with the same
 * input as the call that answered it (an agent's usual way to page: the declared `required`
 * stays as Core wrote it). Added at normalisation, so the CLI, the inspector and `getTools()`
 * show the same schema.
 */
import type { JSONSchema } from './tool-spec.js';

/** The input key of the runtime's paging link. */
export const CURSOR_INPUT = 'cursor';

/** Longest `cursor`, in UTF-16 code units: a link of Core's with ten filters of eight operators fits; servers refuse longer URLs anyway. */
export const MAX_CURSOR_LENGTH = 8192;

/** The `cursor` input's schema. */
export const CURSOR_SCHEMA: JSONSchema = Object.freeze({
  type: 'string',
  minLength: 1,
  maxLength: MAX_CURSOR_LENGTH,
  description: 'links.next or links.previous of an earlier answer of this tool: reads that page.',
});

/** What the runtime appends to a paged tool's description, so the agent knows how to page. */
export const CURSOR_HINT = 'To read another page, call again with cursor set to links.next or links.previous (alone, or with the same input).';

/**
 * What a call that gives `cursor` alone is validated against, instead of the declared
 * `inputSchema` (whose `required`, e.g. `q`, the link's query already carries). A call that gives
 * `cursor` with other inputs is validated against the declared schema, as any call.
 */
export const CURSOR_ONLY_SCHEMA: JSONSchema = Object.freeze({
  type: 'object',
  properties: Object.freeze({ [CURSOR_INPUT]: CURSOR_SCHEMA }),
  required: Object.freeze([CURSOR_INPUT]),
  additionalProperties: false,
});
