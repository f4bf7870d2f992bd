/**
 * The Capell source's row: the tools islands (start/read-islands.ts reads them, at start-up too,
 * for the audit), normalised by Core's rules.
 */
import { checkCapellDeclarationLazily, ShapeMemo } from '../../shared/declarations/check-declaration.js';
import { readIslands, TOOLS_ISLAND_SELECTOR } from '../../start/read-islands.js';
import type { ToolSource } from './source.js';

/**
 * The Capell tools islands as a source: every island in document order is one unit, owned by its
 * `<script>` element; a declaration is normalised by Core's rules (`checkCapellDeclarationLazily`:
 * synchronous unless a schema has a `$ref`; only then are the `$ref` graph checks loaded), each
 * shape once per page (ShapeMemo: the registry loads a source's rules once).
 */
export const capellIslands: ToolSource = {
  kind: 'capell-island',
  selector: TOOLS_ISLAND_SELECTOR,
  read: (root) => readIslands(root),
  normaliser: async () => {
    const memo = new ShapeMemo();
    return (declaration, context) => checkCapellDeclarationLazily(declaration, context, memo);
  },
};
