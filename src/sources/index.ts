/**
 * The sources table: every contract the runtime reads tools from, in order of precedence. The
 * runtime and the CLI iterate it; a tool name declared by two sources is registered from the
 * first row that declares it (registration-rules.ts). Adding a source is one module and one row.
 */
import { capellIslands } from './capell-islands.js';
import type { ToolSource } from './source.js';

export type { Normalise, SourceUnit, ToolSource } from './source.js';

/** The sources, first row first. */
export const SOURCES: readonly ToolSource[] = [capellIslands];
