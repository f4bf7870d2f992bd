/**
 * Lazy chunks fetched in one round trip (no waterfall): a chunk loaded by `import()` often imports
 * other chunks statically (the call chunk imports the registry's). The browser discovers those
 * only once the chunk has arrived and been parsed, one round trip after another. This plugin
 * rewrites each `import('./x.js')` of a built chunk into one that starts, at the same moment, the
 * `import()` of every chunk `x.js` needs statically and its importer does not already hold:
 * `Promise.all([import('./x.js'), import('./y.js')]).then((modules) => modules[0])`.
 * A module is fetched and evaluated once per URL, so the extra `import()` only moves its fetch
 * earlier; evaluation order is still the module graph's. The module namespace of `x.js` is what
 * the expression resolves to, as before; a failed fetch of any of them rejects it, as the static
 * import would have. No `<link rel="modulepreload">` is written into the page (Vite's own preload
 * helper does that, and is off in library mode).
 */
import { posix } from 'node:path';
import { RolldownMagicString } from 'rolldown';
import { Visitor } from 'rolldown/utils';
import type { Plugin } from 'vite';
import { isBundlerRuntimeChunk } from './vite.bundler-runtime.ts';

interface ChunkGraphNode {
  fileName: string;
  imports: readonly string[];
  moduleIds: readonly string[];
}

/** Every file `fileName` imports statically, transitively, itself excluded. */
function staticClosure(fileName: string, chunks: Record<string, ChunkGraphNode>, seen = new Set<string>()): Set<string> {
  for (const imported of chunks[fileName]?.imports ?? []) {
    if (seen.has(imported) || imported === fileName) continue;
    seen.add(imported);
    staticClosure(imported, chunks, seen);
  }
  return seen;
}

/** `to` as a specifier relative to the folder of `from` (both paths from the output root). */
function relativeSpecifier(from: string, to: string): string {
  const path = posix.relative(posix.dirname(from), to);
  return path.startsWith('../') ? path : `./${path}`;
}

/** The plugin (module builds only: `output.format` 'es'). */
export function fetchChunkImportsTogether(): Plugin {
  return {
    name: 'capell-fetch-chunk-imports-together',
    renderChunk(code, chunk, _options, meta) {
      const chunks = meta.chunks as Record<string, ChunkGraphNode>;
      const held = staticClosure(chunk.fileName, chunks);
      held.add(chunk.fileName);
      const edits: { start: number; end: number; text: string }[] = [];
      // The chunk as Rolldown's own parser reads it: every `import('./x.js')` with a literal specifier.
      new Visitor({
        ImportExpression(node) {
          if (node.source.type !== 'Literal' || typeof node.source.value !== 'string' || node.options) return;
          const target = posix.join(posix.dirname(chunk.fileName), node.source.value);
          if (!chunks[target]) return;
          // The bundler's helpers are copied into each chunk that uses them (vite.bundler-runtime.ts).
          const needed = [...staticClosure(target, chunks)].filter((file) => !held.has(file) && file !== target && !isBundlerRuntimeChunk(chunks[file]));
          if (needed.length === 0) return;
          const imports = [code.slice(node.start, node.end), ...needed.map((file) => `import(${JSON.stringify(relativeSpecifier(chunk.fileName, file))})`)];
          edits.push({ start: node.start, end: node.end, text: `Promise.all([${imports.join(', ')}]).then((modules) => modules[0])` });
        },
      }).visit(this.parse(code));
      if (edits.length === 0) return null;
      const edited = new RolldownMagicString(code);
      for (const edit of edits) edited.overwrite(edit.start, edit.end, edit.text);
      // Character-level, so every position still maps to src/ through the chunk's own map.
      const map = edited.generateMap({ hires: true, source: chunk.fileName });
      return { code: edited.toString(), map: { version: 3, sources: map.sources, names: map.names, mappings: map.mappings } };
    },
  };
}
